// The built-in terminal from the main window, against a real instance: cardhour-sim with the
// podman runtime launches containers with sshd. The test signs up on the account page,
// generates a key in the window's key store, uploads it, launches the base image with it, and
// double-clicks the instance row: a terminal tab opens a verified SSH shell. Then it types into
// the widget like a user, runs htop (alternate screen, header drawn), resizes the widget (the
// PTY follows), drops and reconnects the connection, and opens an instance launched with a key
// this computer does not have (the tab names the missing key). Rehearsed failures (the sandbox
// runs with --allow-chaos): SSH dropped by the provider closes the tab's connection, said in the
// tab and the status bar, and Reconnect gets in again; a filled /workspace makes a write in the
// shell fail with ENOSPC while the status bar says the disk is full, until it is cleared.
#include "AccountPageDriver.h"
#include "CoreTestSupport.h"
#include "GuiTestWindow.h"
#include "InstanceTableModel.h"
#include "MainWindow.h"
#include "PodmanApiTest.h"
#include "SshActions.h"
#include "SshTestSupport.h"
#include "TerminalTab.h"
#include "TerminalWidget.h"
#include "TransferBar.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"
#include "session/Session.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshShell.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

class TestTerminalTab : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void oneClickOpensShell();
    void htopUsesAlternateScreen();
    void resizeReachesPty();
    void dropUploadsAndDownloadReturns();
    void appOpensThroughForward();
    void sshConfigAndCommandPinHostKey();
    void droppedConnectionReconnects();
    void rehearsedDropAndFullDiskAreShown();
    void missingKeyIsNamed();
    void jupyterOpensInBrowserThroughForward();

private:
    QString screen() const { return m_tab->terminal()->screen()->screenText(); }
    void type(const QString &line);
    void shoot(const QString &name);

    SimProcess *m_sim = nullptr;
    std::unique_ptr<ui::MainWindow> m_window;
    QString m_token;
    QString m_instanceId;
    QString m_strangerId;
    QString m_strangerFingerprint;
    ui::TerminalTab *m_tab = nullptr;
};

void TestTerminalTab::initTestCase()
{
    initPodmanTest();
    if (QTest::currentTestFailed() || !m_dir)
        return;
    m_sim = startSim({u"--allow-chaos"_s});
    QVERIFY(m_sim);

    ui::MainWindow::Options o = isolatedWindowOptions(QDir(m_dir->path()), u"terminal"_s, 3000);
    m_window = std::make_unique<ui::MainWindow>(o);
    m_window->resize(1100, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->connectToUrl(m_sim->baseUrl());

    QString why;
    QVERIFY2(signUpThroughPage(*m_window, u"term@example.com"_s, &why), qPrintable(why));
    m_token = m_window->session()->token();

    // A key made in the app's own store, uploaded through the app's client.
    core::SshKeyStore *keys = m_window->sshActions()->keyStore();
    const KeyOutcome made = awaitKey(keys->generate(u"terminal-test"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    const auto uploaded = await(core::SshKeyStore::upload(*m_window->clientSession()->client(),
                                                          made.key, u"terminal-test"_s));
    QVERIFY2(uploaded.ok, uploaded.why());

    // And one that exists only elsewhere (as if on another computer).
    const KeyPair foreign = makeKey(u"elsewhere"_s);
    const QString foreignId = addKey(*m_sim, m_token, foreign);
    QVERIFY(!foreignId.isEmpty());
    m_strangerFingerprint = core::SshKeyPair::fingerprintOfPublicKeyLine(foreign.publicLine);

    m_instanceId = create(*m_sim, m_token, {uploaded.value->id});
    QVERIFY(!m_instanceId.isEmpty());
    m_strangerId = create(*m_sim, m_token, {foreignId});
    QVERIFY(!m_strangerId.isEmpty());
    for (const QString &id : {m_instanceId, m_strangerId}) {
        const QJsonObject running = waitFor(*m_sim, m_token, id, u"running"_s);
        QVERIFY2(running.value(u"state"_s).toString() == u"running"_s,
                 QJsonDocument(running).toJson().constData());
    }
}

void TestTerminalTab::cleanupTestCase()
{
    m_tab = nullptr;
    m_window.reset(); // closes the shells before the containers go
    cleanupPodmanTest();
}

void TestTerminalTab::type(const QString &line)
{
    QTest::keyClicks(m_tab->terminal(), line);
    QTest::keyClick(m_tab->terminal(), Qt::Key_Return);
}

void TestTerminalTab::shoot(const QString &name)
{
    QCoreApplication::processEvents();
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(m_window->grab().save(path), qPrintable(path));
}

void TestTerminalTab::oneClickOpensShell()
{
    // The list learns of the running instance through the event stream.
    ui::InstanceTableModel *model = m_window->instanceModel();
    QTRY_VERIFY_WITH_TIMEOUT(model->instance(m_instanceId)
                                 && model->instance(m_instanceId)->state
                                     == core::InstanceState::Running
                                 && model->instance(m_instanceId)->ssh,
                             30000);
    auto *table = m_window->findChild<QTableView *>(u"instanceTable"_s);
    QVERIFY(table);
    const int row = model->rowOf(m_instanceId);
    QVERIFY(row >= 0);
    const QRect cell = table->visualRect(model->index(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(m_window->selectedInstanceId(), m_instanceId);
    QVERIFY(m_window->findChild<QAction *>(u"openTerminalAction"_s)->isEnabled());
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());

    QCOMPARE(m_window->terminalTabs().size(), 1);
    m_tab = m_window->terminalTabs().constFirst();
    auto *tabs = m_window->findChild<QTabWidget *>(u"viewTabs"_s);
    QCOMPARE(tabs->currentWidget(), m_tab);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), model->instance(m_instanceId)->name);
    QTRY_VERIFY2_WITH_TIMEOUT(m_tab->isConnected(), qPrintable(m_tab->statusText()), 30000);
    QVERIFY(m_tab->statusText().isEmpty());

    type(u"stty size; echo hello-$((6*7))"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"\nhello-42"_s), qPrintable(screen()), 15000);
    const QString size =
        u"%1 %2"_s.arg(m_tab->terminal()->rows()).arg(m_tab->terminal()->columns());
    QVERIFY2(screen().contains(u"\n"_s + size + u"\n"_s), qPrintable(size + u"\n"_s + screen()));

    // Ctrl+C is the terminal's (SIGINT), not the window's "Copy SSH command" shortcut.
    type(u"sleep 60; echo slept"_s);
    QTest::qWait(300);
    QTest::keyClick(m_tab->terminal(), Qt::Key_C, Qt::ControlModifier);
    type(u"echo after-$((2*3))"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"\nafter-6"_s), qPrintable(screen()), 15000);
    QVERIFY(!screen().contains(u"\nslept"_s));

    // A title the remote sets (OSC 0) joins the instance name on the tab.
    type(u"printf '\\033]0;%s\\007' remote-$((1+1))"_s);
    QTRY_COMPARE_WITH_TIMEOUT(tabs->tabText(tabs->indexOf(m_tab)),
                              model->instance(m_instanceId)->name + u" — remote-2"_s, 15000);
}

void TestTerminalTab::htopUsesAlternateScreen()
{
    QVERIFY(m_tab && m_tab->isConnected());
    terminal::TerminalScreen *model = m_tab->terminal()->screen();
    QVERIFY(!model->altScreenActive());
    type(u"htop"_s);
    QTRY_VERIFY_WITH_TIMEOUT(model->altScreenActive(), 15000);
    // htop's header: the load average and the task counts, drawn a moment after it starts.
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"Load average"_s) && screen().contains(u"Tasks"_s),
                              qPrintable(screen()), 15000);
    QTest::qWait(1500); // a second refresh, so the meters are filled in
    shoot(u"terminal-htop"_s);
    QTest::keyClick(m_tab->terminal(), Qt::Key_Q);
    QTRY_VERIFY_WITH_TIMEOUT(!model->altScreenActive(), 15000);
    QTRY_VERIFY(screen().contains(u"hello-42"_s)); // the normal screen is back as it was
}

void TestTerminalTab::resizeReachesPty()
{
    QVERIFY(m_tab && m_tab->isConnected());
    m_window->resize(820, 560);
    QTRY_VERIFY(m_tab->terminal()->columns() < 100);
    const int cols = m_tab->terminal()->columns();
    const int rows = m_tab->terminal()->rows();
    type(u"clear; echo size=$(stty size)"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"size=%1 %2"_s.arg(rows).arg(cols)),
                              qPrintable(u"%1x%2\n"_s.arg(cols).arg(rows) + screen()), 15000);
    m_window->resize(1100, 760);
}

void TestTerminalTab::dropUploadsAndDownloadReturns()
{
    QVERIFY(m_tab && m_tab->isConnected());
    const QString local = m_dir->filePath(u"dropped.bin"_s);
    const QString sha = writeRandomFile(local, 8 * 1024 * 1024);
    QVERIFY(!sha.isEmpty());

    // Files dragged from a file manager: the tab takes the drop, not the terminal.
    auto *mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(local)});
    const QPoint at = m_tab->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_tab, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(m_tab, &drop);
    QVERIFY(drop.isAccepted());
    delete mime;
    ui::TransferBar *bar = m_tab->transferBar();
    QVERIFY(bar->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isBusy(), 120000);
    QVERIFY2(bar->statusText().contains(u"Uploaded"_s), qPrintable(bar->statusText()));

    type(u"clear; sha256sum /workspace/dropped.bin"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(sha + u"  /workspace/dropped.bin"_s),
                              qPrintable(sha + u"\n"_s + screen()), 15000);

    // A large upload cancelled midway: said so, the partial file stays for a resume, and the
    // next upload of the same file completes it.
    const QString bigLocal = m_dir->filePath(u"big.bin"_s);
    const QString bigSha = writeRandomFile(bigLocal, 200 * 1024 * 1024);
    QVERIFY(!bigSha.isEmpty());
    QVERIFY(m_tab->uploadFiles({bigLocal}));
    auto *progress = bar->findChild<QProgressBar *>(u"transferProgress"_s);
    QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0 || !bar->isBusy(), 60000);
    QVERIFY2(bar->isBusy(), "the upload finished before it could be cancelled");
    QTest::mouseClick(bar->findChild<QPushButton *>(u"cancelTransferButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isBusy(), 60000);
    QVERIFY2(bar->statusText().contains(u"Cancelled"_s), qPrintable(bar->statusText()));
    type(u"clear; test -s /workspace/big.bin.cardhour-part && echo part-$((1+1))"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"part-2"_s), qPrintable(screen()), 15000);
    QVERIFY(m_tab->uploadFiles({bigLocal}));
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isBusy(), 180000);
    QVERIFY2(bar->statusText().contains(u"Uploaded"_s), qPrintable(bar->statusText()));
    type(u"clear; sha256sum /workspace/big.bin; rm /workspace/big.bin"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(bigSha + u"  /workspace/big.bin"_s),
                              qPrintable(screen()), 30000);
    QFile::remove(bigLocal);

    QTemporaryDir back;
    QVERIFY(m_tab->download(u"/workspace/dropped.bin"_s, back.path()));
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isBusy(), 120000);
    QVERIFY2(bar->statusText().contains(u"Downloaded"_s), qPrintable(bar->statusText()));
    QCOMPARE(sha256OfFile(back.filePath(u"dropped.bin"_s)), sha);
}

void TestTerminalTab::appOpensThroughForward()
{
    // A web app in the box (as Jupyter would be), opened like a one-click app: the URL handed to
    // the browser goes through a local port forward over SSH.
    QVERIFY(m_tab && m_tab->isConnected());
    type(u"cd /workspace && (python3 -m http.server 8899 >/dev/null 2>&1 &) ; cd"_s);
    ui::SshActions *ssh = m_window->sshActions();
    ssh->setOpenBrowser(false);
    QSignalSpy opened(ssh, &ui::SshActions::appOpened);
    core::InstanceApp app;
    app.name = u"files"_s;
    app.port = 8899;
    const core::Instance *instance = m_window->instanceModel()->instance(m_instanceId);
    QVERIFY(instance);
    ssh->openApp(*instance, app);
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
    const QUrl url = opened.constFirst().constFirst().toUrl();
    QCOMPARE(url.host(), u"127.0.0.1"_s);
    QCOMPARE(url.port(), int(ssh->forwardedPort(m_instanceId, 8899)));
    // The server may need a moment to listen: ask until the listing names the dropped file.
    QNetworkAccessManager net;
    QByteArray body;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            std::unique_ptr<QNetworkReply> reply(net.get(QNetworkRequest(url)));
            (void)QTest::qWaitFor([&reply] { return reply->isFinished(); }, 5000);
            body = reply->readAll();
            return body.contains("dropped.bin");
        }(),
        20000);
}

void TestTerminalTab::sshConfigAndCommandPinHostKey()
{
    ui::SshActions *ssh = m_window->sshActions();
    const core::Instance *instance = m_window->instanceModel()->instance(m_instanceId);
    QVERIFY(instance && instance->ssh);
    QSignalSpy messages(ssh, &ui::SshActions::message);
    ssh->addToSshConfig(*instance);
    QTRY_VERIFY(!messages.isEmpty());
    const QString alias = core::SshConfigWriter::hostAlias(instance->name);
    QVERIFY2(!messages.constFirst().at(1).toBool(),
             qPrintable(messages.constFirst().at(0).toString()));
    QVERIFY(messages.constFirst().at(0).toString().contains(alias));
    QFile config(ssh->sshConfigPath());
    QVERIFY(config.open(QIODevice::ReadOnly));
    QVERIFY(config.readAll().contains(u"Host %1"_s.arg(alias).toUtf8()));
    // OpenSSH itself connects through the block, with the pinned key.
    const Cmd viaConfig = run(
        u"ssh"_s,
        {u"-F"_s, ssh->sshConfigPath(), u"-o"_s, u"BatchMode=yes"_s, alias, u"echo config-ok"_s});
    QVERIFY2(viaConfig.ok() && viaConfig.out.contains("config-ok"),
             qPrintable(viaConfig.describe()));

    messages.clear();
    ssh->copySshCommand(*instance);
    QTRY_VERIFY(!messages.isEmpty());
    const QString command = QGuiApplication::clipboard()->text();
    QVERIFY2(command.contains(u"StrictHostKeyChecking=yes"_s), qPrintable(command));
    QVERIFY2(command.contains(ssh->knownHostsPath()), qPrintable(command));
    QVERIFY2(command.contains(u"-i "_s), qPrintable(command));
    QStringList args = QProcess::splitCommand(command);
    QVERIFY(!args.isEmpty());
    args.removeFirst();
    args << u"-o"_s << u"BatchMode=yes"_s << u"echo command-ok"_s;
    const Cmd viaCommand = run(u"ssh"_s, args);
    QVERIFY2(viaCommand.ok() && viaCommand.out.contains("command-ok"),
             qPrintable(viaCommand.describe()));

    // The system terminal gets the same arguments (no terminal program here to start).
    const QStringList terminal = ui::SshActions::systemTerminalCommand({u"-p"_s, u"22"_s});
    if (!terminal.isEmpty())
        QVERIFY(terminal.contains(u"ssh"_s));
}

void TestTerminalTab::droppedConnectionReconnects()
{
    QVERIFY(m_tab && m_tab->isConnected());
    type(u"exit"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!m_tab->isConnected() && !m_tab->statusText().isEmpty(), 15000);
    auto *reconnect = m_tab->findChild<QPushButton *>(u"reconnectButton"_s);
    QVERIFY(reconnect && reconnect->isVisible());
    shoot(u"terminal-dropped"_s);
    QTest::mouseClick(reconnect, Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(m_tab->isConnected(), qPrintable(m_tab->statusText()), 30000);
    type(u"echo back-$((40+2))"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"\nback-42"_s), qPrintable(screen()), 15000);
}

void TestTerminalTab::rehearsedDropAndFullDiskAreShown()
{
    QVERIFY(m_tab && m_tab->isConnected());
    core::ProviderClient *client = m_window->clientSession()->client();
    core::NewChaosFault drop;
    drop.kind = u"drop_ssh"_s;
    drop.instanceId = m_instanceId;
    const auto dropped = await(client->addChaosFault(drop));
    QVERIFY2(dropped.ok, dropped.why());
    // The tab says its connection closed (never that it is still there) and offers Reconnect.
    QTRY_VERIFY_WITH_TIMEOUT(!m_tab->isConnected() && !m_tab->statusText().isEmpty(), 30000);
    QVERIFY(m_tab->findChild<QPushButton *>(u"reconnectButton"_s)->isVisible());
    QTRY_VERIFY2_WITH_TIMEOUT(
        m_window->statusBar()->currentMessage().contains(u"SSH connections"_s)
            && m_window->statusBar()->currentMessage().contains(u"were cut"_s),
        qPrintable(m_window->statusBar()->currentMessage()), 30000);
    shoot(u"chaos-ssh-dropped"_s);
    QTest::mouseClick(m_tab->findChild<QPushButton *>(u"reconnectButton"_s), Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(m_tab->isConnected(), qPrintable(m_tab->statusText()), 30000);

    const QJsonObject disk = m_sim->authedGet(m_token, u"/v1/limits"_s).value(u"disk"_s).toObject();
    if (!disk[u"workspace_bounded"_s].toBool())
        QSKIP(
            "/workspace is not bounded on this host: fill_disk is refused (tst_api_chaos_podman)");
    core::NewChaosFault fill;
    fill.kind = u"fill_disk"_s;
    fill.instanceId = m_instanceId;
    const auto filled = await(client->addChaosFault(fill));
    QVERIFY2(filled.ok, filled.why());
    QTRY_VERIFY2_WITH_TIMEOUT(m_window->statusBar()->currentMessage().contains(u"is full"_s),
                              qPrintable(m_window->statusBar()->currentMessage()), 60000);
    type(u"dd if=/dev/zero of=/workspace/more bs=64k count=4; echo wrote-$?"_s);
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"No space left on device"_s), qPrintable(screen()),
                              15000);
    QVERIFY(!screen().contains(u"wrote-0"_s));
    shoot(u"chaos-disk-full"_s);
    QVERIFY(await(client->clearChaosFault(filled.value->id)).ok);
    QTRY_VERIFY2_WITH_TIMEOUT(m_window->statusBar()->currentMessage().contains(u"was freed"_s),
                              qPrintable(m_window->statusBar()->currentMessage()), 60000);
}

void TestTerminalTab::missingKeyIsNamed()
{
    ui::InstanceTableModel *model = m_window->instanceModel();
    QTRY_VERIFY_WITH_TIMEOUT(model->instance(m_strangerId)
                                 && model->instance(m_strangerId)->state
                                     == core::InstanceState::Running,
                             30000);
    const QString name = model->instance(m_strangerId)->name;
    ui::TerminalTab *tab = m_window->openTerminal(m_strangerId);
    QVERIFY(tab);
    QTRY_VERIFY_WITH_TIMEOUT(
        !tab->statusText().isEmpty()
            && tab->findChild<QPushButton *>(u"reconnectButton"_s)->isVisible(),
        30000);
    const QString status = tab->statusText();
    QVERIFY2(status.contains(m_strangerFingerprint), qPrintable(status));
    QVERIFY2(status.contains(name), qPrintable(status));
    QVERIFY(!tab->isConnected());
    shoot(u"terminal-missing-key"_s);
}

void TestTerminalTab::jupyterOpensInBrowserThroughForward()
{
    // The jupyter image's one-click app, from the instance menu: Open in browser → the URL the
    // browser gets is the app's own (token included) on a local port forwarded over SSH.
    const QString keyId = m_window->instanceModel()->instance(m_instanceId)->sshKeyIds.value(0);
    QVERIFY(!keyId.isEmpty());
    const QString id = create(*m_sim, m_token, {keyId}, QJsonObject{{u"image"_s, u"jupyter"_s}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*m_sim, m_token, id, u"running"_s);
    QVERIFY2(running.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(running).toJson().constData());
    ui::InstanceTableModel *model = m_window->instanceModel();
    QTRY_VERIFY_WITH_TIMEOUT(model->instance(id)
                                 && model->instance(id)->state == core::InstanceState::Running
                                 && !model->instance(id)->apps.isEmpty(),
                             30000);
    const core::InstanceApp app = model->instance(id)->apps.constFirst();
    m_window->selectInstance(id);
    auto *menu = m_window->findChild<QMenu *>(u"appsMenu"_s);
    QVERIFY(menu && menu->menuAction()->isEnabled());
    QAction *open = menu->findChild<QAction *>(u"openApp_"_s + app.name);
    QVERIFY(open);
    ui::SshActions *ssh = m_window->sshActions();
    ssh->setOpenBrowser(false);
    QSignalSpy opened(ssh, &ui::SshActions::appOpened);
    open->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
    const QUrl url = opened.constFirst().constFirst().toUrl();
    QCOMPARE(url.host(), u"127.0.0.1"_s);
    QCOMPARE(url.port(), int(ssh->forwardedPort(id, app.port)));
    QVERIFY2(url.query().contains(u"token="_s), qPrintable(url.toString()));
    QVERIFY(app.hostPort.value_or(0) != url.port()); // not the sandbox's own published port

    // The notebook server starts next to sshd: with the token it answers through the forward.
    QUrl status = url;
    status.setPath(url.path() + u"api/status"_s);
    QNetworkAccessManager net;
    int code = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            std::unique_ptr<QNetworkReply> reply(net.get(QNetworkRequest(status)));
            (void)QTest::qWaitFor([&reply] { return reply->isFinished(); }, 5000);
            code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            return code == 200;
        }(),
        60000);
}

QTEST_MAIN(TestTerminalTab)
#include "tst_terminaltab.moc"
