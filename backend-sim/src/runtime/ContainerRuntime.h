#pragma once

#include "BoxHardware.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <utility>

namespace cardhour::sim {

// What an instance needs from a runtime.
struct InstanceSpec
{
    QString instanceId;
    QString ownerId;
    QString image; // catalog image id, e.g. "base"
    QString gpuType;
    int gpuCount = 1;
    QString gpuName; // the catalog's model name ("NVIDIA GeForce RTX 4090")
    qint64 gpuVramMib = 0; // each card's memory
    int gpuNvlinks = 0; // NVLinks bonded between every two cards; 0: PCIe only (and MIG slices)
    QStringList authorizedKeys; // OpenSSH public key lines
    // Filled by the provider for container runtimes:
    QString sshDir; // host directory with ssh_host_ed25519_key(.pub) and authorized_keys,
                    // mounted read-only at /etc/cardhour/ssh
    QString hostKeySha256; // "SHA256:..." of that host key: the only key readiness accepts
    QString sshUser = QStringLiteral("root");
    double cpus = 0; // 0: no limit
    qint64 memoryMib = 0; // 0: no limit
    int pidsLimit = 0; // processes in the box; 0: the engine's default
    qint64 diskGib = 0; // the instance's disk (bounds /workspace where diskQuota() says so)
    QString appToken; // this start's app token: the box's entrypoint hands it to the app
    // The image's one-click apps (name, port inside the box): a runtime with containers
    // reports stage "app:<name>" once that port listens, after "ready" (apps start later).
    QList<QPair<QString, int>> apps;
    QList<QPair<QString, QString>> datasets; // (name, host folder): read-only at /datasets/<name>
    QList<QPair<QString, QString>> models; // (name, host folder): read-only at /models/<name>
    QString gpuStatusDir; // mounted read-only at /run/cardhour/gpu (simulated cards' numbers);
                          // empty: <dataDir>/instances/<id>/gpu where the runtime has a dataDir
    // Real cards: the host's nvidia-smi indexes the container is given (CDI `nvidia.com/gpu=N` or
    // docker's `--gpus device=N`); the box then sees the real driver and no status file.
    bool realGpus = false;
    QList<int> gpuCards; // the cards lent (simulated: numbers within the type)
    // A MIG slice of gpuCards' one card: its NVIDIA profile ("3g.40gb"); empty: whole cards.
    QString gpuMigProfile;
    // Restore: a create() runs the snapshot's disk image instead of the catalog image, and a
    // /workspace volume it makes anew is filled from the snapshot's archive. Empty: no snapshot.
    QString snapshotId;
};

// The spec as a runtime really uses it when told to give a box less (cards, limits, disk size):
// never more than the spec says.
void applyShortfall(const BoxShortfall &shortfall, InstanceSpec &spec);

// How an instance's disk (its `disk_gib`) is bounded on this runtime, as the API and
// `cardhour-sim doctor` report it.
struct DiskQuota
{
    // "loop-ext4": /workspace is an ext4 file system of `disk_gib` on a loop device, so a full
    // disk is ENOSPC inside the box; "stop-when-full": /workspace is measured with the
    // container's own disk and the instance stopped once they hold more than `disk_gib`;
    // "none": nothing bounds it.
    QString mechanism = QStringLiteral("none");
    QString detail; // what is bounded, what is not, and why
    // The container's own disk (its writable layer): "stop-when-full": measured every
    // 20 s and the instance stopped (state_reason disk_full) once it holds more
    // than `disk_gib`; "none": not bounded.
    QString containerDisk = QStringLiteral("none");
    bool workspaceBounded() const { return mechanism == QStringLiteral("loop-ext4"); }
};

// What a runtime is asked to snapshot: the instance's container disk and its /workspace.
struct SnapshotSpec
{
    QString snapshotId;
    QString instanceId;
    QString ownerId;
    QString image; // the catalog image the instance was made from (its disk's base)
};

// What a finished snapshot takes up.
struct SnapshotSizes
{
    qint64 diskBytes = 0; // the container disk's changes over the catalog image
    qint64 workspaceBytes = 0; // the /workspace archive
    bool paused = false; // the instance was running and frozen while both were copied
};

struct SshEndpoint
{
    QString host;
    int port = 0;
    QString user;
    QString hostKeySha256;
    QString hostKey; // "ssh-ed25519 AAAA...": lets clients pin it in known_hosts
    bool isValid() const { return port > 0; }
};

// What a running instance uses now, as the runtime measures it (cgroup counters).
struct ResourceUsage
{
    qint64 cpuNanos = -1; // CPU time used since its container started; -1: unknown
    double cpuPercent = -1; // when CPU time is unknown: the engine's own recent CPU %
    qint64 memoryBytes = 0; // in use, without reclaimable page cache
    qint64 memoryLimitBytes = 0; // 0: no limit
};

// The seam between the instance state machine and whatever runs instances (podman, Docker,
// or the in-process runtime used until those land). Calls return at once; results arrive as
// signals on the same thread, never from inside the call itself.
class ContainerRuntime : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~ContainerRuntime() override;

    virtual QString name() const = 0;
    // Whether instances survive a restart of the provider (containers do; in-process ones not).
    virtual bool outlivesProvider() const = 0;

    virtual void create(const InstanceSpec &spec) = 0; // → stageReached…, then ready or failed
    virtual void start(const InstanceSpec &spec) = 0; // → ready or failed
    virtual void stop(const QString &instanceId) = 0; // → stopped
    virtual void remove(const QString &instanceId) = 0; // → removed
    virtual bool isRunning(const QString &instanceId) const = 0;
    // The containers the runtime manages, as last listed: instance id → running. Runtimes whose
    // instances die with the provider have nothing to list after a restart.
    virtual QHash<QString, bool> inventory() const { return {}; }
    // The instances this process runs or keeps now (another provider process on the same
    // database has its own): what it follows when the others change their rows.
    virtual QStringList instancesHere() const { return inventory().keys(); }
    // Replaces the keys a live instance accepts, at once (authorized_keys is rewritten whole).
    virtual void setAuthorizedKeys(const QString &instanceId, const QStringList &publicKeys)
    {
        Q_UNUSED(instanceId);
        Q_UNUSED(publicKeys);
    }

    // Writes /run/cardhour/notices/<name> inside the box (empty `content`: removes it), where a
    // job can poll for what the provider announces (an interruption). Atomically: a reader sees
    // the old file or the new one. Runtimes without boxes keep nothing.
    virtual void writeNotice(const QString &instanceId, const QString &name,
                             const QByteArray &content)
    {
        Q_UNUSED(instanceId);
        Q_UNUSED(name);
        Q_UNUSED(content);
    }

    // Measures every running instance at once (one pass, not one call per instance) →
    // usageSampled. Runtimes without containers measure nothing (an empty sample).
    virtual void sampleUsage() { Q_EMIT usageSampled({}); }
    // Counts the TCP connections open into each of these running instances (SSH sessions, and
    // with them the apps' forwards) → connectionsCounted, later. One it cannot read is left out
    // (not known). Here, for boxes nothing can connect into: 0 each.
    virtual void countConnections(const QStringList &instanceIds);
    // How this runtime bounds an instance's disk (what the API and doctor report).
    virtual DiskQuota diskQuota() const
    {
        return {
            QStringLiteral("none"),
            QStringLiteral("The disk is not bounded: the %1 runtime keeps no disks.").arg(name())};
    }

    // Reads what the running box got, inside it (→ hardwareInspected, later); asked at power-on,
    // before the instance is billed. Runtimes that cannot look inside a box answer false to
    // inspectsHardware() and are never asked.
    virtual bool inspectsHardware() const { return false; }
    virtual void inspectHardware(const QString &instanceId) { Q_UNUSED(instanceId); }
    // Test hook: the next box this runtime makes gets less than its spec says (for real).
    void shortchangeNextBox(const BoxShortfall &shortfall) { m_nextShortfall = shortfall; }
    // Test hook: the next remove() fails, leaving the box and its disk behind.
    void failNextRemoval(const QString &reason) { m_nextRemovalFailure = reason; }
    // Lists what this runtime holds (boxes, disks, networks), by instance id → a word for each
    // kind held (→ leftoversFound, later; ok false when it could not list).
    virtual void findLeftovers();

    // Snapshots. Empty when this runtime can take them, else why not (asked before a snapshot
    // is recorded, so an unsupported runtime refuses up front and writes nothing).
    virtual QString snapshotsUnsupportedReason() const
    {
        return QStringLiteral("the %1 runtime cannot take snapshots").arg(name());
    }
    // Copies the instance's disk and /workspace (→ snapshotTaken or snapshotFailed); runs after
    // whatever the runtime is doing with that instance, and before what is asked of it later.
    virtual void snapshot(const SnapshotSpec &spec) { Q_UNUSED(spec); }
    // Deletes what snapshot() kept (→ snapshotRemoved or snapshotFailed). Idempotent.
    virtual void removeSnapshot(const QString &snapshotId) { Q_UNUSED(snapshotId); }

    // Rehearsed failures (the chaos API, and the test routes). The next create() or start() of
    // an instance owned by `ownerId` (empty: anyone's) fails with `reason` instead of running,
    // in every runtime; `tag` names it for cancelLaunchFailure() and launchFailureUsed().
    void failNextLaunch(const QString &reason, const QString &ownerId = {},
                        const QString &tag = {});
    void cancelLaunchFailure(const QString &tag);
    // Empty when this runtime can act inside a running box (drop its SSH connections, fill its
    // /workspace), else why not.
    virtual QString boxFaultsUnsupportedReason() const
    {
        return QStringLiteral("the %1 runtime runs no boxes to act in").arg(name());
    }
    // Ends every SSH connection into the running box, as a network cut would (sshd itself keeps
    // listening, so clients can reconnect) → boxFaultDone(id, "drop_ssh", ...).
    virtual void dropSshConnections(const QString &instanceId);
    // Fills the box's /workspace to its bound, so that writes there fail with ENOSPC
    // → boxFaultDone(id, "fill_disk", ...); unfillWorkspace() frees it again ("unfill_disk").
    virtual void fillWorkspace(const QString &instanceId);
    virtual void unfillWorkspace(const QString &instanceId);

Q_SIGNALS:
    void usageSampled(const QHash<QString, cardhour::sim::ResourceUsage> &byInstance);
    void connectionsCounted(const QHash<QString, int> &byInstance);
    // stage: "image", "container", "sshd", "ready", then "app:<name>" for each app that answers
    void stageReached(const QString &instanceId, const QString &stage);
    void ready(const QString &instanceId, const cardhour::sim::SshEndpoint &ssh);
    void failed(const QString &instanceId, const QString &reason);
    void stopped(const QString &instanceId);
    void removed(const QString &instanceId);
    void snapshotTaken(const QString &snapshotId, const cardhour::sim::SnapshotSizes &sizes);
    void snapshotFailed(const QString &snapshotId, const QString &reason);
    void snapshotRemoved(const QString &snapshotId);
    // The running instance's own disk (outside /workspace) holds more than it was given.
    void diskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes);
    // A failure armed with failNextLaunch() was used on this instance's create or start.
    void launchFailureUsed(const QString &tag, const QString &instanceId, const QString &reason);
    // What a fault inside a box did: `detail` says what was found (connections ended, bytes
    // written) or why it could not be done.
    void boxFaultDone(const QString &instanceId, const QString &fault, bool ok,
                      const QString &detail);
    // What the hardware check read inside a box (inspectHardware()).
    void hardwareInspected(const QString &instanceId, const cardhour::sim::BoxHardware &found);
    // What this runtime holds, by instance (findLeftovers()).
    void leftoversFound(const QHash<QString, QStringList> &byInstance, bool ok);

protected:
    // The shortfall asked for the next box, once (applied by create()).
    BoxShortfall takeShortfall() { return std::exchange(m_nextShortfall, {}); }
    QString takeRemovalFailure() { return std::exchange(m_nextRemovalFailure, {}); }
    // The failure armed for this spec's owner, if any (taken: it fires once); emits
    // launchFailureUsed. Runtimes call it first thing in create() and start().
    QString takeLaunchFailure(const InstanceSpec &spec);
    // Answers a box fault this runtime cannot do, later (as every result comes).
    void refuseBoxFault(const QString &instanceId, const QString &fault);

private:
    struct ArmedFailure
    {
        QString reason;
        QString ownerId;
        QString tag;
    };
    QList<ArmedFailure> m_armedFailures;
    BoxShortfall m_nextShortfall;
    QString m_nextRemovalFailure;
};

} // namespace cardhour::sim
