// Format: money is cut from the integer micro-yuan, never rounded through a double; amounts have
// two decimals, rates every digit they have; digits are grouped as the UI language's locale
// does; times are written in the zone the caller gives (the provider's).
#include "Format.h"

#include <QLocale>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::ui::Format;

class TestFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { QLocale::setDefault(QLocale(u"en_US"_s)); }

    void money_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<qint64>("micros");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("text");
        for (const QString &locale : {u"en_US"_s, u"zh_CN"_s}) {
            const QByteArray l = locale.toLatin1();
            auto row = [&](const char *name) {
                return &QTest::newRow((l + ' ' + name).constData());
            };
            *row("zero") << locale << qint64(0) << 2 << u"¥0.00"_s;
            *row("price") << locale << qint64(1'900'000) << 2 << u"¥1.90"_s;
            *row("truncates") << locale << qint64(9'999'999) << 2 << u"¥9.99"_s;
            *row("balance truncates") << locale << qint64(9'999'900) << 2 << u"¥9.99"_s;
            *row("four") << locale << qint64(9'999'472) << 4 << u"¥9.9994"_s;
            *row("whole") << locale << qint64(12'000'000) << 0 << u"¥12"_s;
            *row("thousands") << locale << qint64(1'234'567'890) << 2 << u"¥1,234.56"_s;
            *row("millions") << locale << qint64(12'345'678'000'000) << 2 << u"¥12,345,678.00"_s;
            *row("negative") << locale << qint64(-1'500'000) << 2 << u"−¥1.50"_s;
            *row("negative thousands") << locale << qint64(-3'009'609'999) << 2 << u"−¥3,009.60"_s;
            *row("negative truncates to zero") << locale << qint64(-1'509'999) << 2 << u"−¥1.50"_s;
            *row("sub-cent") << locale << qint64(528) << 2 << u"< ¥0.01"_s;
            *row("sub-cent charge") << locale << qint64(-528) << 2 << u"> −¥0.01"_s;
            *row("one cent") << locale << qint64(10'000) << 2 << u"¥0.01"_s;
            *row("sub-cent at four") << locale << qint64(99) << 4 << u"< ¥0.0001"_s;
            *row("min") << locale << std::numeric_limits<qint64>::min() << 6
                        << u"−¥9,223,372,036,854.775808"_s;
        }
    }
    void money()
    {
        QFETCH(QString, locale);
        QFETCH(qint64, micros);
        QFETCH(int, decimals);
        QFETCH(QString, text);
        QLocale::setDefault(QLocale(locale));
        QCOMPARE(Format::money(micros, decimals), text);
        if (decimals == 2)
            QCOMPARE(Format::money(micros), text);
    }

    void groupingFollowsTheLocale()
    {
        // A locale that groups differently shows that the grouping is the locale's, not ours.
        QLocale::setDefault(QLocale(u"de_DE"_s));
        QCOMPARE(Format::money(1'234'567'890), u"¥1.234,56"_s);
    }

    void exactMoney_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<qint64>("micros");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("input");
        for (const QString &locale : {u"en_US"_s, u"zh_CN"_s}) {
            const QByteArray l = locale.toLatin1();
            auto row = [&](const char *name) {
                return &QTest::newRow((l + ' ' + name).constData());
            };
            *row("whole") << locale << qint64(3'009'600'000) << u"¥3,009.60"_s << u"3009.60"_s;
            *row("micro") << locale << qint64(528) << u"¥0.000528"_s << u"0.000528"_s;
            *row("storage price") << locale << qint64(200) << u"¥0.0002"_s << u"0.0002"_s;
            *row("charge") << locale << qint64(-1'001'583) << u"−¥1.001583"_s << u"-1.001583"_s;
        }
    }
    void exactMoney()
    {
        QFETCH(QString, locale);
        QFETCH(qint64, micros);
        QFETCH(QString, text);
        QFETCH(QString, input);
        QLocale::setDefault(QLocale(locale));
        QCOMPARE(Format::exactMoney(micros), text);
        QCOMPARE(Format::moneyInput(micros), input); // never grouped: a field reads it back
    }

    void rates_data()
    {
        QTest::addColumn<qint64>("micros");
        QTest::addColumn<QString>("perHour");
        QTest::addColumn<QString>("perGibHour");
        QTest::newRow("card") << qint64(1'900'000) << u"¥1.90/h"_s << u"¥1.90/GiB-h"_s;
        QTest::newRow("storage") << qint64(200) << u"¥0.0002/h"_s << u"¥0.0002/GiB-h"_s;
        QTest::newRow("large") << qint64(12'345'670'000) << u"¥12,345.67/h"_s
                               << u"¥12,345.67/GiB-h"_s;
        QTest::newRow("odd") << qint64(7'123'456) << u"¥7.123456/h"_s << u"¥7.123456/GiB-h"_s;
    }
    void rates()
    {
        QFETCH(qint64, micros);
        QFETCH(QString, perHour);
        QFETCH(QString, perGibHour);
        QCOMPARE(Format::ratePerHour(micros), perHour);
        QCOMPARE(Format::ratePerGibHour(micros), perGibHour);
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

    void seconds() { QCOMPARE(Format::seconds(3'249), u"3.2 s"_s); }

    void timesInTheGivenZone()
    {
        const QDateTime at(QDate(2026, 12, 5), QTime(17, 54, 14), QTimeZone::utc());
        const QTimeZone shanghai("Asia/Shanghai");
        QCOMPARE(Format::dateTime(at, shanghai), u"2026-12-06 01:54"_s);
        QCOMPARE(Format::dateTime(at, shanghai, true), u"2026-12-06 01:54:14"_s);
        QCOMPARE(Format::time(at, shanghai), u"01:54:14"_s);
        QCOMPARE(Format::dateTime(at, QTimeZone::utc()), u"2026-12-05 17:54"_s);
        QCOMPARE(Format::dateTime(QDateTime(), shanghai), QString());
        QCOMPARE(Format::zoneNote(shanghai, true),
                 u"Times in Asia/Shanghai (the provider's zone)"_s);
    }

    void relative_data()
    {
        QTest::addColumn<qint64>("secondsAgo");
        QTest::addColumn<QString>("text");
        QTest::newRow("now") << qint64(0) << u"just now"_s;
        QTest::newRow("59 s") << qint64(59) << u"just now"_s;
        QTest::newRow("3 min") << qint64(3 * 60 + 59) << u"3 min ago"_s;
        QTest::newRow("5 h") << qint64(5 * 3600 + 120) << u"5 h ago"_s;
        QTest::newRow("2 d") << qint64(50 * 3600) << u"2 d ago"_s;
        QTest::newRow("to come") << qint64(-4 * 60) << u"in 4 min"_s;
    }
    void relative()
    {
        QFETCH(qint64, secondsAgo);
        QFETCH(QString, text);
        const QDateTime now(QDate(2026, 12, 6), QTime(1, 0), QTimeZone::utc());
        QCOMPARE(Format::relative(now.addSecs(-secondsAgo), now), text);
    }
};

QTEST_GUILESS_MAIN(TestFormat)
#include "tst_format.moc"
