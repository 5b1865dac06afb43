// A new user's first run in the real main window, against cardhour-sim with real containers
// (podman), inside a private keychain (run-with-keyring): the connect page, the account page
// (sign up), Home's "Launch" button, the launch dialog (no key yet: it makes and uploads one),
// the host card's Terminal button, and a verified shell that answers. All along, a watch on
// every widget shown proves that no dialog but the launch dialog ever came up.
#include "AccountPageDriver.h"
#include "ConnectPage.h"
#include "EmptyState.h"
#include "GuiTestWindow.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "PodmanApiTest.h"
#include "TerminalTab.h"
#include "TerminalWidget.h"
#include "pages/HomePage.h"
#include "pages/HostCard.h"
#include "session/Session.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

namespace {

// Remembers every dialog (a QDialog: message boxes, file dialogs, ours) that is shown.
class DialogWatch : public QObject
{
public:
    QStringList shown; // "ClassName objectName", in order

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Show) {
            if (auto *dialog = qobject_cast<QDialog *>(watched))
                shown.append(QString::fromLatin1(dialog->metaObject()->className()) + u' '
                             + dialog->objectName());
        }
        return QObject::eventFilter(watched, event);
    }
    QStringList others() const
    {
        QStringList list;
        for (const QString &entry : shown) {
            if (!entry.startsWith(u"cardhour::ui::LaunchDialog "_s))
                list.append(entry);
        }
        return list;
    }
};

} // namespace

class TestFirstRun : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }
    void connectSignUpLaunchTerminalWithOnlyTheLaunchDialog();

private:
    void shoot(QWidget *widget, const QString &name)
    {
        QVERIFY(saveScreenshot(widget, QStringLiteral(CARDHOUR_SCREENSHOT_DIR), name));
    }
};

void TestFirstRun::connectSignUpLaunchTerminalWithOnlyTheLaunchDialog()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    DialogWatch watch;
    qApp->installEventFilter(&watch);

    ui::MainWindow::Options o = isolatedWindowOptions(QDir(m_dir->path()), u"firstrun"_s, 5000);
    ui::MainWindow window(o);
    window.resize(1100, 760);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // ---- the connect page: the provider's address, Connect ----------------------------------
    auto *connect = window.findChild<ui::ConnectPage *>(u"connectPage"_s);
    QVERIFY(connect && connect->isVisible());
    QTest::mouseClick(connect->findChild<QRadioButton *>(u"urlRadio"_s), Qt::LeftButton);
    QTest::keyClicks(connect->findChild<QLineEdit *>(u"urlEdit"_s), sim->baseUrl().toString());
    QTest::mouseClick(connect->findChild<QPushButton *>(u"connectButton"_s), Qt::LeftButton);

    // ---- the account page: sign up ----------------------------------------------------------
    QTRY_VERIFY_WITH_TIMEOUT(shownAccountPage(window), 20000);
    shoot(&window, u"firstrun-account"_s);
    signUpOnPage(shownAccountPage(window), u"newcomer@example.com"_s);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isLoggedIn(), 20000);

    // ---- Home says what to do; its button opens the launch dialog ---------------------------
    ui::EmptyState *empty = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((empty = window.homePage()->emptyState()) && empty->isVisible(),
                             20000);
    QTest::mouseClick(empty->button(), Qt::LeftButton);
    ui::LaunchDialog *launch = nullptr;
    QTRY_VERIFY((launch = window.findChild<ui::LaunchDialog *>(u"launchDialog"_s))
                && launch->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(launch->findChild<QLabel *>(u"noKeysLabel"_s)->isVisible(), 20000);
    QPushButton *go =
        launch->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY_WITH_TIMEOUT(go->isEnabled(), 20000);
    QCOMPARE(launch->request().image, u"base"_s);
    QTest::mouseClick(go, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!window.findChild<ui::LaunchDialog *>(u"launchDialog"_s), 60000);

    // ---- the host runs; its card's Terminal opens a verified shell with the new key -----------
    QTRY_COMPARE_WITH_TIMEOUT(window.instanceModel()->rowCount(), 1, 20000);
    const QString id = window.instanceModel()->instanceAt(0)->id;
    m_instanceIds.append(id);
    QTRY_VERIFY_WITH_TIMEOUT(window.instanceModel()->instanceAt(0)->state
                                 == core::InstanceState::Running,
                             kRunningTimeoutMs);
    window.setCurrentView(ui::MainWindow::View::Home);
    QToolButton *terminal = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (terminal = window.homePage()->findChild<QToolButton *>(u"cardTerminal"_s))
            && terminal->isVisible() && terminal->isEnabled(),
        20000);
    QTest::mouseClick(terminal, Qt::LeftButton);
    QTRY_COMPARE(window.terminalTabs().size(), 1);
    ui::TerminalTab *tab = window.terminalTabs().constFirst();
    QTRY_VERIFY2_WITH_TIMEOUT(tab->isConnected(), qPrintable(tab->statusText()), 60000);
    QTest::keyClicks(tab->terminal(), u"echo first-run-$((6*7))"_s);
    QTest::keyClick(tab->terminal(), Qt::Key_Return);
    const auto screen = [tab] { return tab->terminal()->screen()->screenText(); };
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"\nfirst-run-42"_s), qPrintable(screen()), 15000);
    shoot(&window, u"firstrun-terminal"_s);

    qApp->removeEventFilter(&watch);
    QVERIFY2(watch.shown.join(u'\n').contains(u"LaunchDialog"_s),
             qPrintable(watch.shown.join(u'\n')));
    QVERIFY2(watch.others().isEmpty(), qPrintable(watch.others().join(u'\n')));
}

QTEST_MAIN(TestFirstRun)
#include "tst_firstrun.moc"
