// RunwayAlerts with a manual clock: which runway thresholds alert, once per crossing, re-armed by
// a climb back or a top-up; which instance changes alert (failed, stopped by the provider) and
// which do not (the user's own stop, replays).
#include "billing/RunwayAlerts.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace {
constexpr qint64 kRate = 3'600'000; // 1 yuan an hour: the balance in micros is the runway in ms
constexpr qint64 kMinute = 60'000;

Instance instance(const QString &id, InstanceState state, const QString &reason, qint64 updatedMs)
{
    Instance i;
    i.id = id;
    i.name = u"box-"_s + id;
    i.state = state;
    i.stateReason = reason;
    i.updatedAt = QDateTime::fromMSecsSinceEpoch(updatedMs, QTimeZone::utc());
    return i;
}
} // namespace

class TestRunwayAlerts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runway_data();
    void runway();
    void rearmedByTopUp();
    void thresholdsFromSettings();
    void instances_data();
    void instances();
    void seededInstancesDoNotAlert();
};

// Each row: a series of runways in minutes (-1: nothing billed), evaluated in order, and the
// thresholds that alerted, in order.
void TestRunwayAlerts::runway_data()
{
    QTest::addColumn<QList<qint64>>("runwaysMinutes");
    QTest::addColumn<QList<int>>("alerts");
    QTest::newRow("plenty") << QList<qint64>{600, 300, 61} << QList<int>{};
    QTest::newRow("hour then ten minutes") << QList<qint64>{90, 60, 59, 30, 11, 10, 9, 1, 0}
                                           << QList<int>{60, 10};
    QTest::newRow("jump straight below ten: one alert") << QList<qint64>{120, 8, 5, 2}
                                                        << QList<int>{10};
    QTest::newRow("wobble at the threshold: no repeat")
        << QList<qint64>{61, 59, 60, 61, 59, 60} << QList<int>{60};
    QTest::newRow("climbs clearly back: alerts again")
        << QList<qint64>{59, 80, 58} << QList<int>{60, 60};
    QTest::newRow("nothing billed re-arms") << QList<qint64>{30, -1, 30} << QList<int>{60, 60};
    QTest::newRow("idle never alerts") << QList<qint64>{-1, -1} << QList<int>{};
    QTest::newRow("already out") << QList<qint64>{0} << QList<int>{10};
}

void TestRunwayAlerts::runway()
{
    QFETCH(QList<qint64>, runwaysMinutes);
    QFETCH(QList<int>, alerts);
    ManualClock clock;
    RunwayAlerts runway(&clock);
    QSignalSpy spy(&runway, &RunwayAlerts::runwayAlert);
    for (qint64 minutes : runwaysMinutes) {
        if (minutes < 0)
            runway.evaluate(5'000'000, 0);
        else
            runway.evaluate(minutes * kMinute, kRate);
    }
    QList<int> got;
    for (const QList<QVariant> &args : spy)
        got.append(args.at(0).toInt());
    QCOMPARE(got, alerts);
}

void TestRunwayAlerts::rearmedByTopUp()
{
    RunwayAlerts runway;
    QSignalSpy spy(&runway, &RunwayAlerts::runwayAlert);
    runway.evaluate(5 * kMinute, kRate);
    runway.evaluate(4 * kMinute, kRate);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.last().at(1).toLongLong(), 5 * kMinute); // the runway when it alerted
    // A top-up too small to climb out of the window still re-arms: the user is told again.
    runway.rearm();
    runway.evaluate(9 * kMinute, kRate);
    QCOMPARE(spy.size(), 2);
    QCOMPARE(spy.last().at(0).toInt(), 10);
    runway.evaluate(8 * kMinute, kRate);
    QCOMPARE(spy.size(), 2);
}

void TestRunwayAlerts::thresholdsFromSettings()
{
    RunwayAlerts runway;
    runway.setThresholdsMinutes({5, 0, 120, -3, 5});
    QCOMPARE(runway.thresholdsMinutes(), (QList<int>{120, 5}));
    QSignalSpy spy(&runway, &RunwayAlerts::runwayAlert);
    runway.evaluate(100 * kMinute, kRate);
    runway.evaluate(7 * kMinute, kRate);
    runway.evaluate(5 * kMinute, kRate);
    QCOMPARE(spy.size(), 2);
    QCOMPARE(spy.at(0).at(0).toInt(), 120);
    QCOMPARE(spy.at(1).at(0).toInt(), 5);
    // The runway from a real rate: 2 yuan at 1.9 yuan/h lasts 63 min 9.47 s (rounded up to the ms).
    QCOMPARE(RunwayAlerts::runwayMs(2'000'000, 1'900'000), qint64(3'789'474));
    QCOMPARE(RunwayAlerts::runwayMs(2'000'000, 0), qint64(-1));
}

// Each row: the states an instance goes through (state, reason), and the alerts expected
// ("failed", "stopped") in order.
void TestRunwayAlerts::instances_data()
{
    QTest::addColumn<QList<int>>("states");
    QTest::addColumn<QStringList>("reasons");
    QTest::addColumn<QStringList>("alerts");
    using S = InstanceState;
    auto states = [](std::initializer_list<S> list) {
        QList<int> out;
        for (S s : list)
            out.append(int(s));
        return out;
    };
    QTest::newRow("user stop") << states({S::Running, S::Stopping, S::Stopped})
                               << QStringList{{}, u"stopped_by_user"_s, u"stopped_by_user"_s}
                               << QStringList{};
    QTest::newRow("balance exhausted")
        << states({S::Running, S::Stopped, S::Stopped})
        << QStringList{{}, u"balance_exhausted"_s, u"balance_exhausted"_s}
        << QStringList{u"stopped"_s};
    QTest::newRow("container stopped")
        << states({S::Running, S::Stopped}) << QStringList{{}, u"container_stopped"_s}
        << QStringList{u"stopped"_s};
    QTest::newRow("launch failed, replayed")
        << states({S::Creating, S::Failed, S::Failed})
        << QStringList{{}, u"sshd never answered"_s, u"sshd never answered"_s}
        << QStringList{u"failed"_s};
    QTest::newRow("stopped, started, stopped again")
        << states({S::Running, S::Stopped, S::Starting, S::Running, S::Stopped})
        << QStringList{{}, u"provider_restarted"_s, {}, {}, u"container_gone"_s}
        << QStringList{u"stopped"_s, u"stopped"_s};
}

void TestRunwayAlerts::instances()
{
    QFETCH(QList<int>, states);
    QFETCH(QStringList, reasons);
    QFETCH(QStringList, alerts);
    ManualClock clock;
    RunwayAlerts runway(&clock);
    QSignalSpy spy(&runway, &RunwayAlerts::instanceAlert);
    for (int i = 0; i < states.size(); ++i) {
        clock.advanceMs(1000);
        runway.observeInstance(
            instance(u"a"_s, InstanceState(states[i]), reasons[i], clock.nowMs()));
    }
    QStringList got;
    for (const QList<QVariant> &args : spy) {
        const auto kind = args.at(0).value<RunwayAlerts::InstanceAlert>();
        got.append(kind == RunwayAlerts::InstanceAlert::Failed ? u"failed"_s : u"stopped"_s);
        QCOMPARE(args.at(1).value<Instance>().name, u"box-a"_s);
    }
    QCOMPARE(got, alerts);
}

void TestRunwayAlerts::seededInstancesDoNotAlert()
{
    ManualClock clock;
    RunwayAlerts runway(&clock);
    QSignalSpy spy(&runway, &RunwayAlerts::instanceAlert);
    // What the list says at start-up is old news, and so is an old failure never seen before.
    runway.seedInstances({instance(u"a"_s, InstanceState::Failed, u"x"_s, clock.nowMs()),
                          instance(u"b"_s, InstanceState::Stopped, u"balance_exhausted"_s,
                                   clock.nowMs())});
    runway.observeInstance(instance(u"a"_s, InstanceState::Failed, u"x"_s, clock.nowMs()));
    runway.observeInstance(
        instance(u"c"_s, InstanceState::Failed, u"x"_s, clock.nowMs() - 3'600'000));
    QCOMPARE(spy.size(), 0);
    // A new one that has just failed is news.
    runway.observeInstance(instance(u"d"_s, InstanceState::Failed, u"x"_s, clock.nowMs() - 1000));
    QCOMPARE(spy.size(), 1);
    // After clear() (log-out), nothing is remembered.
    runway.clear();
    runway.observeInstance(instance(u"a"_s, InstanceState::Failed, u"x"_s, clock.nowMs()));
    QCOMPARE(spy.size(), 2);
}

QTEST_GUILESS_MAIN(TestRunwayAlerts)
#include "tst_runwayalerts.moc"
