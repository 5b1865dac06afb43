#include "SpendChart.h"

#include "Format.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QValueAxis>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
// Bars that stay readable: two days of hours, a month of days.
int maxBars(ledger::Bucket bucket)
{
    return bucket == ledger::Bucket::Hour ? 48 : 31;
}
} // namespace

SpendChart::SpendChart(QWidget *parent)
    : QWidget(parent), m_bucket(new QComboBox(this)), m_total(new QLabel(this)),
      m_chart(new QChart), m_view(new QChartView(m_chart, this)), m_series(new QBarSeries(m_chart)),
      m_categories(new QBarCategoryAxis(m_chart)), m_values(new QValueAxis(m_chart))
{
    setObjectName(u"spendChart"_s);
    m_bucket->setObjectName(u"spendBucket"_s);
    m_total->setObjectName(u"spendTotal"_s);
    m_bucket->addItem(QString(), int(ledger::Bucket::Hour));
    m_bucket->addItem(QString(), int(ledger::Bucket::Day));
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->addSeries(m_series);
    m_chart->addAxis(m_categories, Qt::AlignBottom);
    m_chart->addAxis(m_values, Qt::AlignLeft);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_values);
    m_values->setLabelFormat(u"¥%.2f"_s);
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
    QList<ledger::SpendBucket> all = ledger::spendBuckets(m_postings, bucket(), m_zone);
    const int keep = maxBars(bucket());
    m_shown = all.mid(qMax<qsizetype>(0, all.size() - keep));

    m_series->clear();
    auto *set = new QBarSet(tr("Spend"));
    QStringList labels;
    qint64 total = 0;
    qint64 highest = 0;
    for (const ledger::SpendBucket &b : std::as_const(m_shown)) {
        // Yuan as a double only to draw the bar's height; the label below is exact.
        set->append(double(b.micros) / 1e6);
        const QDateTime local = b.start.toTimeZone(m_zone);
        labels.append(bucket() == ledger::Bucket::Hour ? local.toString(u"HH:00"_s)
                                                       : local.toString(u"MM-dd"_s));
        total += b.micros;
        highest = qMax(highest, b.micros);
    }
    m_series->append(set);
    m_categories->setCategories(labels);
    m_values->setRange(0, qMax(0.01, double(highest) / 1e6 * 1.1));
    m_total->setText(m_shown.isEmpty()
                         ? tr("No charges yet.")
                         : tr("Spent in the periods shown: %1").arg(Format::money(total, 4)));
}

void SpendChart::retranslate()
{
    m_bucket->setItemText(0, tr("Per hour"));
    m_bucket->setItemText(1, tr("Per day"));
    m_chart->setTitle(tr("Spend over time"));
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
