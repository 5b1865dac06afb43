// Stop policies over the real services and a manual clock: a stop time kept to the second and
// across a provider restart, moved and removed while running; a maximum cost; idle stops from
// the cards' utilisation with their warning and "keep running".
#include "SpendingFixture.h"
#include "billing/Pricing.h"
#include "core/Json.h"

#include <QTest>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kRtx4090 = 1'900'000; // micro-yuan per card-hour in the built-in catalog

StopPolicy stopAt(qint64 atMs)
{
    StopPolicy policy;
    policy.stopAtMs = atMs;
    return policy;
}

StopPolicy idleAfter(int windowSeconds, int warningSeconds, bool noConnections = false)
{
    StopPolicy policy;
    policy.idle = StopPolicy::Idle{5, windowSeconds, noConnections, warningSeconds};
    return policy;
}

// Counts are asked of the runtime a couple of seconds apart (each is an `exec` per box).
constexpr int kRecountMs = 2100;
} // namespace

class TestStopPolicies : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void timerStopsToTheSecond()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"timer@example.com"_s);
        const qint64 launchedAt = f.clock.nowMs();
        const qint64 at = launchedAt + (2 * 3600 + 17) * 1000;
        const QString id = f.launch(user, u"rtx4090"_s, 1, stopAt(at));
        QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"stop_policy"_s][u"stop_at"_s].toString(), json::isoTime(at));
        QCOMPARE(view[u"planned_stop"_s][u"reason"_s].toString(), u"max_duration"_s);
        QCOMPARE(view[u"planned_stop"_s][u"at"_s].toString(), json::isoTime(at));
        QCOMPARE(view[u"planned_stop"_s][u"warning"_s].toBool(), false);
        while (f.clock.nowMs() < at + 120'000) {
            f.advanceSeconds(60);
            if (f.clock.nowMs() < at && f.clock.nowMs() >= at - 300'000)
                QVERIFY(f.instances->get(user, id)[u"planned_stop"_s][u"warning"_s].toBool());
        }
        view = f.instances->get(user, id);
        QCOMPARE(view[u"state"_s].toString(), u"stopped"_s);
        QCOMPARE(view[u"state_reason"_s].toString(), u"max_duration"_s);
        QVERIFY(view[u"planned_stop"_s].isNull());
        // Billed to the millisecond of the timer, not to the tick that noticed it.
        QCOMPARE(view[u"cost_micros"_s].toInteger(),
                 pricing::segmentCost(at - launchedAt, kRtx4090));
        QVERIFY(f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE instance_id = ? AND"
                            " description LIKE '%stopped: max_duration%' AND created_at = ?"_s,
                            {id, at})
                    .toInt()
                == 1);
        // The timer is spent: a new start runs on.
        QVERIFY(view[u"stop_policy"_s][u"stop_at"_s].isNull());
    }

    void timerMovedAndRemovedWhileRunning()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"move@example.com"_s);
        const qint64 t0 = f.clock.nowMs();
        const QString id = f.launch(user, u"rtx4090"_s, 1, stopAt(t0 + 600'000));
        f.instances->setStopPolicy(user, id, stopAt(t0 + 3'600'000));
        f.advanceSeconds(1200);
        QCOMPARE(f.state(user, id), u"running"_s);
        QCOMPARE(f.instances->get(user, id)[u"planned_stop"_s][u"at"_s].toString(),
                 json::isoTime(t0 + 3'600'000));
        f.instances->setStopPolicy(user, id, StopPolicy());
        QVERIFY(f.instances->get(user, id)[u"planned_stop"_s].isNull());
        f.advanceSeconds(7200);
        QCOMPARE(f.state(user, id), u"running"_s);
        // A stop time in the past is refused and changes nothing.
        try {
            f.instances->setStopPolicy(user, id, stopAt(t0));
            QFAIL("a past stop time was accepted");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 400);
        }
        QCOMPARE(f.state(user, id), u"running"_s);
    }

    void timerSurvivesProviderRestart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"sim.sqlite"_s);
        QString user;
        QString id;
        qint64 at = 0;
        qint64 now = 0;
        {
            SpendingFixture f(path);
            user = f.signUp(u"restart@example.com"_s);
            at = f.clock.nowMs() + 5'400'000;
            id = f.launch(user, u"rtx4090"_s, 1, stopAt(at));
            f.advanceSeconds(600);
            now = f.clock.nowMs();
        }
        SpendingFixture f(path);
        f.clock.setMs(now + 60'000);
        f.instances->reconcile(true); // this runtime's instances do not outlive the provider
        SpendingFixture::settle();
        QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state"_s].toString(), u"stopped"_s);
        QCOMPARE(view[u"stop_policy"_s][u"stop_at"_s].toString(), json::isoTime(at));
        f.instances->start(user, id);
        SpendingFixture::settle();
        const qint64 restartedAt = f.clock.nowMs();
        QCOMPARE(f.state(user, id), u"running"_s);
        QCOMPARE(f.instances->get(user, id)[u"planned_stop"_s][u"at"_s].toString(),
                 json::isoTime(at));
        const qint64 before = f.instances->get(user, id)[u"cost_micros"_s].toInteger();
        while (f.clock.nowMs() < at + 30'000)
            f.advanceSeconds(45);
        view = f.instances->get(user, id);
        QCOMPARE(view[u"state_reason"_s].toString(), u"max_duration"_s);
        QCOMPARE(view[u"cost_micros"_s].toInteger() - before,
                 pricing::segmentCost(at - restartedAt, kRtx4090));
    }

    void maxCostStopsAtTheCost()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"cost@example.com"_s);
        StopPolicy policy;
        policy.maxCostMicros = 1'000'000;
        const QString id = f.launch(user, u"rtx4090"_s, 1, policy);
        QCOMPARE(f.instances->get(user, id)[u"planned_stop"_s][u"reason"_s].toString(),
                 u"max_cost"_s);
        for (int i = 0; i < 60 && f.state(user, id) == u"running"_s; ++i)
            f.advanceSeconds(60);
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state_reason"_s].toString(), u"max_cost"_s);
        QCOMPARE(view[u"cost_micros"_s].toInteger(), 1'000'000);
        // Its maximum reached, it does not start until the maximum is raised.
        try {
            f.instances->start(user, id);
            QFAIL("started past its maximum cost");
        } catch (const ApiError &error) {
            QCOMPARE(error.code(), u"invalid_state"_s);
        }
    }

    void idleStopWarnsThenStops()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"idle@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1, idleAfter(600, 120));
        const qint64 idleFrom = f.clock.nowMs();
        bool warned = false;
        while (f.state(user, id) == u"running"_s && f.clock.nowMs() < idleFrom + 1'200'000) {
            f.instances->noteUtilisation(id, f.clock.nowMs(), 0.0);
            const QJsonObject view = f.instances->get(user, id);
            if (view[u"state"_s] == u"running"_s) {
                QCOMPARE(view[u"planned_stop"_s][u"reason"_s].toString(), u"idle"_s);
                const bool warning = view[u"planned_stop"_s][u"warning"_s].toBool();
                QCOMPARE(warning, f.clock.nowMs() >= idleFrom + 480'000);
                warned = warned || warning;
            }
            f.advanceSeconds(10);
        }
        SpendingFixture::settle();
        QVERIFY(warned); // the warning came before the stop
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state_reason"_s].toString(), u"idle"_s);
        // Stopped at the end of the window (to the sample that saw it), not before.
        QVERIFY(f.clock.nowMs() >= idleFrom + 600'000);
        QVERIFY(f.clock.nowMs() <= idleFrom + 620'000);
    }

    void openConnectionKeepsAnIdleHostRunning()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"connected@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1, idleAfter(600, 120, true));
        const auto idleSamples = [&](int count) {
            for (int i = 0; i < count && f.state(user, id) == u"running"_s; ++i) {
                f.instances->noteUtilisation(id, f.clock.nowMs(), 0.0);
                f.advanceSeconds(10);
            }
        };
        // Not counted yet: as if connected. Then an SSH session is open: idle cards for twice
        // the window, no idle stop planned or made.
        f.runtime.connections.insert(id, 1);
        idleSamples(120);
        QCOMPARE(f.state(user, id), u"running"_s);
        QVERIFY(f.instances->get(user, id)[u"planned_stop"_s].isNull());
        // A count that fails (the box not read) keeps it running too.
        f.runtime.connections.remove(id);
        QTest::qWait(kRecountMs);
        idleSamples(120);
        QCOMPARE(f.state(user, id), u"running"_s);
        QVERIFY(f.instances->get(user, id)[u"planned_stop"_s].isNull());

        // Closed: the next count says so, and the idle window runs from the sample after it.
        f.runtime.connections.insert(id, 0);
        QTest::qWait(kRecountMs);
        idleSamples(1); // asks; its answer comes with the tick
        const qint64 idleFrom = f.clock.nowMs();
        idleSamples(1);
        QCOMPARE(f.instances->get(user, id)[u"planned_stop"_s][u"reason"_s].toString(), u"idle"_s);
        idleSamples(90);
        SpendingFixture::settle();
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state"_s].toString(), u"stopped"_s);
        QCOMPARE(view[u"state_reason"_s].toString(), u"idle"_s);
        QVERIFY(f.clock.nowMs() >= idleFrom + 600'000);
        QVERIFY(f.clock.nowMs() <= idleFrom + 620'000);
    }

    void busyCardsNeverStopAndKeepRunningPostpones()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"busy@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1, idleAfter(600, 120));
        // Real load: the card at 40 % for two hours; idle stops never fire.
        for (int i = 0; i < 720; ++i) {
            f.instances->noteUtilisation(id, f.clock.nowMs(), 40.0);
            f.advanceSeconds(10);
        }
        QCOMPARE(f.state(user, id), u"running"_s);
        QVERIFY(f.instances->get(user, id)[u"planned_stop"_s].isNull());
        try {
            f.instances->keepRunning(user, id);
            QFAIL("keep-running without a pending idle stop");
        } catch (const ApiError &error) {
            QCOMPARE(error.code(), u"invalid_state"_s);
        }
        // Idle for 9 minutes (warned), then "keep running": the window starts again.
        const qint64 idleFrom = f.clock.nowMs();
        while (f.clock.nowMs() < idleFrom + 540'000) {
            f.instances->noteUtilisation(id, f.clock.nowMs(), 1.0);
            f.advanceSeconds(10);
        }
        QVERIFY(f.instances->get(user, id)[u"planned_stop"_s][u"warning"_s].toBool());
        const qint64 postponedAt = f.clock.nowMs();
        const QJsonObject postponed = f.instances->keepRunning(user, id);
        QCOMPARE(postponed[u"planned_stop"_s][u"at"_s].toString(),
                 json::isoTime(postponedAt + 600'000));
        QCOMPARE(postponed[u"planned_stop"_s][u"warning"_s].toBool(), false);
        while (f.state(user, id) == u"running"_s && f.clock.nowMs() < postponedAt + 900'000) {
            f.instances->noteUtilisation(id, f.clock.nowMs(), 1.0);
            f.advanceSeconds(10);
        }
        SpendingFixture::settle();
        QCOMPARE(f.instances->get(user, id)[u"state_reason"_s].toString(), u"idle"_s);
        QVERIFY(f.clock.nowMs() >= postponedAt + 600'000);
    }
};

QTEST_GUILESS_MAIN(TestStopPolicies)
#include "tst_stoppolicies.moc"
