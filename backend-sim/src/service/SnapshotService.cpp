#include "SnapshotService.h"

#include "Catalog.h"
#include "EventBus.h"
#include "InstanceService.h"
#include "Limits.h"
#include "SnapshotRules.h"
#include "billing/Meter.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QSqlQuery>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
ApiError snapshotNotFound()
{
    return ApiError(404, ErrorCode::NotFound, u"No snapshot with this id."_s);
}

QJsonValue nullableInt(const QVariant &value)
{
    return value.isNull() ? QJsonValue() : QJsonValue(value.toLongLong());
}

} // namespace

SnapshotService::SnapshotService(Database &db, Meter &meter, const Catalog &catalog,
                                 InstanceService &instances, ContainerRuntime &runtime,
                                 EventBus &events, const Clock &clock, QObject *parent)
    : QObject(parent), m_db(db), m_meter(meter), m_catalog(catalog), m_instances(instances),
      m_runtime(runtime), m_events(events), m_clock(clock)
{
    connect(&m_runtime, &ContainerRuntime::snapshotTaken, this, &SnapshotService::onTaken);
    connect(&m_runtime, &ContainerRuntime::snapshotFailed, this, &SnapshotService::onFailed);
    connect(&m_runtime, &ContainerRuntime::snapshotRemoved, this, &SnapshotService::onRemoved);
}

QJsonObject SnapshotService::create(const QString &userId, const QString &instanceId,
                                    const QString &name)
{
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = m_instances.requireState(userId, instanceId); // 404 unless the caller's
    Limits(m_db, m_catalog.userLimits()).requireSnapshotRoom(userId);
    const QString unsupported = m_runtime.snapshotsUnsupportedReason();
    if (!unsupported.isEmpty())
        throw ApiError(409, ErrorCode::SnapshotsUnsupported,
                       u"Cannot take a snapshot: %1."_s.arg(unsupported));
    if (state != u"running"_s && state != u"stopped"_s)
        throw ApiError(
            409, ErrorCode::IllegalTransition,
            u"Only a running or stopped instance can be snapshotted; this one is %1."_s.arg(state));
    // Kept snapshots cost storage: none is started on an empty balance.
    if (m_instances.liveBalance(userId) <= 0)
        throw ApiError(
            402, ErrorCode::InsufficientBalance,
            u"A snapshot is billed for its storage and the balance is empty. Top up first."_s);
    QSqlQuery q = m_db.exec(
        u"SELECT name, image, gpu_type, gpu_count FROM instances WHERE id = ?"_s, {instanceId});
    q.next();
    const QString id = ids::newUuid();
    const QString snapshotName = name.isEmpty() ? q.value(0).toString() + u"-snapshot"_s : name;
    m_db.exec(u"INSERT INTO snapshots(id, user_id, instance_id, name, state, image, gpu_type, "
              u"gpu_count, created_at)"
              " VALUES (?,?,?,?,'creating',?,?,?,?)"_s,
              {id, userId, instanceId, snapshotName, q.value(1), q.value(2), q.value(3), now});
    QJsonObject result = snapshotJson(id, now);
    tx.commit();
    SnapshotSpec spec{id, instanceId, userId, q.value(1).toString()};
    // After the (outermost) commit, as instance launches are.
    QTimer::singleShot(0, this, [this, spec] {
        if (m_db.scalar(u"SELECT state FROM snapshots WHERE id = ?"_s, {spec.snapshotId}).toString()
            == u"creating"_s)
            m_runtime.snapshot(spec);
    });
    notify(id);
    return result;
}

QJsonArray SnapshotService::list(const QString &userId)
{
    const qint64 now = m_clock.nowMs();
    QJsonArray result;
    QSqlQuery q = m_db.exec(u"SELECT id FROM snapshots WHERE user_id = ? AND state != 'deleted'"
                            " ORDER BY created_at, rowid"_s,
                            {userId});
    QStringList ids;
    while (q.next())
        ids.append(q.value(0).toString());
    for (const QString &id : std::as_const(ids))
        result.append(snapshotJson(id, now));
    return result;
}

QJsonObject SnapshotService::get(const QString &userId, const QString &snapshotId)
{
    const QVariant state = m_db.scalar(
        u"SELECT state FROM snapshots WHERE id = ? AND user_id = ?"_s, {snapshotId, userId});
    if (!state.isValid() || state.toString() == u"deleted"_s)
        throw snapshotNotFound(); // another user's snapshot is "not found", never "forbidden"
    return snapshotJson(snapshotId, m_clock.nowMs());
}

QJsonObject SnapshotService::remove(const QString &userId, const QString &snapshotId)
{
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QVariant state = m_db.scalar(
        u"SELECT state FROM snapshots WHERE id = ? AND user_id = ?"_s, {snapshotId, userId});
    if (!state.isValid() || state.toString() == u"deleted"_s)
        throw snapshotNotFound();
    if (state.toString() == u"creating"_s)
        throw ApiError(409, ErrorCode::IllegalTransition,
                       u"The snapshot is still being taken; delete it once it is ready."_s);
    // Its image runs the instances restored from it: it goes once they are terminated.
    QSqlQuery users =
        m_db.exec(u"SELECT id FROM instances WHERE snapshot_id = ? AND state != 'terminated'"
                  " ORDER BY created_at"_s,
                  {snapshotId});
    QStringList inUse;
    while (users.next())
        inUse.append(users.value(0).toString());
    if (!inUse.isEmpty())
        throw ApiError(
            409, ErrorCode::SnapshotInUse,
            u"Instances restored from this snapshot still exist (%1); terminate them first."_s.arg(
                inUse.join(u", "_s)));
    m_meter.closeSnapshotSegment(snapshotId, now);
    m_db.exec(u"UPDATE snapshots SET state = 'deleted', deleted_at = ? WHERE id = ?"_s,
              {now, snapshotId});
    QJsonObject result = snapshotJson(snapshotId, now);
    tx.commit();
    QTimer::singleShot(0, this, [this, snapshotId] { m_runtime.removeSnapshot(snapshotId); });
    notify(snapshotId);
    return result;
}

void SnapshotService::reconcile()
{
    Transaction tx(m_db);
    QStringList stale;
    QSqlQuery creating = m_db.exec(u"SELECT id FROM snapshots WHERE state = 'creating'"_s);
    while (creating.next())
        stale.append(creating.value(0).toString());
    for (const QString &id : std::as_const(stale))
        m_db.exec(
            u"UPDATE snapshots SET state = 'failed', state_reason = 'provider_restarted' WHERE id = ?"_s,
            {id});
    QStringList toRemove = stale;
    QSqlQuery deleted =
        m_db.exec(u"SELECT id FROM snapshots WHERE state = 'deleted' AND removed_at IS NULL"_s);
    while (deleted.next())
        toRemove.append(deleted.value(0).toString());
    tx.commit();
    for (const QString &id : std::as_const(toRemove))
        m_runtime.removeSnapshot(id);
    for (const QString &id : std::as_const(stale))
        notify(id);
}

// ---- runtime callbacks ----------------------------------------------------------------------

void SnapshotService::onTaken(const QString &snapshotId, const SnapshotSizes &sizes)
{
    m_instances.tick(); // the balance the fee starts from is today's
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    QSqlQuery q = m_db.exec(
        u"UPDATE snapshots SET state = 'ready', ready_at = ?, disk_bytes = ?, workspace_bytes = ?,"
        " paused = ? WHERE id = ? AND state = 'creating'"_s,
        {now, sizes.diskBytes, sizes.workspaceBytes, sizes.paused ? 1 : 0, snapshotId});
    if (q.numRowsAffected() != 1) {
        tx.commit();
        return;
    }
    QSqlQuery owner =
        m_db.exec(u"SELECT s.user_id, s.instance_id, u.balance_micros FROM snapshots s"
                  " JOIN users u ON u.id = s.user_id WHERE s.id = ?"_s,
                  {snapshotId});
    owner.next();
    const qint64 rate = m_catalog.storageRatePerHourMicros(
        snapshots::billableGib(sizes.diskBytes + sizes.workspaceBytes));
    // An empty balance: kept unbilled until a top-up (resumeBilling), like a stopped disk.
    if (rate > 0 && owner.value(2).toLongLong() > 0)
        m_meter.openSnapshotSegment(snapshotId, owner.value(1).toString(),
                                    owner.value(0).toString(), rate, now);
    tx.commit();
    notify(snapshotId);
}

void SnapshotService::onFailed(const QString &snapshotId, const QString &reason)
{
    Transaction tx(m_db);
    QSqlQuery q = m_db.exec(
        u"UPDATE snapshots SET state = 'failed', state_reason = ? WHERE id = ? AND state = 'creating'"_s,
        {reason.left(1000), snapshotId});
    tx.commit();
    if (q.numRowsAffected() == 1)
        notify(snapshotId);
    // A failed removal stays `deleted` without removed_at: tried again at the next start.
}

void SnapshotService::onRemoved(const QString &snapshotId)
{
    Transaction tx(m_db);
    m_db.exec(u"UPDATE snapshots SET removed_at = ? WHERE id = ? AND state = 'deleted'"_s,
              {m_clock.nowMs(), snapshotId});
    tx.commit();
}

// ---- views ----------------------------------------------------------------------------------

QJsonObject SnapshotService::retentionJson(qint64 sizeBytes) const
{
    const qint64 gib = snapshots::billableGib(sizeBytes);
    return {
        // The container's disk (everything written outside the mounts) and /workspace.
        {u"keeps"_s, QJsonArray{u"container_disk"_s, u"workspace_volume"_s}},
        // A restore is a new instance: new host key and port, the keys and datasets it is
        // given; memory and processes are not saved.
        {u"does_not_keep"_s,
         QJsonArray{u"host_key"_s, u"ssh_port"_s, u"authorized_keys"_s, u"datasets"_s,
                    u"memory_and_processes"_s}},
        {u"survives_instance_terminate"_s, true},
        {u"billed_while_kept"_s, QJsonArray{u"storage"_s}},
        {u"storage_gib"_s, gib},
        {u"storage_price_per_gib_hour_micros"_s, m_catalog.storagePricePerGibHourMicros()},
        {u"storage_rate_micros_per_hour"_s, m_catalog.storageRatePerHourMicros(gib)},
        // An empty balance pauses the fee (never a debt); the snapshot is kept.
        {u"deleted_when_balance_runs_out"_s, false},
    };
}

QJsonObject SnapshotService::snapshotJson(const QString &snapshotId, qint64 nowMs)
{
    QSqlQuery q = m_db.exec(
        u"SELECT id, user_id, instance_id, name, state, state_reason, image, gpu_type, gpu_count,"
        " disk_bytes, workspace_bytes, paused, created_at, ready_at, deleted_at FROM snapshots"
        " WHERE id = ?"_s,
        {snapshotId});
    if (!q.next())
        return {};
    const QString userId = q.value(1).toString();
    const bool sized = !q.value(9).isNull();
    const qint64 size = q.value(9).toLongLong() + q.value(10).toLongLong();
    const std::optional<Meter::OpenSegment> segment = m_meter.openSegmentOfSnapshot(snapshotId);
    const qint64 cost = m_meter.snapshotCosts(userId, nowMs).value(snapshotId);
    return {
        {u"id"_s, q.value(0).toString()},
        {u"name"_s, q.value(3).toString()},
        {u"state"_s, q.value(4).toString()},
        {u"state_reason"_s, q.value(5).isNull() ? QJsonValue() : QJsonValue(q.value(5).toString())},
        {u"instance_id"_s, q.value(2).toString()},
        {u"image"_s, q.value(6).toString()},
        {u"gpu_type"_s, q.value(7).toString()},
        {u"gpu_count"_s, q.value(8).toInt()},
        {u"size_bytes"_s, sized ? QJsonValue(size) : QJsonValue()},
        {u"disk_bytes"_s, nullableInt(q.value(9))},
        {u"workspace_bytes"_s, nullableInt(q.value(10))},
        {u"paused_while_taken"_s,
         q.value(11).isNull() ? QJsonValue() : QJsonValue(q.value(11).toInt() == 1)},
        {u"storage_rate_micros_per_hour"_s, segment ? segment->ratePerHourMicros : 0},
        {u"storage_cost_micros"_s, cost},
        {u"created_at"_s, json::isoTime(q.value(12).toLongLong())},
        {u"ready_at"_s, json::nullableTime(q.value(13))},
        {u"deleted_at"_s, json::nullableTime(q.value(14))},
        {u"retention"_s, retentionJson(size)},
    };
}

void SnapshotService::notify(const QString &snapshotId)
{
    const QJsonObject snapshot = snapshotJson(snapshotId, m_clock.nowMs());
    if (snapshot.isEmpty())
        return;
    const QString userId =
        m_db.scalar(u"SELECT user_id FROM snapshots WHERE id = ?"_s, {snapshotId}).toString();
    m_events.publish(userId, u"snapshot"_s, snapshot);
}

} // namespace cardhour::sim
