#pragma once

#include "LedgerModel.h"
#include "api/ApiError.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace cardhour::core {
class ClientSession;
}

namespace cardhour::ui {

class SpendChart;

// The ledger tab: every posting (GET /v1/billing/ledger, all pages) in a sortable table with
// filters (kind, instance, text, date range), CSV export of what the filters show, and the spend
// over time. It loads when asked (reload()), e.g. when the tab is shown or a billing event says
// the balance moved while it is on screen.
class LedgerView : public QWidget
{
    Q_OBJECT
public:
    explicit LedgerView(core::ClientSession *session, QWidget *parent = nullptr);

    // Fetches every page again; answers older than the latest request are dropped.
    void reload();
    bool isLoading() const { return m_loading; }
    // What reload() does with the provider's answer (tests may call it directly).
    void setPostings(const QList<core::Posting> &postings);
    void setInstanceNames(const QHash<QString, QString> &names);
    void clear();
    // The zone of the Time column, the date filter and the chart's hours and days: the
    // provider's (it follows the session's on its own; tests may set another).
    void setTimeZone(const QTimeZone &zone);

    LedgerModel *model() const { return m_model; }
    LedgerFilterModel *filter() const { return m_filter; }
    SpendChart *spendChart() const { return m_chart; }

    // The rows the filters show, in the table's order, as CSV (see ledger::toCsv).
    QString csv() const;
    // Writes csv() to `path` (whole file or nothing); false with `error` in words.
    bool exportCsv(const QString &path, QString *error);

Q_SIGNALS:
    void loadFailed(const cardhour::core::ApiError &error);
    // Every posting just shown (statements and the cost comparison use the same load).
    void postingsChanged(const QList<cardhour::core::Posting> &postings);
    void instanceNamesChanged(const QHash<QString, QString> &names);

protected:
    void changeEvent(QEvent *event) override;

private:
    void fetchPage(qint64 before, quint64 generation);
    void applyFilters();
    void rebuildInstanceChoices();
    void chooseExportFile();
    void retranslate();
    void updateCount();

    core::ClientSession *m_session;
    LedgerModel *m_model;
    LedgerFilterModel *m_filter;
    QComboBox *m_kind;
    QComboBox *m_instance;
    QLineEdit *m_search;
    QCheckBox *m_fromCheck;
    QDateEdit *m_from;
    QCheckBox *m_toCheck;
    QDateEdit *m_to;
    QPushButton *m_exportButton;
    QPushButton *m_reloadButton;
    QLabel *m_count;
    QTableView *m_table;
    SpendChart *m_chart;
    QList<core::Posting> m_pending;
    quint64 m_generation = 0;
    bool m_loading = false;
};

} // namespace cardhour::ui
