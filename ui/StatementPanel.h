#pragma once

#include "billing/Statement.h"

#include <QHash>
#include <QTimeZone>
#include <QWidget>

class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace cardhour::ui {

// The Billing page's statements: a month picker over the months the ledger has postings in,
// the month's balances and totals by kind and by host in a stated time zone, and the month
// exported as CSV or PDF. It shows the postings LedgerView loaded (one load for both).
class StatementPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StatementPanel(QWidget *parent = nullptr);

    void setPostings(const QList<core::Posting> &postings);
    void setInstanceNames(const QHash<QString, QString> &names);
    // The provider's period zone when it states one; UTC (said so) otherwise.
    void setTimeZone(const QTimeZone &zone, bool fromProvider);
    // year * 100 + month; a month without postings shows an empty statement.
    void setMonth(int key);
    int month() const;

    const core::Statement &statement() const { return m_statement; }
    bool exportCsv(const QString &path, QString *error) const;
    bool exportPdf(const QString &path, QString *error) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuildMonths();
    void rebuildStatement();
    void chooseFile(bool pdf);
    void retranslate();

    QComboBox *m_month;
    QLabel *m_monthLabel;
    QLabel *m_zoneLabel;
    QGridLayout *m_summary;
    QLabel *m_hostsTitle;
    QTableWidget *m_hosts;
    QLabel *m_snapshotsTitle;
    QTableWidget *m_snapshots; // each kept snapshot's fees (hidden when there were none)
    QLabel *m_postingsTitle;
    QTableWidget *m_postingsTable;
    QPushButton *m_csvButton;
    QPushButton *m_pdfButton;
    QLabel *m_status;
    QList<core::Posting> m_postings;
    QHash<QString, QString> m_names;
    QTimeZone m_zone = QTimeZone::utc();
    bool m_zoneFromProvider = false;
    core::Statement m_statement;
};

} // namespace cardhour::ui
