#pragma once

#include "LedgerModel.h"

#include <QWidget>

class QBarCategoryAxis;
class QBarSeries;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QValueAxis;

namespace cardhour::ui {

// Spend over time from the ledger (compute and storage charges), per hour or per day, as bars
// (Qt Charts). Shows the newest buckets that fit; nothing is drawn while it is hidden.
class SpendChart : public QWidget
{
    Q_OBJECT
public:
    explicit SpendChart(QWidget *parent = nullptr);

    void setPostings(const QList<core::Posting> &postings);
    ledger::Bucket bucket() const;
    void setBucket(ledger::Bucket bucket);
    void setTimeZone(const QTimeZone &zone);
    // What is plotted now (tests): the buckets and the total they sum to.
    QList<ledger::SpendBucket> shownBuckets() const { return m_shown; }

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void rebuild();
    void retranslate();

    QComboBox *m_bucket;
    QLabel *m_total;
    QChart *m_chart;
    QChartView *m_view;
    QBarSeries *m_series;
    QBarCategoryAxis *m_categories;
    QValueAxis *m_values;
    QList<core::Posting> m_postings;
    QList<ledger::SpendBucket> m_shown;
    QTimeZone m_zone = QTimeZone::systemTimeZone();
    bool m_dirty = true;
};

} // namespace cardhour::ui
