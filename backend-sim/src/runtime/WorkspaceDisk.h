#pragma once

#include "CliDialect.h"
#include "ContainerRuntime.h"

#include <QString>
#include <QStringList>

#include <functional>

class QObject;

namespace cardhour::sim {

// /workspace as a sparse ext4 image of the instance's disk size, `<dataDir>/instances/<id>/
// workspace.ext4` (0600), which podman loop-mounts for the container (volume options type=ext4,
// o=loop): writes beyond it fail with ENOSPC in the box and never reach the host's disk. The
// image goes with the instance's files when the instance is removed.
class WorkspaceDisk
{
public:
    // What this host allows: loop-ext4 needs podman as root, loop devices and mkfs.ext4.
    static DiskQuota probe(cli::Engine engine, const QString &dataDir);
    // Empty when this host (user, loop devices, mkfs.ext4) allows loop-ext4; else why not.
    static QString hostUnavailableReason();
    // The same for an engine and data directory too; probe() says it in its detail.
    static QString unavailableReason(cli::Engine engine, const QString &dataDir);

    static QString imagePath(const QString &dataDir, const QString &instanceId);
    // Makes the sparse, 0600 image file of `gib` GiB; false with *error (nothing left behind).
    static bool allocate(const QString &path, qint64 gib, QString *error);
    // The file-system maker and its arguments for `path` (lazy init: the sparse file stays small).
    static QString mkfsProgram();
    static QStringList mkfsArgs(const QString &path);
    // allocate() then mkfs.ext4 on it, without blocking: `done` gets an empty error once the
    // image is whole, else why not (and nothing is left at `path`); it does not come if
    // `context` is gone by then.
    static void format(QObject *context, const QString &path, qint64 gib, int timeoutMs,
                       std::function<void(const QString &error)> done);
    // `volume create` options that make podman mount the image at each container start.
    static QStringList volumeOptions(const QString &path);
    // Unmounts what is mounted at a volume's data folder (`…/volumes/<volume>/_data`) in this
    // mount namespace: the mount a failed start left behind when the engine lost track of it
    // (cli::volumeMountLostBy). The number of mounts released; *error says why one was not.
    static int releaseLostMounts(const QString &volume, QString *error);
    // The mount points of `volume`'s data folder in a /proc/self/mountinfo text, innermost last.
    static QStringList volumeMountPoints(const QByteArray &mountinfo, const QString &volume);
};

} // namespace cardhour::sim
