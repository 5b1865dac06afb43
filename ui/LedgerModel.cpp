#include "LedgerModel.h"

#include "Format.h"

#include <QMap>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Posting;

LedgerModel::LedgerModel(QObject *parent) : QAbstractTableModel(parent) {}

int LedgerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_postings.size());
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList LedgerModel::knownKinds()
{
    return {u"trial_credit"_s, u"topup"_s, u"compute"_s, u"storage"_s};
}

QString LedgerModel::kindText(const QString &kind)
{
    if (kind == u"trial_credit"_s)
        return tr("Trial credit");
    if (kind == u"topup"_s)
        return tr("Top-up");
    if (kind == u"compute"_s)
        return tr("Compute");
    if (kind == u"storage"_s)
        return tr("Storage");
    return kind;
}

QString LedgerModel::instanceName(const QString &id) const
{
    return m_names.value(id, id);
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_postings.size())
        return {};
    const Posting &p = m_postings.at(index.row());
    switch (role) {
    case KindRole:
        return p.kind;
    case InstanceIdRole:
        return p.instanceId;
    case TimeRole:
        return p.createdAt;
    case SortRole:
        switch (index.column()) {
        case TimeColumn:
            return p.seq; // the provider's order, exact even within one millisecond
        case KindColumn:
            return kindText(p.kind);
        case InstanceColumn:
            return instanceName(p.instanceId);
        case DescriptionColumn:
            return p.description;
        case AmountColumn:
            return p.amountMicros;
        case BalanceColumn:
            return p.balanceAfterMicros;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return Format::dateTime(p.createdAt, m_zone, true);
        case KindColumn:
            return kindText(p.kind);
        case InstanceColumn:
            return p.instanceId.isEmpty() ? QString() : instanceName(p.instanceId);
        case DescriptionColumn:
            return p.description;
        case AmountColumn:
            return Format::money(p.amountMicros);
        case BalanceColumn:
            return Format::money(p.balanceAfterMicros);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == TimeColumn)
            return p.createdAt.toTimeZone(m_zone).toString(Qt::ISODateWithMs);
        // Two decimals on screen; every digit the ledger holds on hover (and in the CSV).
        if (index.column() == AmountColumn)
            return Format::exactMoney(p.amountMicros);
        if (index.column() == BalanceColumn)
            return Format::exactMoney(p.balanceAfterMicros);
        if (index.column() == InstanceColumn)
            return p.instanceId;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == AmountColumn || index.column() == BalanceColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Kind");
    case InstanceColumn:
        return tr("Instance");
    case DescriptionColumn:
        return tr("Description");
    case AmountColumn:
        return tr("Amount");
    case BalanceColumn:
        return tr("Balance after");
    }
    return {};
}

void LedgerModel::setPostings(const QList<Posting> &postings)
{
    beginResetModel();
    m_postings = postings;
    endResetModel();
}

void LedgerModel::setInstanceNames(const QHash<QString, QString> &names)
{
    if (names == m_names)
        return;
    m_names = names;
    if (!m_postings.isEmpty())
        Q_EMIT dataChanged(index(0, InstanceColumn), index(rowCount() - 1, InstanceColumn));
}

void LedgerModel::setTimeZone(const QTimeZone &zone)
{
    m_zone = zone;
    if (!m_postings.isEmpty())
        Q_EMIT dataChanged(index(0, TimeColumn), index(rowCount() - 1, TimeColumn));
}

void LedgerModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_postings.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

// ---- filter -------------------------------------------------------------------------------------

LedgerFilterModel::LedgerFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(LedgerModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void LedgerFilterModel::setKind(const QString &kind)
{
    m_kind = kind;
    invalidateFilter();
}

void LedgerFilterModel::setInstanceId(const QString &instanceId)
{
    m_instanceId = instanceId;
    invalidateFilter();
}

void LedgerFilterModel::setText(const QString &text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void LedgerFilterModel::setDateRange(const QDate &from, const QDate &to)
{
    m_from = from;
    m_to = to;
    invalidateFilter();
}

void LedgerFilterModel::setTimeZone(const QTimeZone &zone)
{
    m_zone = zone;
    invalidateFilter();
}

bool LedgerFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const LedgerModel *>(sourceModel());
    if (!model || sourceParent.isValid())
        return false;
    const Posting &p = model->postingAt(sourceRow);
    if (!m_kind.isEmpty() && p.kind != m_kind)
        return false;
    if (!m_instanceId.isEmpty() && p.instanceId != m_instanceId)
        return false;
    const QDate day = p.createdAt.toTimeZone(m_zone).date();
    if (m_from.isValid() && day < m_from)
        return false;
    if (m_to.isValid() && day > m_to)
        return false;
    if (m_text.isEmpty())
        return true;
    const QStringList haystack{p.description, p.kind, LedgerModel::kindText(p.kind), p.instanceId,
                               model->instanceName(p.instanceId)};
    for (const QString &text : haystack) {
        if (text.contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

// ---- plain functions ----------------------------------------------------------------------------

namespace ledger {

QString plainYuan(qint64 micros)
{
    const bool negative = micros < 0;
    const quint64 magnitude = negative ? quint64(-(micros + 1)) + 1 : quint64(micros);
    return (negative ? u"-"_s : QString()) + QString::number(magnitude / 1'000'000) + u'.'
        + u"%1"_s.arg(qulonglong(magnitude % 1'000'000), 6, 10, QChar(u'0'));
}

QString toCsv(const QAbstractItemModel &view, const LedgerModel &model)
{
    QString out = u"seq,time_utc,kind,instance_id,instance_name,description,amount_yuan,"
                  "balance_after_yuan\r\n"_s;
    for (int row = 0; row < view.rowCount(); ++row) {
        int sourceRow = row;
        if (const auto *proxy = qobject_cast<const QSortFilterProxyModel *>(&view))
            sourceRow = proxy->mapToSource(proxy->index(row, 0)).row();
        const Posting &p = model.postingAt(sourceRow);
        const QStringList fields{
            QString::number(p.seq),
            p.createdAt.toUTC().toString(Qt::ISODateWithMs),
            csvField(p.kind),
            csvField(p.instanceId),
            csvField(p.instanceId.isEmpty() ? QString() : model.instanceName(p.instanceId)),
            csvField(p.description),
            plainYuan(p.amountMicros),
            plainYuan(p.balanceAfterMicros)};
        out += fields.join(u',') + u"\r\n"_s;
    }
    return out;
}

namespace {
QDateTime bucketStart(const QDateTime &at, Bucket bucket, const QTimeZone &zone)
{
    const QDateTime local = at.toTimeZone(zone);
    const QTime time = bucket == Bucket::Hour ? QTime(local.time().hour(), 0) : QTime(0, 0);
    return QDateTime(local.date(), time, zone);
}
} // namespace

QList<SpendBucket> spendBuckets(const QList<Posting> &postings, Bucket bucket,
                                const QTimeZone &zone)
{
    QMap<QDateTime, qint64> sums;
    for (const Posting &p : postings) {
        if ((p.kind != u"compute"_s && p.kind != u"storage"_s) || p.amountMicros >= 0)
            continue;
        const QDateTime at = p.periodEnd.isValid() ? p.periodEnd : p.createdAt;
        if (!at.isValid())
            continue;
        sums[bucketStart(at, bucket, zone)] += -p.amountMicros;
    }
    QList<SpendBucket> out;
    if (sums.isEmpty())
        return out;
    // A ledger spanning years keeps its newest buckets: what a chart can show anyway.
    constexpr int kMaxBuckets = 2000;
    const QDateTime last = sums.lastKey();
    QDateTime first = sums.firstKey();
    const QDateTime earliest = bucket == Bucket::Hour ? last.addSecs(-3600LL * (kMaxBuckets - 1))
                                                      : last.addDays(-(kMaxBuckets - 1));
    if (first < earliest)
        first = earliest;
    for (QDateTime at = first; at <= last;
         at = bucketStart(bucket == Bucket::Hour ? at.addSecs(3600) : at.addDays(1), bucket, zone))
        out.append({at, sums.value(at, 0)});
    return out;
}

} // namespace ledger

} // namespace cardhour::ui
