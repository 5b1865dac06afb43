// Session against a real cardhour-sim and the real Secret Service (run through
// run-with-keyring, like tst_secretstore; without a keychain those tests skip and say why).
// The "keychain unavailable" case runs this program again as a child with `--probe-login`.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "session/SecretStore.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>
#include <QTextStream>

#include <cstring>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::SimProcess;

namespace {

const QString kPassword = u"correct horse battery"_s;
const QString kService = u"CardHour-test-%1"_s.arg(QCoreApplication::applicationPid());

// One client, keychain and session, as the app wires them.
struct Wiring
{
    ProviderClient client;
    SecretStore secrets{kService};
    Session session{&client, &secrets};
};

SecretReply::Status waitFor(SecretReply *reply, QString *secret = nullptr)
{
    auto status = std::make_shared<SecretReply::Status>(SecretReply::Status::Pending);
    auto value = std::make_shared<QString>();
    QObject::connect(reply, &SecretReply::finished, reply, [reply, status, value] {
        *status = reply->status();
        *value = reply->secret();
    });
    (void)QTest::qWaitFor([&status] { return *status != SecretReply::Status::Pending; }, 60000);
    if (secret)
        *secret = *value;
    return *status;
}

// Child: log in with a keychain that cannot be reached; print what the session reported.
int probeLogin(const QString &url, const QString &email)
{
    ProviderClient client;
    SecretStore secrets(kService);
    secrets.setTimeoutMs(20000);
    Session session(&client, &secrets);
    QString storageProblem;
    QObject::connect(&session, &Session::tokenStorageFailed, &session,
                     [&storageProblem](const QString &reason) { storageProblem = reason; });
    session.setProvider(QUrl(url));
    session.logIn(email, kPassword);
    (void)QTest::qWaitFor([&] { return !storageProblem.isEmpty(); }, 60000);
    QTextStream(stdout) << (session.isLoggedIn() ? "LoggedIn" : "NotLoggedIn") << '\n'
                        << (session.isTokenStored() ? "stored" : "memory") << '\n'
                        << storageProblem << '\n';
    return 0;
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void keyForUrl_data();
    void keyForUrl();
    void logInStoresTokenAndRestoreFindsIt();
    void signUpLogsIn();
    void failedLogIn();
    void logOutRevokesAndForgets();
    void expiredTokenIsForgotten();
    void restoreWithRevokedToken();
    void restoreWhileProviderDown();
    void keychainUnavailable();
    void sameProviderAtNewAddressKeepsSession();
    void theOwnersDeviceLogsInThroughAFlood();
    void signUpAnswersTheProvidersProofOfWork();

private:
    QString newAccount();
    void logIn(Wiring &w, const QString &email);

    SimProcess m_sim;
    int m_accounts = 0;
};

void TestSession::initTestCase()
{
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
}

void TestSession::init()
{
    const QLatin1StringView name(QTest::currentTestFunction());
    if (name == "keyForUrl"_L1 || name == "keychainUnavailable"_L1)
        return; // need no keychain
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s) {
        const QString reason = qEnvironmentVariable(
            "CARDHOUR_KEYRING_REASON", u"not run through tests/core/run-with-keyring"_s);
        QSKIP(qPrintable(u"no keychain to test against: "_s + reason));
    }
    if (!m_sim.isRunning())
        QVERIFY2(m_sim.restart(), qPrintable(m_sim.lastError()));
}

QString TestSession::newAccount()
{
    const QString email = u"session%1@example.com"_s.arg(++m_accounts);
    return m_sim.signUp(email, kPassword).isEmpty() ? QString() : email;
}

void TestSession::logIn(Wiring &w, const QString &email)
{
    QSignalSpy loggedIn(&w.session, &Session::loggedIn);
    QSignalSpy failed(&w.session, &Session::failed);
    w.session.setProvider(m_sim.baseUrl());
    w.session.logIn(email, kPassword);
    QTRY_VERIFY(loggedIn.count() == 1 || failed.count() == 1);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(w.session.state(), Session::State::LoggedIn);
    QCOMPARE(w.session.user().email, email);
    QCOMPARE(w.client.token(), w.session.token());
    QTRY_VERIFY(w.session.isTokenStored());
}

void TestSession::keyForUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("key");
    QTest::newRow("plain") << u"http://127.0.0.1:8787"_s << u"http://127.0.0.1:8787"_s;
    QTest::newRow("trailing slash") << u"http://127.0.0.1:8787/"_s << u"http://127.0.0.1:8787"_s;
    QTest::newRow("path prefix") << u"https://cloud.example/api/"_s
                                 << u"https://cloud.example/api"_s;
    QTest::newRow("user info dropped")
        << u"https://me:pw@cloud.example"_s << u"https://cloud.example"_s;
    QTest::newRow("host case") << u"https://Cloud.Example"_s << u"https://cloud.example"_s;
}

void TestSession::keyForUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, key);
    QCOMPARE(Session::keyForUrl(QUrl(url)), key);
}

void TestSession::logInStoresTokenAndRestoreFindsIt()
{
    const QString email = newAccount();
    QVERIFY(!email.isEmpty());
    Wiring first;
    logIn(first, email);

    // The next run of the app: a new client and session find the token in the keychain.
    Wiring next;
    next.session.setProvider(m_sim.baseUrl());
    QSignalSpy restored(&next.session, &Session::restoreFinished);
    QSignalSpy loggedIn(&next.session, &Session::loggedIn);
    next.session.restore();
    QCOMPARE(next.session.state(), Session::State::Restoring);
    QTRY_COMPARE(restored.count(), 1);
    QCOMPARE(restored.first().first().toBool(), true);
    QCOMPARE(loggedIn.count(), 1);
    QCOMPARE(next.session.user().email, email);
    QCOMPARE(next.session.token(), first.session.token());
    QVERIFY(next.session.isTokenStored());
    QVERIFY(cardhour::test::await(next.client.me()).ok);

    // Another provider has its own entry: nothing to restore there.
    Wiring elsewhere;
    elsewhere.session.setProvider(m_sim.baseUrl(), u"cardhour-sandbox:/nowhere"_s);
    QSignalSpy none(&elsewhere.session, &Session::restoreFinished);
    elsewhere.session.restore();
    QTRY_COMPARE(none.count(), 1);
    QCOMPARE(none.first().first().toBool(), false);
    QCOMPARE(elsewhere.session.state(), Session::State::LoggedOut);
}

// Issue 39 N2: every local client is 127.0.0.1, so failures from others lock an account for
// every client without its device token; the session keeps that token (keychain, a key of its
// own that log-out leaves) and the next run logs in with it.
void TestSession::theOwnersDeviceLogsInThroughAFlood()
{
    const QString email = newAccount();
    {
        Wiring first;
        logIn(first, email);
        QSignalSpy loggedOut(&first.session, &Session::loggedOut);
        first.session.logOut();
        QTRY_COMPARE(loggedOut.count(), 1);
    }
    const QJsonObject guess{{u"email"_s, email}, {u"password"_s, u"guess"_s}};
    for (int i = 0; i < 25; ++i)
        QVERIFY(m_sim.post(u"/v1/auth/login"_s, guess).status != 200);
    const QJsonObject right{{u"email"_s, email}, {u"password"_s, kPassword}};
    QCOMPARE(m_sim.post(u"/v1/auth/login"_s, right).status, 429); // no device token: locked

    Wiring next; // a new run: the device token comes from the keychain
    logIn(next, email);
}

void TestSession::signUpAnswersTheProvidersProofOfWork()
{
    // Past 30 sign-ups an hour from one address the provider asks each for a proof of work.
    for (int i = 0; i < 31; ++i)
        (void)m_sim.signUp(u"bulk%1@example.com"_s.arg(i), kPassword);
    const QJsonObject one{{u"email"_s, u"needs-proof@example.com"_s}, {u"password"_s, kPassword}};
    QCOMPARE(m_sim.post(u"/v1/auth/signup"_s, one).status, 429);

    Wiring w;
    w.session.setProvider(m_sim.baseUrl());
    QSignalSpy loggedIn(&w.session, &Session::loggedIn);
    QSignalSpy failed(&w.session, &Session::failed);
    w.session.signUp(u"answers@example.com"_s, kPassword);
    QTRY_VERIFY_WITH_TIMEOUT(loggedIn.count() == 1 || failed.count() == 1, 60000);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(w.session.user().email, u"answers@example.com"_s);
    QVERIFY(m_sim.advance(3601)); // the other tests sign up for free again
}

void TestSession::signUpLogsIn()
{
    Wiring w;
    w.session.setProvider(m_sim.baseUrl());
    QSignalSpy loggedIn(&w.session, &Session::loggedIn);
    w.session.signUp(u"fresh@example.com"_s, kPassword);
    QTRY_COMPARE(loggedIn.count(), 1);
    QCOMPARE(w.session.user().email, u"fresh@example.com"_s);
    QTRY_VERIFY(w.session.isTokenStored());
}

void TestSession::failedLogIn()
{
    const QString email = newAccount();
    Wiring w;
    w.session.setProvider(m_sim.baseUrl());
    QSignalSpy failed(&w.session, &Session::failed);
    QSignalSpy expired(&w.session, &Session::sessionExpired);
    w.session.logIn(email, u"wrong password"_s);
    QTRY_COMPARE(failed.count(), 1);
    const ApiError error = failed.first().first().value<ApiError>();
    QCOMPARE(error.httpStatus, 401);
    QCOMPARE(error.code, u"invalid_credentials"_s);
    QCOMPARE(w.session.state(), Session::State::LoggedOut);
    QVERIFY(w.session.token().isEmpty());
    QCOMPARE(expired.count(), 0);
}

void TestSession::logOutRevokesAndForgets()
{
    const QString email = newAccount();
    Wiring w;
    logIn(w, email);
    const QString token = w.session.token();
    QSignalSpy loggedOut(&w.session, &Session::loggedOut);
    w.session.logOut();
    QTRY_COMPARE(loggedOut.count(), 1);
    QCOMPARE(w.session.state(), Session::State::LoggedOut);
    QVERIFY(w.client.token().isEmpty());
    // Revoked on the provider...
    QCOMPARE(m_sim.authedGet(token, u"/v1/me"_s).status, 401);
    // ...and gone from the keychain.
    QCOMPARE(waitFor(w.secrets.readToken(w.session.providerKey())), SecretReply::Status::NotFound);
}

void TestSession::expiredTokenIsForgotten()
{
    const QString email = newAccount();
    Wiring w;
    logIn(w, email);
    // Revoked behind the app's back (another device logged this token out).
    QCOMPARE(m_sim.authedPost(w.session.token(), u"/v1/auth/logout"_s).status, 204);
    QSignalSpy expired(&w.session, &Session::sessionExpired);
    const auto me = cardhour::test::await(w.client.me());
    QCOMPARE(me.error.httpStatus, 401);
    QTRY_COMPARE(expired.count(), 1);
    QCOMPARE(w.session.state(), Session::State::LoggedOut);
    QTRY_COMPARE(waitFor(w.secrets.readToken(w.session.providerKey())),
                 SecretReply::Status::NotFound);
}

void TestSession::restoreWithRevokedToken()
{
    Wiring w;
    w.session.setProvider(m_sim.baseUrl());
    QCOMPARE(waitFor(w.secrets.writeToken(w.session.providerKey(),
                                          u"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"_s)),
             SecretReply::Status::Ok);
    QSignalSpy restored(&w.session, &Session::restoreFinished);
    QSignalSpy failed(&w.session, &Session::failed);
    w.session.restore();
    QTRY_COMPARE(restored.count(), 1);
    QCOMPARE(restored.first().first().toBool(), false);
    QCOMPARE(failed.count(), 0); // a dead token is not an error to show, just a log-in to ask for
    QCOMPARE(w.session.state(), Session::State::LoggedOut);
    QTRY_COMPARE(waitFor(w.secrets.readToken(w.session.providerKey())),
                 SecretReply::Status::NotFound);
}

void TestSession::restoreWhileProviderDown()
{
    const QString email = newAccount();
    Wiring w;
    logIn(w, email);
    const QString token = w.session.token();
    const QUrl url = m_sim.baseUrl();
    m_sim.kill();

    Wiring next;
    next.session.setProvider(url);
    QSignalSpy restored(&next.session, &Session::restoreFinished);
    QSignalSpy failed(&next.session, &Session::failed);
    next.session.restore();
    QTRY_COMPARE(restored.count(), 1);
    QCOMPARE(restored.first().first().toBool(), false);
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.first().first().value<ApiError>().isUnreachable());
    // The token is kept for when the provider is back.
    QString stored;
    QCOMPARE(waitFor(next.secrets.readToken(next.session.providerKey()), &stored),
             SecretReply::Status::Ok);
    QCOMPARE(stored, token);
    QVERIFY2(m_sim.restart(), qPrintable(m_sim.lastError()));
}

void TestSession::keychainUnavailable()
{
    const QString email = newAccount();
    QVERIFY(!email.isEmpty());
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, u"unix:path=/nonexistent/cardhour-test-bus"_s);
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(),
                {u"--probe-login"_s, m_sim.baseUrl().toString(), email});
    QVERIFY(child.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 90000);
    const QStringList lines = QString::fromUtf8(child.readAllStandardOutput()).split(u'\n');
    // Logged in all the same, the token kept in memory only, and a reason to show.
    QCOMPARE(lines.value(0), u"LoggedIn"_s);
    QCOMPARE(lines.value(1), u"memory"_s);
    QVERIFY2(!lines.value(2).trimmed().isEmpty(), qPrintable(lines.join(u" | "_s)));
}

void TestSession::sameProviderAtNewAddressKeepsSession()
{
    const QString email = newAccount();
    QVERIFY(!email.isEmpty());
    Wiring w;
    const QString key = u"cardhour-sandbox:/tmp/same-sandbox"_s;
    w.session.setProvider(m_sim.baseUrl(), key);
    QSignalSpy loggedIn(&w.session, &Session::loggedIn);
    w.session.logIn(email, kPassword);
    QTRY_COMPARE(loggedIn.count(), 1);
    const QString token = w.session.token();
    QSignalSpy loggedOut(&w.session, &Session::loggedOut);

    // The sandbox came back on another port: still logged in, same token, the new address used.
    QUrl moved = m_sim.baseUrl();
    moved.setPort(moved.port() + 1);
    w.session.setProvider(moved, key);
    QCOMPARE(w.session.state(), Session::State::LoggedIn);
    QCOMPARE(w.session.token(), token);
    QCOMPARE(w.client.baseUrl(), moved);
    QCOMPARE(loggedOut.count(), 0);

    // Another provider is another account.
    w.session.setProvider(moved, u"https://elsewhere.example"_s);
    QCOMPARE(w.session.state(), Session::State::LoggedOut);
    QCOMPARE(loggedOut.count(), 1);
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc > 3 && std::strcmp(argv[1], "--probe-login") == 0)
        return probeLogin(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    TestSession test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_session.moc"
