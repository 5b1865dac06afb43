// Money: amounts are cut from the integer micro-yuan and read back into it, never through a
// double (ui::Format::money and TopUpDialog::parseYuan are these functions, as is cardhourctl).
#include "billing/Money.h"

#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;
using cardhour::core::Money;

class TestMoney : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void format_data()
    {
        QTest::addColumn<qint64>("micros");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << 2 << u"¥0.00"_s;
        QTest::newRow("price") << qint64(1'900'000) << 2 << u"¥1.90"_s;
        QTest::newRow("truncates") << qint64(9'999'999) << 2 << u"¥9.99"_s;
        QTest::newRow("four") << qint64(9'999'472) << 4 << u"¥9.9994"_s;
        QTest::newRow("whole") << qint64(12'000'000) << 0 << u"¥12"_s;
        QTest::newRow("negative") << qint64(-1'500'000) << 2 << u"−¥1.50"_s;
        QTest::newRow("decimals clamped") << qint64(1) << 9 << u"¥0.000001"_s;
        QTest::newRow("min") << std::numeric_limits<qint64>::min() << 6
                             << u"−¥9223372036854.775808"_s;
    }
    void format()
    {
        QFETCH(qint64, micros);
        QFETCH(int, decimals);
        QFETCH(QString, text);
        QCOMPARE(Money::format(micros, decimals), text);
    }

    void parseYuan_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("micros"); // -1: refused
        QTest::newRow("whole") << u"50"_s << qint64(50'000'000);
        QTest::newRow("two decimals") << u"12.50"_s << qint64(12'500'000);
        QTest::newRow("leading point") << u".5"_s << qint64(500'000);
        QTest::newRow("comma as point") << u"3,25"_s << qint64(3'250'000);
        QTest::newRow("full-width comma") << u"3，25"_s << qint64(3'250'000);
        QTest::newRow("yuan sign and spaces") << u" ¥ 20 "_s << qint64(20'000'000);
        QTest::newRow("no float drift") << u"0.29"_s << qint64(290'000);
        QTest::newRow("three decimals") << u"1.005"_s << qint64(-1);
        QTest::newRow("negative") << u"-5"_s << qint64(-1);
        QTest::newRow("exponent") << u"1e3"_s << qint64(-1);
        QTest::newRow("two points") << u"1.2.3"_s << qint64(-1);
        QTest::newRow("empty") << u""_s << qint64(-1);
        QTest::newRow("huge") << u"9999999999999"_s << qint64(-1);
        QTest::newRow("arabic-indic digits") << u"٥"_s << qint64(-1);
    }
    void parseYuan()
    {
        QFETCH(QString, text);
        QFETCH(qint64, micros);
        QCOMPARE(Money::parseYuan(text).value_or(-1), micros);
    }

    void parseYuanMoreDecimals()
    {
        QCOMPARE(Money::parseYuan(u"1.005"_s, 6).value_or(-1), qint64(1'005'000));
    }
};

QTEST_GUILESS_MAIN(TestMoney)
#include "tst_money.moc"
