// The real main window against a real cardhour-sim (in-process runtime: the whole lifecycle and
// billing, no containers): connect, sign up, launch through the dialog, watch it run and the
// balance move, stop, start, terminate, lose the provider and get it back; and the language
// switch; a top-up, the ledger tab, and a token revoked elsewhere (the event stream's 401 asks
// for log-in, which brings the user back to the same view and selection). Each screen checked is
// saved as a PNG under <build>/screenshots.
#include "AccountPageDriver.h"
#include "BillPanel.h"
#include "ConnectPage.h"
#include "ConnectionBanner.h"
#include "CoreTestSupport.h"
#include "EmptyState.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "LedgerModel.h"
#include "LedgerView.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "TopUpDialog.h"
#include "Translations.h"
#include "TrayNotifier.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "pages/HomePage.h"
#include "pages/HostCard.h"
#include "pages/KeysPage.h"
#include "sandbox/SandboxLauncher.h"
#include "session/ClientSession.h"
#include "session/Session.h"
#include "ssh/SshKeyPair.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QToolButton>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanupTestCase();
    void fullLoop();
    void closingWithoutTrayQuitsAndStopsSandbox();
    void everyPageInEveryThemeAndLanguage();
    void accountPageInEveryThemeAndLanguage();
    void sandboxConnectStep();
    void switchesLanguage();
    void expiredTokenReturnsToTheSameView();
    void copySshCommandRefusesTamperedHostKey();

private:
    ui::MainWindow::Options options() const;
    void shoot(QWidget *widget, const QString &name);
    void confirmAction(ui::MainWindow &window, const char *actionName,
                       const QString &expectedPreview);
    QString stateOf(ui::MainWindow &window, const QString &name) const;
    void connectAndSignUp(ui::MainWindow &window, const QString &email);
    void shootLaunchAndNotice(ui::MainWindow &window, const QString &variant);

    SimProcess m_sim;
    quint16 m_port = 0;
    QTemporaryDir m_scratch;
};

namespace {

// A free port, so the provider can be restarted where the client expects it.
quint16 freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

template<typename T>
T *visibleChild(QWidget *root, const QString &name)
{
    const QList<T *> all = root->findChildren<T *>(name);
    for (T *child : all) {
        if (child->isVisible())
            return child;
    }
    return nullptr;
}

} // namespace

void TestMainWindow::initTestCase()
{
    // Settings and the remembered window go to QStandardPaths' test location, not the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_mainwindow"_s);
    QVERIFY(m_scratch.isValid());
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    m_port = freePort();
    QVERIFY(m_port != 0);
    QVERIFY2(m_sim.start({u"--listen"_s, u"127.0.0.1:%1"_s.arg(m_port)}),
             qPrintable(m_sim.lastError()));
    QCOMPARE(m_sim.port(), m_port);
}

void TestMainWindow::init()
{
    QSettings().clear();
}

void TestMainWindow::cleanupTestCase()
{
    m_sim.kill();
    QSettings().clear();
}

ui::MainWindow::Options TestMainWindow::options() const
{
    ui::MainWindow::Options o;
    // A keychain service of this run only, short waits where there is no keychain at all.
    o.keychainService = u"CardHourTest-%1"_s.arg(QCoreApplication::applicationPid());
    o.keychainTimeoutMs = 3000;
    o.knownHostsFile = m_scratch.filePath(u"known_hosts"_s);
    o.sshKeyFolder = m_scratch.filePath(u"ssh"_s);
    o.reconnectMinMs = 100;
    o.reconnectMaxMs = 500;
    o.sandboxExecutable = SimProcess::binaryPath();
    o.sandboxDataDir = m_scratch.filePath(u"sandbox"_s);
    o.sandboxArguments = {u"--runtime"_s, u"inprocess"_s};
    o.sandboxAttach = false;
    return o;
}

void TestMainWindow::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

QString TestMainWindow::stateOf(ui::MainWindow &window, const QString &name) const
{
    ui::InstanceTableModel *model = window.instanceModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->instanceAt(row)->name == name)
            return model->index(row, 0).data(ui::InstanceTableModel::StateRole).toString();
    }
    return u"(absent)"_s;
}

void TestMainWindow::confirmAction(ui::MainWindow &window, const char *actionName,
                                   const QString &expectedPreview)
{
    auto *action = window.findChild<QAction *>(QString::fromLatin1(actionName));
    QVERIFY(action);
    QTRY_VERIFY(action->isEnabled());
    action->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = visibleChild<QMessageBox>(&window, u"confirmDialog"_s)));
    // A short question, one sentence, every consequence behind Show Details.
    QVERIFY2(!box->informativeText().isEmpty() && !box->informativeText().contains(u'\n'),
             qPrintable(box->informativeText()));
    QVERIFY2(box->detailedText().contains(expectedPreview), qPrintable(box->detailedText()));
    shoot(box, u"confirm-"_s + QString::fromLatin1(actionName));
    auto *yes = box->findChild<QPushButton *>(u"confirmButton"_s);
    QVERIFY(yes);
    QTest::mouseClick(yes, Qt::LeftButton);
    QTRY_VERIFY(!visibleChild<QMessageBox>(&window, u"confirmDialog"_s));
}

void TestMainWindow::fullLoop()
{
    ui::MainWindow window(options());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // ---- connect to the provider by URL ------------------------------------------------------
    auto *page = window.findChild<ui::ConnectPage *>(u"connectPage"_s);
    QVERIFY(page && page->isVisible());
    QTest::mouseClick(page->findChild<QRadioButton *>(u"urlRadio"_s), Qt::LeftButton);
    auto *urlEdit = page->findChild<QLineEdit *>(u"urlEdit"_s);
    QVERIFY(urlEdit->isEnabled());
    QTest::keyClicks(urlEdit, m_sim.baseUrl().toString());
    shoot(&window, u"01-connect"_s);
    QTest::mouseClick(page->findChild<QPushButton *>(u"connectButton"_s), Qt::LeftButton);

    // ---- sign up, on the window's own account page (no dialog) --------------------------------
    ui::AccountPage *login = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((login = test::shownAccountPage(window)), 20000);
    auto *ok = login->findChild<QPushButton *>(u"submitButton"_s);
    QTRY_COMPARE(QApplication::focusWidget(), login->findChild<QLineEdit *>(u"emailEdit"_s));
    QTest::keyClicks(login->findChild<QLineEdit *>(u"emailEdit"_s), u"not-an-address"_s);
    QVERIFY(test::tickSignUp(login));
    QVERIFY(!ok->isEnabled()); // inline validation: no round trip for an obvious mistake
    QVERIFY(!login->findChild<QLabel *>(u"hintLabel"_s)->text().isEmpty());
    login->findChild<QLineEdit *>(u"emailEdit"_s)->clear();
    test::signUpOnPage(login, u"gui@example.com"_s); // Enter in the last field submits
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isLoggedIn(), 20000);
    QTRY_VERIFY(!test::shownAccountPage(window));
    QVERIFY(window.findChild<QWidget *>(u"dashboard"_s)->isVisible());
    const QString token = window.session()->token();

    // The balance arrives (10 yuan of trial credit), with two decimals as all money is shown
    // (it once read ¥10.0000), and every time is said to be in the provider's zone.
    auto *bill = window.findChild<ui::BillPanel *>(u"billPanel"_s);
    QTRY_COMPARE(bill->balanceText(), u"¥10.00"_s);
    QCOMPARE(window.findChild<QLabel *>(u"timeZoneLabel"_s)->text(),
             u"Times in Asia/Shanghai (the provider's zone)"_s);
    // This sandbox runs hosts without containers: the window says they have no SSH.
    auto *runtimeNotice = window.findChild<QLabel *>(u"runtimeNotice"_s);
    QTRY_VERIFY(runtimeNotice && runtimeNotice->isVisible());
    QVERIFY2(runtimeNotice->text().contains(u"no SSH"_s), qPrintable(runtimeNotice->text()));
    QVERIFY(runtimeNotice->text().contains(u"--runtime inprocess"_s));

    // ---- the first page: Home, which says what to do with no hosts; so does Instances --------
    QCOMPARE(window.currentView(), ui::MainWindow::View::Home);
    auto *homeEmpty = window.homePage()->emptyState();
    QTRY_VERIFY(homeEmpty->isVisible());
    QVERIFY(homeEmpty->title().contains(u"No hosts"_s));
    QVERIFY(homeEmpty->button()->isVisible());
    shoot(&window, u"home-empty"_s);
    auto *showInstances = window.findChild<QAction *>(u"showInstancesAction"_s);
    QCOMPARE(showInstances->shortcut(), QKeySequence(u"Ctrl+2"_s));
    showInstances->trigger();
    QCOMPARE(window.currentView(), ui::MainWindow::View::Instances);
    auto *instancesEmpty = window.findChild<ui::EmptyState *>(u"instancesEmpty"_s);
    QTRY_VERIFY(instancesEmpty->isVisible());
    QVERIFY(instancesEmpty->button()->isVisible());
    shoot(&window, u"instances-empty"_s);
    // Every page says what it holds when there is nothing yet (each built on first showing).
    window.setCurrentView(ui::MainWindow::View::Snapshots);
    QTRY_VERIFY(window.findChild<QWidget *>(u"emptyPage"_s, Qt::FindChildrenRecursively)
                && window.page(ui::MainWindow::View::Snapshots)
                       ->findChild<QWidget *>(u"emptyPage"_s)
                       ->isVisible());
    shoot(&window, u"snapshots-page-empty"_s);
    window.setCurrentView(ui::MainWindow::View::Storage);
    QTRY_VERIFY(window.page(ui::MainWindow::View::Storage)
                    ->findChild<QWidget *>(u"emptyPage"_s)
                    ->isVisible());
    shoot(&window, u"storage-page-empty"_s);
    window.setCurrentView(ui::MainWindow::View::Keys);
    QTRY_VERIFY(window.keysPage()->isVisible());
    shoot(&window, u"keys-page"_s);
    window.setCurrentView(ui::MainWindow::View::Home);

    // ---- a (simulated) top-up raises the balance shown --------------------------------------
    window.findChild<QAction *>(u"topUpAction"_s)->trigger();
    ui::TopUpDialog *topUp = nullptr;
    QTRY_VERIFY((topUp = visibleChild<ui::TopUpDialog>(&window, u"topUpDialog"_s)));
    QTest::keyClicks(topUp->findChild<QLineEdit *>(u"amountEdit"_s), u"5"_s);
    QTest::mouseClick(topUp->findChild<QPushButton *>(u"topUpButton"_s), Qt::LeftButton);
    QTRY_VERIFY(!visibleChild<ui::TopUpDialog>(&window, u"topUpDialog"_s));
    QTRY_COMPARE(bill->balanceText(), u"¥15.00"_s);

    // A key to install, added through the API (the client has no key manager yet).
    const auto key =
        m_sim.authedPost(token, u"/v1/ssh-keys"_s,
                         {{u"name"_s, u"laptop"_s}, {u"public_key"_s, test::testPublicKey()}});
    QCOMPARE(key.status, 201);

    // ---- launch through the dialog
    // ------------------------------------------------------------------
    window.findChild<QAction *>(u"launchAction"_s)->trigger();
    ui::LaunchDialog *launch = nullptr;
    QTRY_VERIFY((launch = visibleChild<ui::LaunchDialog>(&window, u"launchDialog"_s)));
    auto *gpuList = launch->findChild<QListWidget *>(u"gpuList"_s);
    auto *keyList = launch->findChild<QListWidget *>(u"keyList"_s);
    QTRY_VERIFY(gpuList->count() > 0);
    QTRY_VERIFY(launch->findChild<QListWidget *>(u"imageList"_s)->count() > 0);
    QTRY_COMPARE(keyList->count(), 1);
    QCOMPARE(keyList->item(0)->checkState(), Qt::Checked);
    QVERIFY(launch->findChild<QLabel *>(u"costLabel"_s)->text().contains(u"¥"_s));
    QTest::keyClicks(launch->findChild<QLineEdit *>(u"nameEdit"_s), u"train-1"_s);
    QCOMPARE(launch->request().gpuCount, 1);
    QCOMPARE(launch->request().sshKeyIds.size(), 1);
    shoot(launch, u"03-launch"_s);
    auto *launchButton =
        launch->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QVERIFY(launchButton->isEnabled());
    QTest::mouseClick(launchButton, Qt::LeftButton);
    QTRY_VERIFY(!visibleChild<ui::LaunchDialog>(&window, u"launchDialog"_s));

    // ---- it runs, and the bill moves
    // ------------------------------------------------------------------
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, u"train-1"_s), u"running"_s, 20000);
    window.selectInstance(window.instanceModel()->instanceAt(0)->id);
    QTRY_VERIFY(bill->balanceText() != u"¥10.00"_s);
    // It ticks between provider updates (by the micro-yuan: two decimals move every ~19 s).
    const qint64 before = window.clientSession()->ticker()->balanceMicros();
    QTRY_VERIFY_WITH_TIMEOUT(window.clientSession()->ticker()->balanceMicros() != before, 5000);
    QTRY_VERIFY(bill->balanceText().startsWith(u"¥14."_s));
    QVERIFY(!window.findChild<QLabel *>(u"spendRateLabel"_s)->text().isEmpty());
    // Launch went to the new host on the Instances page; Home shows it as a card with its
    // state, cards and cost; Stop there asks first.
    QCOMPARE(window.currentView(), ui::MainWindow::View::Instances);
    window.setCurrentView(ui::MainWindow::View::Home);
    QTRY_COMPARE(window.homePage()->cards().size(), 1);
    ui::HostCard *card = window.homePage()->cards().first();
    QTRY_VERIFY(card->isVisible());
    QTRY_VERIFY(card->findChild<QLabel *>(u"cardState"_s)->text().contains(u"Running"_s));
    QVERIFY(card->findChild<QLabel *>(u"cardGpu"_s)->text().contains(u"× 1"_s));
    // Less than a fen so far: said so, not ¥0.00.
    QVERIFY2(card->findChild<QLabel *>(u"cardCost"_s)->text().contains(u"¥0.0"_s),
             qPrintable(card->findChild<QLabel *>(u"cardCost"_s)->text()));
    shoot(&window, u"04-running"_s);
    QTest::mouseClick(card->findChild<QToolButton *>(u"cardStop"_s), Qt::LeftButton);
    QMessageBox *askStop = nullptr;
    QTRY_VERIFY((askStop = visibleChild<QMessageBox>(&window, u"confirmDialog"_s)));
    QVERIFY(askStop->text().contains(u"train-1"_s));
    askStop->reject();
    QTRY_VERIFY(!visibleChild<QMessageBox>(&window, u"confirmDialog"_s));
    window.setCurrentView(ui::MainWindow::View::Instances);

    // ---- the tray's runway warning: ~7.9 h left is below a 10 h threshold, said once ---------
    ui::AppSettings warnEarly = window.settings();
    warnEarly.warnFirstMinutes = 600;
    warnEarly.warnLastMinutes = 10;
    window.applySettings(warnEarly);
    QTRY_COMPARE(window.trayNotifier()->lastTitle(), u"Balance running low"_s);
    QVERIFY2(window.trayNotifier()->lastMessage().contains(u"¥1.90/h"_s),
             qPrintable(window.trayNotifier()->lastMessage()));
    QVERIFY(window.trayNotifier()->toolTip().contains(u"Spending ¥1.90/h"_s.toLower()));

    auto *copySsh = window.findChild<QAction *>(u"copySshAction"_s);
    if (window.instanceModel()->instanceAt(0)->ssh) {
        QTRY_VERIFY(copySsh->isEnabled());
        QGuiApplication::clipboard()->clear();
        copySsh->trigger(); // asks the provider which keys the instance takes first
        QTRY_VERIFY(QGuiApplication::clipboard()->text().startsWith(u"ssh "_s));
        const QString command = QGuiApplication::clipboard()->text();
        QVERIFY2(command.contains(u"-p "_s), qPrintable(command));
        QVERIFY2(command.contains(u"StrictHostKeyChecking="_s), qPrintable(command));
    }

    // ---- stop, start, terminate, each confirmed with what happens to the data
    // ------------------------ The previews say what the provider's `retention` says; the
    // in-process runtime has no volume to keep, so it promises only what happens to billing
    // (tst_instanceactions checks the /workspace wording for runtimes that keep one).
    const core::Retention retention = window.instanceModel()->instanceAt(0)->retention;
    const bool keepsWorkspace = retention.stopKeeps.contains(u"workspace_volume"_s);
    confirmAction(window, "stopAction",
                  keepsWorkspace ? u"/workspace is kept"_s : u"stops the moment you stop"_s);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, u"train-1"_s), u"stopped"_s, 20000);
    // The user's own stop is no news: the last notification is still the runway warning.
    QCOMPARE(window.trayNotifier()->lastTitle(), u"Balance running low"_s);
    shoot(&window, u"05-stopped"_s);
    confirmAction(window, "startAction", u"Billing starts again"_s);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, u"train-1"_s), u"running"_s, 20000);
    confirmAction(window, "terminateAction",
                  retention.terminateDeletes.contains(u"workspace_volume"_s)
                      ? u"deletes /workspace"_s
                      : u"Billing ends for good"_s);
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, u"train-1"_s), u"(absent)"_s, 20000);

    // ---- the ledger tab: trial credit, the top-up, the compute of both runs -------------------
    window.findChild<QAction *>(u"showBillingAction"_s)->trigger();
    QCOMPARE(window.currentView(), ui::MainWindow::View::Billing);
    ui::LedgerModel *ledger = window.ledgerView()->model();
    QTRY_VERIFY_WITH_TIMEOUT(ledger->rowCount() >= 4, 10000);
    QStringList kinds;
    for (const core::Posting &p : ledger->postings())
        kinds.append(p.kind);
    QVERIFY2(kinds.contains(u"trial_credit"_s) && kinds.contains(u"topup"_s)
                 && kinds.count(u"compute"_s) >= 2,
             qPrintable(kinds.join(u',')));
    QCOMPARE(ledger->postings().first().balanceAfterMicros,
             m_sim.authedGet(token, u"/v1/billing/ledger?limit=1"_s)
                 .value(u"balance_micros"_s)
                 .toInteger());
    // The terminated instance left the list but keeps its name in the ledger.
    auto *ledgerTable = window.ledgerView()->findChild<QTableView *>(u"ledgerTable"_s);
    bool named = false;
    for (int row = 0; row < ledgerTable->model()->rowCount(); ++row)
        named = named
            || ledgerTable->model()->index(row, ui::LedgerModel::InstanceColumn).data()
                == u"train-1"_s;
    QVERIFY(named);
    // Times in the provider's zone (as its statements are; the ledger was once in UTC) and
    // money with two decimals (the ledger once showed six).
    const QTimeZone shanghai("Asia/Shanghai");
    const QRegularExpression twoDecimals(u"^(−?¥[0-9,]+\\.[0-9]{2}|[<>] −?¥0\\.01)$"_s);
    for (int row = 0; row < ledgerTable->model()->rowCount(); ++row) {
        const QModelIndex time = ledgerTable->model()->index(row, ui::LedgerModel::TimeColumn);
        const QDateTime at = time.data(ui::LedgerModel::TimeRole).toDateTime();
        QCOMPARE(time.data().toString(),
                 at.toTimeZone(shanghai).toString(u"yyyy-MM-dd HH:mm:ss"_s));
        for (int column :
             {int(ui::LedgerModel::AmountColumn), int(ui::LedgerModel::BalanceColumn)}) {
            const QString money = ledgerTable->model()->index(row, column).data().toString();
            QVERIFY2(twoDecimals.match(money).hasMatch(), qPrintable(money));
        }
    }
    shoot(&window, u"08-ledger"_s);
    window.setCurrentView(ui::MainWindow::View::Instances);

    // ---- the provider goes away and comes back
    // --------------------------------------------------------
    auto *banner = window.findChild<ui::ConnectionBanner *>(u"connectionBanner"_s);
    QVERIFY(!banner->isVisible());
    m_sim.kill();
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 20000);
    shoot(&window, u"06-provider-lost"_s);
    QVERIFY2(m_sim.restart(), qPrintable(m_sim.lastError()));
    QCOMPARE(m_sim.port(), m_port);
    QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 20000);
    QVERIFY(window.session()->isLoggedIn());

    // ---- the token is revoked elsewhere: the next call gets 401 and log-in is asked for
    // -----------
    QCOMPARE(m_sim.authedPost(token, u"/v1/auth/logout"_s).status, 204);
    window.findChild<QAction *>(u"refreshAction"_s)->trigger();
    QTRY_VERIFY_WITH_TIMEOUT((login = test::shownAccountPage(window)), 20000);
    QVERIFY(!window.session()->isLoggedIn());
    QCOMPARE(login->email(), u"gui@example.com"_s);
}

void TestMainWindow::connectAndSignUp(ui::MainWindow &window, const QString &email)
{
    window.connectToUrl(m_sim.baseUrl());
    QString why;
    QVERIFY2(test::signUpThroughPage(window, email, &why), qPrintable(why));
}

void TestMainWindow::copySshCommandRefusesTamperedHostKey()
{
    // An instance whose provider answer carries a host key that its own fingerprint does not
    // name (a tampered answer, or a provider mixing up instances): "Copy SSH command" refuses,
    // names both fingerprints, pins nothing and leaves the clipboard alone.
    ui::MainWindow window(options());
    window.show();
    connectAndSignUp(window, u"tampered@example.com"_s);
    const QString vouched =
        u"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIL3PxZifVOUQ1xXPeHsxq324rb+ldUOhk49GR8h7lj4"_s;
    const QString given =
        u"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPN9OK26OvU/ck9X3JTV/iEpmX46rC+ZWSQV9APBtYVu"_s;
    core::Instance instance;
    instance.id = u"i-tampered"_s;
    instance.name = u"tampered-1"_s;
    instance.state = core::InstanceState::Running;
    core::SshEndpoint ssh;
    ssh.host = u"127.0.0.1"_s;
    ssh.port = 40022;
    ssh.user = u"root"_s;
    ssh.hostKeySha256 = core::SshKeyPair::fingerprintOfPublicKeyLine(vouched);
    ssh.hostKey = given;
    instance.ssh = ssh;
    window.instanceModel()->upsert(instance);
    window.selectInstance(instance.id);

    QGuiApplication::clipboard()->setText(u"untouched"_s);
    auto *copySsh = window.findChild<QAction *>(u"copySshAction"_s);
    QTRY_VERIFY(copySsh->isEnabled());
    copySsh->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = visibleChild<QMessageBox>(&window, u"errorDialog"_s)), 10000);
    const QString said = box->text() + u'\n' + box->informativeText() + u'\n' + box->detailedText();
    QVERIFY2(said.contains(ssh.hostKeySha256), qPrintable(said));
    QVERIFY2(said.contains(core::SshKeyPair::fingerprintOfPublicKeyLine(given)), qPrintable(said));
    shoot(box, u"copy-ssh-tampered"_s);
    QCOMPARE(QGuiApplication::clipboard()->text(), u"untouched"_s);
    QFile knownHosts(window.knownHostsFile());
    QVERIFY(!knownHosts.open(QIODevice::ReadOnly)
            || !knownHosts.readAll().contains(given.section(u' ', 1, 1).toUtf8()));
    box->close();
}

void TestMainWindow::sandboxConnectStep()
{
    // "Local sandbox": the launcher starts a cardhour-sim of its own, then log-in is asked for.
    ui::MainWindow window(options());
    window.show();
    auto *page = window.findChild<ui::ConnectPage *>(u"connectPage"_s);
    QVERIFY(page->findChild<QRadioButton *>(u"sandboxRadio"_s)->isChecked());
    QTest::mouseClick(page->findChild<QPushButton *>(u"connectButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(test::shownAccountPage(window), 30000);
    QVERIFY(window.session()->providerUrl().isValid());
    // The page names the provider: this computer's sandbox, at its address.
    const QString provider = window.accountPage()->findChild<QLabel *>(u"providerLabel"_s)->text();
    QVERIFY2(provider.contains(u"Sandbox"_s)
                 && provider.contains(window.session()->providerUrl().toDisplayString()),
             qPrintable(provider));
    QVERIFY(window.session()->providerKey().startsWith(u"cardhour-sandbox:"_s));
}

void TestMainWindow::switchesLanguage()
{
    ui::Translations translations;
    ui::MainWindow window(options(), &translations);
    window.show();
    auto *connectButton = window.findChild<QPushButton *>(u"connectButton"_s);
    auto *launchAction = window.findChild<QAction *>(u"launchAction"_s);
    QCOMPARE(connectButton->text(), u"Connect"_s);
    QCOMPARE(launchAction->text(), u"&Launch…"_s);
    const QString header = window.instanceModel()->headerData(0, Qt::Horizontal).toString();
    QCOMPARE(header, u"Name"_s);
    // A status-bar message that stays (no timeout) is said again in the new language.
    Q_EMIT window.clientSession()->balanceExhausted();
    const QString exhausted = u"The balance has run out: the provider stops your instances."_s;
    QCOMPARE(window.statusBar()->currentMessage(), exhausted);

    window.findChild<QAction *>(u"language_zh_CN"_s)->trigger();
    QCOMPARE(translations.current(), u"zh_CN"_s);
    QTRY_COMPARE(connectButton->text(), u"连接"_s);
    QTRY_COMPARE(launchAction->text(), u"启动实例(&L)…"_s);
    QCOMPARE(window.instanceModel()->headerData(0, Qt::Horizontal).toString(), u"名称"_s);
    QTRY_COMPARE(window.statusBar()->currentMessage(), u"余额已用完：服务商将停止您的实例。"_s);
    shoot(&window, u"07-zh_CN"_s);

    window.findChild<QAction *>(u"language_en"_s)->trigger();
    QTRY_COMPARE(connectButton->text(), u"Connect"_s);
    QTRY_COMPARE(launchAction->text(), u"&Launch…"_s);
    QTRY_COMPARE(window.statusBar()->currentMessage(), exhausted);
    // One that has gone stays gone.
    window.statusBar()->clearMessage();
    window.findChild<QAction *>(u"language_zh_CN"_s)->trigger();
    QTRY_COMPARE(connectButton->text(), u"连接"_s);
    QVERIFY(window.statusBar()->currentMessage().isEmpty());
    window.findChild<QAction *>(u"language_en"_s)->trigger();
}

void TestMainWindow::expiredTokenReturnsToTheSameView()
{
    ui::MainWindow window(options());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    connectAndSignUp(window, u"expiry@example.com"_s);
    if (QTest::currentTestFailed())
        return;
    const QString token = window.session()->token();
    const QString first = m_sim.createRunning(
        token, {{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}, {u"name"_s, u"one"_s}});
    const QString second = m_sim.createRunning(
        token, {{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}, {u"name"_s, u"two"_s}});
    QVERIFY2(!first.isEmpty() && !second.isEmpty(), qPrintable(m_sim.lastError()));
    QTRY_COMPARE(window.instanceModel()->rowCount(), 2);
    window.selectInstance(second);
    QCOMPARE(window.selectedInstanceId(), second);
    window.setCurrentView(ui::MainWindow::View::Billing);
    QTRY_VERIFY(window.ledgerView()->model()->rowCount() >= 1);

    // Revoked from a second client; the window learns it when its event stream reconnects
    // (provider restarted) and gets 401: no call of its own is needed.
    QCOMPARE(m_sim.authedPost(token, u"/v1/auth/logout"_s).status, 204);
    m_sim.kill();
    QVERIFY2(m_sim.restart(), qPrintable(m_sim.lastError()));
    ui::AccountPage *login = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((login = test::shownAccountPage(window)), 20000);
    QVERIFY(!window.session()->isLoggedIn());
    const QString note = login->findChild<QLabel *>(u"errorLabel"_s)->text();
    QVERIFY2(note.contains(u"session has ended"_s), qPrintable(note));
    QCOMPARE(login->email(), u"expiry@example.com"_s);
    QVERIFY(!login->isSignUp());
    // The e-mail address is remembered: the password is the field to fill.
    QTRY_COMPARE(QApplication::focusWidget(), login->findChild<QLineEdit *>(u"passwordEdit"_s));
    shoot(&window, u"09-session-expired"_s);

    // A wrong password: the provider's refusal on the page, nothing typed lost.
    QTest::keyClicks(QApplication::focusWidget(), u"not the password"_s);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    auto *error = login->findChild<QLabel *>(u"errorLabel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!login->isBusy() && error->text() != note, 20000);
    QVERIFY2(!error->text().isEmpty() && error->isVisible(), qPrintable(error->text()));
    QVERIFY(test::shownAccountPage(window));
    QCOMPARE(login->email(), u"expiry@example.com"_s);
    shoot(&window, u"09b-login-refused"_s);

    // Log in again: the same view, the same selection, fresh data.
    auto *password = login->findChild<QLineEdit *>(u"passwordEdit"_s);
    password->clear();
    QTest::keyClicks(password, test::testPassword());
    QTest::mouseClick(login->findChild<QPushButton *>(u"submitButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isLoggedIn(), 20000);
    QVERIFY(window.session()->token() != token);
    QCOMPARE(window.currentView(), ui::MainWindow::View::Billing);
    QTRY_COMPARE(window.instanceModel()->rowCount(), 2);
    QCOMPARE(window.selectedInstanceId(), second);
    QTRY_VERIFY(window.ledgerView()->model()->rowCount() >= 1);
    QTRY_VERIFY(!window.findChild<ui::ConnectionBanner *>(u"connectionBanner"_s)->isVisible());
    shoot(&window, u"10-back-after-login"_s);
    // Leave nothing running in the shared provider.
    const QString fresh = window.session()->token();
    for (const QString &id : {first, second})
        QCOMPARE(m_sim.authedDelete(fresh, u"/v1/instances/%1"_s.arg(id)).status, 200);
}

// Where the desktop has no tray (offscreen here), nothing could bring a hidden window back:
// closing it ends the client, and with it the sandbox the client started.
void TestMainWindow::closingWithoutTrayQuitsAndStopsSandbox()
{
    auto window = std::make_unique<ui::MainWindow>(options());
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(!window->trayNotifier()->hasIcon());
    window->connectToSandbox();
    core::SandboxLauncher *launcher = window->clientSession()->launcher();
    QTRY_VERIFY_WITH_TIMEOUT(launcher->ownsProcess(), 60000);
    const qint64 pid = launcher->processId();
    QVERIFY(pid > 0);
    QVERIFY(QFileInfo::exists(u"/proc/%1"_s.arg(pid)));

    // The account page is up: closing the window leaves no window, so the application quits
    // (quitOnLastWindowClosed; the signal itself fires only inside exec()).
    QTRY_VERIFY(test::shownAccountPage(*window));
    QVERIFY(QGuiApplication::quitOnLastWindowClosed());
    QVERIFY(window->close());
    for (QWidget *topLevel : QApplication::topLevelWidgets())
        QVERIFY2(!topLevel->isVisible(), qPrintable(topLevel->objectName()));
    window.reset(); // what returning from exec() does in main()
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(u"/proc/%1/cmdline"_s.arg(pid))
                                 || QFile(u"/proc/%1/cmdline"_s.arg(pid)).size() == 0,
                             10000);
}

// The launch dialog as it opens, the Stop confirmation (a message box of the design system)
// with its details shown, the top-up and settings dialogs: launch-, notice-, topup- and
// settings-<variant>.
void TestMainWindow::shootLaunchAndNotice(ui::MainWindow &window, const QString &variant)
{
    window.setCurrentView(ui::MainWindow::View::Instances);
    window.findChild<QAction *>(u"launchAction"_s)->trigger();
    ui::LaunchDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = visibleChild<ui::LaunchDialog>(&window, u"launchDialog"_s)));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->findChild<QLabel *>(u"costLabel"_s)->text().isEmpty(), 10000);
    QTest::qWait(100);
    shoot(dialog, u"launch-"_s + variant);
    dialog->reject();
    window.selectInstance(window.instanceModel()->instanceAt(0)->id);
    auto *stop = window.findChild<QAction *>(u"stopAction"_s);
    QTRY_VERIFY(stop->isEnabled());
    stop->trigger();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = visibleChild<QMessageBox>(&window, u"confirmDialog"_s)));
    // Its details open, as a user who clicks Show Details sees them.
    for (QAbstractButton *button : box->buttons()) {
        if (box->buttonRole(button) == QMessageBox::ActionRole)
            button->click();
    }
    QTest::qWait(50);
    shoot(box, u"notice-"_s + variant);
    box->reject();
    QTRY_VERIFY(!visibleChild<QMessageBox>(&window, u"confirmDialog"_s));
    // The top-up and settings dialogs, each with its primary action.
    for (const auto &[action, dialogName, shot] :
         {std::tuple{"topUpAction", u"topUpDialog"_s, u"topup-"_s},
          std::tuple{"settingsAction", u"settingsDialog"_s, u"settings-"_s}}) {
        window.findChild<QAction *>(QString::fromLatin1(action))->trigger();
        QDialog *shown = nullptr;
        QTRY_VERIFY((shown = visibleChild<QDialog>(&window, dialogName)));
        QTest::qWait(50);
        shoot(shown, shot + variant);
        shown->reject();
        QTRY_VERIFY(!visibleChild<QDialog>(&window, dialogName));
    }
}

// The screenshots of the README: each page with a running host, light and dark, English and
// 简体中文; each page is built on first showing and must then show its own content.
void TestMainWindow::everyPageInEveryThemeAndLanguage()
{
    ui::Translations translations;
    ui::MainWindow window(options(), &translations);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    connectAndSignUp(window, u"pages@example.com"_s);
    if (QTest::currentTestFailed())
        return;
    const QString token = window.session()->token();
    const auto launched = m_sim.authedPost(token, u"/v1/instances"_s,
                                           {{u"name"_s, u"train-7b"_s},
                                            {u"gpu_type"_s, u"rtx4090"_s},
                                            {u"gpu_count"_s, 2},
                                            {u"image"_s, u"base"_s}});
    QCOMPARE(launched.status, 202);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(window, u"train-7b"_s), u"running"_s, 20000);
    window.selectInstance(window.instanceModel()->instanceAt(0)->id);

    const QList<std::pair<ui::MainWindow::View, QString>> pages = {
        {ui::MainWindow::View::Home, u"home"_s},
        {ui::MainWindow::View::Instances, u"instances"_s},
        {ui::MainWindow::View::Snapshots, u"snapshots"_s},
        {ui::MainWindow::View::Storage, u"storage"_s},
        {ui::MainWindow::View::Billing, u"billing"_s},
        {ui::MainWindow::View::Keys, u"keys"_s}};
    for (const QString &language : {u"en"_s, u"zh_CN"_s}) {
        for (const QString &theme : {u"light"_s, u"dark"_s}) {
            ui::AppSettings settings = window.settings();
            settings.theme = theme;
            settings.language = language;
            window.applySettings(settings);
            QCOMPARE(translations.current(), language);
            for (const auto &[view, name] : pages) {
                window.setCurrentView(view);
                QTRY_VERIFY(window.page(view)->isVisible());
                QTest::qWait(50);
                shoot(&window, u"page-%1-%2-%3"_s.arg(name, theme, language));
            }
            shootLaunchAndNotice(window, theme + u'-' + language);
            if (QTest::currentTestFailed())
                return;
        }
    }
    // In Chinese the side bar and the Home page speak Chinese.
    window.setCurrentView(ui::MainWindow::View::Home);
    QTRY_VERIFY(window.findChild<QAction *>(u"showHomeAction"_s)->text().contains(u"主页"_s));
    ui::AppSettings back = window.settings();
    back.theme = u"light"_s;
    back.language = u"en"_s;
    window.applySettings(back);
}

// The account page as a new user sees it after Connect, light and dark, English and 简体中文;
// Change provider goes back to the connect step.
void TestMainWindow::accountPageInEveryThemeAndLanguage()
{
    ui::Translations translations;
    ui::MainWindow window(options(), &translations);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.connectToUrl(m_sim.baseUrl());
    ui::AccountPage *page = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((page = test::shownAccountPage(window)), 20000);
    QVERIFY(test::tickSignUp(page));
    QTest::keyClicks(page->findChild<QLineEdit *>(u"emailEdit"_s), u"new@example.com"_s);
    QTest::keyClicks(page->findChild<QLineEdit *>(u"passwordEdit"_s), test::testPassword());
    QTest::keyClicks(page->findChild<QLineEdit *>(u"confirmEdit"_s), test::testPassword());
    QVERIFY(page->findChild<QPushButton *>(u"submitButton"_s)->isEnabled());
    shoot(&window, u"02-signup"_s);
    for (const QString &language : {u"en"_s, u"zh_CN"_s}) {
        for (const QString &theme : {u"light"_s, u"dark"_s}) {
            ui::AppSettings settings = window.settings();
            settings.theme = theme;
            settings.language = language;
            window.applySettings(settings);
            QCOMPARE(translations.current(), language);
            QTest::qWait(50);
            shoot(&window, u"page-account-%1-%2"_s.arg(theme, language));
        }
    }
    ui::AppSettings back = window.settings();
    back.theme = u"light"_s;
    back.language = u"en"_s;
    window.applySettings(back);
    // In a small window the form stays whole.
    window.resize(640, 420);
    QTest::qWait(50);
    shoot(&window, u"page-account-small"_s);
    QTest::mouseClick(page->findChild<QPushButton *>(u"backButton"_s), Qt::LeftButton);
    QTRY_VERIFY(window.findChild<ui::ConnectPage *>(u"connectPage"_s)->isVisible());
    QVERIFY(!test::shownAccountPage(window));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
