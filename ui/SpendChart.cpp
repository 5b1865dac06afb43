#include "SpendChart.h"

#include "EmptyState.h"
#include "Format.h"
#include "charts/TimeChart.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
// Two days of hours, two months of days.
int maxBuckets(ledger::Bucket bucket)
{
    return bucket == ledger::Bucket::Hour ? 48 : 60;
}
} // namespace

SpendChart::SpendChart(QWidget *parent)
    : QWidget(parent), m_bucket(new QComboBox(this)), m_total(new QLabel(this)),
      m_plot(new TimeChart(this)), m_empty(new EmptyState(Icon::Billing, this))
{
    setObjectName(u"spendChart"_s);
    m_bucket->setObjectName(u"spendBucket"_s);
    m_total->setObjectName(u"spendTotal"_s);
    m_bucket->addItem(QString(), int(ledger::Bucket::Hour));
    m_bucket->addItem(QString(), int(ledger::Bucket::Day));
    m_plot->setObjectName(u"spendPlot"_s);
    m_plot->setLegendVisible(false);
    m_spendSeries = m_plot->addSeries(QString(), true);
    m_plot->setMinimumHeight(160);

    auto *top = new QHBoxLayout;
    top->addWidget(m_total, 1);
    top->addWidget(m_bucket);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);
    // No axes over nothing: the chart comes with the first charge.
    m_empty->setObjectName(u"spendEmpty"_s);
    m_empty->hide();
    layout->addWidget(m_empty, 1);
    connect(m_bucket, &QComboBox::currentIndexChanged, this, [this] {
        m_dirty = true;
        rebuild();
    });
    retranslate();
}

ledger::Bucket SpendChart::bucket() const
{
    return ledger::Bucket(m_bucket->currentData().toInt());
}

void SpendChart::setBucket(ledger::Bucket bucket)
{
    m_bucket->setCurrentIndex(m_bucket->findData(int(bucket)));
}

void SpendChart::setTimeZone(const QTimeZone &zone)
{
    m_zone = zone;
    m_dirty = true;
    rebuild();
}

void SpendChart::setPostings(const QList<core::Posting> &postings)
{
    m_postings = postings;
    m_dirty = true;
    rebuild();
}

void SpendChart::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    rebuild();
}

void SpendChart::rebuild()
{
    if (!m_dirty || !isVisible())
        return; // charts off screen do no work; showEvent catches up
    m_dirty = false;
    const QList<ledger::SpendBucket> all = ledger::spendBuckets(m_postings, bucket(), m_zone);
    m_shown = all.mid(qMax<qsizetype>(0, all.size() - maxBuckets(bucket())));

    // Steps: each bucket's spend held flat from its start to the next bucket's start.
    QList<QPointF> points;
    qint64 total = 0;
    qint64 highest = 0;
    for (const ledger::SpendBucket &b : std::as_const(m_shown)) {
        const QDateTime end =
            bucket() == ledger::Bucket::Hour ? b.start.addSecs(3600) : b.start.addDays(1);
        // Yuan as a double only for the height drawn; the total below is exact.
        const double yuan = double(b.micros) / 1e6;
        points.append(QPointF(double(b.start.toMSecsSinceEpoch()), yuan));
        points.append(QPointF(double(end.toMSecsSinceEpoch()), yuan));
        total += b.micros;
        highest = qMax(highest, b.micros);
    }
    m_plot->replacePoints(m_spendSeries, points);
    if (!m_shown.isEmpty()) {
        const QDateTime first = m_shown.first().start;
        const QDateTime last =
            m_shown.last().start.addSecs(bucket() == ledger::Bucket::Hour ? 3600 : 86400);
        m_plot->setTimeRange(first, last);
    }
    m_plot->setTimeZone(m_zone);
    m_plot->setTimeFormat(bucket() == ledger::Bucket::Hour ? u"MM-dd HH:mm"_s : u"MM-dd"_s);
    // Enough decimals that the labels differ (small sandbox charges would all read 0.00), at
    // least the fen, at most the micro-yuan that charges are kept in.
    const double top = qMax(0.000001, double(highest) / 1e6 * 1.15);
    m_plot->setValueRange(0, top);
    const double step = top / 4;
    const int decimals = qBound(2, int(std::ceil(-std::log10(step))), 6);
    m_plot->setValueLabel(
        [decimals](double value) { return QString::number(value, 'f', decimals); });
    m_plot->setVisible(!m_shown.isEmpty());
    m_empty->setVisible(m_shown.isEmpty());
    m_total->setText(m_shown.isEmpty()
                         ? tr("No charges yet.")
                         : tr("Spent in the periods shown: %1").arg(Format::money(total)));
}

void SpendChart::retranslate()
{
    m_bucket->setItemText(0, tr("Per hour"));
    m_bucket->setItemText(1, tr("Per day"));
    m_plot->setTitle(tr("Spend over time"));
    m_plot->setAccessibleName(tr("Spend over time"));
    m_plot->setValueTitle(tr("yuan"));
    m_plot->setSeriesName(m_spendSeries, tr("Spend"));
    m_empty->setTitle(tr("Nothing spent yet"));
    m_empty->setText(tr("Compute, storage and snapshot charges show here, per hour or per day, "
                        "as the provider posts them."));
    m_dirty = true;
    rebuild();
}

void SpendChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
