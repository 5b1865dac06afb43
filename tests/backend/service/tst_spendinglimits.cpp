// Spending limits over the real services (SQLite, the meter, the ledger) and a manual clock:
// a monthly cap against eight hosts of four GPU types and kept snapshots, and a replayable
// random-sequence test that no balance goes below zero and no period spends past its maximum.
#include "SpendingFixture.h"
#include "billing/Pricing.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
using Period = SpendingLimits::Period;
constexpr qint64 kYuan = pricing::kMicrosPerYuan;
const QStringList kFourTypes = {u"rtx4090"_s, u"l40s"_s, u"a100-80g"_s, u"h100-80g"_s};

QString spendingCode(const std::function<void()> &call)
{
    try {
        call();
    } catch (const ApiError &error) {
        return error.code();
    }
    return {};
}
} // namespace

class TestSpendingLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void monthlyCapStopsEightHostsAndPausesSnapshots()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"cap@example.com"_s);
        f.topUp(user, 5'000 * kYuan);
        const qint64 cap = 50 * kYuan;
        f.setMax(user, Period::Month, cap, 40 * kYuan);
        QStringList hosts;
        for (const QString &gpu : kFourTypes) {
            hosts.append(f.launch(user, gpu, 1));
            hosts.append(f.launch(user, gpu, 2));
        }
        for (const QString &id : std::as_const(hosts))
            QCOMPARE(f.state(user, id), u"running"_s);
        // Two kept snapshots, billed from now on.
        QStringList snaps;
        for (const QString &source : {hosts.at(0), hosts.at(3)}) {
            snaps.append(f.snapshots->create(user, source, u"keep"_s).value(u"id"_s).toString());
            SpendingFixture::settle();
        }
        for (const QString &id : std::as_const(snaps))
            QCOMPARE(f.snapshots->get(user, id).value(u"state"_s).toString(), u"ready"_s);

        // 37-second steps (not a divisor of the posting interval) until every host stops.
        int steps = 0;
        bool anyRunning = true;
        while (anyRunning && steps < 10'000) {
            f.advanceSeconds(37);
            ++steps;
            const qint64 now = f.clock.nowMs();
            QVERIFY2(f.postedIn(user, Period::Month, now) <= cap,
                     qPrintable(u"month spent %1 > cap %2 after %3 steps"_s
                                    .arg(f.postedIn(user, Period::Month, now))
                                    .arg(cap)
                                    .arg(steps)));
            const QJsonObject month = f.instances->spendingLimitsJson(user)
                                          .value(u"periods"_s)
                                          .toArray()
                                          .at(1)
                                          .toObject();
            QVERIFY(month.value(u"spent_micros"_s).toInteger() <= cap);
            anyRunning = false;
            for (const QString &id : std::as_const(hosts))
                anyRunning = anyRunning || f.state(user, id) == u"running"_s;
        }
        QVERIFY(!anyRunning);
        const qint64 now = f.clock.nowMs();
        // Spent to the micro-yuan: what hosts owed was capped at the cap, not a micro more.
        QCOMPARE(f.postedIn(user, Period::Month, now), cap);
        for (const QString &id : std::as_const(hosts)) {
            const QJsonObject view = f.instances->get(user, id);
            QCOMPARE(view.value(u"state"_s).toString(), u"stopped"_s);
            QCOMPARE(view.value(u"state_reason"_s).toString(), u"spending_limit"_s);
            QCOMPARE(view.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0); // paused
        }
        // Nothing deleted: the snapshots are kept, their fee paused.
        for (const QString &id : std::as_const(snaps)) {
            const QJsonObject snap = f.snapshots->get(user, id);
            QCOMPARE(snap.value(u"state"_s).toString(), u"ready"_s);
            QCOMPARE(snap.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
        }
        QCOMPARE(
            f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE user_id = ? AND ended_at IS NULL"_s,
                        {user})
                .toInt(),
            0);
        // The stop is in the ledger's words too, and nothing is charged while capped.
        QVERIFY(f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE user_id = ? AND description"
                            " LIKE '%stopped: spending_limit%'"_s,
                            {user})
                    .toInt()
                >= 1);
        const qint64 balance = f.ledger->balance(user);
        f.advanceSeconds(3 * 3600);
        QCOMPARE(f.ledger->balance(user), balance);
        // A start is refused while the cap leaves no minute, naming it.
        try {
            f.instances->start(user, hosts.first());
            QFAIL("start under a reached cap succeeded");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 402);
            QCOMPARE(error.code(), u"spending_limit_reached"_s);
            QVERIFY2(error.message().contains(u"monthly"_s) && error.message().contains(u"50.00"_s),
                     qPrintable(error.message()));
            QCOMPARE(error.details().value(u"period"_s).toString(), u"month"_s);
            QCOMPARE(error.details().value(u"max_micros"_s).toInteger(), cap);
        }
        const QJsonObject json = f.instances->spendingLimitsJson(user);
        QCOMPARE(json.value(u"time_zone"_s).toString(), u"Asia/Shanghai"_s);
        QVERIFY(json.value(u"periods"_s).toArray().at(1).toObject().value(u"alerted"_s).toBool());
        // Raising the cap lets them start again.
        f.setMax(user, Period::Month, 80 * kYuan);
        f.instances->start(user, hosts.first());
        SpendingFixture::settle();
        QCOMPARE(f.state(user, hosts.first()), u"running"_s);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void loweringBelowSpentStopsAtOnce()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"lower@example.com"_s);
        f.topUp(user, 100 * kYuan);
        const QString id = f.launch(user, u"rtx4090"_s, 1);
        f.advanceSeconds(3600); // 1.90 yuan
        f.setMax(user, Period::Day, 1 * kYuan);
        SpendingFixture::settle();
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view.value(u"state_reason"_s).toString(), u"spending_limit"_s);
        // Billed up to the change, not a second less: the hour was run before the cap.
        QCOMPARE(view.value(u"cost_micros"_s).toInteger(), 1'900'000);
        // Invalid changes lose nothing.
        std::array<std::optional<InstanceService::LimitChange>, 3> bad;
        InstanceService::LimitChange change;
        change.alertGiven = change.maxGiven = true;
        change.alertMicros = 5 * kYuan;
        change.maxMicros = 2 * kYuan;
        bad.at(0) = change;
        QCOMPARE(spendingCode([&] { f.instances->changeSpendingLimits(user, bad); }),
                 u"invalid_request"_s);
        QCOMPARE(f.limits->limitsOf(user).at(0).maxMicros.value_or(-1), 1 * kYuan);
    }

    void dayBoundaryGivesEachDayItsOwnSpend()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"days@example.com"_s);
        f.topUp(user, 1'000 * kYuan);
        f.setMax(user, Period::Day, 10 * kYuan);
        // To an hour before midnight in Shanghai.
        const qint64 midnight =
            f.limits->windowAt(user, Period::Day, f.clock.nowMs()).endMs.value();
        f.clock.setMs(midnight - 3'600'000);
        f.instances->tick();
        const QString id = f.launch(user, u"rtx4090"_s, 1);
        f.advanceSeconds(2 * 3600); // across midnight in one tick
        QCOMPARE(f.state(user, id), u"running"_s);
        QCOMPARE(f.postedIn(user, Period::Day, midnight), 1'900'000); // the old day's hour
        QCOMPARE(f.postedIn(user, Period::Day, f.clock.nowMs()), 1'900'000); // and the new one's
    }

    void randomSequences()
    {
        const QByteArray given = qgetenv("CARDHOUR_LIMITS_SEED");
        const quint64 seed =
            given.isEmpty() ? QRandomGenerator::global()->generate64() : given.toULongLong();
        const int sequences = qEnvironmentVariableIsSet("CARDHOUR_LIMITS_SEQUENCES")
            ? qEnvironmentVariableIntValue("CARDHOUR_LIMITS_SEQUENCES")
            : 10'000;
        qInfo("random sequences: seed %llu (replay with CARDHOUR_LIMITS_SEED=%llu), %d sequences",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              sequences);
        QRandomGenerator rng(seed);
        // A fresh in-memory provider every hundred sequences keeps each one's cost flat: the
        // provider's per-tick work grows with the accounts and hosts it holds (each sequence
        // is a new account; none sees another's), so 100 costs ~15 % less CPU than 500.
        constexpr int kSequencesPerProvider = 100;
        std::unique_ptr<SpendingFixture> fixture;
        qint64 largestOverrun = 0;
        qint64 operations = 0;
        qint64 stoppedByCap = 0;
        for (int seq = 0; seq < sequences; ++seq) {
            if (seq % kSequencesPerProvider == 0) {
                if (fixture)
                    QVERIFY2(fixture->ledger->verify().isEmpty(),
                             qPrintable(fixture->ledger->verify()));
                fixture.reset();
                fixture = std::make_unique<SpendingFixture>(u":memory:"_s);
            }
            SpendingFixture &f = *fixture;
            const QString user = f.signUp(u"seq%1@example.com"_s.arg(seq));
            // What each period may hold: its maximum, or what it had spent when a maximum was
            // set below that (it may not grow from there).
            std::array<std::optional<qint64>, 3> max{};
            std::array<QHash<qint64, qint64>, 3> floorAt{}; // window start → spent at the change
            const auto allowed = [&](int p, qint64 windowStart) {
                return std::max(*max.at(p), floorAt.at(p).value(windowStart, 0));
            };
            const auto check = [&](qint64 atMs, const char *what) {
                QVERIFY2(f.ledger->balance(user) >= 0, what);
                for (int p = 0; p < 3; ++p) {
                    if (!max.at(p))
                        continue;
                    const auto window = f.limits->windowAt(user, Period(p), atMs);
                    const qint64 spent = f.limits->spentIn(user, window);
                    largestOverrun = std::max(largestOverrun, spent - allowed(p, window.startMs));
                    if (spent > allowed(p, window.startMs))
                        QFAIL(qPrintable(
                            u"seed %1, sequence %2, after %3: %4 spent %5 > %6"_s.arg(seed)
                                .arg(seq)
                                .arg(QLatin1StringView(what))
                                .arg(SpendingLimits::periodName(Period(p)))
                                .arg(spent)
                                .arg(allowed(p, window.startMs))));
                }
            };
            QStringList hosts;
            const int steps = 3 + int(rng.bounded(6));
            for (int step = 0; step < steps; ++step) {
                ++operations;
                const qint64 before = f.clock.nowMs();
                const int op = int(rng.bounded(9));
                try {
                    if (op <= 1) {
                        hosts.append(f.launch(user, kFourTypes.at(int(rng.bounded(4))),
                                              rng.bounded(2) ? 1 : 2));
                    } else if (op == 2 && !hosts.isEmpty()) {
                        f.instances->stop(user, hosts.at(int(rng.bounded(hosts.size()))));
                        SpendingFixture::settle();
                    } else if (op == 3 && !hosts.isEmpty()) {
                        f.instances->start(user, hosts.at(int(rng.bounded(hosts.size()))));
                        SpendingFixture::settle();
                    } else if (op == 4) {
                        f.topUp(user, (1 + rng.bounded(300)) * kYuan);
                    } else if (op == 5 && !hosts.isEmpty()) {
                        f.snapshots->create(user, hosts.at(int(rng.bounded(hosts.size()))), u"s"_s);
                        SpendingFixture::settle();
                    } else if (op == 6) {
                        const int p = int(rng.bounded(3));
                        const std::optional<qint64> newMax = rng.bounded(5) == 0
                            ? std::nullopt
                            : std::optional<qint64>(qint64(rng.bounded(20'000'000)));
                        f.instances->tick();
                        const auto window = f.limits->windowAt(user, Period(p), f.clock.nowMs());
                        const qint64 spent = f.limits->spentIn(user, window);
                        f.setMax(user, Period(p), newMax,
                                 newMax && rng.bounded(2) ? std::optional<qint64>(*newMax / 2)
                                                          : std::nullopt);
                        max.at(p) = newMax;
                        floorAt.at(p).insert(window.startMs,
                                             std::max(floorAt.at(p).value(window.startMs), spent));
                        SpendingFixture::settle();
                    } else {
                        // Seconds, hours, or across the next midnight.
                        const int kind = int(rng.bounded(3));
                        const qint64 seconds = kind == 0 ? 1 + rng.bounded(120)
                            : kind == 1                  ? 600 + rng.bounded(4 * 3600)
                                                         : 20 * 3600 + rng.bounded(6 * 3600);
                        f.advanceSeconds(seconds);
                    }
                } catch (const ApiError &error) {
                    // Refusals (402, 409) are part of the game; anything else is a failure.
                    QVERIFY2(error.status() == 402 || error.status() == 409,
                             qPrintable(u"seed %1 sequence %2: %3 %4"_s.arg(seed).arg(seq).arg(
                                 error.code(), error.message())));
                }
                check(before, "the step (window before it)");
                check(f.clock.nowMs(), "the step");
            }
            for (const QString &id : std::as_const(hosts)) {
                if (f.state(user, id) == u"stopped"_s
                    && f.instances->get(user, id).value(u"state_reason"_s) == u"spending_limit"_s)
                    ++stoppedByCap;
                f.instances->terminate(user, id);
            }
            for (const QJsonValue &snap : f.snapshots->list(user)) {
                if (snap[u"state"_s] != u"deleted"_s)
                    f.snapshots->remove(user, snap[u"id"_s].toString());
            }
            SpendingFixture::settle();
            check(f.clock.nowMs(), "the clean-up");
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY2(fixture->ledger->verify().isEmpty(), qPrintable(fixture->ledger->verify()));
        qInfo("random sequences: %d sequences, %lld operations, %lld hosts stopped by a cap,"
              " largest overrun %lld micro-yuan",
              sequences, static_cast<long long>(operations), static_cast<long long>(stoppedByCap),
              static_cast<long long>(largestOverrun));
        QCOMPARE(largestOverrun, 0);
    }
};

QTEST_GUILESS_MAIN(TestSpendingLimits)
#include "tst_spendinglimits.moc"
