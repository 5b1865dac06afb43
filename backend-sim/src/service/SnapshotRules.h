#pragma once

#include <QString>

namespace cardhour::sim {

class Catalog;
class ContainerRuntime;
class Database;
class Meter;

// What both InstanceService (restores, balance top-ups) and SnapshotService (taking, billing)
// need to know about snapshots; a unit of its own so that neither service includes the other.
namespace snapshots {

// GiB a snapshot of `bytes` is billed for: rounded up to whole GiB, at least 1.
qint64 billableGib(qint64 bytes);

// What a restore takes from its snapshot where the request leaves it out.
struct RestoreSource
{
    QString image;
    QString gpuType;
    int gpuCount = 0;
};
// Checks that the snapshot is the caller's and ready, that the runtime can restore it, and that
// requestedImage (may be empty) is the snapshot's (ApiError otherwise); says what it was taken of.
RestoreSource restoreSource(Database &db, const ContainerRuntime &runtime, const QString &userId,
                            const QString &snapshotId, const QString &requestedImage);

// Opens the fee, from `nowMs`, of ready snapshots (of `userId`, or of everyone) not billed
// because their owner's balance ran out and is positive again.
void resumeBilling(Database &db, Meter &meter, const Catalog &catalog, const QString &userId,
                   qint64 nowMs);

} // namespace snapshots

} // namespace cardhour::sim
