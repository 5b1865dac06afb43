#pragma once

// What the GUI tests of the main window share: the account page (log in / sign up) driven as a
// user would, with the mouse and the keyboard.
#include "MainWindow.h"
#include "pages/AccountPage.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QDebug>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTest>
#include <QUrl>

#include <memory>

namespace cardhour::test {

using namespace Qt::StringLiterals;

inline const QString &testPassword()
{
    static const QString password = u"correct horse battery"_s;
    return password;
}

// The account page when it is on screen, else null.
inline ui::AccountPage *shownAccountPage(ui::MainWindow &window)
{
    ui::AccountPage *page = window.accountPage();
    return page && page->isVisible() ? page : nullptr;
}

// Chooses "create an account" with the mouse once the page is laid out (a page just made
// current has its final geometry only after its pending layout request); true when chosen.
inline bool tickSignUp(ui::AccountPage *page)
{
    auto *signUp = page->findChild<QRadioButton *>(u"signUpRadio"_s);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    if (!signUp->isChecked())
        QTest::mouseClick(signUp, Qt::LeftButton);
    if (!signUp->isChecked())
        qWarning() << "sign-up not chosen by a click at" << signUp->rect().center() << "of"
                   << signUp->geometry() << "enabled" << signUp->isEnabled() << "under the mouse:"
                   << page->window()->childAt(
                          signUp->mapTo(page->window(), signUp->rect().center()));
    return signUp->isChecked();
}

// Fills the page in sign-up mode with `email` and the test password twice (empty fields
// only: a remembered e-mail address stays) and presses Enter in the last field.
inline void signUpOnPage(ui::AccountPage *page, const QString &email)
{
    QVERIFY(tickSignUp(page));
    auto *emailEdit = page->findChild<QLineEdit *>(u"emailEdit"_s);
    if (emailEdit->text().isEmpty())
        QTest::keyClicks(emailEdit, email);
    QTest::keyClicks(page->findChild<QLineEdit *>(u"passwordEdit"_s), testPassword());
    auto *confirm = page->findChild<QLineEdit *>(u"confirmEdit"_s);
    QTest::keyClicks(confirm, testPassword());
    QTest::keyClick(confirm, Qt::Key_Return);
}

// Waits for the account page, signs up `email` on it and waits for the log-in; false (with
// the reason in `why`) when any step does not happen in time.
inline bool signUpThroughPage(ui::MainWindow &window, const QString &email, QString *why)
{
    if (!QTest::qWaitFor([&] { return shownAccountPage(window) != nullptr; }, 30000)) {
        *why = u"the account page was not shown"_s;
        return false;
    }
    signUpOnPage(shownAccountPage(window), email);
    if (!QTest::qWaitFor([&] { return window.session()->isLoggedIn(); }, 20000)) {
        *why = u"not logged in after signing up: %1"_s.arg(
            window.accountPage()->findChild<QLabel *>(u"errorLabel"_s)->text());
        return false;
    }
    return true;
}

// A main window shown at `size`, its keychain service named per test (`tag`), known_hosts and
// keys in `dir`, quick reconnects and no sandbox attach, connected to `url` and signed up as
// `email` through the account page; null (with the reason in `why`) when a step fails.
inline std::unique_ptr<ui::MainWindow> signedUpWindow(const QUrl &url, const QDir &dir,
                                                      const QString &tag, const QString &email,
                                                      QSize size, QString *why)
{
    ui::MainWindow::Options o;
    o.keychainService = u"CardHourTest-%1-%2"_s.arg(tag).arg(QCoreApplication::applicationPid());
    o.keychainTimeoutMs = 3000;
    o.knownHostsFile = dir.filePath(u"known_hosts"_s);
    o.sshKeyFolder = dir.filePath(u"ssh"_s);
    o.reconnectMinMs = 100;
    o.reconnectMaxMs = 500;
    o.sandboxAttach = false;
    auto window = std::make_unique<ui::MainWindow>(o);
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) {
        *why = u"the window was never shown"_s;
        return {};
    }
    window->connectToUrl(url);
    if (!signUpThroughPage(*window, email, why))
        return {};
    return window;
}

} // namespace cardhour::test
