#pragma once

// Shared by the CliRuntime*.cpp, CliLaunch.cpp and CliSnapshot.cpp only.

#include "CliDialect.h"
#include "CliRuntime.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QPointer>
#include <QString>
#include <QTimer>

namespace cardhour::sim {

Q_DECLARE_LOGGING_CATEGORY(lcCli)

namespace clidetail {
inline const QString &kManaged = cli::kManagedLabel;
inline const QString &kInstance = cli::kInstanceLabel;
inline const QString &kOwner = cli::kOwnerLabel;
inline const QString &kProvider = cli::kProviderLabel;
inline const QString kLoopback = QStringLiteral("127.0.0.1");
// The disk an instance was given, on its container (what checkContainerDisks holds it to).
inline const QString kDiskGibLabel = QStringLiteral("cardhour.disk-gib");
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
} // namespace clidetail

// The state of one create()/start() chain (CliLaunch.cpp; a restore also in CliSnapshot.cpp).
struct CliRuntime::Launch
{
    InstanceSpec spec;
    quint64 token = 0;
    bool fresh = true; // create (true) or start (false)
    QString containerId;
    int sshPort = 0;
    QHash<int, int> ports;
    bool networkReady = false; // the box's own network exists (network "per-instance")
    QElapsedTimer clock;
    bool probing = false; // the sshd probe runs (and the watchdog with it)
    bool checking = false; // a watchdog `inspect` is under way
    QPointer<QTimer> watchdog; // notices a container that exits before sshd answers
    QString id() const { return spec.instanceId; }
    void stopWatchdog()
    {
        probing = false;
        if (watchdog) {
            watchdog->stop();
            watchdog->deleteLater();
        }
    }
};

} // namespace cardhour::sim
