// A new user's first run in the real main window, against cardhour-sim with real containers
// (podman), inside a private keychain (run-with-keyring): the connect page, the account page
// (sign up), Home's "Launch" button, the launch dialog (no key yet: it makes and uploads one),
// the host card's Terminal button, and a verified shell that answers. All along, a watch on
// every widget shown proves that no dialog but the launch dialog ever came up. Then SSH outside
// the app: the copied command and the ~/.ssh/config block work with OpenSSH in BatchMode once
// the window has put the key (its passphrase in the keychain only) into an ssh-agent; without
// an agent a dialog says so and offers the passphrase. An app opened where no browser starts
// says so and shows its address (never "opened"). Last, log-out closes the shell's tab.
#include "AccountPageDriver.h"
#include "ConnectPage.h"
#include "EmptyState.h"
#include "GuiTestWindow.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "PodmanApiTest.h"
#include "SshActions.h"
#include "TerminalTab.h"
#include "TerminalWidget.h"
#include "pages/HomePage.h"
#include "pages/HostCard.h"
#include "session/SecretStore.h"
#include "session/Session.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshKeyStore.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>

#include <memory>

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
    void cleanupTestCase()
    {
        m_window.reset(); // closes the shell before the container goes
        cleanupPodmanTest();
    }
    void connectSignUpLaunchTerminalWithOnlyTheLaunchDialog();
    void sshOutsideTheAppWithoutAnAgent();
    void sshOutsideTheAppThroughTheAgent();
    void appWithoutABrowserShowsItsAddress();
    void logOutClosesTheShell();

private:
    // OpenSSH's `program` with `arguments`: exit code 0 and `expected` in what it printed.
    static bool runs(const QString &program, const QStringList &arguments,
                     const QByteArray &expected, QString *said);
    const core::Instance *instance() const
    {
        return m_window ? m_window->instanceModel()->instance(m_instanceId) : nullptr;
    }
    void trigger(const QString &actionName);

    std::unique_ptr<ui::MainWindow> m_window;
    QString m_instanceId;
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
    m_window = std::make_unique<ui::MainWindow>(o);
    ui::MainWindow &window = *m_window;
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
    m_instanceId = id;
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

bool TestFirstRun::runs(const QString &program, const QStringList &arguments,
                        const QByteArray &expected, QString *said)
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    const bool finished = process.waitForFinished(60000);
    const QByteArray out = process.readAllStandardOutput();
    *said = u"%1 %2: exit %3, out: %4, err: %5"_s.arg(
        program, arguments.join(u' '), QString::number(process.exitCode()), QString::fromUtf8(out),
        QString::fromUtf8(process.readAllStandardError()));
    return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0
        && out.contains(expected);
}

void TestFirstRun::trigger(const QString &actionName)
{
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    m_window->selectInstance(m_instanceId);
    auto *action = m_window->findChild<QAction *>(actionName);
    QVERIFY(action);
    QTRY_VERIFY(action->isEnabled());
    action->trigger();
}

void TestFirstRun::sshOutsideTheAppWithoutAnAgent()
{
    QVERIFY(instance() && instance()->ssh);
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP(qPrintable(u"no keychain, so the key has no passphrase to hide: %1"_s.arg(
            qEnvironmentVariable("CARDHOUR_KEYRING_REASON"))));
    // The key the launch dialog made has a passphrase, in the keychain only.
    core::SshKeyStore *keys = m_window->sshActions()->keyStore();
    QCOMPARE(keys->keys().size(), 1);
    core::SecretReply *kept = keys->passphrase(keys->keys().constFirst());
    QSignalSpy read(kept, &core::SecretReply::finished);
    QVERIFY(read.wait(10000));
    QVERIFY(kept->ok());
    const QString passphrase = kept->secret();
    QVERIFY(!passphrase.isEmpty());

    qunsetenv("SSH_AUTH_SOCK"); // no agent for this session
    QGuiApplication::clipboard()->clear();
    trigger(u"copySshAction"_s);
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_window->findChild<QMessageBox *>(u"sshAgentProblem"_s))
                                 && box->isVisible(),
                             20000);
    QVERIFY(QGuiApplication::clipboard()->text().startsWith(u"ssh "_s));
    QVERIFY2(box->informativeText().contains(u"ssh-agent"_s), qPrintable(box->informativeText()));
    shoot(box, u"firstrun-ssh-no-agent"_s);
    auto *copy = box->findChild<QPushButton *>(u"copyPassphraseButton"_s);
    QVERIFY(copy);
    QTest::mouseClick(copy, Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), passphrase);
    QTRY_VERIFY(!m_window->findChild<QMessageBox *>(u"sshAgentProblem"_s)
                || !m_window->findChild<QMessageBox *>(u"sshAgentProblem"_s)->isVisible());
}

void TestFirstRun::sshOutsideTheAppThroughTheAgent()
{
    QVERIFY(instance() && instance()->ssh);
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP(qPrintable(u"no keychain, so the key has no passphrase to hide: %1"_s.arg(
            qEnvironmentVariable("CARDHOUR_KEYRING_REASON"))));
    // The user's own agent, as a desktop session runs one.
    QTemporaryDir agentFolder;
    QVERIFY(agentFolder.isValid());
    const QString socket = agentFolder.filePath(u"agent.sock"_s);
    QProcess agent;
    agent.start(u"ssh-agent"_s, {u"-D"_s, u"-a"_s, socket});
    QVERIFY2(agent.waitForStarted(10000), qPrintable(agent.errorString()));
    QTRY_VERIFY(QFileInfo::exists(socket));
    qputenv("SSH_AUTH_SOCK", socket.toLocal8Bit());
    const auto stopAgent = qScopeGuard([&agent] {
        qunsetenv("SSH_AUTH_SOCK");
        agent.kill();
        agent.waitForFinished(5000);
    });

    // Copy SSH command: the command on the clipboard, the key in the agent.
    QSignalSpy messages(m_window->sshActions(), &ui::SshActions::message);
    trigger(u"copySshAction"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 20000);
    QString outcome;

    // OpenSSH in a terminal, allowed to ask nothing (BatchMode), logs in with the copied line.
    QStringList arguments = QProcess::splitCommand(QGuiApplication::clipboard()->text());
    QCOMPARE(arguments.value(0), u"ssh"_s);
    arguments.removeFirst();
    arguments << u"-o"_s << u"BatchMode=yes"_s << u"echo outside-$((6*7))"_s;
    QVERIFY2(runs(u"ssh"_s, arguments, "outside-42", &outcome), qPrintable(outcome));
    // Because the agent has the key, and the window said so.
    const QString fingerprint =
        m_window->sshActions()->keyStore()->keys().constFirst().fingerprintSha256();
    QVERIFY2(runs(u"ssh-add"_s, {u"-l"_s, u"-E"_s, u"sha256"_s}, fingerprint.toUtf8(), &outcome),
             qPrintable(outcome));
    const QString said = messages.constLast().at(0).toString();
    QVERIFY2(!messages.constLast().at(1).toBool() && said.contains(u"ssh-agent"_s),
             qPrintable(said));

    // The ~/.ssh/config block: `ssh cardhour-NAME` the same.
    messages.clear();
    trigger(u"sshConfigAction"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 20000);
    QVERIFY2(!messages.constLast().at(1).toBool(),
             qPrintable(messages.constLast().at(0).toString()));
    const QString alias = core::SshConfigWriter::hostAlias(instance()->name);
    QVERIFY2(runs(u"ssh"_s,
                  {u"-F"_s, m_window->sshActions()->sshConfigPath(), u"-o"_s, u"BatchMode=yes"_s,
                   alias, u"echo config-$((6*7))"_s},
                  "config-42", &outcome),
             qPrintable(outcome));
}

// Stands for the desktop's URL service: QDesktopServices answers true once it has handed the
// page on (xdg-open started), whether or not a browser then took it.
class DesktopOpener : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> handed;
public Q_SLOTS:
    void open(const QUrl &page) { handed.append(page); }
};

void TestFirstRun::appWithoutABrowserShowsItsAddress()
{
    QVERIFY(instance() && instance()->ssh);
    QCOMPARE(m_window->terminalTabs().size(), 1);
    ui::TerminalTab *tab = m_window->terminalTabs().constFirst();
    QTRY_VERIFY_WITH_TIMEOUT(tab->isConnected(), 30000);
    // A web app in the box, on a port of its own.
    QTest::keyClicks(tab->terminal(),
                     u"(cd /workspace && python3 -m http.server 8898 >/dev/null 2>&1 &)"_s);
    QTest::keyClick(tab->terminal(), Qt::Key_Return);

    // This computer has xdg-open, and no browser for it to start (as on a bare server).
    QTemporaryDir bin;
    QVERIFY(bin.isValid());
    QFile xdgOpen(bin.filePath(u"xdg-open"_s));
    QVERIFY(xdgOpen.open(QIODevice::WriteOnly));
    xdgOpen.write(
        "#!/bin/sh\necho \"xdg-open: no method available for opening '$1'\" >&2\nexit 3\n");
    xdgOpen.close();
    QVERIFY(xdgOpen.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", bin.path().toLocal8Bit() + ':' + path);
    DesktopOpener desktop;
    QDesktopServices::setUrlHandler(u"file"_s, &desktop, "open");
    const auto restore = qScopeGuard([path] {
        qputenv("PATH", path);
        QDesktopServices::unsetUrlHandler(u"file"_s);
    });

    ui::SshActions *ssh = m_window->sshActions();
    QSignalSpy messages(ssh, &ui::SshActions::message);
    QSignalSpy opened(ssh, &ui::SshActions::appOpened);
    core::InstanceApp app;
    app.name = u"files"_s;
    app.port = 8898;
    ssh->openApp(*instance(), app);
    const auto said = [&messages] {
        QStringList lines;
        for (const QList<QVariant> &m : std::as_const(messages))
            lines << m.at(0).toString();
        return lines;
    };
    // Said once the forward is up, then once xdg-open has answered (the window live meanwhile).
    QTRY_VERIFY_WITH_TIMEOUT(!said().filter(u"No browser opened for files"_s).isEmpty(), 30000);
    QVERIFY2(said().filter(u"opened in the browser"_s).isEmpty(), qPrintable(said().join(u'\n')));
    QVERIFY2(!said().filter(u"Opening files in the browser"_s).isEmpty(),
             qPrintable(said().join(u'\n')));
    QVERIFY(opened.isEmpty());
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = m_window->findChild<QMessageBox *>(u"appAddressDialog"_s))
                                 && box->isVisible(),
                             30000);
    const quint16 port = ssh->forwardedPort(m_instanceId, 8898);
    QVERIFY(port != 0);
    QVERIFY2(box->informativeText().startsWith(u"http://127.0.0.1:%1"_s.arg(port)),
             qPrintable(box->informativeText()));
    shoot(box, u"firstrun-app-no-browser"_s);
    QTest::mouseClick(box->findChild<QPushButton *>(u"copyAddressButton"_s), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), box->informativeText());
}

void TestFirstRun::logOutClosesTheShell()
{
    QVERIFY(m_window);
    QCOMPARE(m_window->terminalTabs().size(), 1);
    QPointer<ui::TerminalTab> tab = m_window->terminalTabs().constFirst();
    QVERIFY(tab->terminal()->screen()->screenText().contains(u"first-run-42"_s));
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    auto *logOut = m_window->findChild<QAction *>(u"logOutAction"_s);
    QVERIFY(logOut && logOut->isEnabled());
    logOut->trigger();
    QTRY_VERIFY(!m_window->session()->isLoggedIn());
    QCOMPARE(m_window->terminalTabs().size(), 0);
    QTRY_VERIFY(tab.isNull()); // the tab, its screen and scrollback and its connection are gone

    // The next user on this computer finds no shell of the first.
    ui::AccountPage *account = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((account = shownAccountPage(*m_window)), 20000);
    account->findChild<QLineEdit *>(u"emailEdit"_s)->clear(); // the last address is kept
    signUpOnPage(account, u"second@example.com"_s);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isLoggedIn(), 20000);
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    QCOMPARE(m_window->terminalTabs().size(), 0);
    shoot(m_window.get(), u"firstrun-after-log-out"_s);
}

QTEST_MAIN(TestFirstRun)
#include "tst_firstrun.moc"
