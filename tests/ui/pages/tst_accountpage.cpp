// AccountPage: the fields are checked as they are typed (a new account's password twice alike),
// Enter submits, the page waits busy for the provider and shows its refusal, focus goes to the
// first empty field, and every control has an accessible name.
#include "pages/AccountPage.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::ui::AccountPage;

class TestAccountPage : public QObject
{
    Q_OBJECT

    static QLineEdit *edit(AccountPage &page, const QString &name)
    {
        return page.findChild<QLineEdit *>(name);
    }
    static QPushButton *submitButton(AccountPage &page)
    {
        return page.findChild<QPushButton *>(u"submitButton"_s);
    }

private Q_SLOTS:
    void validation_data()
    {
        QTest::addColumn<QString>("email");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("confirm");
        QTest::addColumn<bool>("signUp");
        QTest::addColumn<bool>("submitEnabled");
        QTest::addColumn<bool>("hint");
        QTest::newRow("empty") << QString() << QString() << QString() << false << false << false;
        QTest::newRow("log in") << u"a@example.com"_s << u"x"_s << QString() << false << true
                                << false;
        QTest::newRow("not an address")
            << u"a@b"_s << u"long enough"_s << QString() << false << false << true;
        QTest::newRow("short password for sign-up")
            << u"a@example.com"_s << u"short"_s << u"short"_s << true << false << true;
        QTest::newRow("sign up, not repeated")
            << u"a@example.com"_s << u"long enough"_s << QString() << true << false << false;
        QTest::newRow("sign up, repeated otherwise")
            << u"a@example.com"_s << u"long enough"_s << u"long enougH"_s << true << false << true;
        QTest::newRow("sign up") << u"a@example.com"_s << u"long enough"_s << u"long enough"_s
                                 << true << true << false;
    }
    void validation()
    {
        QFETCH(QString, email);
        QFETCH(QString, password);
        QFETCH(QString, confirm);
        QFETCH(bool, signUp);
        QFETCH(bool, submitEnabled);
        QFETCH(bool, hint);
        AccountPage page;
        page.show();
        page.setSignUp(signUp);
        QTest::keyClicks(edit(page, u"emailEdit"_s), email);
        QTest::keyClicks(edit(page, u"passwordEdit"_s), password);
        if (signUp)
            QTest::keyClicks(edit(page, u"confirmEdit"_s), confirm);
        QCOMPARE(edit(page, u"confirmEdit"_s)->isVisible(), signUp);
        QCOMPARE(submitButton(page)->isEnabled(), submitEnabled);
        QCOMPARE(!page.findChild<QLabel *>(u"hintLabel"_s)->text().isEmpty(), hint);
        QCOMPARE(submitButton(page)->text(), signUp ? u"Sign up"_s : u"Log in"_s);
    }

    void enterSubmitsWaitsAndShowsTheRefusal()
    {
        AccountPage page;
        page.setSignUp(false);
        page.show();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QSignalSpy submitted(&page, &AccountPage::submitted);
        page.setEmail(u"a@example.com"_s);
        page.focusFirstEmpty();
        QTRY_COMPARE(QApplication::focusWidget(), edit(page, u"passwordEdit"_s));
        QTest::keyClicks(edit(page, u"passwordEdit"_s), u"secret"_s);
        QTest::keyClick(edit(page, u"passwordEdit"_s), Qt::Key_Return);
        QCOMPARE(submitted.size(), 1);
        QCOMPARE(submitted.first().at(0).toString(), u"a@example.com"_s);
        QCOMPARE(submitted.first().at(1).toString(), u"secret"_s);
        QCOMPARE(submitted.first().at(2).toBool(), false);
        // Busy until the provider has answered: nothing can be sent twice.
        QVERIFY(page.isBusy());
        QVERIFY(page.findChild<QProgressBar *>(u"busyBar"_s)->isVisible());
        QVERIFY(!submitButton(page)->isEnabled());
        QVERIFY(!edit(page, u"emailEdit"_s)->isEnabled());
        QTest::keyClick(edit(page, u"passwordEdit"_s), Qt::Key_Return);
        QCOMPARE(submitted.size(), 1);

        page.showError(u"Wrong e-mail address or password."_s);
        QVERIFY(!page.isBusy());
        QVERIFY(!page.findChild<QProgressBar *>(u"busyBar"_s)->isVisible());
        QVERIFY(submitButton(page)->isEnabled());
        auto *error = page.findChild<QLabel *>(u"errorLabel"_s);
        QVERIFY(error->isVisible());
        QCOMPARE(error->text(), u"Wrong e-mail address or password."_s);
        // Nothing typed is lost.
        QCOMPARE(page.email(), u"a@example.com"_s);
        QCOMPARE(page.password(), u"secret"_s);
    }

    void enterOnAnUnfinishedFormGoesToWhatIsMissing()
    {
        AccountPage page;
        page.setSignUp(true);
        page.show();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        QTRY_COMPARE(QApplication::focusWidget(), edit(page, u"emailEdit"_s));
        QSignalSpy submitted(&page, &AccountPage::submitted);
        QTest::keyClicks(edit(page, u"emailEdit"_s), u"new@example.com"_s);
        QTest::keyClick(edit(page, u"emailEdit"_s), Qt::Key_Return);
        QCOMPARE(submitted.size(), 0);
        QCOMPARE(QApplication::focusWidget(), edit(page, u"passwordEdit"_s));
        QTest::keyClicks(edit(page, u"passwordEdit"_s), u"long enough"_s);
        QTest::keyClick(edit(page, u"passwordEdit"_s), Qt::Key_Return);
        QCOMPARE(submitted.size(), 0);
        QCOMPARE(QApplication::focusWidget(), edit(page, u"confirmEdit"_s));
        QTest::keyClicks(edit(page, u"confirmEdit"_s), u"long enough"_s);
        QTest::keyClick(edit(page, u"confirmEdit"_s), Qt::Key_Return);
        QCOMPARE(submitted.size(), 1);
        QCOMPARE(submitted.first().at(2).toBool(), true);
    }

    void noteAndBackButton()
    {
        AccountPage page;
        page.show();
        page.setProviderName(u"http://127.0.0.1:8787"_s);
        QVERIFY(page.findChild<QLabel *>(u"providerLabel"_s)->text().contains(u"127.0.0.1:8787"_s));
        page.setNote(u"Your session has ended. Please log in again."_s);
        QCOMPARE(page.findChild<QLabel *>(u"errorLabel"_s)->text(),
                 u"Your session has ended. Please log in again."_s);
        QSignalSpy back(&page, &AccountPage::backRequested);
        QTest::mouseClick(page.findChild<QPushButton *>(u"backButton"_s), Qt::LeftButton);
        QCOMPARE(back.size(), 1);
        page.setEmail(u"a@example.com"_s);
        QTest::keyClicks(edit(page, u"passwordEdit"_s), u"secret"_s);
        page.clearPasswords();
        QVERIFY(page.password().isEmpty());
    }

    void everyControlHasAnAccessibleName()
    {
        AccountPage page;
        page.setSignUp(true);
        page.show();
        const QList<QWidget *> controls = {edit(page, u"emailEdit"_s),
                                           edit(page, u"passwordEdit"_s),
                                           edit(page, u"confirmEdit"_s),
                                           page.findChild<QRadioButton *>(u"signUpRadio"_s),
                                           page.findChild<QRadioButton *>(u"logInRadio"_s),
                                           submitButton(page),
                                           page.findChild<QPushButton *>(u"backButton"_s),
                                           page.findChild<QProgressBar *>(u"busyBar"_s)};
        for (QWidget *control : controls) {
            QVERIFY(control);
            QVERIFY2(!control->accessibleName().isEmpty(), qPrintable(control->objectName()));
        }
    }
};

QTEST_MAIN(TestAccountPage)
#include "tst_accountpage.moc"
