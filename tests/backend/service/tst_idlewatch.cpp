// IdleWatch: idle cards through a whole window stop a host (its disk billed from then), a busy
// sample restarts the window, and "keep running" needs an idle stop pending.
#include "SpendingFixture.h"
#include "core/Json.h"
#include "service/IdleWatch.h"
#include "service/StopPolicies.h"

#include <QTest>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
StopPolicy idleAfter(int windowSeconds)
{
    StopPolicy policy;
    policy.idle = StopPolicy::Idle{5, windowSeconds, false, 60};
    return policy;
}
} // namespace

class TestIdleWatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void idleCardsThroughTheWindowStopTheHost()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"idle@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1, idleAfter(300));
        IdleWatch &idle = f.instances->idleWatch();
        for (int i = 0; i < 20; ++i) { // 200 s idle
            idle.noteUtilisation(id, f.clock.nowMs(), 1.0);
            f.advanceSeconds(10);
        }
        const qint64 busyAt = f.clock.nowMs();
        idle.noteUtilisation(id, busyAt, 50.0); // the window starts again
        f.advanceSeconds(10);
        while (f.state(user, id) == u"running"_s && f.clock.nowMs() < busyAt + 600'000) {
            idle.noteUtilisation(id, f.clock.nowMs(), 1.0);
            f.advanceSeconds(10);
        }
        QVERIFY(f.clock.nowMs() >= busyAt + 300'000);
        QVERIFY(f.clock.nowMs() <= busyAt + 320'000);
        SpendingFixture::settle();
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state_reason"_s].toString(), u"idle"_s);
        QCOMPARE(view[u"state"_s].toString(), u"stopped"_s);
        QVERIFY(view[u"storage_rate_micros_per_hour"_s].toInteger() > 0);
    }

    void keepRunningNeedsAPendingIdleStop()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"keep@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1, idleAfter(300));
        IdleWatch &idle = f.instances->idleWatch();
        try {
            idle.keepRunning(user, id);
            QFAIL("kept running with no idle stop pending");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 409);
        }
        idle.noteUtilisation(id, f.clock.nowMs(), 0.0);
        f.advanceSeconds(100);
        idle.noteUtilisation(id, f.clock.nowMs(), 0.0);
        QCOMPARE(f.instances->get(user, id)[u"planned_stop"_s][u"reason"_s].toString(), u"idle"_s);
        const qint64 keptAt = f.clock.nowMs();
        const QJsonObject kept = idle.keepRunning(user, id);
        QCOMPARE(kept[u"planned_stop"_s][u"at"_s].toString(), json::isoTime(keptAt + 300'000));
    }
};

QTEST_GUILESS_MAIN(TestIdleWatch)
#include "tst_idlewatch.moc"
