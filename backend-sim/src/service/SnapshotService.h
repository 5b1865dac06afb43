#pragma once

#include "runtime/ContainerRuntime.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

namespace cardhour::sim {

class Catalog;
class Clock;
class Database;
class EventBus;
class InstanceService;
class Meter;

// Snapshots of an instance: its container disk and its /workspace, kept apart from the
// instance (they survive its termination) until deleted, and billed for storage meanwhile.
//
//   creating → ready → deleted;  creating → failed → deleted
//
// A snapshot is taken of a running or stopped instance. A running one is paused by the
// runtime while both are copied (a few seconds; its processes and SSH sessions then carry on),
// so the disk and /workspace are the same moment's. The fee: from `ready`, the snapshot's size
// rounded up to whole GiB × the catalog's storage price per GiB-hour, in the Meter as a
// storage segment of its own (ledger account revenue:storage). As with a stopped instance's
// disk, an empty balance pauses the fee (never a debt) and deletes nothing; a top-up resumes it.
// Deleting ends the fee at once and removes the image and the archive.
class SnapshotService : public QObject
{
    Q_OBJECT
public:
    SnapshotService(Database &db, Meter &meter, const Catalog &catalog, InstanceService &instances,
                    ContainerRuntime &runtime, EventBus &events, const Clock &clock,
                    QObject *parent = nullptr);

    // Records a `creating` snapshot of the caller's instance (inside the caller's transaction,
    // if any); the runtime is asked to take it once that commits. `name` may be empty.
    QJsonObject create(const QString &userId, const QString &instanceId, const QString &name);
    QJsonArray list(const QString &userId);
    QJsonObject get(const QString &userId, const QString &snapshotId);
    // Ends the fee, marks it deleted, and has the runtime delete its image and archive.
    QJsonObject remove(const QString &userId, const QString &snapshotId);

    // After a provider restart: snapshots left `creating` failed with it (their half-made
    // parts are deleted); deleted ones whose parts were not confirmed gone are deleted again.
    void reconcile();

    QJsonObject snapshotJson(const QString &snapshotId, qint64 nowMs);
    // What a snapshot keeps and costs (also for clients to show before one is taken).
    QJsonObject retentionJson(qint64 sizeBytes) const;

private:
    void onTaken(const QString &snapshotId, const SnapshotSizes &sizes);
    void onFailed(const QString &snapshotId, const QString &reason);
    void onRemoved(const QString &snapshotId);
    void notify(const QString &snapshotId);

    Database &m_db;
    Meter &m_meter;
    const Catalog &m_catalog;
    InstanceService &m_instances;
    ContainerRuntime &m_runtime;
    EventBus &m_events;
    const Clock &m_clock;
};

} // namespace cardhour::sim
