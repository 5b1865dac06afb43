#include "SpendChart.h"

#include "Format.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

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
      m_chart(new QChart), m_view(new QChartView(m_chart, this)), m_line(new QLineSeries(m_chart)),
      m_area(new QAreaSeries(m_line)), m_timeAxis(new QDateTimeAxis(m_chart)),
      m_values(new QValueAxis(m_chart))
{
    setObjectName(u"spendChart"_s);
    m_bucket->setObjectName(u"spendBucket"_s);
    m_total->setObjectName(u"spendTotal"_s);
    m_bucket->addItem(QString(), int(ledger::Bucket::Hour));
    m_bucket->addItem(QString(), int(ledger::Bucket::Day));
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->addSeries(m_area);
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_values, Qt::AlignLeft);
    m_area->attachAxis(m_timeAxis);
    m_area->attachAxis(m_values);
    m_area->setOpacity(0.8);
    m_timeAxis->setTickCount(6);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(160);

    auto *top = new QHBoxLayout;
    top->addWidget(m_total, 1);
    top->addWidget(m_bucket);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
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
    m_line->replace(points);
    if (!m_shown.isEmpty()) {
        const QDateTime first = m_shown.first().start;
        const QDateTime last = m_shown.last().start.addSecs(
            bucket() == ledger::Bucket::Hour ? 3600 : 86400);
        m_timeAxis->setRange(first.toTimeZone(m_zone), last.toTimeZone(m_zone));
    }
    m_timeAxis->setFormat(bucket() == ledger::Bucket::Hour ? u"MM-dd HH:mm"_s : u"MM-dd"_s);
    // Enough decimals that small sandbox charges do not all read 0.00.
    const double top = qMax(0.0001, double(highest) / 1e6 * 1.15);
    m_values->setRange(0, top);
    m_values->setLabelFormat(top < 0.05 ? u"%.4f"_s : u"%.2f"_s);
    m_total->setText(m_shown.isEmpty()
                         ? tr("No charges yet.")
                         : tr("Spent in the periods shown: %1").arg(Format::money(total, 4)));
}

void SpendChart::retranslate()
{
    m_bucket->setItemText(0, tr("Per hour"));
    m_bucket->setItemText(1, tr("Per day"));
    m_chart->setTitle(tr("Spend over time"));
    m_values->setTitleText(tr("yuan"));
    m_area->setName(tr("Spend"));
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
