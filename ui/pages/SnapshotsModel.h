#pragma once

#include "api/Models.h"
#include "billing/Clock.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QTimeZone>

#include <functional>

namespace cardhour::ui {

// The user's snapshots as a table, as the provider last described them: setSnapshots() from
// GET /v1/snapshots, upsert() from each SSE `snapshot` event (a deleted one leaves). The storage
// cost of a billed snapshot is carried forward locally from the provider's figure at its rate,
// so the column moves between events without asking the provider again.
class SnapshotsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StateColumn,
        SourceColumn,
        ImageColumn,
        GpuColumn,
        SizeColumn,
        FeeColumn,
        SinceColumn,
        CostColumn,
        KeepsColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1
    };
    // The name of an instance by id (empty when unknown).
    using NameLookup = std::function<QString(const QString &instanceId)>;

    // `clock` must outlive the model; nullptr: the system clock.
    explicit SnapshotsModel(NameLookup names, const core::Clock *clock = nullptr,
                            QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // How the Since column tells time: "3 min ago" by `providerNow` (the provider's clock, as
    // the times are its own; nullptr: the model's clock), the time itself in `zone` on hover.
    void setTimes(const QTimeZone &zone, const core::Clock *providerNow);

    void setSnapshots(const QList<core::Snapshot> &snapshots);
    void upsert(const core::Snapshot &snapshot);
    void clear();

    int rowOf(const QString &id) const;
    const core::Snapshot *snapshotAt(int row) const;
    const core::Snapshot *snapshot(const QString &id) const;
    // Storage cost so far: the provider's figure plus the time since at the current rate.
    qint64 costNowMicros(int row) const;

    // "1.5 GiB" in the user's language; "—" while unknown.
    static QString sizeText(const std::optional<qint64> &bytes);
    // "ready", "being taken", ... in the user's language.
    static QString stateText(const core::Snapshot &snapshot);
    // What it keeps, in words ("the container's own disk and /workspace").
    static QString keepsText(const core::SnapshotRetention &retention);
    // "¥0.0004/h": a storage fee with every digit it has (Format::ratePerHour).
    static QString feeText(qint64 microsPerHour);
    // A retention word of a snapshot (container_disk, authorized_keys, ...) in words.
    static QString retentionItem(const QString &item);

public Q_SLOTS:
    // Moves the cost column of billed snapshots.
    void tick();
    // The source instances' names may be known now; headers follow the language.
    void refreshNames();
    void retranslate();

private:
    struct Row
    {
        core::Snapshot snapshot;
        qint64 receivedMs = 0; // when the provider's figure arrived, on our clock
    };

    NameLookup m_names;
    const core::Clock *m_clock;
    const core::Clock *m_providerNow = nullptr;
    QTimeZone m_zone = QTimeZone::utc();
    QList<Row> m_rows;
};

} // namespace cardhour::ui
