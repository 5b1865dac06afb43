#pragma once

#include "LedgerModel.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace cardhour::ui {

class EmptyState;
class TimeChart;

// Spend over time from the ledger (compute and storage charges), per hour or per day, drawn as
// steps over a time axis (a TimeChart). Shows the newest buckets (two days of hours, two months of
// days); nothing is drawn while it is hidden.
class SpendChart : public QWidget
{
    Q_OBJECT
public:
    explicit SpendChart(QWidget *parent = nullptr);

    void setPostings(const QList<core::Posting> &postings);
    ledger::Bucket bucket() const;
    void setBucket(ledger::Bucket bucket);
    void setTimeZone(const QTimeZone &zone);
    // What is plotted now (tests).
    QList<ledger::SpendBucket> shownBuckets() const { return m_shown; }

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void rebuild();
    void retranslate();

    QComboBox *m_bucket;
    QLabel *m_total;
    TimeChart *m_plot;
    EmptyState *m_empty; // instead of the plot while nothing is charged
    int m_spendSeries = 0;
    QList<core::Posting> m_postings;
    QList<ledger::SpendBucket> m_shown;
    QTimeZone m_zone = QTimeZone::utc(); // the provider's (LedgerView sets it)
    bool m_dirty = true;
};

} // namespace cardhour::ui
