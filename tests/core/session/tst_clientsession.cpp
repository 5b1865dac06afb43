// ClientSession without a display, against the real cardhour-sim and the real Secret Service
// (run through run-with-keyring; without a keychain the tests skip and say why): log in, switch
// user, the sandbox restarting on another port, an expired token. What is held for one user is
// never shown to another; the same user back keeps it.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "sandbox/SandboxLauncher.h"
#include "session/ClientSession.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#ifdef Q_OS_UNIX
#include <csignal>
#endif

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;
using cardhour::test::SimProcess;

namespace {

const QString kPassword = u"correct horse battery"_s;

// A keychain service of its own for every session, so no test restores another's token.
ClientSession::Options options()
{
    static int sessions = 0;
    ClientSession::Options o;
    o.keychainService =
        u"CardHour-test-%1-%2"_s.arg(QCoreApplication::applicationPid()).arg(++sessions);
    o.reconnectMinMs = 100;
    o.reconnectMaxMs = 500;
    return o;
}

// Logs `core` in as `email` (signing up first when asked) and waits for the first full load.
bool logIn(ClientSession &core, const QString &email, bool signUp)
{
    QSignalSpy loggedIn(&core, &ClientSession::loggedIn);
    QSignalSpy failed(&core, &ClientSession::loginFailed);
    QSignalSpy loaded(&core, &ClientSession::instancesLoaded);
    if (signUp)
        core.signUp(email, kPassword);
    else
        core.logIn(email, kPassword);
    if (!QTest::qWaitFor([&] { return loggedIn.count() || failed.count(); }, 30000)
        || !failed.isEmpty())
        return false;
    return QTest::qWaitFor([&] { return loaded.count() > 0 && core.ticker()->hasData(); }, 30000);
}

QString launch(ClientSession &core, const QString &name)
{
    const NewInstance request{name, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    const auto created = await(core.client()->createInstance(request));
    return created.ok ? created.value->id : QString();
}

} // namespace

class TestClientSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void connectAndLogIn();
    void unreachableProviderIsNamed();
    void switchingUserStartsAfresh();
    void expiredTokenKeepsTheSameUsersView();
    void sandboxRestartedOnAnotherPort();
    void commandsHoldTheirAnswers();
    void streamSignalsAndClockForwarded();

private:
    SimProcess m_sim;
};

void TestClientSession::initTestCase()
{
    QVERIFY2(m_sim.start(), qPrintable(m_sim.lastError()));
}

void TestClientSession::init()
{
    if (QLatin1StringView(QTest::currentTestFunction()) == "unreachableProviderIsNamed"_L1)
        return; // needs no keychain
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s) {
        const QString reason = qEnvironmentVariable(
            "CARDHOUR_KEYRING_REASON", u"not run through tests/core/run-with-keyring"_s);
        QSKIP(qPrintable(u"no keychain to test against: "_s + reason));
    }
}

void TestClientSession::connectAndLogIn()
{
    ClientSession core(options());
    QSignalSpy connecting(&core, &ClientSession::connecting);
    QSignalSpy ready(&core, &ClientSession::providerReady);
    QSignalSpy loginNeeded(&core, &ClientSession::loginNeeded);
    QSignalSpy reset(&core, &ClientSession::resetForUser);
    QSignalSpy billMoved(&core, &ClientSession::billMoved);
    QSignalSpy streamUp(&core, &ClientSession::streamUp);

    core.connectToUrl(m_sim.baseUrl());
    QCOMPARE(connecting.count(), 1);
    QTRY_COMPARE(ready.count(), 1);
    QCOMPARE(ready.first().first().toUrl(), m_sim.baseUrl());
    QTRY_COMPARE(loginNeeded.count(), 1); // no token in the keychain for this provider yet
    QVERIFY(!core.isLoggedIn());

    QVERIFY(logIn(core, u"first@example.com"_s, true));
    QVERIFY(core.isLoggedIn());
    QCOMPARE(reset.count(), 1);
    QCOMPARE(reset.first().first().toString(), core.session()->user().id);
    QCOMPARE(core.userId(), core.session()->user().id);
    QCOMPARE(core.ticker()->balanceMicros(), 10'000'000); // the trial credit
    QVERIFY(billMoved.count() >= 1);
    QTRY_VERIFY(streamUp.count() >= 1);
    QVERIFY(core.events()->isConnected());

    // A launch reaches the session through the stream: its name is kept for the ledger.
    QSignalSpy changed(&core, &ClientSession::instanceChanged);
    const QString id = launch(core, u"train-1"_s);
    QVERIFY(!id.isEmpty());
    QTRY_VERIFY(changed.count() >= 1);
    QCOMPARE(core.instanceNames().value(id), u"train-1"_s);
}

void TestClientSession::unreachableProviderIsNamed()
{
    ClientSession core(options());
    QSignalSpy failed(&core, &ClientSession::connectFailed);
    QSignalSpy ready(&core, &ClientSession::providerReady);
    core.connectToUrl(QUrl(u"http://127.0.0.1:9"_s));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
    QVERIFY(!failed.first().first().toString().isEmpty());
    QCOMPARE(ready.count(), 0);
    QVERIFY(core.session()->providerUrl().isEmpty()); // the session kept no half-chosen provider
}

void TestClientSession::switchingUserStartsAfresh()
{
    QVERIFY(!m_sim.signUp(u"alice@example.com"_s, kPassword).isEmpty());
    QVERIFY(!m_sim.signUp(u"bob@example.com"_s, kPassword).isEmpty());
    ClientSession core(options());
    core.connectToUrl(m_sim.baseUrl());
    QSignalSpy loginNeeded(&core, &ClientSession::loginNeeded);
    QTRY_COMPARE(loginNeeded.count(), 1);
    QVERIFY(logIn(core, u"alice@example.com"_s, false));
    const QString aliceId = core.userId();
    const QString instance = launch(core, u"alices-box"_s);
    QVERIFY(!instance.isEmpty());
    QTRY_VERIFY(core.instanceNames().contains(instance));
    QTRY_VERIFY(core.instance(instance).has_value());
    QCOMPARE(core.instances().size(), 1);
    QCOMPARE(core.instances().first().name, u"alices-box"_s);

    QSignalSpy reset(&core, &ClientSession::resetForUser);
    QSignalSpy loggedOut(&core, &ClientSession::loggedOut);
    core.logOut();
    QTRY_COMPARE(loggedOut.count(), 1);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(reset.first().first().toString(), QString());
    QVERIFY(core.instanceNames().isEmpty());
    QVERIFY(core.instances().isEmpty());
    QVERIFY(!core.ticker()->hasData());
    QVERIFY(!core.events()->isConnected());

    QSignalSpy loaded(&core, &ClientSession::instancesLoaded);
    QVERIFY(logIn(core, u"bob@example.com"_s, false));
    QCOMPARE(reset.count(), 2);
    QVERIFY(core.userId() != aliceId);
    QCOMPARE(reset.last().first().toString(), core.userId());
    QVERIFY(!loaded.isEmpty());
    QVERIFY(loaded.last().first().value<QList<Instance>>().isEmpty()); // none of Alice's
    QVERIFY(!core.instanceNames().contains(instance));
    QVERIFY(!core.instance(instance).has_value());
}

void TestClientSession::expiredTokenKeepsTheSameUsersView()
{
    QVERIFY(!m_sim.signUp(u"carol@example.com"_s, kPassword).isEmpty());
    ClientSession core(options());
    core.connectToUrl(m_sim.baseUrl());
    QSignalSpy loginNeeded(&core, &ClientSession::loginNeeded);
    QTRY_COMPARE(loginNeeded.count(), 1);
    QVERIFY(logIn(core, u"carol@example.com"_s, false));
    const QString instance = launch(core, u"carols-box"_s);
    QTRY_VERIFY(core.instanceNames().contains(instance));

    // The provider revokes the token (here: a log-out with it from elsewhere).
    QCOMPARE(m_sim.authedPost(core.session()->token(), u"/v1/auth/logout"_s).status, 204);
    QSignalSpy reset(&core, &ClientSession::resetForUser);
    core.reload();
    QTRY_COMPARE(loginNeeded.count(), 2);
    QVERIFY(loginNeeded.last().first().toString().contains(u"session has ended"_s));
    QVERIFY(!core.isLoggedIn());
    QCOMPARE(reset.count(), 0);
    QVERIFY(core.instanceNames().contains(instance)); // still shown, waiting for the same user

    QVERIFY(logIn(core, u"carol@example.com"_s, false));
    QCOMPARE(reset.count(), 0); // the same user: nothing was thrown away
    QVERIFY(core.instanceNames().contains(instance));
}

void TestClientSession::sandboxRestartedOnAnotherPort()
{
    QTemporaryDir dir;
    ClientSession::Options o = options();
    o.sandboxExecutable = SimProcess::binaryPath();
    o.sandboxDataDir = dir.path();
    o.sandboxArguments = {u"--runtime"_s, u"inprocess"_s};
    o.sandboxAttach = false;
    ClientSession core(o);
    core.launcher()->setAttachUrl({}); // never a sandbox a developer runs on 8787

    QSignalSpy ready(&core, &ClientSession::providerReady);
    QSignalSpy failed(&core, &ClientSession::connectFailed);
    QSignalSpy loginNeeded(&core, &ClientSession::loginNeeded);
    core.connectToSandbox();
    QVERIFY(core.usingSandbox());
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1 || failed.count() == 1, 60000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    const QUrl first = ready.first().first().toUrl();
    QTRY_COMPARE(loginNeeded.count(), 1);
    QVERIFY(logIn(core, u"dave@example.com"_s, true));
    const QString userId = core.userId();
    const QString instance = launch(core, u"daves-box"_s);
    QVERIFY(!instance.isEmpty());
    QTRY_VERIFY(core.instanceNames().contains(instance));

#ifdef Q_OS_UNIX
    // The sandbox dies; Retry starts it again on a new port, and the same account is still good.
    QSignalSpy lost(&core, &ClientSession::providerLost);
    QSignalSpy reset(&core, &ClientSession::resetForUser);
    QSignalSpy loggedIn(&core, &ClientSession::loggedIn);
    QSignalSpy loaded(&core, &ClientSession::instancesLoaded);
    QVERIFY(::kill(static_cast<pid_t>(core.launcher()->processId()), SIGKILL) == 0);
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, 20000);
    core.retry();
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 2 || failed.count() == 1, 60000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    const QUrl second = ready.last().first().toUrl();
    QVERIFY2(second != first, qPrintable(second.toString()));
    QVERIFY(core.isLoggedIn());
    QCOMPARE(loggedIn.count(), 1);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(core.userId(), userId);
    QCOMPARE(core.client()->baseUrl(), second);
    QTRY_VERIFY(!loaded.isEmpty());
    bool found = false;
    for (const Instance &i : loaded.last().first().value<QList<Instance>>())
        found = found || i.id == instance;
    QVERIFY(found);
    QTRY_VERIFY(core.events()->isConnected());
#endif
}

// The commands are the window's only way to the provider: an answer that carries an instance or
// the balance is held before the caller's own handler reads it, with no event to help (the
// stream is stopped here).
void TestClientSession::commandsHoldTheirAnswers()
{
    QVERIFY(!m_sim.signUp(u"erin@example.com"_s, kPassword).isEmpty());
    ClientSession core(options());
    QSignalSpy runtime(&core, &ClientSession::providerRuntime);
    QSignalSpy loginNeeded(&core, &ClientSession::loginNeeded);
    core.connectToUrl(m_sim.baseUrl());
    QTRY_COMPARE(loginNeeded.count(), 1);
    QCOMPARE(runtime.count(), 1);
    QVERIFY(!core.runtime().isEmpty()); // what /v1/health said runs the hosts
    QCOMPARE(core.runtime(), runtime.first().first().toString());
    QCOMPARE(core.runtimeNote(), runtime.first().at(1).toString());
    QVERIFY(logIn(core, u"erin@example.com"_s, false));
    core.events()->stop();
    QTRY_VERIFY(!core.events()->isConnected());

    QSignalSpy changed(&core, &ClientSession::instanceChanged);
    const NewInstance request{u"held"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    QString id;
    bool heldBeforeCaller = false;
    core.createInstance(request)->onFinished(&core, [&](const Reply<Instance> &r) {
        id = r.ok() ? r.value().id : u"failed: "_s + r.error().describe();
        heldBeforeCaller = r.ok() && core.instance(id).has_value();
    });
    QTRY_VERIFY(!id.isEmpty());
    QVERIFY2(heldBeforeCaller, qPrintable(id));
    QCOMPARE(core.instanceNames().value(id), u"held"_s);
    QCOMPARE(changed.count(), 1);

    bool goneBeforeCaller = false;
    bool answered = false;
    core.terminateInstance(id)->onFinished(&core, [&](const Reply<Instance> &r) {
        answered = true;
        goneBeforeCaller = r.ok() && !core.instance(id).has_value();
    });
    QTRY_VERIFY(answered);
    QVERIFY(goneBeforeCaller);
    QCOMPARE(core.instanceNames().value(id), u"held"_s); // the ledger still names it
    QCOMPARE(changed.count(), 2);

    // A refused command holds nothing.
    answered = false;
    core.stopInstance(u"i-unknown"_s)->onFinished(&core, [&](const Reply<Instance> &r) {
        answered = !r.ok();
    });
    QTRY_VERIFY(answered);
    QCOMPARE(changed.count(), 2);

    QSignalSpy billMoved(&core, &ClientSession::billMoved);
    qint64 shown = -1;
    qint64 toppedUp = -2;
    core.topUp(5'000'000)->onFinished(&core, [&](const Reply<TopupResult> &r) {
        shown = r.ok() ? core.ticker()->balanceMicros() : -2;
        toppedUp = r.ok() ? r.value().balanceMicros : -3;
    });
    QTRY_VERIFY(shown != -1);
    QCOMPARE(shown, toppedUp); // the answer's balance, shown before the caller reads it
    QVERIFY(billMoved.count() >= 1);

    // The plain forwards answer as the provider's calls do.
    const auto gpus = await(core.gpuTypes());
    QVERIFY2(gpus.ok && !gpus.value->isEmpty(), gpus.why());
    const auto all = await(core.fetchInstances(true));
    QVERIFY2(all.ok && all.value->size() == 1, all.why());
    const auto one = await(core.fetchInstance(id));
    QVERIFY2(one.ok && one.value->state == InstanceState::Terminated, one.why());
    const auto page = await(core.ledger(10, 0));
    QVERIFY2(page.ok && !page.value->postings.isEmpty(), page.why());
    QVERIFY(!ClientSession::newIdempotencyKey().isEmpty());
}

// What the window used to take from the EventStream itself comes from the session: the spending
// limits, and the provider's clock from each bill.
void TestClientSession::streamSignalsAndClockForwarded()
{
    QVERIFY(!m_sim.signUp(u"frank@example.com"_s, kPassword).isEmpty());
    ClientSession core(options());
    QSignalSpy loginNeeded(&core, &ClientSession::loginNeeded);
    core.connectToUrl(m_sim.baseUrl());
    QTRY_COMPARE(loginNeeded.count(), 1);
    QVERIFY(logIn(core, u"frank@example.com"_s, false));
    QTRY_VERIFY(core.events()->isConnected());

    QSignalSpy limits(&core, &ClientSession::spendingLimitsChanged);
    SpendingLimitsChange change;
    change.day = SpendingLimitChange{false, std::nullopt, true, qint64(50'000'000)};
    const auto set = await(core.setSpendingLimits(change));
    QVERIFY2(set.ok, set.why());
    QTRY_VERIFY(limits.count() >= 1);
    const auto day = limits.last().first().value<SpendingLimits>().period(u"day"_s);
    QVERIFY(day.has_value());

    QSignalSpy billMoved(&core, &ClientSession::billMoved);
    QVERIFY(await(core.topUp(1'000'000)).ok);
    QTRY_VERIFY(billMoved.count() >= 2); // the answer, then the stream's billing event
    // The provider runs on this machine's clock here: the two agree within moments.
    QVERIFY(qAbs(core.providerClock()->nowMs() - QDateTime::currentMSecsSinceEpoch()) < 5000);
}

QTEST_GUILESS_MAIN(TestClientSession)
#include "tst_clientsession.moc"
