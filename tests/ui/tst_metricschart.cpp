// MetricsChart: live samples of the instance shown are plotted per card; while the chart is
// hidden nothing is kept; samples older than the range are dropped.
#include "MetricsChart.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"

#include <QTest>

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
};

QTEST_MAIN(TestMetricsChart)
#include "tst_metricschart.moc"
