#pragma once

#include "api/Models.h"
#include "billing/Csv.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSortFilterProxyModel>
#include <QTimeZone>

namespace cardhour::ui {

// The ledger (GET /v1/billing/ledger, every page) as a table, newest first as the provider sends
// it. Display text goes through Format; SortRole gives the raw value (seq, time, micro-yuan) so
// sorting never compares formatted money.
class LedgerModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        KindColumn,
        InstanceColumn,
        DescriptionColumn,
        AmountColumn,
        BalanceColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        KindRole, // the provider's word: trial_credit, topup, compute, storage
        InstanceIdRole, // empty for postings of no instance
        TimeRole // QDateTime (UTC)
    };

    explicit LedgerModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void setPostings(const QList<core::Posting> &postings);
    const QList<core::Posting> &postings() const { return m_postings; }
    const core::Posting &postingAt(int row) const { return m_postings.at(row); }
    // Instance names for the Instance column (ids the client no longer lists show as ids).
    void setInstanceNames(const QHash<QString, QString> &names);
    QString instanceName(const QString &id) const;
    // The zone the Time column is written in: the provider's, as everywhere (Format).
    void setTimeZone(const QTimeZone &zone);
    void retranslate();

    // A ledger kind in the user's language.
    static QString kindText(const QString &kind);
    // The kinds the provider posts, in the order the filter lists them.
    static QStringList knownKinds();

private:
    QList<core::Posting> m_postings;
    QHash<QString, QString> m_names;
    QTimeZone m_zone = QTimeZone::utc();
};

// Filters the ledger by kind, instance, free text (description, kind, instance name or id) and
// a date range (inclusive, in `timeZone`: the provider's, as the Time column is written).
class LedgerFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit LedgerFilterModel(QObject *parent = nullptr);

    void setKind(const QString &kind); // empty: every kind
    void setInstanceId(const QString &instanceId); // empty: every posting
    void setText(const QString &text);
    void setDateRange(const QDate &from, const QDate &to); // null dates: open ends
    void setTimeZone(const QTimeZone &zone);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_kind;
    QString m_instanceId;
    QString m_text;
    QDate m_from;
    QDate m_to;
    QTimeZone m_zone = QTimeZone::utc();
};

// Plain functions over postings, shared by the view, the chart and the tests.
namespace ledger {

// "-0.001583": the exact yuan of an integer micro-yuan amount (six decimals, no symbol, no
// thousands separator), for files other programs read.
QString plainYuan(qint64 micros);
using core::csvField; // billing/Csv.h
// The rows of `model` in `view`'s order (a proxy over it, or the model itself) as CSV with a
// header line, CRLF line ends: seq, time (UTC, ISO 8601), kind, instance id and name,
// description, amount and balance after in yuan.
QString toCsv(const QAbstractItemModel &view, const LedgerModel &model);

// Spend per bucket: compute and storage charges (as positive micro-yuan) summed by the start of
// the hour or day (in `zone`) their period ended in; every bucket from the first to the last,
// empty ones included, oldest first.
enum class Bucket {
    Hour,
    Day
};
struct SpendBucket
{
    QDateTime start;
    qint64 micros = 0;
};
QList<SpendBucket> spendBuckets(const QList<core::Posting> &postings, Bucket bucket,
                                const QTimeZone &zone);

} // namespace ledger

} // namespace cardhour::ui
