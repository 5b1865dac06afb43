// HTTP integration tests of metering, the ledger, top-ups, the billing summary and the SSE
// stream, against the real cardhour-sim process on the test clock: exact money, always.
#include "SimProcess.h"

#include <QDateTime>
#include <QTest>
#include <QTimeZone>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kTrialCredit = 10'000'000;
constexpr qint64 kMsPerHour = 3'600'000;

// What a stopped instance's disk costs per hour: the built-in catalog's disk of its GPU type
// (per instance, whatever the card count) at 200 micro-yuan per GiB-hour.
qint64 storageRate(const QString &gpuType)
{
    const qint64 gib = gpuType.startsWith(u"rtx"_s) && gpuType != u"rtx6000ada"_s ? 50
        : gpuType == u"a100-80g"_s || gpuType == u"h100-80g"_s                    ? 200
                                                                                  : 100;
    return gib * 200;
}

// The cost of one uninterrupted run: floor(ms × rate / 1 h), from the whole length.
qint64 cost(qint64 ms, qint64 ratePerHour)
{
    return (ms / kMsPerHour) * ratePerHour + (ms % kMsPerHour) * ratePerHour / kMsPerHour;
}

// First millisecond (after the common start) at which runs at `rates` owe `balance`.
qint64 exhaustionMs(const QList<qint64> &rates, qint64 balance)
{
    const auto owed = [&rates](qint64 t) {
        qint64 total = 0;
        for (const qint64 r : rates)
            total += cost(t, r);
        return total;
    };
    qint64 lo = 0;
    qint64 hi = 1;
    while (owed(hi) < balance)
        hi *= 2;
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (owed(mid) >= balance)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

QJsonObject spec(const QString &gpuType, int count = 1)
{
    return {{u"gpu_type"_s, gpuType}, {u"gpu_count"_s, count}, {u"image"_s, u"base"_s}};
}

QList<QJsonObject> postingsOfKind(const QJsonArray &postings, const QString &kind)
{
    QList<QJsonObject> result;
    for (const QJsonValue &v : postings) {
        if (v.toObject().value(u"kind"_s).toString() == kind)
            result.append(v.toObject());
    }
    return result;
}

qint64 sumOf(const QList<QJsonObject> &postings)
{
    qint64 sum = 0;
    for (const QJsonObject &p : postings)
        sum += p.value(u"amount_micros"_s).toInteger();
    return sum;
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc())
        .toString(u"yyyy-MM-ddTHH:mm:ss.zzzZ"_s);
}

} // namespace

class TestApiBilling : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup();
    void cleanupTestCase();

    void exactCostOfARun_data();
    void exactCostOfARun();
    void checkpointPostings_data();
    void checkpointPostings();
    void exhaustionStopsAtZero();
    void exhaustionWithTwoInstances();
    void launchFinishingAfterExhaustionIsStopped();
    void topUpPostponesExhaustion();
    void deleteClosesBilling();

    void topUp();
    void topUpRejectsBadAmounts_data();
    void topUpRejectsBadAmounts();
    void topUpBalanceLimit();
    void topUpIdempotency();
    void ledgerPaging();
    void ledgerRejectsBadQueries_data();
    void ledgerRejectsBadQueries();
    void summaryOfTwoRunningInstances();

    void eventsHelloAndInstance();
    void eventsAreIsolatedBetweenUsers();
    void eventsReplayAfterLastEventId();

private:
    // A fresh provider (with `args` after --test-clock) and one signed-up user.
    bool startFresh(const QStringList &args = {});
    qint64 runningSince(const QString &id);
    QJsonObject instance(const QString &id)
    {
        return m_sim->authedGet(m_token, u"/v1/instances/"_s + id).object();
    }
    qint64 balance()
    {
        return m_sim->authedGet(m_token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger();
    }

    std::unique_ptr<SimProcess> m_sim;
    QString m_token;
    QString m_userId;
};

bool TestApiBilling::startFresh(const QStringList &args)
{
    m_sim = std::make_unique<SimProcess>();
    if (!m_sim->start(QStringList{u"--test-clock"_s} + args)) {
        qWarning("%s", qPrintable(m_sim->lastError()));
        return false;
    }
    const Reply signup = m_sim->post(u"/v1/auth/signup"_s,
                                     QJsonObject{{u"email"_s, u"billing@example.com"_s},
                                                 {u"password"_s, u"correct horse battery"_s}});
    m_token = signup.value(u"token"_s).toString();
    m_userId = signup.value(u"user"_s).toObject().value(u"id"_s).toString();
    return signup.status == 201;
}

void TestApiBilling::cleanup()
{
    // The provider stays up for the next data row; startFresh() replaces it.
    if (m_sim && m_sim->isRunning())
        QCOMPARE(m_sim->verifyLedger(), QString());
}

void TestApiBilling::cleanupTestCase()
{
    m_sim.reset();
}

qint64 TestApiBilling::runningSince(const QString &id)
{
    return isoToMs(instance(id).value(u"running_since"_s).toString());
}

// ---- metering -------------------------------------------------------------------------------

void TestApiBilling::exactCostOfARun_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("count");
    QTest::addColumn<qint64>("rate");
    QTest::addColumn<QList<double>>("steps"); // clock advances, in seconds, before the stop
    QTest::addColumn<qint64>("expected");
    QTest::newRow("rtx4090, 3 s") << u"rtx4090"_s << 1 << qint64(1'900'000) << QList<double>{3}
                                  << qint64(1583);
    QTest::newRow("2 x rtx4090, 90.5 s in one step")
        << u"rtx4090"_s << 2 << qint64(3'800'000) << QList<double>{90.5}
        << qint64(90'500LL * 3'800'000 / 3'600'000);
    QTest::newRow("2 x rtx4090, 90.5 s as 60 + 30.5")
        << u"rtx4090"_s << 2 << qint64(3'800'000) << QList<double>{60, 30.5} << qint64(95'527);
    QTest::newRow("rtx3090, 7 s as 7 x 1 s") << u"rtx3090"_s << 1 << qint64(1'300'000)
                                             << QList<double>{1, 1, 1, 1, 1, 1, 1} << qint64(2527);
    QTest::newRow("8 x h100, 1 ms")
        << u"h100-80g"_s << 8 << qint64(120'000'000) << QList<double>{0.001} << qint64(33);
    QTest::newRow("rtx6000ada, 0 s")
        << u"rtx6000ada"_s << 1 << qint64(1'900'000) << QList<double>{} << qint64(0);
    QTest::newRow("4 x l40s, 61.001 s")
        << u"l40s"_s << 4 << qint64(14'400'000) << QList<double>{61.001} << qint64(244'004);
}

void TestApiBilling::exactCostOfARun()
{
    QFETCH(QString, gpu);
    QFETCH(int, count);
    QFETCH(qint64, rate);
    QFETCH(QList<double>, steps);
    QFETCH(qint64, expected);
    QVERIFY(startFresh());
    const QString id = m_sim->createRunning(m_token, spec(gpu, count));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    QCOMPARE(instance(id).value(u"price_per_hour_micros"_s).toInteger(), rate);
    const qint64 start = runningSince(id);
    QVERIFY(start > 0);
    qint64 elapsed = 0;
    for (const double step : steps) {
        QVERIFY(m_sim->advance(step));
        elapsed += qRound64(step * 1000);
        // While it runs, cost and balance are exact at every moment.
        QCOMPARE(instance(id).value(u"cost_micros"_s).toInteger(), cost(elapsed, rate));
        QCOMPARE(balance(), kTrialCredit - cost(elapsed, rate));
    }
    QCOMPARE(cost(elapsed, rate), expected);

    const Reply stop = m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(id));
    QVERIFY2(stop.status == 202, stop.describe().constData());
    QCOMPARE(stop.value(u"cost_micros"_s).toInteger(), expected);
    QCOMPARE(stop.value(u"storage_rate_micros_per_hour"_s).toInteger(), storageRate(gpu));
    // Compute ended at the stop request: an hour later no more compute is owed, only an hour
    // of the kept disk, billed apart.
    QVERIFY(m_sim->advance(3600));
    const qint64 storage = storageRate(gpu);
    QCOMPARE(instance(id).value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(instance(id).value(u"cost_micros"_s).toInteger(), expected);
    QCOMPARE(instance(id).value(u"storage_cost_micros"_s).toInteger(), storage);
    QCOMPARE(balance(), kTrialCredit - expected - storage);
    QCOMPARE(m_sim->authedDelete(m_token, u"/v1/instances/"_s + id).status,
             200); // ends the storage fee

    const QJsonArray postings = m_sim->allPostings(m_token);
    const QList<QJsonObject> compute = postingsOfKind(postings, u"compute"_s);
    QCOMPARE(sumOf(compute), -expected);
    QCOMPARE(compute.isEmpty(), expected == 0);
    for (const QJsonObject &p : compute) {
        QCOMPARE(p.value(u"instance_id"_s).toString(), id);
        QCOMPARE(p.value(u"rate_micros_per_hour"_s).toInteger(), rate);
        QVERIFY(p.value(u"amount_micros"_s).toInteger() < 0);
    }
    if (!compute.isEmpty()) {
        // Newest first: the last posting ends at the stop, the first starts at `running`.
        QCOMPARE(compute.first().value(u"period_end"_s).toString(), iso(start + elapsed));
        QCOMPARE(compute.last().value(u"period_start"_s).toString(), iso(start));
    }
    QCOMPARE(sumOf(postingsOfKind(postings, u"storage"_s)), -storage);
    const Reply ledger = m_sim->authedGet(m_token, u"/v1/billing/ledger"_s);
    QCOMPARE(ledger.value(u"balance_micros"_s).toInteger(), kTrialCredit - expected - storage);
    const Reply summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"balance_micros"_s).toInteger(), kTrialCredit - expected - storage);
    QCOMPARE(summary.value(u"ledger_balance_micros"_s).toInteger(),
             kTrialCredit - expected - storage);
    QCOMPARE(summary.value(u"compute_cost_micros"_s).toInteger(), expected);
    QCOMPARE(summary.value(u"storage_cost_micros"_s).toInteger(), storage);
    QCOMPARE(summary.value(u"accrued_micros"_s).toInteger(), 0);
    QCOMPARE(summary.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(summary.value(u"runs_out_at"_s).isNull());
}

void TestApiBilling::checkpointPostings_data()
{
    QTest::addColumn<int>("interval");
    QTest::addColumn<double>("step");
    QTest::newRow("every 60 s, steps of 13.7 s") << 60 << 13.7;
    QTest::newRow("every 60 s, steps of 60 s") << 60 << 60.0;
    QTest::newRow("every 7 s, steps of 2.5 s") << 7 << 2.5;
}

void TestApiBilling::checkpointPostings()
{
    QFETCH(int, interval);
    QFETCH(double, step);
    QVERIFY(startFresh({u"--posting-interval"_s, QString::number(interval)}));
    constexpr qint64 rate = 1'900'000;
    constexpr qint64 runMs = 600'000;
    const QString id = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    const qint64 start = runningSince(id);

    const qint64 stepMs = qRound64(step * 1000);
    qint64 elapsed = 0;
    while (elapsed < runMs) {
        const qint64 ms = std::min(stepMs, runMs - elapsed);
        QVERIFY(m_sim->advance(double(ms) / 1000.0));
        elapsed += ms;
        QCOMPARE(instance(id).value(u"cost_micros"_s).toInteger(), cost(elapsed, rate));
    }
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);

    // Oldest first.
    QList<QJsonObject> compute = postingsOfKind(m_sim->allPostings(m_token), u"compute"_s);
    std::reverse(compute.begin(), compute.end());
    QVERIFY(compute.size() >= runMs / (interval * 1000LL + stepMs));
    qint64 previousEnd = start;
    qint64 previousSeq = 0;
    for (qsizetype i = 0; i < compute.size(); ++i) {
        const QJsonObject &p = compute.at(i);
        const qint64 from = isoToMs(p.value(u"period_start"_s).toString());
        const qint64 to = isoToMs(p.value(u"period_end"_s).toString());
        QCOMPARE(from, previousEnd); // contiguous, no gap, no overlap
        QVERIFY(to > from);
        if (i + 1 < compute.size())
            QVERIFY2(to - from >= interval * 1000LL,
                     qPrintable(u"posting %1 covers %2 ms"_s.arg(i).arg(to - from)));
        // Each posting is the difference of whole-run costs, so rounding never adds up.
        QCOMPARE(-p.value(u"amount_micros"_s).toInteger(),
                 cost(to - start, rate) - cost(from - start, rate));
        QVERIFY(p.value(u"seq"_s).toInteger() > previousSeq);
        previousSeq = p.value(u"seq"_s).toInteger();
        previousEnd = to;
    }
    QCOMPARE(previousEnd, start + runMs);
    QCOMPARE(sumOf(compute), -cost(runMs, rate));
    QCOMPARE(cost(runMs, rate), 316'666);
    QCOMPARE(instance(id).value(u"cost_micros"_s).toInteger(), 316'666);
    QCOMPARE(balance(), kTrialCredit - 316'666);
}

void TestApiBilling::exhaustionStopsAtZero()
{
    QVERIFY(startFresh());
    constexpr qint64 rate = 1'900'000;
    const QString id = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    const qint64 start = runningSince(id);
    // 10 yuan at 1.9 yuan/h last 10000000 / 1900000 h: the first millisecond that owes
    // the whole balance is ceil(10000000 × 3600000 / 1900000) = 18947369 ms after start.
    const qint64 runsOut = start + 18'947'369;
    QCOMPARE(exhaustionMs({rate}, kTrialCredit), qint64(18'947'369));

    Reply summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"runs_out_at"_s).toString(), iso(runsOut));
    QCOMPARE(summary.value(u"spend_rate_micros_per_hour"_s).toInteger(), rate);
    // The prediction does not drift as time passes and checkpoints are posted.
    QVERIFY(m_sim->advance(3600));
    summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"runs_out_at"_s).toString(), iso(runsOut));
    QCOMPARE(summary.value(u"balance_micros"_s).toInteger(), kTrialCredit - rate);
    QVERIFY(m_sim->advance(18'947 - 3600)); // 0.369 s before it runs out (at 5:15:47.369)
    summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"runs_out_at"_s).toString(), iso(runsOut));
    QCOMPARE(instance(id).value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(summary.value(u"balance_micros"_s).toInteger(), kTrialCredit - cost(18'947'000, rate));

    // Ten hours later: stopped by the provider at the exact millisecond, at exactly zero.
    QVERIFY(m_sim->advance(10 * 3600));
    const QJsonObject stopped = instance(id);
    QVERIFY2(stopped.value(u"state"_s).toString() == u"stopping"_s
                 || stopped.value(u"state"_s).toString() == u"stopped"_s,
             qPrintable(stopped.value(u"state"_s).toString()));
    QCOMPARE(stopped.value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
    QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), kTrialCredit);
    QVERIFY(stopped.value(u"running_since"_s).isNull());
    QCOMPARE(m_sim->waitForState(m_token, id, u"stopped"_s).value(u"state_reason"_s).toString(),
             u"balance_exhausted"_s);

    QCOMPARE(balance(), 0);
    const Reply me = m_sim->authedGet(m_token, u"/v1/me"_s);
    QCOMPARE(me.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"balance_micros"_s).toInteger(), 0);
    QCOMPARE(summary.value(u"ledger_balance_micros"_s).toInteger(), 0);
    QVERIFY(summary.value(u"runs_out_at"_s).isNull());

    const QJsonArray postings = m_sim->allPostings(m_token);
    const QList<QJsonObject> compute = postingsOfKind(postings, u"compute"_s);
    QCOMPARE(sumOf(compute), -kTrialCredit);
    QCOMPARE(compute.first().value(u"period_end"_s).toString(), iso(runsOut));
    QCOMPARE(compute.first().value(u"balance_after_micros"_s).toInteger(), 0);
    for (const QJsonValue &p : postings)
        QVERIFY(p.toObject().value(u"balance_after_micros"_s).toInteger() >= 0);
    QCOMPARE(m_sim->verifyLedger(), QString());

    // Nothing more is charged, and nothing new can start until a top-up.
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(m_sim->allPostings(m_token).size(), postings.size());
    const Reply restart = m_sim->authedPost(m_token, u"/v1/instances/%1/start"_s.arg(id));
    QCOMPARE(restart.status, 402);
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances"_s, spec(u"rtx3090"_s)).status, 402);
    const Reply topup = m_sim->authedPost(m_token, u"/v1/billing/topup"_s,
                                          QJsonObject{{u"amount_micros"_s, 1'000'000}});
    QCOMPARE(topup.status, 201);
    QCOMPARE(topup.value(u"balance_micros"_s).toInteger(), 1'000'000);
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances/%1/start"_s.arg(id)).status, 202);
    QCOMPARE(m_sim->waitForState(m_token, id, u"running"_s).value(u"state_reason"_s), QJsonValue());
}

void TestApiBilling::exhaustionWithTwoInstances()
{
    QVERIFY(startFresh());
    const QString a = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    const QString b = m_sim->createRunning(m_token, spec(u"l40s"_s, 2));
    QVERIFY2(!a.isEmpty() && !b.isEmpty(), qPrintable(m_sim->lastError()));
    const qint64 start = runningSince(a);
    QCOMPARE(runningSince(b), start); // the test clock did not move in between
    const QList<qint64> rates{1'900'000, 7'200'000};
    const qint64 outMs = exhaustionMs(rates, kTrialCredit);
    const Reply summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"spend_rate_micros_per_hour"_s).toInteger(), 9'100'000);
    QCOMPARE(summary.value(u"runs_out_at"_s).toString(), iso(start + outMs));

    QVERIFY(m_sim->advance(3 * 3600));
    for (const QString &id : {a, b}) {
        const QJsonObject o = m_sim->waitForState(m_token, id, u"stopped"_s);
        QCOMPARE(o.value(u"state"_s).toString(), u"stopped"_s);
        QCOMPARE(o.value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
    }
    QCOMPARE(balance(), 0);
    const QList<QJsonObject> compute = postingsOfKind(m_sim->allPostings(m_token), u"compute"_s);
    QCOMPARE(sumOf(compute), -kTrialCredit);
    for (const QJsonObject &p : compute)
        QVERIFY(isoToMs(p.value(u"period_end"_s).toString()) <= start + outMs);
    // Each instance's cost is its own exact run cost up to the moment the money ran out
    // (what could not be paid of the last millisecond is written off, never owed).
    const qint64 costA = instance(a).value(u"cost_micros"_s).toInteger();
    const qint64 costB = instance(b).value(u"cost_micros"_s).toInteger();
    QCOMPARE(costA, cost(outMs, rates.at(0)));
    QCOMPARE(costB, cost(outMs, rates.at(1)));
    QVERIFY(costA + costB >= kTrialCredit);
    QVERIFY(costA + costB < kTrialCredit + 2);
}

void TestApiBilling::launchFinishingAfterExhaustionIsStopped()
{
    QVERIFY(startFresh());
    const QString first = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    QVERIFY2(!first.isEmpty(), qPrintable(m_sim->lastError()));
    // A second instance is still starting (held) when the money runs out.
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, true}}).status, 204);
    const Reply created = m_sim->authedPost(m_token, u"/v1/instances"_s, spec(u"rtx6000ada"_s));
    QCOMPARE(created.status, 202);
    const QString late = created.value(u"id"_s).toString();
    QCOMPARE(m_sim->waitForState(m_token, late, u"starting"_s).value(u"state"_s).toString(),
             u"starting"_s);
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, false}}).status, 204);
    QVERIFY(m_sim->advance(10 * 3600));
    QCOMPARE(m_sim->waitForState(m_token, first, u"stopped"_s).value(u"state_reason"_s).toString(),
             u"balance_exhausted"_s);
    QCOMPARE(balance(), 0);

    // Its launch completes now, with nothing left to pay for it: the provider stops it
    // without charging anything (its own ticker notices within a second or two).
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/release"_s, QJsonObject()).status, 204);
    const QJsonObject stopped = m_sim->waitForState(m_token, late, u"stopped"_s, 10000);
    QCOMPARE(stopped.value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(stopped.value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
    QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), 0);
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(balance(), 0);
    QCOMPARE(sumOf(postingsOfKind(m_sim->allPostings(m_token), u"compute"_s)), -kTrialCredit);
}

void TestApiBilling::topUpPostponesExhaustion()
{
    QVERIFY(startFresh());
    constexpr qint64 rate = 1'900'000;
    const QString id = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    const qint64 start = runningSince(id);
    QVERIFY(m_sim->advance(5 * 3600)); // 9.5 yuan spent
    QCOMPARE(balance(), kTrialCredit - 5 * rate);
    const Reply topup = m_sim->authedPost(m_token, u"/v1/billing/topup"_s,
                                          QJsonObject{{u"amount_micros"_s, 1'900'000}});
    QCOMPARE(topup.status, 201);
    QCOMPARE(topup.value(u"balance_micros"_s).toInteger(), kTrialCredit - 5 * rate + 1'900'000);
    const qint64 outMs = exhaustionMs({rate}, kTrialCredit + 1'900'000);
    QCOMPARE(m_sim->authedGet(m_token, u"/v1/billing/summary"_s).value(u"runs_out_at"_s).toString(),
             iso(start + outMs));
    // Past the old moment, still running; past the new one, stopped at exactly zero.
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(instance(id).value(u"state"_s).toString(), u"running"_s);
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(instance(id).value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
    QCOMPARE(instance(id).value(u"cost_micros"_s).toInteger(), kTrialCredit + 1'900'000);
    QCOMPARE(balance(), 0);
    const QList<QJsonObject> compute = postingsOfKind(m_sim->allPostings(m_token), u"compute"_s);
    QCOMPARE(compute.first().value(u"period_end"_s).toString(), iso(start + outMs));
}

void TestApiBilling::deleteClosesBilling()
{
    QVERIFY(startFresh());
    const QString id = m_sim->createRunning(m_token, spec(u"rtx4090"_s, 4));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    QVERIFY(m_sim->advance(45.25));
    const Reply removed = m_sim->authedDelete(m_token, u"/v1/instances/"_s + id);
    QCOMPARE(removed.status, 200);
    const qint64 expected = cost(45'250, 7'600'000);
    QCOMPARE(removed.value(u"cost_micros"_s).toInteger(), expected);
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(instance(id).value(u"cost_micros"_s).toInteger(), expected);
    QCOMPARE(balance(), kTrialCredit - expected);
    QCOMPARE(sumOf(postingsOfKind(m_sim->allPostings(m_token), u"compute"_s)), -expected);
}

// ---- top-ups --------------------------------------------------------------------------------

void TestApiBilling::topUp()
{
    QVERIFY(startFresh());
    const Reply reply = m_sim->authedPost(m_token, u"/v1/billing/topup"_s,
                                          QJsonObject{{u"amount_micros"_s, 25'500'000}});
    QVERIFY2(reply.status == 201, reply.describe().constData());
    QCOMPARE(reply.value(u"balance_micros"_s).toInteger(), kTrialCredit + 25'500'000);
    const QJsonObject posting = reply.value(u"posting"_s).toObject();
    QCOMPARE(posting.value(u"kind"_s).toString(), u"topup"_s);
    QCOMPARE(posting.value(u"amount_micros"_s).toInteger(), 25'500'000);
    QCOMPARE(posting.value(u"balance_after_micros"_s).toInteger(), kTrialCredit + 25'500'000);
    QVERIFY(posting.value(u"instance_id"_s).isNull());
    QCOMPARE(balance(), kTrialCredit + 25'500'000);

    const QJsonArray postings = m_sim->allPostings(m_token);
    QCOMPARE(postings.size(), 2);
    QCOMPARE(postings.at(0).toObject(), posting); // newest first, same as the response
    QCOMPARE(postings.at(1).toObject().value(u"kind"_s).toString(), u"trial_credit"_s);
    qint64 entrySum = 0;
    for (const QJsonValue &e : posting.value(u"entries"_s).toArray())
        entrySum += e.toObject().value(u"amount_micros"_s).toInteger();
    QCOMPARE(entrySum, 0);

    // The smallest and the largest single payment.
    QCOMPARE(
        m_sim
            ->authedPost(m_token, u"/v1/billing/topup"_s, QJsonObject{{u"amount_micros"_s, 10'000}})
            .status,
        201);
    QCOMPARE(m_sim
                 ->authedPost(m_token, u"/v1/billing/topup"_s,
                              QJsonObject{{u"amount_micros"_s, 100'000'000'000LL}})
                 .status,
             201);
    QCOMPARE(balance(), kTrialCredit + 25'500'000 + 10'000 + 100'000'000'000LL);
}

void TestApiBilling::topUpRejectsBadAmounts_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("code");
    QTest::newRow("zero") << R"({"amount_micros":0})"_ba << u"invalid_field"_s;
    QTest::newRow("negative") << R"({"amount_micros":-1000000})"_ba << u"invalid_field"_s;
    QTest::newRow("below 0.01 yuan") << R"({"amount_micros":9999})"_ba << u"invalid_field"_s;
    QTest::newRow("above 100000 yuan")
        << R"({"amount_micros":100000000001})"_ba << u"invalid_field"_s;
    QTest::newRow("huge") << R"({"amount_micros":1e300})"_ba << u"invalid_field"_s;
    QTest::newRow("float") << R"({"amount_micros":1000000.5})"_ba << u"invalid_field"_s;
    QTest::newRow("string") << R"({"amount_micros":"1000000"})"_ba << u"invalid_field"_s;
    QTest::newRow("boolean") << R"({"amount_micros":true})"_ba << u"invalid_field"_s;
    QTest::newRow("null") << R"({"amount_micros":null})"_ba << u"invalid_field"_s;
    QTest::newRow("missing") << R"({})"_ba << u"invalid_field"_s;
    QTest::newRow("yuan instead of micros") << R"({"amount_yuan":10})"_ba << u"unknown_field"_s;
    QTest::newRow("extra field") << R"({"amount_micros":1000000,"currency":"CNY"})"_ba
                                 << u"unknown_field"_s;
    QTest::newRow("bad json") << R"({"amount_micros":)"_ba << u"invalid_json"_s;
    QTest::newRow("array") << R"([1000000])"_ba << u"invalid_json"_s;
}

void TestApiBilling::topUpRejectsBadAmounts()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, code);
    if (!m_sim || QTest::currentDataTag() == QByteArray("zero"))
        QVERIFY(startFresh());
    const Reply reply = m_sim->authedPostRaw(m_token, u"/v1/billing/topup"_s, body);
    QVERIFY2(reply.status == 400, reply.describe().constData());
    QCOMPARE(reply.errorCode(), code);
    QCOMPARE(balance(), kTrialCredit);
    QCOMPARE(m_sim->allPostings(m_token).size(), 1);
}

void TestApiBilling::topUpBalanceLimit()
{
    QVERIFY(startFresh());
    constexpr qint64 maxTopup = 100'000'000'000LL; // 100 000 yuan per payment
    constexpr qint64 maxBalance = 1'000'000'000'000LL; // 1 000 000 yuan per account
    for (int i = 0; i < 9; ++i)
        QCOMPARE(m_sim
                     ->authedPost(m_token, u"/v1/billing/topup"_s,
                                  QJsonObject{{u"amount_micros"_s, maxTopup}})
                     .status,
                 201);
    const qint64 toLimit = maxBalance - (kTrialCredit + 9 * maxTopup);
    const Reply exact = m_sim->authedPost(m_token, u"/v1/billing/topup"_s,
                                          QJsonObject{{u"amount_micros"_s, toLimit}});
    QVERIFY2(exact.status == 201, exact.describe().constData());
    QCOMPARE(exact.value(u"balance_micros"_s).toInteger(), maxBalance);
    const Reply over = m_sim->authedPost(m_token, u"/v1/billing/topup"_s,
                                         QJsonObject{{u"amount_micros"_s, 10'000}});
    QVERIFY2(over.status == 400, over.describe().constData());
    QCOMPARE(over.errorCode(), u"balance_limit"_s);
    QCOMPARE(balance(), maxBalance);
}

void TestApiBilling::topUpIdempotency()
{
    QVERIFY(startFresh());
    const Headers key{{"Idempotency-Key"_ba, "payment-2026-0001"_ba}};
    const QJsonObject body{{u"amount_micros"_s, 5'000'000}};
    const Reply first = m_sim->authedPost(m_token, u"/v1/billing/topup"_s, body, key);
    QCOMPARE(first.status, 201);
    const Reply second = m_sim->authedPost(m_token, u"/v1/billing/topup"_s, body, key);
    QCOMPARE(second.status, 201);
    QCOMPARE(second.body, first.body);
    QCOMPARE(second.header("idempotent-replayed"), "true"_ba);
    QCOMPARE(balance(), kTrialCredit + 5'000'000);
    QCOMPARE(postingsOfKind(m_sim->allPostings(m_token), u"topup"_s).size(), 1);

    const Reply other = m_sim->authedPost(m_token, u"/v1/billing/topup"_s,
                                          QJsonObject{{u"amount_micros"_s, 6'000'000}}, key);
    QCOMPARE(other.status, 422);
    QCOMPARE(other.errorCode(), u"idempotency_key_reused"_s);
    QCOMPARE(balance(), kTrialCredit + 5'000'000);

    // Two retries on two connections at the same moment still credit once.
    const QByteArray raw =
        rawRequest("POST", u"/v1/billing/topup"_s, R"({"amount_micros":7000000})"_ba,
                   {{"Authorization"_ba, "Bearer "_ba + m_token.toLatin1()},
                    {"Idempotency-Key"_ba, "payment-2026-0002"_ba}});
    const QList<Reply> race = m_sim->sendConcurrently({raw, raw});
    QCOMPARE(race.at(0).status, 201);
    QCOMPARE(race.at(1).status, 201);
    QCOMPARE(race.at(0).body, race.at(1).body);
    QCOMPARE(balance(), kTrialCredit + 12'000'000);
    QCOMPARE(postingsOfKind(m_sim->allPostings(m_token), u"topup"_s).size(), 2);
    // Without a key, each request is a payment.
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/billing/topup"_s, body).status, 201);
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/billing/topup"_s, body).status, 201);
    QCOMPARE(balance(), kTrialCredit + 22'000'000);
}

// ---- ledger ---------------------------------------------------------------------------------

void TestApiBilling::ledgerPaging()
{
    QVERIFY(startFresh());
    QList<qint64> amounts{kTrialCredit};
    for (int i = 1; i <= 7; ++i) {
        const qint64 amount = i * 1'000'000 + i;
        QCOMPARE(m_sim
                     ->authedPost(m_token, u"/v1/billing/topup"_s,
                                  QJsonObject{{u"amount_micros"_s, amount}})
                     .status,
                 201);
        amounts.append(amount);
    }
    // Newest first, three at a time.
    QJsonArray seen;
    QString path = u"/v1/billing/ledger?limit=3"_s;
    QList<int> pageSizes;
    for (int page = 0; page < 10 && !path.isEmpty(); ++page) {
        const Reply reply = m_sim->authedGet(m_token, path);
        QVERIFY2(reply.status == 200, reply.describe().constData());
        const QJsonArray postings = reply.value(u"postings"_s).toArray();
        pageSizes.append(int(postings.size()));
        for (const QJsonValue &p : postings)
            seen.append(p);
        const QJsonValue next = reply.value(u"next_before"_s);
        if (next.isNull()) {
            path.clear();
        } else {
            QCOMPARE(next.toInteger(), postings.last().toObject().value(u"seq"_s).toInteger());
            path = u"/v1/billing/ledger?limit=3&before=%1"_s.arg(next.toInteger());
        }
        QCOMPARE(reply.value(u"balance_micros"_s).toInteger(), kTrialCredit + 28'000'028);
    }
    QCOMPARE(pageSizes, (QList<int>{3, 3, 2}));
    QCOMPARE(seen.size(), amounts.size());
    qint64 after = 0;
    for (qsizetype i = 0; i < seen.size(); ++i) {
        const QJsonObject p = seen.at(seen.size() - 1 - i).toObject(); // oldest first
        QCOMPARE(p.value(u"amount_micros"_s).toInteger(), amounts.at(i));
        after += amounts.at(i);
        QCOMPARE(p.value(u"balance_after_micros"_s).toInteger(), after);
        if (i > 0)
            QVERIFY(p.value(u"seq"_s).toInteger()
                    > seen.at(seen.size() - i).toObject().value(u"seq"_s).toInteger());
    }
    // The default page holds them all, and `limit=1` just the newest.
    QCOMPARE(
        m_sim->authedGet(m_token, u"/v1/billing/ledger"_s).value(u"postings"_s).toArray().size(),
        amounts.size());
    const Reply newest = m_sim->authedGet(m_token, u"/v1/billing/ledger?limit=1"_s);
    QCOMPARE(newest.value(u"postings"_s)
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(u"amount_micros"_s)
                 .toInteger(),
             amounts.last());
    QCOMPARE(newest.value(u"next_before"_s).toInteger(),
             newest.value(u"postings"_s).toArray().at(0).toObject().value(u"seq"_s).toInteger());
    // Before the oldest: empty, no next page.
    const qint64 oldestSeq = seen.last().toObject().value(u"seq"_s).toInteger();
    const Reply none = m_sim->authedGet(m_token, u"/v1/billing/ledger?before=%1"_s.arg(oldestSeq));
    QCOMPARE(none.status, 200);
    QCOMPARE(none.value(u"postings"_s).toArray().size(), 0);
    QVERIFY(none.value(u"next_before"_s).isNull());

    // Another user's ledger is separate, paging included.
    const QString other = m_sim->signUp(u"billing.other@example.com"_s);
    QVERIFY(!other.isEmpty());
    const Reply theirs =
        m_sim->authedGet(other,
                         u"/v1/billing/ledger?before=%1"_s.arg(
                             seen.first().toObject().value(u"seq"_s).toInteger() + 1000));
    QCOMPARE(theirs.value(u"postings"_s).toArray().size(), 1);
    QCOMPARE(theirs.value(u"balance_micros"_s).toInteger(), kTrialCredit);
}

void TestApiBilling::ledgerRejectsBadQueries_data()
{
    QTest::addColumn<QString>("query");
    QTest::newRow("limit 0") << u"limit=0"_s;
    QTest::newRow("limit 501") << u"limit=501"_s;
    QTest::newRow("limit negative") << u"limit=-5"_s;
    QTest::newRow("limit text") << u"limit=ten"_s;
    QTest::newRow("limit float") << u"limit=2.5"_s;
    QTest::newRow("before 0") << u"before=0"_s;
    QTest::newRow("before negative") << u"before=-1"_s;
    QTest::newRow("before text") << u"before=latest"_s;
}

void TestApiBilling::ledgerRejectsBadQueries()
{
    QFETCH(QString, query);
    if (!m_sim || QTest::currentDataTag() == QByteArray("limit 0"))
        QVERIFY(startFresh());
    const Reply reply = m_sim->authedGet(m_token, u"/v1/billing/ledger?"_s + query);
    QVERIFY2(reply.status == 400, reply.describe().constData());
    QCOMPARE(reply.errorCode(), u"invalid_query"_s);
}

void TestApiBilling::summaryOfTwoRunningInstances()
{
    QVERIFY(startFresh());
    const QString a = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    const QString b = m_sim->createRunning(m_token, spec(u"l40s"_s, 2));
    QVERIFY2(!a.isEmpty() && !b.isEmpty(), qPrintable(m_sim->lastError()));
    QVERIFY(m_sim->advance(600));
    const qint64 costA = cost(600'000, 1'900'000); // 316666
    const qint64 costB = cost(600'000, 7'200'000); // 1200000

    Reply summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QVERIFY2(summary.status == 200, summary.describe().constData());
    QCOMPARE(summary.value(u"spend_rate_micros_per_hour"_s).toInteger(), 9'100'000);
    QCOMPARE(summary.value(u"balance_micros"_s).toInteger(), kTrialCredit - costA - costB);
    const qint64 posted = summary.value(u"ledger_balance_micros"_s).toInteger();
    QCOMPARE(posted - summary.value(u"accrued_micros"_s).toInteger(), kTrialCredit - costA - costB);
    QCOMPARE(summary.value(u"as_of"_s).toString(),
             m_sim->get(u"/v1/_test/clock"_s).value(u"now"_s).toString());
    const qint64 start = runningSince(a);
    QCOMPARE(summary.value(u"runs_out_at"_s).toString(),
             iso(start + exhaustionMs({1'900'000, 7'200'000}, kTrialCredit)));
    // Both were created at the same instant of the test clock: find them by id.
    const auto entry = [&summary](const QString &id) {
        for (const QJsonValue &v : summary.value(u"instances"_s).toArray()) {
            if (v.toObject().value(u"instance_id"_s).toString() == id)
                return v.toObject();
        }
        return QJsonObject();
    };
    QCOMPARE(summary.value(u"instances"_s).toArray().size(), 2);
    QCOMPARE(entry(a).value(u"cost_micros"_s).toInteger(), costA);
    QCOMPARE(entry(a).value(u"spend_rate_micros_per_hour"_s).toInteger(), 1'900'000);
    QCOMPARE(entry(a).value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(entry(b).value(u"cost_micros"_s).toInteger(), costB);
    QCOMPARE(entry(b).value(u"spend_rate_micros_per_hour"_s).toInteger(), 7'200'000);
    QCOMPARE(entry(b).value(u"price_per_hour_micros"_s).toInteger(), 7'200'000);
    QCOMPARE(
        m_sim->authedGet(m_token, u"/v1/me"_s).value(u"spend_rate_micros_per_hour"_s).toInteger(),
        9'100'000);

    // Stop one: its compute cost stays in the summary, its compute rate leaves it, and its
    // disk (100 GiB for an L40S host) is billed apart while it is stopped.
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(b)).status, 202);
    QCOMPARE(m_sim->waitForState(m_token, b, u"stopped"_s).value(u"state"_s).toString(),
             u"stopped"_s);
    QVERIFY(m_sim->advance(60));
    const qint64 storageB = cost(60'000, 20'000);
    summary = m_sim->authedGet(m_token, u"/v1/billing/summary"_s);
    QCOMPARE(summary.value(u"spend_rate_micros_per_hour"_s).toInteger(), 1'900'000 + 20'000);
    QCOMPARE(summary.value(u"compute_spend_rate_micros_per_hour"_s).toInteger(), 1'900'000);
    QCOMPARE(summary.value(u"storage_spend_rate_micros_per_hour"_s).toInteger(), 20'000);
    QCOMPARE(summary.value(u"instances"_s).toArray().size(), 2);
    QCOMPARE(entry(a).value(u"cost_micros"_s).toInteger(), cost(660'000, 1'900'000));
    QCOMPARE(entry(a).value(u"storage_cost_micros"_s).toInteger(), 0);
    QCOMPARE(entry(b).value(u"cost_micros"_s).toInteger(), costB);
    QCOMPARE(entry(b).value(u"storage_cost_micros"_s).toInteger(), storageB);
    QCOMPARE(entry(b).value(u"spend_rate_micros_per_hour"_s).toInteger(), 20'000);
    QCOMPARE(entry(b).value(u"storage_rate_micros_per_hour"_s).toInteger(), 20'000);
    QCOMPARE(entry(b).value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(summary.value(u"compute_cost_micros"_s).toInteger(), cost(660'000, 1'900'000) + costB);
    QCOMPARE(summary.value(u"storage_cost_micros"_s).toInteger(), storageB);
    QCOMPARE(summary.value(u"balance_micros"_s).toInteger(),
             kTrialCredit - cost(660'000, 1'900'000) - costB - storageB);
}

// ---- events ---------------------------------------------------------------------------------

void TestApiBilling::eventsHelloAndInstance()
{
    QVERIFY(startFresh());
    SseClient events;
    QVERIFY2(events.open(m_sim->port(), m_token), events.head().constData());
    QVERIFY(events.head().contains("text/event-stream"));
    QTRY_VERIFY_WITH_TIMEOUT(!events.events().isEmpty(), 5000);
    const SseClient::Event hello = events.events().first();
    QCOMPARE(hello.type, "hello"_ba);
    QCOMPARE(hello.id, qint64(-1));
    QCOMPARE(hello.json().value(u"user_id"_s).toString(), m_userId);

    const Reply created = m_sim->authedPost(m_token, u"/v1/instances"_s, spec(u"rtx4090"_s));
    QCOMPARE(created.status, 202);
    const QString id = created.value(u"id"_s).toString();
    QTRY_VERIFY_WITH_TIMEOUT(events.hasInstanceState(id, u"running"_s), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!events.eventsOfType("billing").isEmpty(), 10000);

    // States arrive in order, every event has an increasing id.
    QStringList states;
    qint64 lastId = -1;
    for (const SseClient::Event &e : events.events()) {
        if (e.type == "hello" || e.type == "metrics") // live numbers carry no id
            continue;
        QVERIFY2(e.id > lastId, qPrintable(u"id %1 after %2"_s.arg(e.id).arg(lastId)));
        lastId = e.id;
        if (e.type == "instance" && e.json().value(u"id"_s).toString() == id) {
            const QString state = e.json().value(u"state"_s).toString();
            if (states.isEmpty() || states.last() != state)
                states.append(state);
        }
    }
    QCOMPARE(states, (QStringList{u"creating"_s, u"starting"_s, u"running"_s}));
    QTRY_VERIFY_WITH_TIMEOUT(events.eventsOfType("billing")
                                     .last()
                                     .json()
                                     .value(u"spend_rate_micros_per_hour"_s)
                                     .toInteger()
                                 == 1'900'000,
                             10000);

    // Billing events follow the clock.
    QVERIFY(m_sim->advance(3600));
    QTRY_VERIFY_WITH_TIMEOUT(
        events.eventsOfType("billing").last().json().value(u"balance_micros"_s).toInteger()
            == kTrialCredit - 1'900'000,
        10000);
    const QJsonObject billing = events.eventsOfType("billing").last().json();
    QVERIFY(!billing.contains(u"instances"_s));
    QVERIFY(billing.contains(u"runs_out_at"_s));

    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);
    QTRY_VERIFY_WITH_TIMEOUT(events.hasInstanceState(id, u"stopped"_s), 10000);
    QVERIFY(events.hasInstanceState(id, u"stopping"_s));
    QVERIFY(events.isConnected());
}

void TestApiBilling::eventsAreIsolatedBetweenUsers()
{
    QVERIFY(startFresh());
    const Reply signupB = m_sim->post(u"/v1/auth/signup"_s,
                                      QJsonObject{{u"email"_s, u"events.b@example.com"_s},
                                                  {u"password"_s, u"correct horse battery"_s}});
    QCOMPARE(signupB.status, 201);
    const QString tokenB = signupB.value(u"token"_s).toString();
    const QString userB = signupB.value(u"user"_s).toObject().value(u"id"_s).toString();

    SseClient streamA;
    SseClient streamB;
    QVERIFY(streamA.open(m_sim->port(), m_token));
    QVERIFY(streamB.open(m_sim->port(), tokenB));
    const QString id = m_sim->createRunning(m_token, spec(u"h100-80g"_s, 2));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    QVERIFY(m_sim->advance(60));
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);
    QTRY_VERIFY_WITH_TIMEOUT(streamA.hasInstanceState(id, u"stopped"_s), 10000);
    // B's own billing stream keeps going meanwhile (the provider ticks every second).
    QTRY_VERIFY_WITH_TIMEOUT(streamB.eventsOfType("billing").size() >= 2, 10000);

    const QList<SseClient::Event> seenByB = streamB.events();
    for (const SseClient::Event &e : seenByB) {
        QVERIFY2(e.type == "hello" || e.type == "billing", e.type.constData());
        QVERIFY(!e.data.contains(id.toLatin1()));
        QVERIFY(!e.data.contains(m_userId.toLatin1()));
        if (e.type == "billing") {
            QCOMPARE(e.json().value(u"balance_micros"_s).toInteger(), kTrialCredit);
            QCOMPARE(e.json().value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
        }
    }
    QCOMPARE(seenByB.first().json().value(u"user_id"_s).toString(), userB);
    // And a replay for B never hands out A's events either.
    SseClient replayB;
    QVERIFY(replayB.open(m_sim->port(), tokenB, 0));
    QTest::qWait(200);
    for (const SseClient::Event &e : replayB.events())
        QVERIFY2(e.type == "hello" || e.type == "billing", e.type.constData());
}

void TestApiBilling::eventsReplayAfterLastEventId()
{
    QVERIFY(startFresh());
    SseClient first;
    QVERIFY(first.open(m_sim->port(), m_token));
    const QString id = m_sim->createRunning(m_token, spec(u"rtx4090"_s));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(first.hasInstanceState(id, u"running"_s), 10000);
    const qint64 seenUpTo = first.lastId();
    QVERIFY(seenUpTo > 0);
    first.close();

    // While disconnected: the instance is stopped.
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);
    QCOMPARE(m_sim->waitForState(m_token, id, u"stopped"_s).value(u"state"_s).toString(),
             u"stopped"_s);

    SseClient resumed;
    QVERIFY(resumed.open(m_sim->port(), m_token, seenUpTo));
    QTRY_VERIFY_WITH_TIMEOUT(resumed.hasInstanceState(id, u"stopped"_s), 10000);
    QVERIFY(resumed.hasInstanceState(id, u"stopping"_s));
    QCOMPARE(resumed.events().first().type, "hello"_ba);
    qint64 lastId = seenUpTo;
    for (const SseClient::Event &e : resumed.events()) {
        if (e.type == "hello" || e.type == "metrics") // live numbers carry no id
            continue;
        QVERIFY2(e.id > lastId, qPrintable(u"replayed id %1 after %2"_s.arg(e.id).arg(lastId)));
        lastId = e.id;
        if (e.type == "instance")
            QVERIFY2(e.json().value(u"state"_s).toString() != u"running"_s,
                     "an event seen before was sent again");
    }

    // A Last-Event-ID beyond everything replays nothing; no header replays nothing either.
    SseClient upToDate;
    QVERIFY(upToDate.open(m_sim->port(), m_token, lastId + 1'000'000));
    SseClient fresh;
    QVERIFY(fresh.open(m_sim->port(), m_token));
    QTest::qWait(200);
    for (const SseClient *client : {&upToDate, &fresh}) {
        for (const SseClient::Event &e : client->events())
            QVERIFY2(e.type != "instance", e.data.constData());
    }
}

QTEST_GUILESS_MAIN(TestApiBilling)
#include "tst_api_billing.moc"
