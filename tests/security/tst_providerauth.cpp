// The low items of issue 13 on the provider's authentication, each as an attack on a real
// cardhour-sim:
// - another local user moves a --test-clock provider's clock (and so its bills): the test
//   routes answer only with the run's secret from the 0600 file <data>/test-clock-secret;
// - a stolen database is cheap to guess passwords from: the default scrypt cost is N = 2^17,
//   and a hash made at a lower cost is made again at the default at the next good log-in;
// - one client address makes accounts in bulk (trial credit, a password hash each): past a
//   rate each sign-up needs a proof of work, and nothing is locked (issue 39 N2);
// - log-in failures from the address every local client shares lock no other account, nor the
//   owner's own device (issue 39 N2);
// - a token copied off a machine works forever: it expires after 30 days (token_expired), and
//   the client says the session has expired.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/ProofOfWork.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"
#include "session/Session.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::core::ProviderClient;
using cardhour::test::await;
using cardhour::test::Reply;
using cardhour::test::SimProcess;
namespace proof_of_work = cardhour::core::proof_of_work;

namespace {

constexpr auto kPassword = "correct horse battery"_L1;
constexpr qint64 kDayMs = 24LL * 3600 * 1000;

QJsonObject credentials(const QString &email)
{
    return {{u"email"_s, email}, {u"password"_s, QString(kPassword)}};
}

// The scrypt N stored with `email`'s password hash ("scrypt$N$r$p$salt$hash").
qint64 storedScryptN(const QString &dataDir, const QString &email)
{
    const QString name = u"scrypt-check-"_s + email;
    qint64 n = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(QDir(dataDir).filePath(u"cardhour-sim.sqlite"_s));
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY"_s);
        if (db.open()) {
            QSqlQuery q(db);
            q.prepare(u"SELECT password_hash FROM users WHERE email = ?"_s);
            q.addBindValue(email);
            if (q.exec() && q.next())
                n = q.value(0).toString().section(u'$', 1, 1).toLongLong();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return n;
}

// cardhour-sim exactly as an operator starts it: no --scrypt-cost-log2 (SimProcess passes a
// low one), so that what is measured is the default.
class DefaultSim
{
public:
    bool start(const QString &dataDir)
    {
        m_process.start(SimProcess::binaryPath(),
                        {u"--listen"_s, u"127.0.0.1:0"_s, u"--data"_s, dataDir, u"--runtime"_s,
                         u"inprocess"_s, u"--gpus"_s, u"simulated"_s});
        if (!m_process.waitForStarted(30000))
            return false;
        QElapsedTimer waited;
        waited.start();
        while (!m_process.canReadLine() && waited.elapsed() < 30000
               && m_process.state() == QProcess::Running)
            m_process.waitForReadyRead(200);
        static const QRegularExpression line(u"^listening (http://127\\.0\\.0\\.1:\\d+)\\n$"_s);
        const QRegularExpressionMatch match = line.match(QString::fromUtf8(m_process.readLine()));
        if (!match.hasMatch())
            return false;
        m_url = QUrl(match.captured(1));
        return true;
    }
    bool stop()
    {
        m_process.terminate();
        return m_process.waitForFinished(15000);
    }
    QUrl url() const { return m_url; }

private:
    QProcess m_process;
    QUrl m_url;
};

} // namespace

class TestProviderAuth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void testRoutesNeedTheRunsSecret();
    void defaultScryptCost();
    void weakerHashesAreRehashedAtLogIn();
    void signUpsPastTheRateNeedAProofOfWork();
    void aThousandFailedLogInsLockNoOtherAccount();
    void tokensExpire();
    void anExpiredStoredTokenAsksToLogInAgain();
    void eventStreamsEndWithTheirSession();
};

void TestProviderAuth::initTestCase()
{
    QVERIFY2(!SimProcess::binaryPath().isEmpty(), "CARDHOUR_SIM_BIN is not set");
}

void TestProviderAuth::testRoutesNeedTheRunsSecret()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    const QString secretPath = QDir(sim.dataDir()).filePath(u"test-clock-secret"_s);
    QCOMPARE(QFileInfo(secretPath).permissions()
                 & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser),
             QFile::Permissions());
    QVERIFY(sim.testClockSecret().size() >= 32);
    const qint64 before = sim.get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger();
    QVERIFY(before > 0);

    // Without the secret, or with a wrong one: refused, and nothing moves.
    sim.setSendTestSecret(false);
    const QList<QPair<QByteArray, QString>> routes{{"GET", u"/v1/_test/clock"_s},
                                                   {"POST", u"/v1/_test/clock/advance"_s},
                                                   {"GET", u"/v1/_test/ledger/verify"_s},
                                                   {"POST", u"/v1/_test/runtime/hold"_s},
                                                   {"POST", u"/v1/_test/runtime/release"_s},
                                                   {"POST", u"/v1/_test/runtime/fail-next"_s}};
    const QByteArray body = R"({"seconds": 86400, "hold": true})"_ba;
    for (const auto &[method, path] : routes) {
        const QByteArray sent = method == "POST" ? body : QByteArray();
        const Reply none = sim.request(method, path, sent);
        QVERIFY2(none.status == 403, none.describe().constData());
        QCOMPARE(none.errorCode(), u"test_secret_required"_s);
        const Reply wrong =
            sim.request(method, path, sent, {{SimProcess::kTestSecretHeader, QByteArray(64, 'a')}});
        QVERIFY2(wrong.status == 403, wrong.describe().constData());
        const Reply empty =
            sim.request(method, path, sent, {{SimProcess::kTestSecretHeader, QByteArray()}});
        QVERIFY2(empty.status == 403, empty.describe().constData());
    }
    sim.setSendTestSecret(true);
    QCOMPARE(sim.get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger(), before);
    QVERIFY(sim.advance(10));
    QCOMPARE(sim.get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger(), before + 10'000);

    // Every start writes a new secret: one read before is worth nothing after.
    const QByteArray old = sim.testClockSecret();
    QVERIFY(sim.terminate());
    QVERIFY2(sim.restart(), qPrintable(sim.lastError()));
    QVERIFY(sim.testClockSecret() != old);
    sim.setSendTestSecret(false);
    const Reply stale = sim.request("POST", u"/v1/_test/clock/advance"_s, R"({"seconds": 1})"_ba,
                                    {{SimProcess::kTestSecretHeader, old}});
    QVERIFY2(stale.status == 403, stale.describe().constData());
}

void TestProviderAuth::defaultScryptCost()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    DefaultSim sim;
    QVERIFY(sim.start(data.path()));
    ProviderClient client;
    client.setBaseUrl(sim.url());
    const auto created = await(client.signUp(u"cost@example.com"_s, kPassword));
    QVERIFY2(created.ok, created.why());
    // The first log-in also makes the hash unknown addresses are checked against; time the next.
    QVERIFY(await(client.logIn(u"cost@example.com"_s, kPassword)).ok);
    QElapsedTimer timer;
    timer.start();
    const auto login = await(client.logIn(u"cost@example.com"_s, kPassword));
    const qint64 loginMs = timer.elapsed();
    QVERIFY2(login.ok, login.why());
    // A figure for the record (speed is measured, never asserted).
    qInfo("one log-in at the default scrypt cost took %lld ms (round trip)", loginMs);
    QVERIFY(sim.stop());
    QVERIFY2(storedScryptN(data.path(), u"cost@example.com"_s) >= (qint64(1) << 17),
             "the default password hash is weaker than scrypt N = 2^17");
}

void TestProviderAuth::weakerHashesAreRehashedAtLogIn()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    const QString email = u"old-hash@example.com"_s;
    {
        SimProcess cheap; // --scrypt-cost-log2 10, like an older provider's weaker hashes
        QVERIFY2(cheap.start({u"--scrypt-cost-log2"_s, u"10"_s}, data.path()),
                 qPrintable(cheap.lastError()));
        QVERIFY(!cheap.signUp(email, kPassword).isEmpty());
        QVERIFY(cheap.terminate());
    }
    QCOMPARE(storedScryptN(data.path(), email), qint64(1) << 10);

    DefaultSim sim;
    QVERIFY(sim.start(data.path()));
    ProviderClient client;
    client.setBaseUrl(sim.url());
    const auto wrong = await(client.logIn(email, u"not the password"_s));
    QCOMPARE(wrong.error.code, u"invalid_credentials"_s);
    const auto first = await(client.logIn(email, kPassword)); // the old hash still verifies
    QVERIFY2(first.ok, first.why());
    const auto second = await(client.logIn(email, kPassword)); // so does the new one
    QVERIFY2(second.ok, second.why());
    QVERIFY(sim.stop());
    QCOMPARE(storedScryptN(data.path(), email), qint64(1) << 17);
}

void TestProviderAuth::signUpsPastTheRateNeedAProofOfWork()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    // 30 attempts an hour that get as far as hashing a password, successful or not, are free.
    QVERIFY(!sim.signUp(u"first@example.com"_s, kPassword).isEmpty());
    QCOMPARE(sim.post(u"/v1/auth/signup"_s, credentials(u"first@example.com"_s)).status, 409);
    for (int i = 2; i < 30; ++i)
        QVERIFY2(!sim.signUp(u"bulk%1@example.com"_s.arg(i), kPassword).isEmpty(),
                 qPrintable(sim.lastError()));
    // The next needs a proof of work: no lock, so a script flooding from an address every
    // local client shares (127.0.0.1) denies nobody a sign-up; it only pays more per account.
    const Reply refused = sim.post(u"/v1/auth/signup"_s, credentials(u"one-more@example.com"_s));
    QVERIFY2(refused.status == 429, refused.describe().constData());
    QCOMPARE(refused.errorCode(), u"too_many_attempts"_s);
    cardhour::core::ApiError error;
    error.details = refused.value(u"error"_s).toObject().value(u"details"_s).toObject();
    const auto challenge = proof_of_work::Challenge::fromError(error);
    QVERIFY2(challenge, refused.describe().constData());
    QVERIFY2(challenge->bits >= 16 && challenge->bits <= 22,
             qPrintable(QString::number(challenge->bits)));
    // Nothing was created, and those who have an account still log in.
    QCOMPARE(sim.post(u"/v1/auth/login"_s, credentials(u"one-more@example.com"_s)).status, 401);
    QCOMPARE(sim.post(u"/v1/auth/login"_s, credentials(u"bulk7@example.com"_s)).status, 200);

    // A wrong answer is refused with a new challenge; the right one signs up, once.
    const auto withProof = [](const QString &email, const QByteArray &nonce,
                              const QByteArray &counter) {
        QJsonObject body = credentials(email);
        body.insert(u"proof"_s,
                    QJsonObject{{u"nonce"_s, QString::fromLatin1(nonce)},
                                {u"counter"_s, QString::fromLatin1(counter)}});
        return body;
    };
    const proof_of_work::Answer answer = proof_of_work::solve(*challenge);
    QByteArray wrong = answer.counter;
    wrong.append('0');
    QVERIFY(!proof_of_work::meets(answer.nonce, wrong, challenge->bits) || challenge->bits == 0);
    const Reply wrongAnswer =
        sim.post(u"/v1/auth/signup"_s, withProof(u"one-more@example.com"_s, answer.nonce, wrong));
    QCOMPARE(wrongAnswer.status, 429);
    const Reply created = sim.post(
        u"/v1/auth/signup"_s, withProof(u"one-more@example.com"_s, answer.nonce, answer.counter));
    QVERIFY2(created.status == 201, created.describe().constData());
    const Reply reused = sim.post(u"/v1/auth/signup"_s,
                                  withProof(u"again@example.com"_s, answer.nonce, answer.counter));
    QCOMPARE(reused.status, 429);

    // The desktop client answers the challenge itself: its sign-up just works.
    ProviderClient client;
    client.setBaseUrl(sim.baseUrl());
    const auto first = await(client.signUp(u"client@example.com"_s, kPassword));
    QCOMPARE(first.error.code, u"too_many_attempts"_s);
    const auto pow = proof_of_work::Challenge::fromError(first.error);
    QVERIFY(pow);
    const auto second =
        await(client.signUp(u"client@example.com"_s, kPassword, proof_of_work::solve(*pow)));
    QVERIFY2(second.ok, second.why());

    // Another client address is still free.
    if (SimProcess::loopbackAliasesWork()) {
        const QByteArray body =
            QJsonDocument(credentials(u"elsewhere@example.com"_s)).toJson(QJsonDocument::Compact);
        const Reply other =
            sim.rawFrom(QHostAddress(u"127.0.0.2"_s),
                        cardhour::test::rawRequest("POST", u"/v1/auth/signup"_s, body,
                                                   {{"Content-Type"_ba, "application/json"_ba}}));
        QVERIFY2(other.status == 201, other.describe().constData());
    }

    // An hour later this address signs up for free again.
    QVERIFY(sim.advance(3601));
    QVERIFY2(!sim.signUp(u"later@example.com"_s, kPassword).isEmpty(), qPrintable(sim.lastError()));
}

// Issue 39 N2: on a loopback provider every client is 127.0.0.1. A thousand failed log-ins
// from there against one account lock no other account, and the owner's own device (the
// device token of an earlier log-in) still logs in to the attacked one.
void TestProviderAuth::aThousandFailedLogInsLockNoOtherAccount()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    QVERIFY(!sim.signUp(u"victim@example.com"_s, kPassword).isEmpty());
    QVERIFY(!sim.signUp(u"bystander@example.com"_s, kPassword).isEmpty());
    const Reply ownersLogIn = sim.post(u"/v1/auth/login"_s, credentials(u"victim@example.com"_s));
    QVERIFY2(ownersLogIn.status == 200, ownersLogIn.describe().constData());
    const QString ownersDevice = ownersLogIn.value(u"device_token"_s).toString();
    QCOMPARE(ownersDevice.size(), 43);

    QJsonObject guess{{u"email"_s, u"victim@example.com"_s}, {u"password"_s, u"guess"_s}};
    int refusedAtOnce = 0;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const int status = sim.post(u"/v1/auth/login"_s, guess).status;
        QVERIFY2(status == 401 || status == 429, qPrintable(QString::number(status)));
        refusedAtOnce += status == 429;
    }
    QVERIFY(refusedAtOnce >= 990); // the account's guesses stopped after a handful

    QElapsedTimer timer;
    timer.start();
    const Reply bystander = sim.post(u"/v1/auth/login"_s, credentials(u"bystander@example.com"_s));
    QVERIFY2(bystander.status == 200, bystander.describe().constData());
    qInfo("another account logged in %lld ms after the flood", timer.elapsed());

    // Without a device token the attacked account waits; the owner's device does not.
    QCOMPARE(sim.post(u"/v1/auth/login"_s, credentials(u"victim@example.com"_s)).status, 429);
    QJsonObject owner = credentials(u"victim@example.com"_s);
    owner.insert(u"device_token"_s, ownersDevice);
    const Reply ownerAgain = sim.post(u"/v1/auth/login"_s, owner);
    QVERIFY2(ownerAgain.status == 200, ownerAgain.describe().constData());
    QCOMPARE(ownerAgain.value(u"device_token"_s).toString(), ownersDevice); // kept, not new
    // A device token is the account's own: on another account it counts for nothing.
    QJsonObject borrowed = credentials(u"bystander@example.com"_s);
    borrowed.insert(u"device_token"_s, ownersDevice);
    const Reply other = sim.post(u"/v1/auth/login"_s, borrowed);
    QVERIFY2(other.status == 200, other.describe().constData());
    QVERIFY(other.value(u"device_token"_s).toString() != ownersDevice);

    // The desktop client keeps the token it got and sends it back by itself.
    ProviderClient client;
    client.setBaseUrl(sim.baseUrl());
    const auto plain = await(client.logIn(u"victim@example.com"_s, kPassword));
    QCOMPARE(plain.error.code, u"too_many_attempts"_s);
    const auto withDevice = await(client.logIn(u"victim@example.com"_s, kPassword, ownersDevice));
    QVERIFY2(withDevice.ok, withDevice.why());
}

void TestProviderAuth::tokensExpire()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    const Reply created = sim.post(u"/v1/auth/signup"_s, credentials(u"expiry@example.com"_s));
    QVERIFY2(created.status == 201, created.describe().constData());
    const QString token = created.value(u"token"_s).toString();
    const qint64 now = sim.get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger();
    const qint64 expiresAt = cardhour::test::isoToMs(created.value(u"expires_at"_s).toString());
    QCOMPARE(expiresAt - now, 30 * kDayMs);

    QVERIFY(sim.advance(30 * 24 * 3600.0 - 1));
    QCOMPARE(sim.authedGet(token, u"/v1/me"_s).status, 200);
    QVERIFY(sim.advance(1));
    const Reply expired = sim.authedGet(token, u"/v1/me"_s);
    QVERIFY2(expired.status == 401, expired.describe().constData());
    QCOMPARE(expired.errorCode(), u"token_expired"_s);
    QVERIFY(expired.header("www-authenticate").startsWith("Bearer"));
    // Every route that needs a token, and the event stream, say the same.
    QCOMPARE(sim.authedGet(token, u"/v1/instances"_s).errorCode(), u"token_expired"_s);
    QCOMPARE(sim.authedGet(token, u"/v1/events"_s).status, 401);

    // The client: the call fails saying the session expired, and the session ends.
    ProviderClient client;
    client.setBaseUrl(sim.baseUrl());
    client.setToken(token);
    QSignalSpy ended(&client, &ProviderClient::sessionExpired);
    const auto me = await(client.me());
    QVERIFY(!me.ok);
    QCOMPARE(me.error.code, u"token_expired"_s);
    QVERIFY2(me.error.userMessage().contains(u"expired"_s), qPrintable(me.error.userMessage()));
    QCOMPARE(ended.count(), 1);

    // Logging in again gives a token that works, for another 30 days.
    const auto login = await(client.logIn(u"expiry@example.com"_s, kPassword));
    QVERIFY2(login.ok, login.why());
    client.setToken(login.value->token);
    QVERIFY(await(client.me()).ok);
}

void TestProviderAuth::anExpiredStoredTokenAsksToLogInAgain()
{
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP(qPrintable(u"no keychain to test against: "_s
                         + qEnvironmentVariable("CARDHOUR_KEYRING_REASON",
                                                u"not run through tests/core/run-with-keyring"_s)));
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    cardhour::core::ClientSession::Options options;
    options.keychainService = u"CardHour-providerauth-test"_s;
    {
        cardhour::core::ClientSession first(options);
        QSignalSpy needed(&first, &cardhour::core::ClientSession::loginNeeded);
        QSignalSpy in(&first, &cardhour::core::ClientSession::loggedIn);
        first.connectToUrl(sim.baseUrl());
        QTRY_COMPARE_WITH_TIMEOUT(needed.count(), 1, 20000);
        first.signUp(u"stored@example.com"_s, kPassword);
        QTRY_COMPARE_WITH_TIMEOUT(in.count(), 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(first.session()->isTokenStored(), 20000);
    }
    QVERIFY(sim.advance(31 * 24 * 3600.0));
    // The next start finds the token in the keychain; the provider says it expired.
    cardhour::core::ClientSession next(options);
    QSignalSpy needed(&next, &cardhour::core::ClientSession::loginNeeded);
    next.connectToUrl(sim.baseUrl());
    QTRY_COMPARE_WITH_TIMEOUT(needed.count(), 1, 20000);
    const QString note = needed.first().first().toString();
    QVERIFY2(note.contains(u"expired"_s), qPrintable(note));
    QVERIFY(!next.isLoggedIn());
}

// Streams end with the token that opened them (before: they stayed open after log-out and
// expiry, and streams alone could take every connection of the server).
void TestProviderAuth::eventStreamsEndWithTheirSession()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s, u"--max-event-streams"_s, u"3"_s}),
             qPrintable(sim.lastError()));
    const QString alice = sim.signUp(u"streams-a@example.com"_s);
    const Reply second = sim.post(u"/v1/auth/login"_s, credentials(u"streams-a@example.com"_s));
    QVERIFY2(second.status == 200, second.describe().constData());
    const QString aliceOther = second.value(u"token"_s).toString();
    const QString bob = sim.signUp(u"streams-b@example.com"_s);

    // Log-out ends that token's stream at once, and no other.
    cardhour::test::SseClient loggedOut, sameUser, other;
    QVERIFY(loggedOut.open(sim.port(), alice));
    QVERIFY(sameUser.open(sim.port(), aliceOther));
    QVERIFY(other.open(sim.port(), bob));
    // The cap: a fourth stream is refused (503), the API still answers.
    cardhour::test::SseClient fourth;
    QVERIFY(!fourth.open(sim.port(), bob));
    QCOMPARE(fourth.status(), 503);
    QCOMPARE(sim.authedGet(bob, u"/v1/me"_s).status, 200);

    QCOMPARE(sim.authedPost(alice, u"/v1/auth/logout"_s).status, 204);
    QTRY_VERIFY_WITH_TIMEOUT(!loggedOut.isConnected(), 5000);
    QVERIFY(sameUser.isConnected());
    QVERIFY(other.isConnected());
    // With room again, a new stream opens.
    cardhour::test::SseClient again;
    QVERIFY(again.open(sim.port(), bob));

    // Expiry ends the others within about a second of the clock passing it.
    QVERIFY(sim.advance(30 * 24 * 3600.0 + 1));
    QTRY_VERIFY_WITH_TIMEOUT(!sameUser.isConnected() && !other.isConnected(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!again.isConnected(), 5000);
}

QTEST_GUILESS_MAIN(TestProviderAuth)

#include "tst_providerauth.moc"
