// The client side of spending limits and stop policies against a real cardhour-sim
// (--test-clock, in-process runtime): every route and field of the contract, the refusal's
// wording from the provider's own figures, and the two events.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;
using cardhour::test::awaitState;
using cardhour::test::SimProcess;

class TestSpendingClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    }
    void limitsRoundTrip();
    void stopPolicyRoundTrip();
    void capRefusalNamesThePeriod();
    void eventsArrive();

private:
    void signUp(ProviderClient &client)
    {
        client.setBaseUrl(m_sim.baseUrl());
        const auto session = await(
            client.signUp(u"spend%1@example.com"_s.arg(++m_accounts), u"correct horse battery"_s));
        QVERIFY2(session.ok, session.why());
        client.setToken(session.value->token);
    }
    static NewInstance cheapHost(const StopPolicy &policy = {})
    {
        NewInstance request;
        request.gpuType = u"rtx3090"_s;
        request.image = u"base"_s;
        request.stopPolicy = policy;
        return request;
    }

    SimProcess m_sim;
    int m_accounts = 0;
};

void TestSpendingClient::limitsRoundTrip()
{
    ProviderClient client;
    signUp(client);
    const auto initial = await(client.spendingLimits());
    QVERIFY2(initial.ok, initial.why());
    QCOMPARE(initial.value->timeZone, u"Asia/Shanghai"_s);
    QCOMPARE(initial.value->periods.size(), 3);
    QCOMPARE(initial.value->periods.at(0).period, u"day"_s);
    QVERIFY(!initial.value->periods.at(1).maxMicros);
    QVERIFY(initial.value->periods.at(1).endsAt.isValid());
    QVERIFY(!initial.value->periods.at(2).endsAt.isValid());

    SpendingLimitsChange change;
    SpendingLimitChange month;
    month.setMax = true;
    month.maxMicros = 50'000'000;
    month.setAlert = true;
    month.alertMicros = 40'000'000;
    change.month = month;
    const auto set = await(client.setSpendingLimits(change));
    QVERIFY2(set.ok, set.why());
    QCOMPARE(set.value->period(u"month"_s)->maxMicros.value_or(0), 50'000'000);
    QCOMPARE(set.value->period(u"month"_s)->alertMicros.value_or(0), 40'000'000);
    QVERIFY(!set.value->period(u"day"_s)->maxMicros);

    // Clearing the alert keeps the maximum; a bad value is refused and changes nothing.
    SpendingLimitsChange clear;
    SpendingLimitChange alertOnly;
    alertOnly.setAlert = true;
    clear.month = alertOnly;
    const auto cleared = await(client.setSpendingLimits(clear));
    QVERIFY2(cleared.ok, cleared.why());
    QVERIFY(!cleared.value->period(u"month"_s)->alertMicros);
    QCOMPARE(cleared.value->period(u"month"_s)->maxMicros.value_or(0), 50'000'000);
    SpendingLimitsChange bad;
    SpendingLimitChange negative;
    negative.setMax = true;
    negative.maxMicros = -1;
    bad.day = negative;
    const auto refused = await(client.setSpendingLimits(bad));
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.code, u"invalid_request"_s);
    QVERIFY(!refused.error.userMessage().isEmpty());
}

void TestSpendingClient::stopPolicyRoundTrip()
{
    ProviderClient client;
    signUp(client);
    const auto health = await(client.health());
    QVERIFY(health.ok);
    StopPolicy policy;
    const QDateTime at = health.value->time.addSecs(7200);
    policy.stopAt = at;
    policy.maxCostMicros = 9'000'000;
    policy.idle = IdlePolicy{};
    const auto created = await(client.createInstance(cheapHost(policy)));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(created.value->stopPolicy.maxCostMicros.value_or(0), 9'000'000);
    QCOMPARE(created.value->stopPolicy.stopAt.toMSecsSinceEpoch(), at.toMSecsSinceEpoch());
    QVERIFY(created.value->stopPolicy.idle);
    QCOMPARE(created.value->stopPolicy.idle->windowSeconds, 1800);
    const auto running = awaitState(client, created.value->id, InstanceState::Running);
    QVERIFY(running);
    QVERIFY(running->plannedStop);
    // The idle window (30 min) comes before the stop time once the first sample is in.
    QVERIFY(running->plannedStop->reason == u"idle"_s
            || running->plannedStop->reason == u"max_duration"_s);

    const auto removed = await(client.setStopPolicy(created.value->id, StopPolicy()));
    QVERIFY2(removed.ok, removed.why());
    QVERIFY(removed.value->stopPolicy.isEmpty());
    QVERIFY(!removed.value->plannedStop);
    const auto notPending = await(client.keepRunning(created.value->id));
    QVERIFY(!notPending.ok);
    QCOMPARE(notPending.status, 409);
    QCOMPARE(notPending.error.code, u"invalid_state"_s);
}

void TestSpendingClient::capRefusalNamesThePeriod()
{
    ProviderClient client;
    signUp(client);
    const auto host = await(client.createInstance(cheapHost()));
    QVERIFY2(host.ok, host.why());
    QVERIFY(awaitState(client, host.value->id, InstanceState::Running));
    QVERIFY(m_sim.advance(600)); // ten minutes of an rtx3090: 0.216666 yuan
    SpendingLimitsChange change;
    SpendingLimitChange day;
    day.setMax = true;
    day.maxMicros = 100'000; // 0.10 yuan, below what is spent: the host stops now
    change.day = day;
    QVERIFY(await(client.setSpendingLimits(change)).ok);
    const auto stopped = awaitState(client, host.value->id, InstanceState::Stopped);
    QVERIFY(stopped);
    QCOMPARE(stopped->stateReason, u"spending_limit"_s);
    const auto refused = await(client.createInstance(cheapHost()));
    QVERIFY(!refused.ok);
    QCOMPARE(refused.status, 402);
    QCOMPARE(refused.error.code, u"spending_limit_reached"_s);
    QCOMPARE(refused.error.details.value("period"_L1).toString(), u"day"_s);
    QCOMPARE(refused.error.details.value("max_micros"_L1).toInteger(), 100'000);
    QVERIFY2(refused.error.userMessage().contains(u"¥0.10"_s),
             qPrintable(refused.error.userMessage()));
}

void TestSpendingClient::eventsArrive()
{
    ProviderClient client;
    signUp(client);
    EventStream stream;
    stream.setBaseUrl(m_sim.baseUrl());
    stream.setToken(client.token());
    QSignalSpy connected(&stream, &EventStream::connected);
    QSignalSpy limits(&stream, &EventStream::spendingLimitsChanged);
    QSignalSpy warnings(&stream, &EventStream::stopWarning);
    stream.start();
    QVERIFY(connected.wait(10000));

    SpendingLimitsChange change;
    SpendingLimitChange total;
    total.setMax = true;
    total.maxMicros = 5'000'000;
    change.total = total;
    QVERIFY(await(client.setSpendingLimits(change)).ok);
    QTRY_VERIFY(!limits.isEmpty());
    QCOMPARE(limits.last().at(0).value<SpendingLimits>().period(u"total"_s)->maxMicros.value_or(0),
             5'000'000);

    // A stop time within the warning time: the warning comes with the next tick.
    const auto health = await(client.health());
    QVERIFY(health.ok);
    StopPolicy policy;
    policy.stopAt = health.value->time.addSecs(3600);
    const auto host = await(client.createInstance(cheapHost(policy)));
    QVERIFY2(host.ok, host.why());
    QVERIFY(awaitState(client, host.value->id, InstanceState::Running));
    QVERIFY(m_sim.advance(3600 - 120));
    QTRY_VERIFY_WITH_TIMEOUT(!warnings.isEmpty(), 10000);
    const StopWarning warning = warnings.last().at(0).value<StopWarning>();
    QCOMPARE(warning.instanceId, host.value->id);
    QCOMPARE(warning.reason, u"max_duration"_s);
    QCOMPARE(warning.stopAt.toMSecsSinceEpoch(), policy.stopAt.toMSecsSinceEpoch());
    QVERIFY(m_sim.advance(180));
    const auto stopped = awaitState(client, host.value->id, InstanceState::Stopped);
    QVERIFY(stopped);
    QCOMPARE(stopped->stateReason, u"max_duration"_s);
}

QTEST_GUILESS_MAIN(TestSpendingClient)
#include "tst_spendingclient.moc"
