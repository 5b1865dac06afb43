// CostComparison: own cards, a public cloud and this provider for the same card-hours, exact.
#include "billing/CostComparison.h"

#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;
using cardhour::core::CostComparison;
using cardhour::core::CostInputs;
using cardhour::core::LedgerUsage;
using cardhour::core::mulDivRounded;
using cardhour::core::Posting;

class TestCostComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void seedExample()
    {
        // The brief: 198 h × 8 cards × 1.9 yuan is 3,009.60 yuan (it prints 3,024).
        const auto c = CostComparison::forJob(CostInputs{}, 1'900'000, 8, 198);
        QVERIFY(c);
        QCOMPARE(c->cardSeconds, qint64(198) * 8 * 3600);
        QCOMPARE(c->providerMicros, 3'009'600'000);
        QCOMPARE(c->cloudMicros, 7'207'200'000); // 1,584 card-hours × 4.55
        // 1,584 × 27,000 / 26,280 = 1,627.397260... yuan
        QCOMPARE(c->ownShareMicros, 1'627'397'260);
        QCOMPARE(c->ownOutlayMicros, 108'000'000'000);
        QCOMPARE(c->savingPermilleVsCloud(), 582); // 1 − 3009.6 / 7207.2 = 58.24 %
        QCOMPARE(c->savingPermilleVsOwn(), -849); // renting costs 84.9 % more at full use
    }

    void seedDefaults()
    {
        const CostInputs in;
        QCOMPARE(in.cardPriceMicros, 13'500'000'000);
        QCOMPARE(in.upkeepPerYearMicros, 4'500'000'000);
        QCOMPARE(in.years, 3);
        QCOMPARE(in.cloudPerCardHourMicros, 4'550'000);
        QCOMPARE(in.ownCardTotalMicros(), 27'000'000'000);
        QCOMPARE(in.ownCardHours(), 26'280);
    }

    void rounding()
    {
        QCOMPARE(mulDivRounded(1, 1, 2), 1); // a half rounds up
        QCOMPARE(mulDivRounded(1, 1, 3), 0);
        QCOMPARE(mulDivRounded(2, 1, 3), 1);
        QCOMPARE(mulDivRounded(7, 0, 3), 0);
        QVERIFY(!mulDivRounded(1, 1, 0));
        QVERIFY(!mulDivRounded(-1, 1, 1));
        const qint64 big = std::numeric_limits<qint64>::max();
        QCOMPARE(mulDivRounded(big, 3, 3), big); // no intermediate a × b
        QVERIFY(!mulDivRounded(big, 2, 1));
        // One second at 1.9 yuan/h is 527.77... micro-yuan.
        QCOMPARE(mulDivRounded(1, 1'900'000, 3600), 528);
    }

    void badInputs()
    {
        CostInputs in;
        QVERIFY(!CostComparison::forJob(in, 1'900'000, 0, 10));
        QVERIFY(!CostComparison::forJob(in, 1'900'000, 1, 0));
        QVERIFY(!CostComparison::forJob(in, 0, 1, 10));
        in.years = 0;
        QVERIFY(!CostComparison::forJob(in, 1'900'000, 1, 10));
        in = {};
        in.cardPriceMicros = 0;
        QVERIFY(!CostComparison::forJob(in, 1'900'000, 1, 10));
        in = {};
        QVERIFY(!CostComparison::forJob(in, 1'900'000, 1 << 30, qint64(1) << 40));
    }

    void usageFromTheLedger()
    {
        const QDateTime now = QDateTime::fromString(u"2026-12-01T00:00:00Z"_s, Qt::ISODate);
        auto compute = [](const QString &instance, const QString &start, const QString &end,
                          qint64 amount) {
            Posting p;
            p.kind = u"compute"_s;
            p.instanceId = instance;
            p.periodStart = QDateTime::fromString(start, Qt::ISODate);
            p.periodEnd = QDateTime::fromString(end, Qt::ISODate);
            p.amountMicros = amount;
            return p;
        };
        Posting topup;
        topup.kind = u"topup"_s;
        topup.amountMicros = 50'000'000;
        const QList<Posting> postings{
            compute(u"a"_s, u"2026-11-30T10:00:00Z"_s, u"2026-11-30T12:00:00Z"_s, -7'600'000),
            compute(u"b"_s, u"2026-11-29T10:00:00Z"_s, u"2026-11-29T10:30:00Z"_s, -950'000),
            compute(u"gone"_s, u"2026-11-20T10:00:00Z"_s, u"2026-11-20T11:00:00Z"_s, -1'900'000),
            compute(u"a"_s, u"2026-10-01T10:00:00Z"_s, u"2026-10-01T11:00:00Z"_s, -3'800'000),
            topup,
        };
        const auto cards = [](const QString &id) -> std::optional<int> {
            if (id == u"a"_s)
                return 2;
            if (id == u"b"_s)
                return 1;
            return std::nullopt;
        };
        const LedgerUsage usage = LedgerUsage::fromLedger(postings, now.addDays(-30), now, cards);
        QCOMPARE(usage.postings, 2);
        QCOMPARE(usage.cardSeconds, 2 * 7200 + 1800);
        QCOMPARE(usage.chargedMicros, 8'550'000);
        QCOMPARE(usage.leftOutPostings, 1);
        QCOMPARE(usage.leftOutMicros, 1'900'000);
        const auto c =
            CostComparison::forUsage(CostInputs{}, usage.cardSeconds, usage.chargedMicros);
        QVERIFY(c);
        QCOMPARE(c->providerMicros, 8'550'000);
        QCOMPARE(c->cloudMicros, 20'475'000); // 4.5 card-hours × 4.55
        QCOMPARE(c->ownShareMicros, 4'623'288); // 4.5 × 27,000 / 26,280 = 4.6232876...
        QCOMPARE(c->ownOutlayMicros, 0);
    }
};

QTEST_GUILESS_MAIN(TestCostComparison)
#include "tst_costcomparison.moc"
