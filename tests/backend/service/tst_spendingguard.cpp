// SpendingGuard: a launch refused when a minute more would pass a cap, the limits as the API
// reads and changes them, a host's stop policy checked.
#include "SpendingFixture.h"
#include "service/StopPolicies.h"

#include <QTest>

#include <functional>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestSpendingGuard : public QObject
{
    Q_OBJECT
private:
    static int statusOf(const std::function<void()> &call)
    {
        try {
            call();
        } catch (const ApiError &error) {
            return error.status();
        }
        return 0;
    }

private Q_SLOTS:
    void aCapLeavesNoRoomForAMinuteMore()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"cap@example.com"_s);
        SpendingGuard &guard = f.instances->guard();
        guard.requireSpendingRoom(user, 1'900'000); // no limits yet
        f.setMax(user, SpendingLimits::Period::Day, 1000); // a day of 0.001 yuan
        QCOMPARE(statusOf([&] { guard.requireSpendingRoom(user, 1'900'000); }), 402);
        guard.requireSpendingRoom(user, 60'000); // a minute of it costs exactly 1000
        const QJsonObject limits = guard.spendingLimitsJson(user);
        QCOMPARE(limits[u"periods"_s][0][u"period"_s].toString(), u"day"_s);
        QCOMPARE(limits[u"periods"_s][0][u"max_micros"_s].toInteger(), 1000);
    }

    void limitsAreCheckedBeforeAnyIsKept()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"limits@example.com"_s);
        SpendingGuard &guard = f.instances->guard();
        std::array<std::optional<SpendingGuard::LimitChange>, 3> changes;
        SpendingGuard::LimitChange change;
        change.maxGiven = change.alertGiven = true;
        change.maxMicros = 100;
        change.alertMicros = 200; // above its maximum
        changes.at(static_cast<size_t>(SpendingLimits::Period::Month)) = change;
        QCOMPARE(statusOf([&] { guard.changeLimits(user, changes); }), 400);
        change.maxMicros = -1;
        change.alertMicros.reset();
        changes.at(static_cast<size_t>(SpendingLimits::Period::Month)) = change;
        QCOMPARE(statusOf([&] { guard.changeLimits(user, changes); }), 400);
        const QJsonObject month = guard.spendingLimitsJson(user)[u"periods"_s][1].toObject();
        QCOMPARE(month[u"period"_s].toString(), u"month"_s);
        QVERIFY(month[u"max_micros"_s].isNull()); // nothing was kept
    }

    void aStopPolicyNeedsAFutureTimeAndALiveHost()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"policy@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1);
        SpendingGuard &guard = f.instances->guard();
        StopPolicy past;
        past.stopAtMs = f.clock.nowMs();
        QCOMPARE(statusOf([&] { guard.setStopPolicy(user, id, past); }), 400);
        StopPolicy later;
        later.stopAtMs = f.clock.nowMs() + 60'000;
        guard.setStopPolicy(user, id, later);
        QCOMPARE(f.instances->stopPolicies().of(id).stopAtMs, later.stopAtMs);
        f.instances->terminate(user, id);
        QCOMPARE(statusOf([&] { guard.setStopPolicy(user, id, later); }), 409);
    }
};

QTEST_GUILESS_MAIN(TestSpendingGuard)
#include "tst_spendingguard.moc"
