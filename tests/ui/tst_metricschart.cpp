// MetricsChart: live samples of the instance shown are plotted per card; while the chart is
// hidden nothing is kept; samples older than the range are dropped.
#include "MetricsChart.h"
#include "api/ProviderClient.h"
#include "charts/TimeChart.h"
#include "session/ClientSession.h"

#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace cardhour;

namespace {

core::MetricsSample sample(const QString &instance, const QDateTime &at, int cards)
{
    core::MetricsSample s;
    s.instanceId = instance;
    s.at = at;
    for (int i = 0; i < cards; ++i) {
        core::GpuSample g;
        g.index = i;
        g.utilizationPct = 10.0 * (i + 1);
        s.gpus.append(g);
    }
    return s;
}

} // namespace

class TestMetricsChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void plotsLiveSamplesOnlyWhenVisible()
    {
        // No provider: the history fetch fails, live samples still count.
        core::ClientSession session{core::ClientSession::Options{}};
        session.client()->setBaseUrl(QUrl(u"http://127.0.0.1:9"_s));
        ui::MetricsChart chart(&session);
        chart.setInstance(u"i-1"_s, true);
        const QDateTime now = QDateTime::currentDateTimeUtc();

        chart.addSample(sample(u"i-1"_s, now, 2)); // hidden: no work, nothing kept
        QCOMPARE(chart.pointCount(0), 0);

        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.addSample(sample(u"i-1"_s, now, 2));
        chart.addSample(sample(u"i-2"_s, now, 2)); // another instance's
        QCOMPARE(chart.pointCount(0), 1);
        QCOMPARE(chart.pointCount(1), 1);

        // Older than the range (5 minutes by default): dropped.
        chart.addSample(sample(u"i-1"_s, now.addSecs(-600), 1));
        QCOMPARE(chart.pointCount(0), 1);
        QCOMPARE(chart.rangeMinutes(), 5);

        chart.hide();
        chart.addSample(sample(u"i-1"_s, now.addSecs(1), 2));
        QCOMPARE(chart.pointCount(0), 1);

        // Another instance starts from scratch.
        chart.setInstance(u"i-2"_s, true);
        QCOMPARE(chart.pointCount(0), 0);
    }

    void timeLabelsSayTheTimeOfTheirTick_data()
    {
        QTest::addColumn<QString>("zone");
        QTest::addColumn<int>("minutes");
        QTest::addColumn<QString>("format");
        for (const char *zone : {"UTC", "Asia/Shanghai", "Asia/Kolkata"}) {
            for (int minutes : {5, 15, 60, 24 * 60})
                QTest::addRow("%s %d min", zone, minutes)
                    << QString::fromLatin1(zone) << minutes << u"HH:mm"_s;
            QTest::addRow("%s days", zone)
                << QString::fromLatin1(zone) << 14 * 24 * 60 << u"MM-dd"_s;
        }
    }
    void timeLabelsSayTheTimeOfTheirTick()
    {
        // A range that starts 47.25 s into a minute (a chart's "now" never is a whole minute):
        // the labels were placed at range/5 steps from it and cut to the minute, so each said a
        // time up to a minute before the one it stood at. Each label now reads back as the exact
        // time of its tick, in the chart's zone (Asia/Kolkata is half an hour off whole hours).
        QFETCH(QString, zone);
        QFETCH(int, minutes);
        QFETCH(QString, format);
        const QTimeZone tz(zone.toLatin1());
        const QDateTime from(QDate(2026, 12, 6), QTime(13, 54, 47, 250), QTimeZone::utc());
        ui::TimeChart chart;
        chart.setTimeZone(tz);
        chart.setTimeFormat(format);
        chart.setTimeRange(from, from.addSecs(60LL * minutes));
        const auto labels = chart.timeLabels();
        QVERIFY2(labels.size() >= 2 && labels.size() <= 6,
                 qPrintable(QString::number(labels.size())));
        for (const auto &[at, label] : labels) {
            QVERIFY(at >= from.toMSecsSinceEpoch()
                    && at <= from.addSecs(60LL * minutes).toMSecsSinceEpoch());
            const QDateTime there = QDateTime::fromMSecsSinceEpoch(at, tz);
            QCOMPARE(label, there.toString(format));
            // Nothing finer than the label shows: the tick is on a whole minute (or day).
            QCOMPARE(there.time().second(), 0);
            QCOMPARE(there.time().msec(), 0);
            if (format == u"MM-dd"_s)
                QCOMPARE(there.time(), QTime(0, 0));
        }
    }
};

QTEST_MAIN(TestMetricsChart)
#include "tst_metricschart.moc"
