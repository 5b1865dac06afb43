// GET /v1/instances/{id}/metrics over real HTTP with the in-process runtime (which measures no
// load: the cards idle): a sample a second per card while running, buckets for `step`, and
// minute averages that outlive the provider (kept in SQLite, served after a restart).
#include "SimProcess.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void samplesWhileRunning();
    void minutesOutliveTheProvider();

private:
    static QJsonArray samples(SimProcess &sim, const QString &token, const QString &id,
                              const QString &query = {})
    {
        return sim
            .authedGet(token,
                       u"/v1/instances/%1/metrics?since=2000-01-01T00:00:00Z%2"_s.arg(id, query))
            .value(u"samples"_s)
            .toArray();
    }
};

void TestApiMetrics::samplesWhileRunning()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    const QString token = sim.signUp(u"metrics@example.com"_s);
    const QString id = sim.createRunning(
        token,
        QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"gpu_count"_s, 4}, {u"image"_s, u"base"_s}});
    QVERIFY2(!id.isEmpty(), qPrintable(sim.lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(samples(sim, token, id).size() >= 2, 10000);
    const QJsonObject reply =
        sim.authedGet(token, u"/v1/instances/%1/metrics?since=2000-01-01T00:00:00Z"_s.arg(id))
            .object();
    QCOMPARE(reply.value(u"simulated"_s).toBool(), true);
    QCOMPARE(reply.value(u"step_seconds"_s).toInt(), 1);
    const QJsonObject last = reply.value(u"samples"_s).toArray().last().toObject();
    const QJsonArray gpus = last.value(u"gpus"_s).toArray();
    QCOMPARE(gpus.size(), 4);
    for (int i = 0; i < 4; ++i) {
        const QJsonObject card = gpus.at(i).toObject();
        QCOMPARE(card.value(u"index"_s).toInt(), i);
        QCOMPARE(card.value(u"memory_total_mib"_s).toInt(), 24564);
        QCOMPARE(card.value(u"utilization_pct"_s).toDouble(), 0.0); // nothing runs in-process
        QVERIFY(card.value(u"temperature_c"_s).toDouble() >= 29
                && card.value(u"temperature_c"_s).toDouble() < 35);
    }
    // Another user's instance is not found; a bad step is refused.
    const QString other = sim.signUp(u"other@example.com"_s);
    QCOMPARE(sim.authedGet(other, u"/v1/instances/%1/metrics"_s.arg(id)).status, 404);
    QCOMPARE(sim.authedGet(token, u"/v1/instances/%1/metrics?step=0"_s.arg(id)).status, 400);
    // A stopped instance is sampled no more, and keeps its history.
    QCOMPARE(sim.authedPost(token, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);
    QCOMPARE(sim.waitForState(token, id, u"stopped"_s).value(u"state"_s).toString(), u"stopped"_s);
    const int kept = samples(sim, token, id).size();
    QVERIFY(kept >= 2);
    QTest::qWait(2500);
    QCOMPARE(samples(sim, token, id).size(), kept);
}

void TestApiMetrics::minutesOutliveTheProvider()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    const QString token = sim.signUp(u"minutes@example.com"_s);
    const QString id = sim.createRunning(
        token,
        QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"gpu_count"_s, 2}, {u"image"_s, u"base"_s}});
    QVERIFY2(!id.isEmpty(), qPrintable(sim.lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(samples(sim, token, id).size() >= 2, 10000);
    const QString firstAt = samples(sim, token, id).first().toObject().value(u"at"_s).toString();
    // The minute ends: its average is written when the next minute's first sample comes.
    QVERIFY(sim.advance(120));
    QTRY_VERIFY_WITH_TIMEOUT(
        samples(sim, token, id).last().toObject().value(u"at"_s).toString() != firstAt, 10000);
    QTest::qWait(1500);

    QVERIFY(sim.terminate());
    QVERIFY2(sim.restart(), qPrintable(sim.lastError()));
    // Memory is gone; the minute is not. (The restarted test clock starts at real time again,
    // after the stored minutes, so they are "older than memory".)
    const QJsonArray after = samples(sim, token, id, u"&step=60"_s);
    QVERIFY2(!after.isEmpty(), "the stored minute is served after a restart");
    const QJsonObject minute = after.first().toObject();
    QVERIFY2(minute.value(u"at"_s).toString().endsWith(u":00.000Z"_s),
             qPrintable(minute.value(u"at"_s).toString()));
    QCOMPARE(minute.value(u"gpus"_s).toArray().size(), 2);
    QCOMPARE(
        minute.value(u"gpus"_s).toArray().first().toObject().value(u"memory_total_mib"_s).toInt(),
        24564);
}

QTEST_GUILESS_MAIN(TestApiMetrics)
#include "tst_api_metrics.moc"
