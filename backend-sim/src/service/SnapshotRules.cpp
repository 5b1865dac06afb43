#include "SnapshotRules.h"

#include "Catalog.h"
#include "billing/Meter.h"
#include "core/ApiError.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"
#include "store/Database.h"

#include <QList>
#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr qint64 kGib = 1024LL * 1024 * 1024;
} // namespace

namespace snapshots {

qint64 billableGib(qint64 bytes)
{
    return std::max<qint64>(1, (std::max<qint64>(0, bytes) + kGib - 1) / kGib);
}

RestoreSource restoreSource(Database &db, const ContainerRuntime &runtime, const QString &userId,
                            const QString &snapshotId, const QString &requestedImage)
{
    QSqlQuery q = db.exec(
        u"SELECT state, image, gpu_type, gpu_count FROM snapshots WHERE id = ? AND user_id = ?"_s,
        {snapshotId, userId});
    if (!q.next() || q.value(0).toString() == u"deleted"_s)
        throw ApiError(400, ErrorCode::UnknownSnapshot,
                       u"Unknown snapshot \"%1\"."_s.arg(snapshotId.left(64)));
    if (q.value(0).toString() != u"ready"_s)
        throw ApiError(409, ErrorCode::SnapshotNotReady,
                       u"The snapshot is %1; only a ready snapshot can be restored."_s.arg(
                           q.value(0).toString()));
    const QString unsupported = runtime.snapshotsUnsupportedReason();
    if (!unsupported.isEmpty())
        throw ApiError(409, ErrorCode::SnapshotsUnsupported,
                       u"Cannot restore: %1."_s.arg(unsupported));
    // The disk is the snapshot's, made from its catalog image: another image cannot be asked for.
    if (!requestedImage.isEmpty() && requestedImage != q.value(1).toString())
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"image\" must be left out or be the snapshot's (\"%1\")."_s.arg(
                           q.value(1).toString()));
    return RestoreSource{q.value(1).toString(), q.value(2).toString(), q.value(3).toInt()};
}

void resumeBilling(Database &db, Meter &meter, const Catalog &catalog, const QString &userId,
                   qint64 nowMs)
{
    if (catalog.storagePricePerGibHourMicros() <= 0)
        return;
    QSqlQuery q = db.exec(
        u"SELECT s.id, s.instance_id, s.user_id, COALESCE(s.disk_bytes, 0) + "
        u"COALESCE(s.workspace_bytes, 0)"
        " FROM snapshots s JOIN users u ON u.id = s.user_id"
        " WHERE s.state = 'ready' AND u.balance_micros > 0 AND (COALESCE(?, '') = '' OR s.user_id "
        "= ?)"
        " AND NOT EXISTS (SELECT 1 FROM segments g WHERE g.snapshot_id = s.id AND g.ended_at IS NULL)"_s,
        {userId, userId});
    struct Due
    {
        QString snapshotId, instanceId, userId;
        qint64 bytes;
    };
    QList<Due> due;
    while (q.next())
        due.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                    q.value(3).toLongLong()});
    for (const Due &d : std::as_const(due))
        meter.openSnapshotSegment(d.snapshotId, d.instanceId, d.userId,
                                  catalog.storageRatePerHourMicros(billableGib(d.bytes)), nowMs);
}

} // namespace snapshots

} // namespace cardhour::sim
