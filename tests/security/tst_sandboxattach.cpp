// The attack of issue 13 item 1: another local user binds the port the client attaches to
// (8787, or the one recorded in cardhour-sim.url after a run) and answers /v1/health like
// cardhour-sim, to catch the keychain token or the typed password. Run through run-with-keyring:
// the token really is in a keychain, and Session::restore() really would send it.
#include "FakeSandbox.h"
#include "SandboxSecret.h"
#include "sandbox/SandboxLauncher.h"
#include "session/ClientSession.h"
#include "session/Session.h"

#include <QFile>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::SandboxSecret;
using cardhour::test::FakeSandbox;

namespace {

const QString kPassword = u"squatters never see this"_s;

ClientSession::Options sandboxOptions(const QString &dataDir, const QString &keychainService)
{
    ClientSession::Options o;
    o.sandboxExecutable = QStringLiteral(CARDHOUR_SIM_PATH);
    o.sandboxDataDir = dataDir;
    o.sandboxArguments = {u"--runtime"_s, u"inprocess"_s};
    o.keychainService = keychainService;
    return o;
}

void configure(SandboxLauncher &launcher, const QString &dir)
{
    launcher.setExecutable(QStringLiteral(CARDHOUR_SIM_PATH));
    launcher.setDataDir(dir);
    launcher.setExtraArguments({u"--runtime"_s, u"inprocess"_s});
    launcher.setAttachUrl({});
}

void recordUrl(const QString &dir, const QUrl &url)
{
    QSaveFile file(QDir(dir).filePath(u"cardhour-sim.url"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(url.toEncoded() + '\n');
    QVERIFY(file.commit());
}

} // namespace

class TestSandboxAttach : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void squatterGetsNeitherTokenNorPassword();
    void relayToTheRealSandboxIsRefused();
    void secretOthersCanReadProvesNothing();
    void theRealSandboxIsAttachedTo();
};

void TestSandboxAttach::squatterGetsNeitherTokenNorPassword()
{
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP(qPrintable(u"no keychain to test against: "_s
                         + qEnvironmentVariable("CARDHOUR_KEYRING_REASON",
                                                u"not run through tests/core/run-with-keyring"_s)));
    QTemporaryDir dir;
    const QString keychain = u"CardHour-security-%1"_s.arg(QCoreApplication::applicationPid());
    QString email = u"victim@example.com"_s;
    {
        // The victim's earlier run: an account, its token in the keychain.
        ClientSession first(sandboxOptions(dir.path(), keychain));
        first.launcher()->setAttachUrl({});
        QSignalSpy loggedIn(&first, &ClientSession::loggedIn);
        QSignalSpy loginNeeded(&first, &ClientSession::loginNeeded);
        first.connectToSandbox();
        QTRY_COMPARE_WITH_TIMEOUT(loginNeeded.count(), 1, 60000);
        first.signUp(email, kPassword);
        QTRY_COMPARE_WITH_TIMEOUT(loggedIn.count(), 1, 30000);
        QVERIFY(!first.session()->token().isEmpty());
    }

    // Another user squats both places the client looks: the recorded port and the fixed one.
    FakeSandbox recorded(FakeSandbox::Prove::MadeUp);
    FakeSandbox fixed(FakeSandbox::Prove::MadeUp);
    QVERIFY(recorded.start());
    QVERIFY(fixed.start());
    recordUrl(dir.path(), recorded.url());

    ClientSession second(sandboxOptions(dir.path(), keychain));
    second.launcher()->setAttachUrl(fixed.url());
    QSignalSpy ready(&second, &ClientSession::providerReady);
    QSignalSpy loggedIn(&second, &ClientSession::loggedIn);
    QSignalSpy notices(&second, &ClientSession::notice);
    QSignalSpy refused(second.launcher(), &SandboxLauncher::impostorRefused);
    second.connectToSandbox();
    QTRY_COMPARE_WITH_TIMEOUT(loggedIn.count(), 1, 60000); // the token, restored on the real one
    QCOMPARE(ready.count(), 1);
    const QUrl used = ready.first().first().toUrl();
    QVERIFY(used != recorded.url() && used != fixed.url());
    QCOMPARE(second.launcher()->state(), SandboxLauncher::State::Running);
    QCOMPARE(refused.count(), 2);
    QCOMPARE(notices.count(), 2);
    QVERIFY2(notices.first().first().toString().contains(recorded.url().toString()),
             qPrintable(notices.first().first().toString()));
    // And a typed password goes to the real one as well.
    second.logIn(email, kPassword);
    QTRY_COMPARE_WITH_TIMEOUT(loggedIn.count(), 2, 30000);

    const QByteArray token = second.session()->token().toUtf8();
    for (const FakeSandbox *fake : {&recorded, &fixed}) {
        const QByteArray seen = fake->allReceived();
        QVERIFY(!seen.isEmpty()); // it was asked (health, prove) ...
        QVERIFY(!seen.contains(token)); // ... but got no token
        QVERIFY(!seen.toLower().contains("authorization"));
        QVERIFY(!seen.contains(kPassword.toUtf8()));
        for (const QByteArray &request : fake->requests())
            QVERIFY2(request.startsWith("GET /v1/health ")
                         || request.startsWith("POST /v1/_sandbox/prove "),
                     request.constData());
    }
}

void TestSandboxAttach::relayToTheRealSandboxIsRefused()
{
    // The real sandbox runs; the squatter relays the challenge to it, hoping for its proof.
    QTemporaryDir dir;
    SandboxLauncher owner;
    configure(owner, dir.path());
    QSignalSpy ownerReady(&owner, &SandboxLauncher::ready);
    owner.start();
    QTRY_COMPARE_WITH_TIMEOUT(ownerReady.count(), 1, 60000);
    QFile::remove(dir.filePath(u"cardhour-sim.url"_s)); // only the squatted port is known

    FakeSandbox relay(FakeSandbox::Prove::RelayToRealSandbox);
    relay.setRelayTarget(owner.url());
    QVERIFY(relay.start());

    SandboxLauncher client;
    configure(client, dir.path());
    client.setAttachUrl(relay.url());
    QSignalSpy ready(&client, &SandboxLauncher::ready);
    QSignalSpy refused(&client, &SandboxLauncher::impostorRefused);
    QSignalSpy failed(&client, &SandboxLauncher::failed);
    client.start();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QCOMPARE(relay.proveAnswersRelayed(), 1); // the real one did answer, for its own port
    QCOMPARE(refused.count(), 1);
    QCOMPARE(ready.count(), 0);
    // The real one holds the data directory, so the client says so instead of starting a second.
    QVERIFY2(failed.first().first().toString().contains(QDir::toNativeSeparators(dir.path())),
             qPrintable(failed.first().first().toString()));
}

void TestSandboxAttach::secretOthersCanReadProvesNothing()
{
#ifdef Q_OS_UNIX
    QTemporaryDir dir;
    SandboxLauncher owner;
    configure(owner, dir.path());
    QSignalSpy ownerReady(&owner, &SandboxLauncher::ready);
    owner.start();
    QTRY_COMPARE_WITH_TIMEOUT(ownerReady.count(), 1, 60000);
    const QString secretPath = SandboxSecret::filePath(dir.path());
    // The sandbox wrote it for its owner only.
    const QFileDevice::Permissions others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
        | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
        | QFileDevice::ExeOther;
    QVERIFY(QFile::permissions(secretPath).testFlag(QFileDevice::ReadOwner));
    QCOMPARE(QFile::permissions(secretPath) & others, QFileDevice::Permissions());

    // A secret others could have read (or written) is no proof.
    QVERIFY(QFile::setPermissions(secretPath,
                                  QFile::permissions(secretPath) | QFileDevice::ReadGroup
                                      | QFileDevice::ReadOther));
    SandboxLauncher client;
    configure(client, dir.path());
    QSignalSpy refused(&client, &SandboxLauncher::impostorRefused);
    QSignalSpy failed(&client, &SandboxLauncher::failed);
    client.start();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QCOMPARE(refused.count(), 1);
    QVERIFY2(refused.first().at(1).toString().contains(secretPath),
             qPrintable(refused.first().at(1).toString()));
#else
    QSKIP("Unix permissions");
#endif
}

void TestSandboxAttach::theRealSandboxIsAttachedTo()
{
    QTemporaryDir dir;
    SandboxLauncher owner;
    configure(owner, dir.path());
    QSignalSpy ownerReady(&owner, &SandboxLauncher::ready);
    owner.start();
    QTRY_COMPARE_WITH_TIMEOUT(ownerReady.count(), 1, 60000);
    QCOMPARE(owner.state(), SandboxLauncher::State::Running); // its own child passed the check

    for (const bool recordedUrl : {true, false}) {
        if (!recordedUrl)
            QFile::remove(dir.filePath(u"cardhour-sim.url"_s));
        SandboxLauncher client;
        configure(client, dir.path());
        client.setAttachUrl(owner.url());
        QSignalSpy ready(&client, &SandboxLauncher::ready);
        QSignalSpy refused(&client, &SandboxLauncher::impostorRefused);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        QCOMPARE(client.state(), SandboxLauncher::State::Attached);
        QCOMPARE(client.url(), owner.url());
        QCOMPARE(refused.count(), 0);
    }
}

QTEST_GUILESS_MAIN(TestSandboxAttach)
#include "tst_sandboxattach.moc"
