// Format: money is cut from the integer micro-yuan, never rounded through a double.
#include "Format.h"

#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::ui::Format;

class TestFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void money_data()
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
        QTest::newRow("min") << std::numeric_limits<qint64>::min() << 6
                             << u"−¥9223372036854.775808"_s;
    }
    void money()
    {
        QFETCH(qint64, micros);
        QFETCH(int, decimals);
        QFETCH(QString, text);
        QCOMPARE(Format::money(micros, decimals), text);
    }

    void duration_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("seconds") << qint64(45'000) << u"45 s"_s;
        QTest::newRow("minutes") << qint64(12 * 60'000 + 5'000) << u"12 min"_s;
        QTest::newRow("hours") << qint64(3 * 3'600'000 + 5 * 60'000) << u"3 h 05 min"_s;
        QTest::newRow("days") << qint64(52 * 3'600'000) << u"2 d 4 h"_s;
        QTest::newRow("negative") << qint64(-5) << u"0 s"_s;
    }
    void duration()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(Format::duration(ms), text);
    }

    void rateAndSeconds()
    {
        QCOMPARE(Format::ratePerHour(1'900'000), u"¥1.90/h"_s);
        QCOMPARE(Format::seconds(3'249), u"3.2 s"_s);
    }
};

QTEST_GUILESS_MAIN(TestFormat)
#include "tst_format.moc"
