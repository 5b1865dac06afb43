#include "MetricsChart.h"

#include "charts/TimeChart.h"
#include "session/ClientSession.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

namespace {
// Seconds per plotted point for each range: at most ~300 points whatever the range.
int stepFor(int minutes)
{
    return minutes <= 5 ? 1 : minutes <= 15 ? 3 : 12;
}
} // namespace

MetricsChart::MetricsChart(ClientSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_range(new QComboBox(this)), m_note(new QLabel(this)),
      m_plot(new TimeChart(this))
{
    setObjectName(u"metricsChart"_s);
    m_range->setObjectName(u"metricsRange"_s);
    for (int minutes : {5, 15, 60})
        m_range->addItem(QString(), minutes);
    m_plot->setObjectName(u"metricsPlot"_s);
    m_plot->setTimeFormat(u"HH:mm"_s);
    // The samples are stamped by the provider's clock: the range and the labels follow it and
    // its zone, not this machine's.
    m_plot->setTimeZone(session->timeZone());
    connect(session, &ClientSession::timeZoneChanged, m_plot, &TimeChart::setTimeZone);
    m_plot->setValueRange(0, 100);
    m_plot->setValueLabel([](double value) { return u"%1%"_s.arg(qRound(value)); });
    m_plot->setMinimumHeight(180);

    auto *top = new QHBoxLayout;
    top->addWidget(m_note, 1);
    top->addWidget(m_range);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    connect(m_range, &QComboBox::currentIndexChanged, this, &MetricsChart::reload);
    retranslate();
}

int MetricsChart::rangeMinutes() const
{
    return m_range->currentData().toInt();
}

int MetricsChart::pointCount(int index) const
{
    return m_series.contains(index) ? m_plot->pointCount(m_series.value(index)) : 0;
}

void MetricsChart::setInstance(const QString &instanceId, bool running)
{
    const bool changed = instanceId != m_instanceId || running != m_running;
    m_instanceId = instanceId;
    m_running = running;
    if (changed)
        reload();
}

void MetricsChart::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    reload(); // samples that came while hidden were not kept
}

void MetricsChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void MetricsChart::retranslate()
{
    m_range->setItemText(0, tr("Last 5 min"));
    m_range->setItemText(1, tr("Last 15 min"));
    m_range->setItemText(2, tr("Last 60 min"));
    m_plot->setTitle(tr("GPU utilisation"));
    m_plot->setAccessibleName(tr("GPU utilisation"));
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it)
        m_plot->setSeriesName(it.value(), tr("GPU %1").arg(it.key()));
    if (m_instanceId.isEmpty())
        m_note->setText(tr("Select an instance to see its GPUs."));
    else if (!m_running)
        m_note->setText(tr("Measured while the instance runs."));
    else
        m_note->clear();
}

void MetricsChart::clearSeries()
{
    m_plot->clearSeries();
    m_series.clear();
}

int MetricsChart::seriesFor(int index)
{
    if (m_series.contains(index))
        return m_series.value(index);
    const int series = m_plot->addSeries(tr("GPU %1").arg(index));
    m_series.insert(index, series);
    return series;
}

void MetricsChart::reload()
{
    ++m_generation;
    clearSeries();
    const QDateTime now = m_session->providerClock()->now();
    m_plot->setTimeRange(now.addSecs(-60LL * rangeMinutes()), now);
    retranslate();
    if (!isVisible() || m_instanceId.isEmpty())
        return;
    const quint64 generation = m_generation;
    const int step = stepFor(rangeMinutes());
    m_session->metrics(m_instanceId, now.addSecs(-60LL * rangeMinutes()), step)
        ->onFinished(this, [this, generation](const Reply<InstanceMetrics> &reply) {
            if (generation != m_generation || !reply.ok())
                return;
            for (const MetricsSample &sample : reply.value().samples)
                append(sample);
            trim();
        });
}

void MetricsChart::addSample(const MetricsSample &sample)
{
    // Hidden: nothing to draw, nothing kept (the history is fetched again on show).
    if (!isVisible() || sample.instanceId != m_instanceId)
        return;
    append(sample);
    trim();
}

void MetricsChart::append(const MetricsSample &sample)
{
    // Points stay in time order (trim() drops from the front): older than the range is not shown.
    if (!sample.at.isValid()
        || sample.at < m_session->providerClock()->now().addSecs(-60LL * rangeMinutes()))
        return;
    const qreal x = qreal(sample.at.toMSecsSinceEpoch());
    for (const GpuSample &gpu : sample.gpus)
        m_plot->appendPoint(seriesFor(gpu.index), x, gpu.utilizationPct);
}

void MetricsChart::trim()
{
    const QDateTime now = m_session->providerClock()->now();
    const QDateTime from = now.addSecs(-60LL * rangeMinutes());
    m_plot->setTimeRange(from, now);
    m_plot->removeBefore(qreal(from.toMSecsSinceEpoch()));
}

} // namespace cardhour::ui
