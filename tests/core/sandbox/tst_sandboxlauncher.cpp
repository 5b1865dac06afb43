// SandboxLauncher with the real cardhour-sim binary (its path comes from CMake).
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "sandbox/SandboxLauncher.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

#ifdef Q_OS_UNIX
#include <csignal>
#endif

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;

class TestSandboxLauncher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsAndStops();
    void attachesToRunningSandbox();
    void failsWithoutExecutable();
    void failsWithStderrTail();
    void refusesDataDirInUse();
    void reportsUnexpectedExit();
    void defaultDataDirHoldsTheDatasetsOfDatasetsAdd();
    void diesWithAKilledClient();
    // Not a test on its own: the client that diesWithAKilledClient runs and kills.
    void clientThatWaits();

private:
    // A launcher on `dir` that never attaches to a sandbox the developer may run on 8787.
    static void configure(SandboxLauncher &launcher, const QString &dir)
    {
        launcher.setExecutable(QStringLiteral(CARDHOUR_SIM_PATH));
        launcher.setDataDir(dir);
        launcher.setExtraArguments({u"--runtime"_s, u"inprocess"_s});
        launcher.setAttachUrl({});
    }
    static bool answersHealth(const QUrl &url)
    {
        ProviderClient client;
        client.setBaseUrl(url);
        const auto health = await(client.health());
        return health.ok && health.value->service == u"cardhour-sim"_s;
    }
};

void TestSandboxLauncher::startsAndStops()
{
    QTemporaryDir dir;
    SandboxLauncher launcher;
    configure(launcher, dir.path());
    QSignalSpy ready(&launcher, &SandboxLauncher::ready);
    QSignalSpy progress(&launcher, &SandboxLauncher::progress);
    QSignalSpy failed(&launcher, &SandboxLauncher::failed);
    launcher.start();
    QCOMPARE(launcher.state(), SandboxLauncher::State::Starting);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1 || failed.count() == 1, 60000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QCOMPARE(launcher.state(), SandboxLauncher::State::Running);
    QVERIFY(launcher.ownsProcess());
    QVERIFY(launcher.processId() > 0);
    QVERIFY(progress.count() >= 2);

    const QUrl url = ready.first().first().toUrl();
    QCOMPARE(url, launcher.url());
    QCOMPARE(url.host(), u"127.0.0.1"_s);
    QVERIFY(url.port() > 0);
    QVERIFY(answersHealth(url));
    QVERIFY(QFile::exists(dir.filePath(u"cardhour-sim.url"_s)));
    QVERIFY(launcher.providerKey().startsWith(u"cardhour-sandbox:"_s));

    QSignalSpy stopped(&launcher, &SandboxLauncher::stopped);
    launcher.stop();
    QCOMPARE(launcher.state(), SandboxLauncher::State::Stopping);
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 20000);
    QCOMPARE(launcher.state(), SandboxLauncher::State::Idle);
    QVERIFY(!answersHealth(url));
    QVERIFY(!QFile::exists(dir.filePath(u"cardhour-sim.url"_s)));
}

void TestSandboxLauncher::attachesToRunningSandbox()
{
    QTemporaryDir dir;
    SandboxLauncher owner;
    configure(owner, dir.path());
    QSignalSpy ownerReady(&owner, &SandboxLauncher::ready);
    owner.start();
    QTRY_COMPARE_WITH_TIMEOUT(ownerReady.count(), 1, 60000);

    // A second client on the same data directory finds it through the recorded address.
    SandboxLauncher second;
    configure(second, dir.path());
    QSignalSpy secondReady(&second, &SandboxLauncher::ready);
    second.start();
    QTRY_COMPARE_WITH_TIMEOUT(secondReady.count(), 1, 30000);
    QCOMPARE(second.state(), SandboxLauncher::State::Attached);
    QVERIFY(!second.ownsProcess());
    QCOMPARE(second.url(), owner.url());

    // Letting go of someone else's sandbox leaves it running.
    QSignalSpy secondStopped(&second, &SandboxLauncher::stopped);
    second.stop();
    QCOMPARE(secondStopped.count(), 1);
    QVERIFY(answersHealth(owner.url()));

    // An explicit attach address works too (the recorded one is tried first, then this).
    QFile::remove(dir.filePath(u"cardhour-sim.url"_s));
    SandboxLauncher third;
    configure(third, dir.path());
    third.setAttachUrl(owner.url());
    QSignalSpy thirdReady(&third, &SandboxLauncher::ready);
    third.start();
    QTRY_COMPARE_WITH_TIMEOUT(thirdReady.count(), 1, 30000);
    QCOMPARE(third.state(), SandboxLauncher::State::Attached);

    QSignalSpy ownerStopped(&owner, &SandboxLauncher::stopped);
    owner.stop();
    QTRY_COMPARE_WITH_TIMEOUT(ownerStopped.count(), 1, 20000);
}

void TestSandboxLauncher::failsWithoutExecutable()
{
    QTemporaryDir dir;
    SandboxLauncher launcher;
    configure(launcher, dir.path());
    launcher.setExecutable(dir.filePath(u"no-such-cardhour-sim"_s));
    QSignalSpy failed(&launcher, &SandboxLauncher::failed);
    launcher.start();
    QTRY_COMPARE(failed.count(), 1);
    QCOMPARE(launcher.state(), SandboxLauncher::State::Failed);
    QVERIFY(failed.first().first().toString().contains(u"no-such-cardhour-sim"_s));
}

void TestSandboxLauncher::failsWithStderrTail()
{
    QTemporaryDir dir;
    SandboxLauncher launcher;
    configure(launcher, dir.path());
    launcher.setExtraArguments({u"--runtime"_s, u"inprocess"_s, u"--posting-interval"_s, u"0"_s});
    QSignalSpy failed(&launcher, &SandboxLauncher::failed);
    launcher.start();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QCOMPARE(launcher.state(), SandboxLauncher::State::Failed);
    QVERIFY(!failed.first().at(0).toString().isEmpty());
    const QString tail = failed.first().at(1).toString();
    QVERIFY2(tail.contains(u"--posting-interval"_s), qPrintable(tail));
    QCOMPARE(launcher.stderrTail(), tail);
}

void TestSandboxLauncher::refusesDataDirInUse()
{
    // A sandbox holds the directory but nobody recorded where it listens.
    cardhour::test::SimProcess other;
    QVERIFY2(other.start(), qPrintable(other.lastError()));
    SandboxLauncher launcher;
    configure(launcher, other.dataDir());
    QSignalSpy failed(&launcher, &SandboxLauncher::failed);
    launcher.start();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QVERIFY2(failed.first().first().toString().contains(other.dataDir()),
             qPrintable(failed.first().first().toString()));
    QVERIFY(other.isRunning()); // its lock was not broken
}

void TestSandboxLauncher::reportsUnexpectedExit()
{
#ifdef Q_OS_UNIX
    QTemporaryDir dir;
    SandboxLauncher launcher;
    configure(launcher, dir.path());
    QSignalSpy ready(&launcher, &SandboxLauncher::ready);
    launcher.start();
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    QSignalSpy exited(&launcher, &SandboxLauncher::exitedUnexpectedly);
    QVERIFY(::kill(pid_t(launcher.processId()), SIGKILL) == 0);
    QTRY_COMPARE_WITH_TIMEOUT(exited.count(), 1, 20000);
    QCOMPARE(launcher.state(), SandboxLauncher::State::Failed);
    QVERIFY(!exited.first().first().toString().isEmpty());
    // It can be started again afterwards.
    launcher.start();
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 60000);
    QVERIFY(answersHealth(launcher.url()));
#else
    QSKIP("kills the sandbox with a POSIX signal");
#endif
}

void TestSandboxLauncher::defaultDataDirHoldsTheDatasetsOfDatasetsAdd()
{
    // README: `cardhour-sim datasets add NAME DIR` without --data registers the dataset where the
    // sandbox the client starts (no data directory set: the default) reads it.
#if !defined(Q_OS_UNIX) || defined(Q_OS_DARWIN)
    QSKIP("the default folder is steered through XDG_DATA_HOME here (Linux and other XDG systems)");
#endif
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QByteArray savedDataHome = qgetenv("XDG_DATA_HOME");
    const bool hadDataHome = qEnvironmentVariableIsSet("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", QFile::encodeName(home.filePath(u"data"_s)));
    const auto restore = qScopeGuard([&] {
        if (hadDataHome)
            qputenv("XDG_DATA_HOME", savedDataHome);
        else
            qunsetenv("XDG_DATA_HOME");
    });
    QCOMPARE(SandboxLauncher::defaultDataDir(), home.filePath(u"data/CardHour/sandbox"_s));

    const QString folder = home.filePath(u"dataset"_s);
    QVERIFY(QDir().mkpath(folder));
    QFile file(folder + u"/train.csv"_s);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write("a,b\n") == 4);
    file.close();
    QProcess add;
    add.start(QStringLiteral(CARDHOUR_SIM_PATH), {u"datasets"_s, u"add"_s, u"demo"_s, folder});
    QVERIFY(add.waitForFinished(30000));
    QVERIFY2(add.exitCode() == 0, add.readAllStandardError().constData());

    SandboxLauncher launcher;
    launcher.setExecutable(QStringLiteral(CARDHOUR_SIM_PATH));
    launcher.setExtraArguments({u"--runtime"_s, u"inprocess"_s});
    launcher.setAttachUrl({});
    QSignalSpy ready(&launcher, &SandboxLauncher::ready);
    QSignalSpy failed(&launcher, &SandboxLauncher::failed);
    launcher.start();
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1 || failed.count() == 1, 60000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QCOMPARE(launcher.dataDir(), SandboxLauncher::defaultDataDir());

    ProviderClient client;
    client.setBaseUrl(launcher.url());
    const auto session =
        await(client.signUp(u"datasets@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, qPrintable(session.error.describe()));
    QNetworkAccessManager network;
    QNetworkRequest request(launcher.url().resolved(QUrl(u"/v1/datasets"_s)));
    request.setRawHeader("Authorization", "Bearer " + session.value->token.toUtf8());
    QNetworkReply *reply = network.get(request);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    bool listed = false;
    for (const QJsonValue &value : QJsonDocument::fromJson(body).array())
        listed = listed || value.toObject().value(u"name"_s).toString() == u"demo"_s;
    QVERIFY2(listed, body.constData());

    QSignalSpy stopped(&launcher, &SandboxLauncher::stopped);
    launcher.stop();
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 20000);
}

// The client's side of diesWithAKilledClient, run as a child of it: starts a sandbox on
// $CARDHOUR_TEST_CLIENT_DIR, prints its URL and waits to be killed.
void TestSandboxLauncher::clientThatWaits()
{
    const QString dir = qEnvironmentVariable("CARDHOUR_TEST_CLIENT_DIR");
    if (dir.isEmpty())
        QSKIP("run by diesWithAKilledClient");
    SandboxLauncher launcher;
    configure(launcher, dir);
    QSignalSpy ready(&launcher, &SandboxLauncher::ready);
    launcher.start();
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    std::printf("sandbox-url %s\n", qPrintable(launcher.url().toString()));
    std::fflush(stdout);
    QTest::qWait(120000);
}

void TestSandboxLauncher::diesWithAKilledClient()
{
#ifdef Q_OS_LINUX
    // A client killed with SIGKILL runs no destructor; the sandbox it started must still go.
    QTemporaryDir dir;
    QProcess client;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CARDHOUR_TEST_CLIENT_DIR"_s, dir.path());
    client.setProcessEnvironment(env);
    client.start(QCoreApplication::applicationFilePath(), {u"clientThatWaits"_s});
    QUrl url;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            while (client.canReadLine()) {
                const QString line = QString::fromUtf8(client.readLine()).trimmed();
                if (line.startsWith(u"sandbox-url "_s))
                    url = QUrl(line.mid(12));
            }
            return url.isValid() || client.state() == QProcess::NotRunning;
        }(),
        60000);
    QVERIFY2(url.isValid(), client.readAllStandardError().constData());
    QVERIFY(answersHealth(url));
    QVERIFY(::kill(pid_t(client.processId()), SIGKILL) == 0);
    QVERIFY(client.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!answersHealth(url), 30000);
#else
    QSKIP("the parent-death signal is Linux's (prctl PR_SET_PDEATHSIG)");
#endif
}

QTEST_GUILESS_MAIN(TestSandboxLauncher)
#include "tst_sandboxlauncher.moc"
