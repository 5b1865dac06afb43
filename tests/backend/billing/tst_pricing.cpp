#include "billing/Pricing.h"

#include <QTest>

using namespace cardhour::sim;

class TestPricing : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void segmentCost_data()
    {
        QTest::addColumn<qint64>("durationMs");
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("3 s at 1.90/h") << 3000LL << 1900000LL << 1583LL; // 3 * 1900000 / 3600
        QTest::newRow("one hour") << 3600000LL << 1900000LL << 1900000LL;
        QTest::newRow("one minute") << 60000LL << 1900000LL << 31666LL;
        QTest::newRow("90.5 s, 2 cards") << 90500LL << 3800000LL << 95527LL;
        QTest::newRow("zero length") << 0LL << 1900000LL << 0LL;
        QTest::newRow("negative length") << -5LL << 1900000LL << 0LL;
        QTest::newRow("free rate") << 3600000LL << 0LL << 0LL;
        QTest::newRow("one ms") << 1LL << 1900000LL << 0LL;
        // 100 years at 8 x 1000 yuan/h must not overflow.
        QTest::newRow("100 years, max rate")
            << 100LL * 365 * 24 * 3600000 << 8000000000LL << 100LL * 365 * 24 * 8000000000LL;
    }
    void segmentCost()
    {
        QFETCH(qint64, durationMs);
        QFETCH(qint64, rate);
        QFETCH(qint64, expected);
        QCOMPARE(pricing::segmentCost(durationMs, rate), expected);
    }

    // Costs computed from the whole length are additive only up to rounding; what the meter
    // relies on is that the sum of differences telescopes to the whole-run cost.
    void checkpointsTelescope()
    {
        const qint64 rate = 1900000;
        qint64 charged = 0;
        qint64 t = 0;
        for (int step = 0; step < 1000; ++step) {
            t += 1 + (step * 7919) % 2500; // uneven steps
            charged += pricing::segmentCost(t, rate) - charged;
        }
        QCOMPARE(charged, pricing::segmentCost(t, rate));
    }

    void firstTimeReached()
    {
        QCOMPARE(pricing::firstTimeReached(0, 100, [](qint64 t) { return t >= 37; }), 37);
        QCOMPARE(pricing::firstTimeReached(0, 100, [](qint64) { return true; }), 0);
        QCOMPARE(pricing::firstTimeReached(0, 100, [](qint64) { return false; }), 101);
        QCOMPARE(pricing::firstTimeReached(5, 4, [](qint64) { return true; }), 5);
    }
};

QTEST_GUILESS_MAIN(TestPricing)
#include "tst_pricing.moc"
