#pragma once

#include <QJsonObject>
#include <QString>

#include <functional>

namespace cardhour::sim {

// The host's free disk, kept above a reserve. Below it the provider takes on nothing new that
// writes to the host's disk (a launch, a snapshot, a model upload or its next chunk) and says
// so with 507 host_disk_full; SQLite keeps room for the ledger's own writes, and boxes that
// run carry on. Per-account caps alone cannot do this: many free accounts together overcommit
// any disk (sparse /workspace images, snapshots, models).
class HostDiskReserve
{
public:
    // Free bytes of the file system holding a path (QStorageInfo); a test gives its own.
    using FreeBytes = std::function<qint64(const QString &path)>;

    HostDiskReserve(QString dataDir, qint64 reserveBytes, FreeBytes freeBytes = {});

    // Throws ApiError 507 host_disk_full when the free space less `moreBytes` (what the
    // request is about to write, when known) falls below the reserve. `what`: "launch",
    // "snapshot", "upload" for the message.
    void requireRoom(qint64 moreBytes, const QString &what) const;
    qint64 freeBytes() const;
    qint64 reserveBytes() const { return m_reserveBytes; }
    // For GET /v1/limits: {"reserve_bytes", "accepting"} (not the host's free bytes).
    QJsonObject json() const;

private:
    QString m_dataDir;
    qint64 m_reserveBytes;
    FreeBytes m_freeBytes;
};

} // namespace cardhour::sim
