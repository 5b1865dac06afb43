// The first launch from the launch dialog against cardhour-sim with real containers (podman),
// inside a private keychain (run-with-keyring): a user with no SSH key ticks a dataset and
// presses Launch; the dialog makes an ed25519 key (its random passphrase in the keychain),
// uploads it and launches with it. The box has the dataset at /datasets/demo (SshCommandJob
// `test -d`), and the terminal tab opens a verified shell with the new key. Saves
// launch-first-key.png and launch-first-terminal.png.
#include "CoreTestSupport.h"
#include "GuiTestWindow.h"
#include "LaunchDialog.h"
#include "PodmanApiTest.h"
#include "TerminalTab.h"
#include "TerminalWidget.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "ssh/SshCommandJob.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshTarget.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

class TestLaunchDialogPodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }
    void firstLaunchMakesKeyAndMountsDataset();

private:
    void shoot(QWidget *widget, const QString &name)
    {
        QVERIFY(saveScreenshot(widget, QStringLiteral(CARDHOUR_SCREENSHOT_DIR), name));
    }
};

void TestLaunchDialogPodman::firstLaunchMakesKeyAndMountsDataset()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString folder = m_dir->filePath(u"dataset-demo"_s);
    QVERIFY(QDir().mkpath(folder));
    QFile data(folder + u"/train.csv"_s);
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write("x,y\n1,2\n3,4\n");
    data.close();
    const Cmd added =
        run(SimProcess::binaryPath(),
            {u"datasets"_s, u"add"_s, u"demo"_s, folder, u"--data"_s, sim->dataDir()});
    QVERIFY2(added.ok(), qPrintable(added.describe()));

    const QString token = sim->signUp(u"first@example.com"_s);
    QVERIFY(!token.isEmpty());
    // The widget's commands go through a session; the test points its client at the sim.
    core::ClientSession session{core::ClientSession::Options{}};
    core::ProviderClient &client = *session.client();
    client.setBaseUrl(sim->baseUrl());
    client.setToken(token);
    core::SecretStore secrets(u"CardHourTest-%1"_s.arg(QCoreApplication::applicationPid()));
    secrets.setTimeoutMs(5000);
    core::SshKeyStore keys(&secrets, m_dir->filePath(u"app/ssh"_s));
    QVERIFY(keys.keys().isEmpty());

    ui::LaunchDialog dialog(&session, nullptr, &keys);
    dialog.load();
    dialog.show();
    auto *datasets = dialog.findChild<QListWidget *>(u"datasetList"_s);
    // demo, then the apps' sample datasets the provider made at start (by name).
    QTRY_VERIFY(datasets->count() >= 1);
    QVERIFY2(datasets->item(0)->text().contains(u"demo"_s), qPrintable(datasets->item(0)->text()));
    datasets->item(0)->setCheckState(Qt::Checked);
    QTRY_VERIFY(dialog.findChild<QLabel *>(u"noKeysLabel"_s)->isVisible());
    QPushButton *launch =
        dialog.findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY(launch->isEnabled());
    QCOMPARE(dialog.request().image, u"base"_s);
    QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
    QSignalSpy created(&dialog, &ui::LaunchDialog::keyCreated);
    QTest::mouseClick(launch, Qt::LeftButton);
    // The dialog says what it did in one line while the launch is asked for.
    auto *keyNote = dialog.findChild<QLabel *>(u"keyNoteLabel"_s);
    // The launch may be accepted (and the dialog closed) in the same turn of the event loop
    // that shows the line, so wait for the line's text, not for it to be on screen.
    QTRY_VERIFY_WITH_TIMEOUT(!keyNote->text().isEmpty(), 30000);
    if (keyNote->isVisible())
        shoot(&dialog, u"launch-first-key"_s);
    QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 30000);
    QCOMPARE(created.size(), 1); // and the window hears it after launched()
    QCOMPARE(created.at(0).at(0).toString(), keyNote->text());
    const auto launchedInstance = launched.at(0).at(0).value<core::Instance>();
    m_instanceIds.append(launchedInstance.id);
    QCOMPARE(launchedInstance.datasets, QStringList{u"demo"_s});
    QCOMPARE(launchedInstance.sshKeyIds.size(), 1);

    // The key: in the store, the passphrase in the keychain (where the keychain works).
    QCOMPARE(keys.keys().size(), 1);
    const core::SshKeyPair key = keys.keys().constFirst();
    const QString note = created.at(0).at(0).toString();
    QString passphrase;
    core::SecretReply *stored = keys.passphrase(key);
    QVERIFY(stored);
    bool read = false;
    connect(stored, &core::SecretReply::finished, this, [&] {
        read = true;
        if (stored->ok())
            passphrase = stored->secret();
    });
    QTRY_VERIFY_WITH_TIMEOUT(read, 10000);
    QString why;
    // run-with-keyring says whether its keychain came up; with one, the key must use it.
    if (qgetenv("CARDHOUR_KEYRING") == "ready") {
        QVERIFY2(note.contains(u"its passphrase is in your keychain"_s), qPrintable(note));
        QVERIFY(passphrase.size() >= 32);
        QVERIFY2(key.checkPrivateKey(passphrase, &why), qPrintable(why));
        QVERIFY(!key.checkPrivateKey({}, &why)); // encrypted on disk
    } else {
        qWarning("no keychain in this run (%s): the key is made without a passphrase",
                 qgetenv("CARDHOUR_KEYRING_REASON").constData());
        QVERIFY2(note.contains(u"without a passphrase"_s), qPrintable(note));
        QVERIFY(passphrase.isEmpty());
        QVERIFY2(key.checkPrivateKey({}, &why), qPrintable(why));
    }

    const QJsonObject running = waitFor(*sim, token, launchedInstance.id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    const auto instance = await(client.instance(launchedInstance.id));
    QVERIFY2(instance.ok, instance.why());

    // The dataset is in the box, reached with the new key and the pinned host key.
    const core::SshTarget target = core::SshTarget::fromInstance(*instance.value, key, passphrase);
    QVERIFY2(target.isValid(), qPrintable(target.problem()));
    core::SshCommandJob *job = core::SshCommandJob::start(
        target, u"test -d /datasets/demo && cat /datasets/demo/train.csv"_s, this);
    bool finished = false;
    bool connected = false;
    core::SshConnection::ExecResult result;
    QString jobError;
    connect(job, &core::SshCommandJob::finished, this, [&] {
        finished = true;
        connected = job->connected();
        result = job->result();
        jobError = job->errorMessage();
    });
    QTRY_VERIFY_WITH_TIMEOUT(finished, 60000);
    QVERIFY2(connected, qPrintable(jobError));
    QVERIFY2(result.ok && result.exitStatus == 0, result.err.constData());
    QCOMPARE(result.out, "x,y\n1,2\n3,4\n"_ba);

    // And the terminal opens with it (passphrase from the keychain, host key pinned).
    ui::TerminalTab tab(&session, &keys, *instance.value);
    tab.resize(800, 480);
    tab.show();
    tab.reconnect();
    QTRY_VERIFY2_WITH_TIMEOUT(tab.isConnected(), qPrintable(tab.statusText()), 30000);
    QTest::keyClicks(tab.terminal(), u"ls /datasets/demo; echo first-$((6*7))"_s);
    QTest::keyClick(tab.terminal(), Qt::Key_Return);
    const auto screen = [&tab] { return tab.terminal()->screen()->screenText(); };
    QTRY_VERIFY2_WITH_TIMEOUT(screen().contains(u"\nfirst-42"_s), qPrintable(screen()), 15000);
    QVERIFY2(screen().contains(u"train.csv"_s), qPrintable(screen()));
    shoot(&tab, u"launch-first-terminal"_s);
}

QTEST_MAIN(TestLaunchDialogPodman)
#include "tst_launchdialog_podman.moc"
