#include "pages/SnapshotsModel.h"

#include "Format.h"
#include "api/ProviderCodes.h"
#include "billing/BillTicker.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

SnapshotsModel::SnapshotsModel(NameLookup names, const core::Clock *clock, QObject *parent)
    : QAbstractTableModel(parent), m_names(std::move(names)),
      m_clock(clock ? clock : core::SystemClock::instance())
{}

int SnapshotsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SnapshotsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SnapshotsModel::sizeText(const std::optional<qint64> &bytes)
{
    if (!bytes)
        return tr("—");
    return QLocale().formattedDataSize(*bytes, 1, QLocale::DataSizeIecFormat);
}

QString SnapshotsModel::stateText(const core::Snapshot &snapshot)
{
    if (snapshot.state == u"creating"_s)
        return tr("Being taken");
    if (snapshot.state == u"ready"_s)
        return tr("Ready");
    if (snapshot.state == u"failed"_s) {
        if (snapshot.stateReason == core::SnapshotReason::ProviderRestarted)
            return tr("Failed · the provider restarted while it was taken");
        return snapshot.stateReason.isEmpty() ? tr("Failed")
                                              : tr("Failed · %1").arg(snapshot.stateReason);
    }
    if (snapshot.state == u"deleted"_s)
        return tr("Deleted");
    return snapshot.state;
}

QString SnapshotsModel::feeText(qint64 microsPerHour)
{
    return Format::ratePerHour(microsPerHour);
}

QString SnapshotsModel::retentionItem(const QString &item)
{
    if (item == u"authorized_keys"_s)
        return tr("the SSH keys it was given");
    if (item == u"datasets"_s)
        return tr("the datasets it mounted");
    if (item == u"memory_and_processes"_s)
        return tr("memory and running processes");
    return Format::retentionItem(item);
}

QString SnapshotsModel::keepsText(const core::SnapshotRetention &retention)
{
    QStringList items;
    for (const QString &item : retention.keeps)
        items.append(retentionItem(item));
    return QLocale().createSeparatedList(items);
}

qint64 SnapshotsModel::costNowMicros(int row) const
{
    const Row &r = m_rows.at(row);
    qint64 cost = r.snapshot.storageCostMicros;
    if (r.snapshot.storageRateMicrosPerHour > 0)
        cost += core::BillTicker::costOf(qMax<qint64>(0, m_clock->nowMs() - r.receivedMs),
                                         r.snapshot.storageRateMicrosPerHour);
    return cost;
}

QVariant SnapshotsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const core::Snapshot &s = m_rows.at(index.row()).snapshot;
    if (role == IdRole)
        return s.id;
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case SizeColumn:
        case FeeColumn:
        case CostColumn:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == KeepsColumn) {
        QStringList lost;
        for (const QString &item : s.retention.doesNotKeep)
            lost.append(retentionItem(item));
        return tr("Not kept (a restore is a new instance): %1")
            .arg(QLocale().createSeparatedList(lost));
    }
    const QDateTime since = s.isReady() ? s.readyAt : s.createdAt;
    if (role == Qt::ToolTipRole && index.column() == SinceColumn)
        return Format::dateTime(since, m_zone, true);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return s.name;
    case StateColumn:
        return stateText(s);
    case SourceColumn: {
        const QString name = m_names ? m_names(s.instanceId) : QString();
        return name.isEmpty() ? tr("%1 (gone)").arg(s.instanceId.left(8)) : name;
    }
    case ImageColumn:
        return s.image;
    case GpuColumn:
        return tr("%1 × %2").arg(s.gpuType).arg(s.gpuCount);
    case SizeColumn:
        return sizeText(s.sizeBytes);
    case FeeColumn:
        if (s.storageRateMicrosPerHour > 0)
            return feeText(s.storageRateMicrosPerHour);
        if (!s.isReady())
            return tr("—");
        // Ready but not billed: the fee waits for a top-up (the provider never makes a debt).
        return s.retention.storageRateMicrosPerHour > 0 ? tr("paused: balance empty") : feeText(0);
    case SinceColumn: {
        const QString ago =
            Format::relative(since, (m_providerNow ? m_providerNow : m_clock)->now());
        return s.state == u"creating"_s ? tr("taking, started %1").arg(ago) : ago;
    }
    case CostColumn:
        return Format::money(costNowMicros(index.row()));
    case KeepsColumn:
        return keepsText(s.retention);
    default:
        return {};
    }
}

QVariant SnapshotsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case StateColumn:
        return tr("State");
    case SourceColumn:
        return tr("From instance");
    case ImageColumn:
        return tr("Image");
    case GpuColumn:
        return tr("GPUs");
    case SizeColumn:
        return tr("Size");
    case FeeColumn:
        return tr("Storage fee");
    case SinceColumn:
        return tr("Billed since");
    case CostColumn:
        return tr("Storage cost so far");
    case KeepsColumn:
        return tr("Keeps");
    default:
        return {};
    }
}

void SnapshotsModel::setSnapshots(const QList<core::Snapshot> &snapshots)
{
    beginResetModel();
    m_rows.clear();
    const qint64 now = m_clock->nowMs();
    for (const core::Snapshot &s : snapshots) {
        if (s.state != u"deleted"_s)
            m_rows.append({s, now});
    }
    endResetModel();
}

void SnapshotsModel::upsert(const core::Snapshot &snapshot)
{
    const int row = rowOf(snapshot.id);
    if (snapshot.state == u"deleted"_s) {
        if (row >= 0) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
        return;
    }
    if (row >= 0) {
        m_rows[row] = {snapshot, m_clock->nowMs()};
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    const int at = int(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows.append({snapshot, m_clock->nowMs()});
    endInsertRows();
}

void SnapshotsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int SnapshotsModel::rowOf(const QString &id) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).snapshot.id == id)
            return row;
    }
    return -1;
}

const core::Snapshot *SnapshotsModel::snapshotAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row).snapshot : nullptr;
}

const core::Snapshot *SnapshotsModel::snapshot(const QString &id) const
{
    return snapshotAt(rowOf(id));
}

void SnapshotsModel::tick()
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).snapshot.storageRateMicrosPerHour > 0)
            Q_EMIT dataChanged(index(row, CostColumn), index(row, CostColumn), {Qt::DisplayRole});
    }
    // "3 min ago" moves on.
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, SinceColumn), index(int(m_rows.size()) - 1, SinceColumn),
                           {Qt::DisplayRole});
}

void SnapshotsModel::setTimes(const QTimeZone &zone, const core::Clock *providerNow)
{
    m_zone = zone;
    m_providerNow = providerNow;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, SinceColumn), index(int(m_rows.size()) - 1, SinceColumn));
}

void SnapshotsModel::refreshNames()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, SourceColumn), index(int(m_rows.size()) - 1, SourceColumn),
                           {Qt::DisplayRole});
}

void SnapshotsModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

} // namespace cardhour::ui
