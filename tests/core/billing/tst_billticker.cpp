// BillTicker with a manual clock: interpolation between provider updates, corrections, the
// time the balance runs out.
#include "billing/BillTicker.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace {
constexpr qint64 kHour = 3'600'000;
} // namespace

class TestBillTicker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void costOf_data();
    void costOf();
    void msToSpend_data();
    void msToSpend();
    void interpolates_data();
    void interpolates();
    void correctedByProvider();
    void ignoresOlderUpdates();
    void runsOut();
    void idleNeverRunsOut();
    void ticksOnItsOwn();
    void clear();
};

void TestBillTicker::costOf_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<qint64>("rate");
    QTest::addColumn<qint64>("cost");
    QTest::newRow("one hour") << kHour << qint64(1'900'000) << qint64(1'900'000);
    QTest::newRow("one second, rounded down") << qint64(1000) << qint64(1'900'000) << qint64(527);
    QTest::newRow("half an hour") << kHour / 2 << qint64(1'900'000) << qint64(950'000);
    QTest::newRow("nothing") << qint64(0) << qint64(1'900'000) << qint64(0);
    QTest::newRow("backwards") << qint64(-5000) << qint64(1'900'000) << qint64(0);
    QTest::newRow("idle") << kHour << qint64(0) << qint64(0);
    // Ten years of 8 H100s at 10 000 yuan an hour each: no overflow.
    QTest::newRow("large") << 10 * 365 * 24 * kHour << qint64(80'000'000'000)
                           << 10 * 365 * 24 * qint64(80'000'000'000);
    QTest::newRow("large with a remainder")
        << 1000 * kHour + 1 << qint64(1'000'000'000) << 1000 * qint64(1'000'000'000) + 277;
}

void TestBillTicker::costOf()
{
    QFETCH(qint64, ms);
    QFETCH(qint64, rate);
    QFETCH(qint64, cost);
    QCOMPARE(BillTicker::costOf(ms, rate), cost);
}

void TestBillTicker::msToSpend_data()
{
    QTest::addColumn<qint64>("amount");
    QTest::addColumn<qint64>("rate");
    QTest::addColumn<qint64>("ms");
    QTest::newRow("exact hour") << qint64(1'900'000) << qint64(1'900'000) << kHour;
    QTest::newRow("trial credit at 1.9/h")
        << qint64(10'000'000) << qint64(1'900'000) << qint64(18'947'369);
    QTest::newRow("nothing left") << qint64(0) << qint64(1'900'000) << qint64(0);
    QTest::newRow("idle") << qint64(5) << qint64(0) << qint64(-1);
    QTest::newRow("one micro") << qint64(1) << qint64(3'600'000) << qint64(1);
}

void TestBillTicker::msToSpend()
{
    QFETCH(qint64, amount);
    QFETCH(qint64, rate);
    QFETCH(qint64, ms);
    QCOMPARE(BillTicker::msToSpend(amount, rate), ms);
    if (ms > 0) {
        // The shortest time whose cost reaches the amount.
        QVERIFY(BillTicker::costOf(ms, rate) >= amount);
        QVERIFY(BillTicker::costOf(ms - 1, rate) < amount);
    }
}

void TestBillTicker::interpolates_data()
{
    QTest::addColumn<qint64>("balance");
    QTest::addColumn<qint64>("rate");
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("at once") << qint64(10'000'000) << qint64(1'900'000) << qint64(0)
                             << qint64(10'000'000);
    QTest::newRow("one second") << qint64(10'000'000) << qint64(1'900'000) << qint64(1000)
                                << qint64(9'999'473);
    QTest::newRow("one hour") << qint64(10'000'000) << qint64(1'900'000) << kHour
                              << qint64(8'100'000);
    QTest::newRow("past zero") << qint64(1'000) << qint64(1'900'000) << kHour << qint64(0);
    QTest::newRow("idle") << qint64(10'000'000) << qint64(0) << kHour << qint64(10'000'000);
    QTest::newRow("clock went back")
        << qint64(10'000'000) << qint64(1'900'000) << qint64(-60'000) << qint64(10'000'000);
}

void TestBillTicker::interpolates()
{
    QFETCH(qint64, balance);
    QFETCH(qint64, rate);
    QFETCH(qint64, elapsedMs);
    QFETCH(qint64, expected);
    ManualClock clock;
    BillTicker ticker(&clock);
    ticker.setTickIntervalMs(0);
    QVERIFY(!ticker.hasData());
    QVERIFY(ticker.update(balance, rate));
    QVERIFY(ticker.hasData());
    clock.advanceMs(elapsedMs);
    QCOMPARE(ticker.balanceMicros(), expected);
}

void TestBillTicker::correctedByProvider()
{
    ManualClock clock;
    BillTicker ticker(&clock);
    ticker.setTickIntervalMs(0);
    QSignalSpy changed(&ticker, &BillTicker::balanceChanged);
    BillingSummary summary;
    summary.balanceMicros = 10'000'000;
    summary.spendRateMicrosPerHour = 3'600'000; // one micro-yuan per ms
    summary.asOf = QDateTime::fromMSecsSinceEpoch(1'000'000, QTimeZone::utc());
    QVERIFY(ticker.update(summary));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.last().first().toLongLong(), 10'000'000);

    clock.advanceMs(1000);
    ticker.tick();
    QCOMPARE(changed.last().first().toLongLong(), 9'999'000);
    ticker.tick(); // no time passed: no signal
    QCOMPARE(changed.count(), 2);

    // The provider says the instance stopped 500 ms ago: more money left, and no spending.
    summary.balanceMicros = 9'999'500;
    summary.spendRateMicrosPerHour = 0;
    summary.asOf = summary.asOf.addMSecs(1000);
    QVERIFY(ticker.update(summary));
    QCOMPARE(ticker.balanceMicros(), 9'999'500);
    QCOMPARE(changed.last().first().toLongLong(), 9'999'500);
    clock.advanceMs(kHour);
    QCOMPARE(ticker.balanceMicros(), 9'999'500);
}

void TestBillTicker::ignoresOlderUpdates()
{
    ManualClock clock;
    BillTicker ticker(&clock);
    ticker.setTickIntervalMs(0);
    const QDateTime t0 = QDateTime::fromMSecsSinceEpoch(5'000'000, QTimeZone::utc());
    QVERIFY(ticker.update(8'000'000, 1'900'000, t0));
    // A replayed event from before: ignored.
    QVERIFY(!ticker.update(9'000'000, 0, t0.addSecs(-10)));
    QCOMPARE(ticker.balanceMicros(), 8'000'000);
    QCOMPARE(ticker.spendRateMicrosPerHour(), 1'900'000);
    // Without a time (GET /v1/me) an update always counts.
    Account account;
    account.balanceMicros = 7'000'000;
    QVERIFY(ticker.update(account));
    QCOMPARE(ticker.balanceMicros(), 7'000'000);
}

void TestBillTicker::runsOut()
{
    ManualClock clock;
    BillTicker ticker(&clock);
    ticker.setTickIntervalMs(0);
    QSignalSpy exhausted(&ticker, &BillTicker::exhausted);
    QVERIFY(ticker.update(3'600, 3'600'000)); // one micro-yuan per ms: 3.6 s left
    QCOMPARE(ticker.msLeft(), 3600);
    QCOMPARE(ticker.runsOutAt().toMSecsSinceEpoch(), clock.nowMs() + 3600);

    clock.advanceMs(3599);
    ticker.tick();
    QCOMPARE(ticker.balanceMicros(), 1);
    QCOMPARE(exhausted.count(), 0);
    QCOMPARE(ticker.msLeft(), 1);

    clock.advanceMs(1);
    ticker.tick();
    QCOMPARE(ticker.balanceMicros(), 0);
    QCOMPARE(exhausted.count(), 1);
    QCOMPARE(ticker.msLeft(), 0);
    clock.advanceMs(10'000);
    ticker.tick();
    QCOMPARE(exhausted.count(), 1); // once
    QCOMPARE(ticker.balanceMicros(), 0);
}

void TestBillTicker::idleNeverRunsOut()
{
    ManualClock clock;
    BillTicker ticker(&clock);
    ticker.setTickIntervalMs(0);
    QVERIFY(!ticker.runsOutAt().isValid()); // no data
    QVERIFY(ticker.update(10'000'000, 0));
    QVERIFY(!ticker.runsOutAt().isValid());
    QCOMPARE(ticker.msLeft(), -1);
}

void TestBillTicker::ticksOnItsOwn()
{
    // The real timer with the system clock: only that it ticks, never how fast.
    BillTicker ticker;
    ticker.setTickIntervalMs(10);
    QSignalSpy changed(&ticker, &BillTicker::balanceChanged);
    QVERIFY(ticker.update(1'000'000'000'000, 1'000'000'000'000)); // a million yuan an hour
    QTRY_VERIFY(changed.count() >= 2);
    QVERIFY(changed.last().first().toLongLong() < 1'000'000'000'000);
}

void TestBillTicker::clear()
{
    ManualClock clock;
    BillTicker ticker(&clock);
    QVERIFY(ticker.update(10, 10));
    ticker.clear();
    QVERIFY(!ticker.hasData());
    QCOMPARE(ticker.balanceMicros(), 0);
    QVERIFY(!ticker.runsOutAt().isValid());
}

QTEST_GUILESS_MAIN(TestBillTicker)
#include "tst_billticker.moc"
