// HTTP integration tests of sign-up, log-in, log-out, bearer authentication and the
// provider's command line, against the real cardhour-sim process.
#include "SimProcess.h"

#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kTrialCredit = 10'000'000;
const QString kPassword = u"correct horse battery"_s;

QJsonObject credentials(const QString &email, const QString &password)
{
    return {{u"email"_s, email}, {u"password"_s, password}};
}

QByteArray loginBody(const QString &email, const QString &password)
{
    return QJsonDocument(credentials(email, password)).toJson(QJsonDocument::Compact);
}

// Every route that needs a bearer token (the rest is in kPublicRoutes).
struct Route
{
    QByteArray method;
    QString pattern;
};
const QList<Route> kAuthedRoutes = {
    {"POST", u"/v1/auth/logout"_s},
    {"GET", u"/v1/me"_s},
    {"GET", u"/v1/limits"_s},
    {"GET", u"/v1/catalog/gpus"_s},
    {"GET", u"/v1/catalog/images"_s},
    {"GET", u"/v1/ssh-keys"_s},
    {"POST", u"/v1/ssh-keys"_s},
    {"DELETE", u"/v1/ssh-keys/{id}"_s},
    {"POST", u"/v1/instances"_s},
    {"GET", u"/v1/instances"_s},
    {"GET", u"/v1/instances/{id}"_s},
    {"GET", u"/v1/instances/{id}/metrics"_s},
    {"GET", u"/v1/datasets"_s},
    {"POST", u"/v1/instances/{id}/stop"_s},
    {"POST", u"/v1/instances/{id}/start"_s},
    {"POST", u"/v1/instances/{id}/ssh-keys"_s},
    {"DELETE", u"/v1/instances/{id}/ssh-keys/{keyId}"_s},
    {"DELETE", u"/v1/instances/{id}"_s},
    {"POST", u"/v1/instances/{id}/snapshots"_s},
    {"GET", u"/v1/snapshots"_s},
    {"GET", u"/v1/snapshots/{id}"_s},
    {"DELETE", u"/v1/snapshots/{id}"_s},
    {"GET", u"/v1/billing/ledger"_s},
    {"GET", u"/v1/billing/summary"_s},
    {"POST", u"/v1/billing/topup"_s},
    {"GET", u"/v1/events"_s},
    {"PUT", u"/v1/instances/{id}/stop-policy"_s},
    {"POST", u"/v1/instances/{id}/keep-running"_s},
    {"GET", u"/v1/spending-limits"_s},
    {"PUT", u"/v1/spending-limits"_s},
    {"GET", u"/v1/models"_s},
    {"GET", u"/v1/models/{id}"_s},
    {"DELETE", u"/v1/models/{id}"_s},
    {"GET", u"/v1/model-uploads"_s},
    {"POST", u"/v1/model-uploads"_s},
    {"GET", u"/v1/model-uploads/{id}"_s},
    {"PUT", u"/v1/model-uploads/{id}"_s},
    {"DELETE", u"/v1/model-uploads/{id}"_s},
    {"POST", u"/v1/chaos/faults"_s},
    {"GET", u"/v1/chaos/faults"_s},
    {"DELETE", u"/v1/chaos/faults/{id}"_s},
    {"GET", u"/v1/reconciler"_s},
};
const QStringList kPublicRoutes = {
    u"GET /v1/health"_s,
    u"POST /v1/auth/signup"_s,
    u"POST /v1/auth/login"_s,
    // The sandbox's proof of who it is (tests/security/tst_sandboxattach): no token, by design.
    u"POST /v1/_sandbox/prove"_s,
};
const QStringList kTestRoutes = {
    u"GET /v1/_test/clock"_s,
    u"POST /v1/_test/clock/advance"_s,
    u"GET /v1/_test/ledger/verify"_s,
    u"POST /v1/_test/runtime/hold"_s,
    u"POST /v1/_test/runtime/release"_s,
    u"POST /v1/_test/runtime/fail-next"_s,
    u"POST /v1/_test/runtime/fail-next-removal"_s,
    u"POST /v1/_test/runtime/shortchange-next"_s,
    u"POST /v1/_test/billing/leave-open"_s,
    u"POST /v1/_test/reconciler/run"_s,
    u"POST /v1/_test/instances/{id}/interrupt"_s,
};

struct Finished
{
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QByteArray out;
    QByteArray err;
    bool finished = false;
};

Finished runSim(const QStringList &args, int timeoutMs = 30000)
{
    QProcess process;
    process.start(SimProcess::binaryPath(), args);
    Finished result;
    if (!process.waitForStarted(timeoutMs))
        return result;
    result.finished = process.waitForFinished(timeoutMs);
    if (!result.finished) {
        process.kill();
        process.waitForFinished();
    }
    result.exitCode = process.exitCode();
    result.status = process.exitStatus();
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace

class TestApiAuth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void listeningLine();
    void health();
    void refusesNonLoopbackAddress_data();
    void refusesNonLoopbackAddress();
    void testRoutesOnlyWithTestClock();
    void routeTableIsKnown();

    void signUpGrantsTrialCredit();
    void duplicateEmailIsRejected_data();
    void duplicateEmailIsRejected();
    void signUpRejectsBadInput_data();
    void signUpRejectsBadInput();
    void rejectedSignUpCreatesNothing();
    void me();

    void logIn();
    void logInFailures_data();
    void logInFailures();
    void logInIsThrottled_data();
    void logInIsThrottled();
    void failuresOverManyAccountsLockNoOther();
    void failuresOutsideTheWindowDoNotLock();
    void logOutRevokesOnlyThatToken();

    void authedRoutesNeedAValidToken_data();
    void authedRoutesNeedAValidToken();
    void bearerSchemeIsCaseInsensitive();

private:
    SimProcess m_sim;
    QString m_email = u"main.user@example.com"_s;
    QString m_token;
    QString m_userId;
    QString m_revokedToken;
};

void TestApiAuth::initTestCase()
{
    QVERIFY2(!SimProcess::binaryPath().isEmpty(), "CARDHOUR_SIM_BIN is not set; run through ctest");
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    const Reply signup = m_sim.post(u"/v1/auth/signup"_s, credentials(m_email, kPassword));
    QVERIFY2(signup.status == 201, signup.describe().constData());
    m_token = signup.value(u"token"_s).toString();
    m_userId = signup.value(u"user"_s).toObject().value(u"id"_s).toString();
    // A second token of the same user, revoked at once.
    const Reply login = m_sim.post(u"/v1/auth/login"_s, credentials(m_email, kPassword));
    QVERIFY2(login.status == 200, login.describe().constData());
    m_revokedToken = login.value(u"token"_s).toString();
    const Reply logout = m_sim.request("POST", u"/v1/auth/logout"_s, QByteArray(),
                                       SimProcess::bearer(m_revokedToken));
    QVERIFY2(logout.status == 204, logout.describe().constData());
}

void TestApiAuth::cleanupTestCase()
{
    if (m_sim.isRunning())
        QCOMPARE(m_sim.verifyLedger(), QString());
}

// ---- the process ----------------------------------------------------------------------------

void TestApiAuth::listeningLine()
{
    static const QRegularExpression exact(
        u"^listening http://127\\.0\\.0\\.1:([1-9][0-9]{0,4})$"_s);
    const QRegularExpressionMatch match = exact.match(m_sim.firstLine());
    QVERIFY2(match.hasMatch(), qPrintable(m_sim.firstLine()));
    QCOMPARE(match.captured(1).toUInt(), uint(m_sim.port()));
    QCOMPARE(m_sim.baseUrl().toString(), u"http://127.0.0.1:%1"_s.arg(m_sim.port()));
}

void TestApiAuth::health()
{
    const Reply reply = m_sim.get(u"/v1/health"_s);
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.value(u"status"_s).toString(), u"ok"_s);
    QCOMPARE(reply.value(u"service"_s).toString(), u"cardhour-sim"_s);
    QCOMPARE(reply.value(u"test_clock"_s).toBool(), true);
    QVERIFY(isoToMs(reply.value(u"time"_s).toString()) > 0);
    QCOMPARE(reply.value(u"time_zone"_s).toString(), u"Asia/Shanghai"_s);
    QVERIFY(reply.header("content-type").startsWith("application/json"));
}

void TestApiAuth::refusesNonLoopbackAddress_data()
{
    QTest::addColumn<QString>("listen");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("any ipv4") << u"0.0.0.0:0"_s << "refusing to listen"_ba;
    QTest::newRow("documentation address") << u"192.0.2.1:0"_s << "refusing to listen"_ba;
    QTest::newRow("any ipv6") << u"[::]:0"_s << "refusing to listen"_ba;
    QTest::newRow("not host:port") << u"nonsense"_s << "--listen wants HOST:PORT"_ba;
    QTest::newRow("port out of range") << u"127.0.0.1:70000"_s << "--listen wants HOST:PORT"_ba;
}

void TestApiAuth::refusesNonLoopbackAddress()
{
    QFETCH(QString, listen);
    QFETCH(QByteArray, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Finished run = runSim({u"--listen"_s, listen, u"--data"_s, dir.path(), u"--test-clock"_s,
                                 u"--runtime"_s, u"inprocess"_s});
    QVERIFY2(run.finished, "the provider kept running instead of refusing");
    QCOMPARE(run.status, QProcess::NormalExit);
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains(message), run.err.constData());
    QVERIFY2(!run.out.contains("listening"), run.out.constData());
    if (message == "refusing to listen")
        QVERIFY2(run.err.contains("--allow-remote"), run.err.constData());
}

void TestApiAuth::testRoutesOnlyWithTestClock()
{
    SimProcess plain;
    QVERIFY2(plain.start(), qPrintable(plain.lastError()));
    const Reply health = plain.get(u"/v1/health"_s);
    QCOMPARE(health.status, 200);
    QCOMPARE(health.value(u"test_clock"_s).toBool(), false);
    const Reply advance = plain.post(u"/v1/_test/clock/advance"_s, QJsonObject{{u"seconds"_s, 10}});
    QCOMPARE(advance.status, 404);
    QCOMPARE(plain.get(u"/v1/_test/ledger/verify"_s).status, 404);
    QCOMPARE(plain.post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, true}}).status, 404);
    QVERIFY(plain.terminate());
}

void TestApiAuth::routeTableIsKnown()
{
    // If a route is added, this test asks for it to be added to kAuthedRoutes (and so to
    // the 401 checks below) or to the public lists.
    QStringList expected = kPublicRoutes + kTestRoutes;
    for (const Route &route : kAuthedRoutes)
        expected.append(QString::fromLatin1(route.method) + u' ' + route.pattern);
    const Finished withClock = runSim({u"--print-routes"_s, u"--test-clock"_s});
    QCOMPARE(withClock.exitCode, 0);
    QStringList printed = QString::fromUtf8(withClock.out).split(u'\n', Qt::SkipEmptyParts);
    printed.sort();
    expected.sort();
    QCOMPARE(printed, expected);

    // Every route, the test ones too: the list does not depend on the clock asked for.
    const Finished withoutClock = runSim({u"--print-routes"_s});
    QCOMPARE(withoutClock.exitCode, 0);
    QCOMPARE(withoutClock.out, withClock.out);
}

// ---- sign-up ----------------------------------------------------------------------------------

void TestApiAuth::signUpGrantsTrialCredit()
{
    const Reply reply =
        m_sim.post(u"/v1/auth/signup"_s, credentials(u"  New.Person@Example.COM "_s, kPassword));
    QVERIFY2(reply.status == 201, reply.describe().constData());
    const QString token = reply.value(u"token"_s).toString();
    QCOMPARE(token.size(), 43); // 32 random bytes, unpadded base64url
    QVERIFY(QRegularExpression(u"^[A-Za-z0-9_-]{43}$"_s).match(token).hasMatch());
    QCOMPARE(reply.value(u"token_type"_s).toString(), u"Bearer"_s);
    const QJsonObject user = reply.value(u"user"_s).toObject();
    QVERIFY(!user.value(u"id"_s).toString().isEmpty());
    QCOMPARE(user.value(u"email"_s).toString(), u"new.person@example.com"_s);
    QCOMPARE(reply.value(u"balance_micros"_s).toInteger(), kTrialCredit);

    const Reply ledger = m_sim.authedGet(token, u"/v1/billing/ledger"_s);
    QCOMPARE(ledger.status, 200);
    const QJsonArray postings = ledger.value(u"postings"_s).toArray();
    QCOMPARE(postings.size(), 1);
    const QJsonObject trial = postings.at(0).toObject();
    QCOMPARE(trial.value(u"kind"_s).toString(), u"trial_credit"_s);
    QCOMPARE(trial.value(u"amount_micros"_s).toInteger(), kTrialCredit);
    QCOMPARE(trial.value(u"balance_after_micros"_s).toInteger(), kTrialCredit);
    QVERIFY(trial.value(u"instance_id"_s).isNull());
    const QJsonArray entries = trial.value(u"entries"_s).toArray();
    QCOMPARE(entries.size(), 2);
    qint64 sum = 0;
    bool userEntry = false;
    for (const QJsonValue &e : entries) {
        sum += e.toObject().value(u"amount_micros"_s).toInteger();
        if (e.toObject().value(u"account"_s).toString() == u"user"_s) {
            userEntry = true;
            QCOMPARE(e.toObject().value(u"amount_micros"_s).toInteger(), kTrialCredit);
        }
    }
    QVERIFY(userEntry);
    QCOMPARE(sum, 0);
    QCOMPARE(ledger.value(u"balance_micros"_s).toInteger(), kTrialCredit);
    QVERIFY(ledger.value(u"next_before"_s).isNull());
    QCOMPARE(m_sim.verifyLedger(), QString());
}

void TestApiAuth::duplicateEmailIsRejected_data()
{
    QTest::addColumn<QString>("email");
    QTest::newRow("same") << u"main.user@example.com"_s;
    QTest::newRow("upper case") << u"MAIN.USER@EXAMPLE.COM"_s;
    QTest::newRow("mixed case") << u"Main.User@Example.com"_s;
    QTest::newRow("surrounding spaces") << u" main.user@example.com  "_s;
}

void TestApiAuth::duplicateEmailIsRejected()
{
    QFETCH(QString, email);
    const Reply reply = m_sim.post(u"/v1/auth/signup"_s, credentials(email, u"another password"_s));
    QVERIFY2(reply.status == 409, reply.describe().constData());
    QCOMPARE(reply.errorCode(), u"email_taken"_s);
    QVERIFY(!reply.value(u"error"_s).toObject().value(u"message"_s).toString().isEmpty());
    // The original password still works: nothing was overwritten.
    const Reply login = m_sim.post(u"/v1/auth/login"_s, credentials(m_email, kPassword));
    QCOMPARE(login.status, 200);
    QCOMPARE(login.value(u"user"_s).toObject().value(u"id"_s).toString(), m_userId);
}

void TestApiAuth::signUpRejectsBadInput_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("code");
    const auto row = [](const char *name, const QByteArray &body, const QString &code) {
        QTest::newRow(name) << body << code;
    };
    row("password of 7", R"({"email":"p7@example.com","password":"1234567"})"_ba,
        u"weak_password"_s);
    row("empty password", R"({"email":"p0@example.com","password":""})"_ba, u"weak_password"_s);
    row("password of 1025",
        "{\"email\":\"plong@example.com\",\"password\":\""_ba + QByteArray(1025, 'x') + "\"}"_ba,
        u"invalid_field"_s);
    row("no at sign", R"({"email":"plainaddress","password":"12345678"})"_ba, u"invalid_email"_s);
    row("no dot in domain", R"({"email":"a@localhost","password":"12345678"})"_ba,
        u"invalid_email"_s);
    row("space inside", R"({"email":"a b@example.com","password":"12345678"})"_ba,
        u"invalid_email"_s);
    row("no local part", R"({"email":"@example.com","password":"12345678"})"_ba,
        u"invalid_email"_s);
    row("two at signs", R"({"email":"a@b@example.com","password":"12345678"})"_ba,
        u"invalid_email"_s);
    row("double dot domain", R"({"email":"a@example..com","password":"12345678"})"_ba,
        u"invalid_email"_s);
    row("leading hyphen label", R"({"email":"a@-example.com","password":"12345678"})"_ba,
        u"invalid_email"_s);
    row("empty email", R"({"email":"","password":"12345678"})"_ba, u"invalid_field"_s);
    row("email of 255",
        "{\"email\":\""_ba + QByteArray(243, 'a') + "@example.com\",\"password\":\"12345678\"}"_ba,
        u"invalid_field"_s);
    row("missing email", R"({"password":"12345678"})"_ba, u"invalid_field"_s);
    row("missing password", R"({"email":"mp@example.com"})"_ba, u"invalid_field"_s);
    row("email is a number", R"({"email":5,"password":"12345678"})"_ba, u"invalid_field"_s);
    row("email is null", R"({"email":null,"password":"12345678"})"_ba, u"invalid_field"_s);
    row("email is an array", R"({"email":["a@example.com"],"password":"12345678"})"_ba,
        u"invalid_field"_s);
    row("password is a number", R"({"email":"pn@example.com","password":12345678})"_ba,
        u"invalid_field"_s);
    row("password is true", R"({"email":"pt@example.com","password":true})"_ba, u"invalid_field"_s);
    row("unknown field", R"({"email":"u@example.com","password":"12345678","admin":true})"_ba,
        u"unknown_field"_s);
    row("unknown field only", R"({"name":"x"})"_ba, u"unknown_field"_s);
    row("truncated json", R"({"email":"t@example.com","password":)"_ba, u"invalid_json"_s);
    row("trailing comma", R"({"email":"t@example.com","password":"12345678",})"_ba,
        u"invalid_json"_s);
    row("not json", "email=a@example.com&password=12345678"_ba, u"invalid_json"_s);
    row("empty body", QByteArray(), u"invalid_json"_s);
    row("array", R"([{"email":"t@example.com","password":"12345678"}])"_ba, u"invalid_json"_s);
}

void TestApiAuth::signUpRejectsBadInput()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, code);
    const Reply reply = m_sim.request("POST", u"/v1/auth/signup"_s, body,
                                      {{"Content-Type"_ba, "application/json"_ba}});
    QVERIFY2(reply.status == 400, reply.describe().constData());
    QCOMPARE(reply.errorCode(), code);
    QVERIFY(!reply.value(u"error"_s).toObject().value(u"message"_s).toString().isEmpty());
    QVERIFY(!reply.hasHeader("www-authenticate"));
}

void TestApiAuth::rejectedSignUpCreatesNothing()
{
    const QString email = u"retry.after.weak@example.com"_s;
    QCOMPARE(m_sim.post(u"/v1/auth/signup"_s, credentials(email, u"short"_s)).status, 400);
    QCOMPARE(m_sim.post(u"/v1/auth/login"_s, credentials(email, u"short"_s)).status, 401);
    const Reply ok = m_sim.post(u"/v1/auth/signup"_s, credentials(email, kPassword));
    QVERIFY2(ok.status == 201, ok.describe().constData());
    QCOMPARE(ok.value(u"balance_micros"_s).toInteger(), kTrialCredit);
}

void TestApiAuth::me()
{
    const Reply reply = m_sim.authedGet(m_token, u"/v1/me"_s);
    QVERIFY2(reply.status == 200, reply.describe().constData());
    QCOMPARE(reply.value(u"id"_s).toString(), m_userId);
    QCOMPARE(reply.value(u"email"_s).toString(), m_email);
    QVERIFY(isoToMs(reply.value(u"created_at"_s).toString()) > 0);
    QCOMPARE(reply.value(u"balance_micros"_s).toInteger(), kTrialCredit);
    QCOMPARE(reply.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(!reply.object().contains(u"password_hash"_s));
    QVERIFY(!reply.body.contains("scrypt"));
}

// ---- log-in -----------------------------------------------------------------------------------

void TestApiAuth::logIn()
{
    const Reply reply =
        m_sim.post(u"/v1/auth/login"_s, credentials(u"MAIN.User@example.com"_s, kPassword));
    QVERIFY2(reply.status == 200, reply.describe().constData());
    const QString token = reply.value(u"token"_s).toString();
    QCOMPARE(token.size(), 43);
    QVERIFY(token != m_token);
    QCOMPARE(reply.value(u"token_type"_s).toString(), u"Bearer"_s);
    QCOMPARE(reply.value(u"user"_s).toObject().value(u"id"_s).toString(), m_userId);
    QCOMPARE(reply.value(u"user"_s).toObject().value(u"email"_s).toString(), m_email);
    QCOMPARE(reply.value(u"balance_micros"_s).toInteger(), kTrialCredit);
    const Reply me = m_sim.authedGet(token, u"/v1/me"_s);
    QCOMPARE(me.status, 200);
    QCOMPARE(me.value(u"id"_s).toString(), m_userId);
}

void TestApiAuth::logInFailures_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("source");
    // Each from its own address, so these failures do not add up to an address lock.
    QTest::newRow("wrong password") << loginBody(u"main.user@example.com"_s, u"wrong password"_s)
                                    << 401 << u"invalid_credentials"_s << u"127.0.0.41"_s;
    QTest::newRow("unknown email") << loginBody(u"nobody@example.com"_s, kPassword) << 401
                                   << u"invalid_credentials"_s << u"127.0.0.42"_s;
    QTest::newRow("short password is not a 400 at log-in")
        << loginBody(u"main.user@example.com"_s, u"x"_s) << 401 << u"invalid_credentials"_s
        << u"127.0.0.43"_s;
    QTest::newRow("bad json") << "{"_ba << 400 << u"invalid_json"_s << u"127.0.0.44"_s;
    QTest::newRow("password not a string") << R"({"email":"main.user@example.com","password":1})"_ba
                                           << 400 << u"invalid_field"_s << u"127.0.0.45"_s;
    QTest::newRow("unknown field")
        << R"({"email":"main.user@example.com","password":"x","otp":"1"})"_ba << 400
        << u"unknown_field"_s << u"127.0.0.46"_s;
}

void TestApiAuth::logInFailures()
{
    if (!SimProcess::loopbackAliasesWork())
        QSKIP("needs other loopback addresses (127.0.0.x) to look like other clients");
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, source);
    const Reply reply =
        m_sim.rawFrom(QHostAddress(source), rawRequest("POST", u"/v1/auth/login"_s, body));
    QVERIFY2(reply.status == status, reply.describe().constData());
    QCOMPARE(reply.errorCode(), code);
    QVERIFY(!reply.object().contains(u"token"_s));
    if (status == 401) {
        // No hint about which part was wrong.
        QCOMPARE(reply.value(u"error"_s).toObject().value(u"message"_s).toString(),
                 u"Wrong e-mail address or password."_s);
    }
}

void TestApiAuth::logInIsThrottled_data()
{
    QTest::addColumn<QString>("email");
    QTest::addColumn<bool>("exists");
    QTest::addColumn<QString>("attacker");
    QTest::newRow("known e-mail") << u"throttle.known@example.com"_s << true << u"127.0.0.11"_s;
    QTest::newRow("unknown e-mail")
        << u"throttle.unknown@example.com"_s << false << u"127.0.0.21"_s;
}

void TestApiAuth::logInIsThrottled()
{
    if (!SimProcess::loopbackAliasesWork())
        QSKIP("needs other loopback addresses (127.0.0.x) to look like other clients");
    QFETCH(QString, email);
    QFETCH(bool, exists);
    QFETCH(QString, attacker);
    if (exists)
        QVERIFY2(!m_sim.signUp(email, kPassword).isEmpty(), qPrintable(m_sim.lastError()));
    const QHostAddress from(attacker);
    const QHostAddress otherPlace(
        QHostAddress(from.toIPv4Address() + 1)); // same e-mail, other address
    const QHostAddress bystander(
        QHostAddress(from.toIPv4Address() + 2)); // other e-mail, other address

    for (int attempt = 1; attempt <= 5; ++attempt) {
        const Reply reply = m_sim.rawFrom(
            from,
            rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, u"guess %1"_s.arg(attempt))));
        QVERIFY2(reply.status == 401,
                 qPrintable(u"attempt %1: %2"_s.arg(attempt).arg(
                     QString::fromUtf8(reply.describe().constData()))));
    }
    // The sixth try inside the window is refused before the password is looked at, even
    // when it is the right one.
    const Reply sixth =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, kPassword)));
    QVERIFY2(sixth.status == 429, sixth.describe().constData());
    QCOMPARE(sixth.errorCode(), u"too_many_attempts"_s);
    QVERIFY(!sixth.object().contains(u"token"_s));

    // The client backs off, not the account: the same e-mail address from elsewhere is not
    // held up (a flood must not lock the owner out)...
    const Reply elsewhere = m_sim.rawFrom(
        otherPlace, rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, kPassword)));
    QVERIFY2(elsewhere.status == (exists ? 200 : 401), elsewhere.describe().constData());
    // ...nor are other accounts, neither from the same address (its own limit is
    // looser: every local client is 127.0.0.1) nor from elsewhere.
    const Reply sameAddress =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(m_email, kPassword)));
    QVERIFY2(sameAddress.status == 200, sameAddress.describe().constData());
    const Reply bystanderLogin = m_sim.rawFrom(
        bystander, rawRequest("POST", u"/v1/auth/login"_s, loginBody(m_email, kPassword)));
    QVERIFY2(bystanderLogin.status == 200, bystanderLogin.describe().constData());

    // The lock lasts 15 minutes of the provider's clock.
    QVERIFY(m_sim.advance(14 * 60));
    const Reply stillLocked =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, kPassword)));
    QVERIFY2(stillLocked.status == 429, stillLocked.describe().constData());
    QVERIFY(m_sim.advance(60 + 1));
    const Reply after =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, kPassword)));
    QVERIFY2(after.status == (exists ? 200 : 401), after.describe().constData());
}

void TestApiAuth::failuresOverManyAccountsLockNoOther()
{
    if (!SimProcess::loopbackAliasesWork())
        QSKIP("needs other loopback addresses (127.0.0.x) to look like other clients");
    // Twenty failures from one client address, each for a different e-mail address: no count
    // spans accounts (on a local sandbox every client is 127.0.0.1), so the address is not
    // locked out of any other account.
    const QHostAddress from(u"127.0.0.51"_s);
    for (int attempt = 1; attempt <= 20; ++attempt) {
        const Reply reply =
            m_sim.rawFrom(from,
                          rawRequest("POST", u"/v1/auth/login"_s,
                                     loginBody(u"spray%1@example.com"_s.arg(attempt), kPassword)));
        QVERIFY2(
            reply.status == 401,
            qPrintable(u"attempt %1: %2"_s.arg(attempt).arg(QString::fromUtf8(reply.describe()))));
    }
    const Reply sameAddress =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(m_email, kPassword)));
    QVERIFY2(sameAddress.status == 200, sameAddress.describe().constData());
    QVERIFY(!sameAddress.value(u"device_token"_s).toString().isEmpty());
}

void TestApiAuth::failuresOutsideTheWindowDoNotLock()
{
    if (!SimProcess::loopbackAliasesWork())
        QSKIP("needs other loopback addresses (127.0.0.x) to look like other clients");
    const QString email = u"window.user@example.com"_s;
    QVERIFY2(!m_sim.signUp(email, kPassword).isEmpty(), qPrintable(m_sim.lastError()));
    const QHostAddress from(u"127.0.0.31"_s);
    const QByteArray wrong = loginBody(email, u"not it"_s);
    for (int attempt = 1; attempt <= 4; ++attempt)
        QCOMPARE(m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, wrong)).status, 401);
    QVERIFY(m_sim.advance(15 * 60 + 1)); // the window of the first failure has passed
    for (int attempt = 1; attempt <= 4; ++attempt)
        QCOMPARE(m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, wrong)).status, 401);
    const Reply ok =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, kPassword)));
    QVERIFY2(ok.status == 200, ok.describe().constData());
    // A success clears the count: four more failures still do not lock.
    for (int attempt = 1; attempt <= 4; ++attempt)
        QCOMPARE(m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, wrong)).status, 401);
    const Reply again =
        m_sim.rawFrom(from, rawRequest("POST", u"/v1/auth/login"_s, loginBody(email, kPassword)));
    QVERIFY2(again.status == 200, again.describe().constData());
}

void TestApiAuth::logOutRevokesOnlyThatToken()
{
    const QString email = u"logout.user@example.com"_s;
    const QString first = m_sim.signUp(email, kPassword);
    QVERIFY2(!first.isEmpty(), qPrintable(m_sim.lastError()));
    const Reply login = m_sim.post(u"/v1/auth/login"_s, credentials(email, kPassword));
    QCOMPARE(login.status, 200);
    const QString second = login.value(u"token"_s).toString();

    const Reply logout =
        m_sim.request("POST", u"/v1/auth/logout"_s, QByteArray(), SimProcess::bearer(first));
    QVERIFY2(logout.status == 204, logout.describe().constData());
    QVERIFY(logout.body.isEmpty());

    const Reply revoked = m_sim.authedGet(first, u"/v1/me"_s);
    QCOMPARE(revoked.status, 401);
    QCOMPARE(revoked.errorCode(), u"unauthorized"_s);
    const Reply other = m_sim.authedGet(second, u"/v1/me"_s);
    QCOMPARE(other.status, 200);
    QCOMPARE(other.value(u"email"_s).toString(), email);
    // Logging out twice: the token is no longer valid.
    QCOMPARE(
        m_sim.request("POST", u"/v1/auth/logout"_s, QByteArray(), SimProcess::bearer(first)).status,
        401);
    // Another user's token is untouched.
    QCOMPARE(m_sim.authedGet(m_token, u"/v1/me"_s).status, 200);
    // Logging in again gives a working token.
    const Reply again = m_sim.post(u"/v1/auth/login"_s, credentials(email, kPassword));
    QCOMPARE(again.status, 200);
    QCOMPARE(m_sim.authedGet(again.value(u"token"_s).toString(), u"/v1/me"_s).status, 200);
}

// ---- bearer authentication on every route ---------------------------------------------------

void TestApiAuth::authedRoutesNeedAValidToken_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("authorization"); // "-" for no header
    QTest::addColumn<QString>("variant");
    const QList<QPair<QString, QByteArray>> variants = {
        {u"missing"_s, "-"_ba},
        {u"empty bearer"_s, "Bearer "_ba},
        {u"garbage"_s, "Bearer garbage"_ba},
        {u"well-formed but unknown"_s, "Bearer "_ba + QByteArray(43, 'A')},
        {u"token plus junk"_s, "Bearer @TOKEN@x"_ba},
        {u"basic scheme"_s,
         "Basic bWFpbi51c2VyQGV4YW1wbGUuY29tOmNvcnJlY3QgaG9yc2UgYmF0dGVyeQ=="_ba},
        {u"valid token, wrong scheme"_s, "Token @TOKEN@"_ba},
        {u"revoked"_s, "Bearer @REVOKED@"_ba},
    };
    for (const Route &route : kAuthedRoutes) {
        QString path = route.pattern;
        path.replace(u"{id}"_s, u"00000000-0000-4000-8000-000000000000"_s);
        for (const auto &[variant, header] : variants) {
            const QByteArray name =
                route.method + ' ' + route.pattern.toUtf8() + " / " + variant.toUtf8();
            QTest::newRow(name.constData()) << route.method << path << header << variant;
        }
    }
}

void TestApiAuth::authedRoutesNeedAValidToken()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QByteArray, authorization);
    authorization.replace("@TOKEN@", m_token.toLatin1());
    authorization.replace("@REVOKED@", m_revokedToken.toLatin1());
    Headers headers;
    if (authorization != "-")
        headers.append({"Authorization"_ba, authorization});
    const QByteArray body = method == "POST" ? R"({"amount_micros":1000000})"_ba : QByteArray();
    // A raw request: what goes on the wire is exactly what the row says.
    const Reply reply =
        m_sim.rawFrom(QHostAddress::LocalHost, rawRequest(method, path, body, headers));
    QVERIFY2(reply.status == 401, reply.describe().constData());
    QCOMPARE(reply.errorCode(), u"unauthorized"_s);
    QVERIFY2(reply.header("www-authenticate").startsWith("Bearer"),
             reply.header("www-authenticate").constData());
    QVERIFY(reply.header("content-type").startsWith("application/json"));
}

void TestApiAuth::bearerSchemeIsCaseInsensitive()
{
    for (const QByteArray &scheme : {"Bearer"_ba, "bearer"_ba, "BEARER"_ba}) {
        const Reply reply =
            m_sim.rawFrom(QHostAddress::LocalHost,
                          rawRequest("GET", u"/v1/me"_s, {},
                                     {{"Authorization"_ba, scheme + ' ' + m_token.toLatin1()}}));
        QVERIFY2(reply.status == 200, reply.describe().constData());
        QCOMPARE(reply.value(u"id"_s).toString(), m_userId);
    }
    // Nothing in this test class moved money: the balance is the trial credit.
    QCOMPARE(
        m_sim.authedGet(m_token, u"/v1/billing/summary"_s).value(u"balance_micros"_s).toInteger(),
        kTrialCredit);
}

QTEST_GUILESS_MAIN(TestApiAuth)
#include "tst_api_auth.moc"
