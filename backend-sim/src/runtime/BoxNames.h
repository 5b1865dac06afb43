#pragma once

// What the container runtime names and labels on the engine for an instance ("box"), and the
// constants its parts share. Names are not trusted: things are found by their labels.

#include "CliDialect.h"

#include <QString>
#include <QStringList>

namespace cardhour::sim::box {

inline const QString &kManaged = cli::kManagedLabel;
inline const QString &kInstance = cli::kInstanceLabel;
inline const QString &kOwner = cli::kOwnerLabel;
inline const QString &kProvider = cli::kProviderLabel;
inline const QString kLoopback = QStringLiteral("127.0.0.1");
inline const QString &kDiskGibLabel = cli::kDiskGibLabel;
// Formatted /workspace images kept, one per size, for the last few sizes launched; each made
// this long after the launch that used the last one (its own start has the CPU first).
constexpr int kSpareDiskSizes = 3;
constexpr int kSpareDiskDelayMs = 1500;
constexpr int kSshPort = 22;
inline const QString kPerInstanceNetwork = QStringLiteral("per-instance");
// slirp4netns forwards the published sshd port itself instead of podman's rootlessport proxy:
// no process of its own per box (about 0.35 MiB each), and no 40 ms delayed-ACK stall at each
// of the SSH handshake's two small-packet exchanges that rootlessport's extra hop adds here
// (docs/benchmarks.md, benchmark 1).
inline const QString kAutoPodmanNetwork = QStringLiteral("slirp4netns:port_handler=slirp4netns");

QString containerName(const QString &instanceId);
QString volumeName(const QString &instanceId);
QString networkName(const QString &instanceId); // with network "per-instance"
// The image a snapshot's disk is committed to, and the tar its /workspace is exported to.
QString snapshotImage(const QString &snapshotId);
QString snapshotArchive(const QString &dataDir, const QString &snapshotId);
// "cardhour-<first 8 letters or digits of the id>"
QString hostnameFor(const QString &instanceId);
// --label arguments: managed, instance, owner, provider.
QStringList ownerLabels(const QString &instanceId, const QString &ownerId,
                        const QString &providerId);

} // namespace cardhour::sim::box
