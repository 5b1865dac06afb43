#pragma once

#include "CliDialect.h"
#include "ContainerCache.h"
#include "ContainerRuntime.h"
#include "InstanceFiles.h"
#include "Process.h"

#include <QHash>
#include <QString>

namespace cardhour::sim {

class AppWatcher;
class BoxInspector;
class BoxFaults;
class CliEngine;
class ConnectionCounter;
class ContainerDiskWatch;
class ContainerLauncher;
class ContainerListing;
class ContainerSnapshots;
class EgressFilter;
class ImageWait;
class InstanceNetworks;
class InstanceOpQueue;
class InstanceTeardown;
class LaunchSteps;
class SshdReadiness;
class UsageSampler;
class WorkspaceVolumes;

// Runs instances as real local containers through a container engine's CLI, driven
// asynchronously through Process: podman (rootful or rootless) or docker (the docker CLI,
// against any Docker-compatible engine: Docker Engine, or podman's API service). What differs
// between the two is in CliDialect. Per instance <id>:
//   container  cardhour-<id>, labelled cardhour.managed=true, cardhour.instance=<id>,
//              cardhour.owner=<owner>, cardhour.provider=<provider id>. Names are not trusted:
//              containers are always looked up by those labels.
//   volume     cardhour-ws-<id> (same labels) at /workspace; kept across stop/start. As root
//              with loop devices, an ext4 image of spec.diskGib (WorkspaceDisk): ENOSPC when full.
//   ssh dir    spec.sshDir (see InstanceFiles) mounted read-only at /etc/cardhour/ssh.
//   ports      sshd (22) only, published on a free 127.0.0.1 port fixed for the container's
//              life; one-click apps stay on the box's loopback (reached through SSH forwards).
// Readiness is a real SSH handshake that must present spec.hostKeySha256 (SshProbe); a
// container that exits meanwhile fails at once, with the tail of its log in the reason.
// create() and start() (re)write <sshDir>/authorized_keys from spec.authorizedKeys: the spec is
// the truth. Later changes go through InstanceFiles::writeAuthorizedKeys and work at once.
// Signals: create → stageReached image, container, sshd, ready → ready(endpoint), or failed;
// start → stageReached container, sshd, ready → ready, or failed ("container is gone" when
// there is none); after ready, stageReached "app:<name>" for each of spec.apps as its port
// starts listening inside the box (AppWatcher: `exec cat /proc/net/tcp*`, no tool needed); stop →
// stopped; remove (container, volume, and with Options::dataDir the instance files) → removed.
// Failures of stop/remove come as failed(id, reason).
//
// Snapshots (podman only; see ContainerSnapshots): snapshot() commits the container's disk to the
// image snapshotImage(<snapshot id>) and exports its /workspace volume to
// snapshotArchive(<dataDir>, <snapshot id>); a running container is paused for both, so that
// the two are one moment's state. A create() with spec.snapshotId runs that image, and a
// /workspace volume it makes anew is imported from that archive.
//
// Requests for one instance run one after another (InstanceOpQueue); stop() and remove() end a
// create() or start() still in progress at its next step (that one then emits nothing).
//
// The parts, each a class of its own, over one EngineCommands (CliEngine: the CLI, or the
// engine's API and its events): ContainerLauncher (create, start) with InstanceNetworks,
// WorkspaceVolumes, ImageWait, ContainerSnapshots (a restore) and SshdReadiness (then
// AppWatcher); InstanceTeardown (stop, remove); ContainerListing into ContainerCache;
// UsageSampler, ConnectionCounter and ContainerDiskWatch measure running boxes.
class CliRuntime final : public ContainerRuntime
{
    Q_OBJECT
public:
    struct Options
    {
        cli::Engine engine = cli::Engine::Podman;
        QString program; // empty: "podman" or "docker"
        QString containersConf; // sets CONTAINERS_CONF when not empty
        QString dockerHost; // sets DOCKER_HOST when not empty
        QString imagePrefix =
            QStringLiteral("localhost/cardhour/"); // catalog image X → <prefix>X:latest
        QString providerId = QStringLiteral("cardhour-sim"); // cardhour.provider label value
        // When set, create()/start() with an empty spec.sshDir make (or reuse) the instance's
        // files under <dataDir>/instances/<id> themselves (InstanceFiles) and take the host key
        // fingerprint from there; remove() then deletes that directory too.
        QString dataDir;
        int readyDeadlineMs = 60000; // sshd must answer with the right host key within this
        // How often the running boxes' own disks are measured (stopped when full).
        int diskCheckIntervalMs = 20000;
        // /workspace measured with the container's own disk (stop-when-full) even where a
        // loop-mounted ext4 image could bound it (--workspace-disk measured).
        bool measuredWorkspace = false;
        int stopTimeoutS = 10; // SIGTERM, then SIGKILL after this
        int commandTimeoutMs = 120000;
        // --network for instances; "auto": slirp4netns for podman (user-mode networking, as
        // rootless podman uses: it starts a container ~1 s faster here than rootful podman's CNI
        // bridge, and keeps the host's loopback out of reach) with slirp4netns forwarding the
        // published port itself (kAutoPodmanNetwork), "per-instance" for docker (a
        // bridge network of each box's own, networkName(): docker's default bridge is shared by
        // every box). Empty: the engine's default.
        QString network = QStringLiteral("auto");
        // Drive the engine through its REST API (EngineApi) for the calls EngineCalls knows
        // (run, start, stop, rm, inspect, ps, volume create, ls and rm) and watch its event
        // stream for containers that end; the command line stays for the rest, and for
        // everything when the socket does not answer. false: the command line only.
        bool engineApi = true;
        // The API's socket. Empty: for podman a `podman system service` of this runtime's own
        // (a child, ended with it), for docker DOCKER_HOST's unix:// path or docker.sock.
        QString engineSocket;
        // Let boxes reach the host's own addresses and the private, link-local and loopback
        // ranges (EgressFilter, on Linux). false: they are refused.
        bool allowPrivateNetwork = false;
    };

    using ContainerInfo = cli::ContainerInfo;

    explicit CliRuntime(Options options, QObject *parent = nullptr);
    explicit CliRuntime(QObject *parent = nullptr);
    ~CliRuntime() override;

    QString name() const override;
    bool outlivesProvider() const override { return true; }
    void create(const InstanceSpec &spec) override;
    void start(const InstanceSpec &spec) override;
    void stop(const QString &instanceId) override;
    void remove(const QString &instanceId) override;
    bool isRunning(const QString &instanceId) const override; // from the cache (refresh())
    QHash<QString, bool> inventory() const override { return m_cache.runningById(); }
    // Reads each running container's cgroup (CgroupStats); containers whose cgroup is not on
    // this host are measured with one `stats --no-stream` call for all of them.
    void sampleUsage() override;
    // ConnectionCounter: ESTABLISHED sockets to the box's sshd and apps, one `exec` per box.
    void countConnections(const QStringList &instanceIds) override;
    // The hardware check's script, run in the box with `exec` (BoxInspector).
    bool inspectsHardware() const override { return true; }
    void inspectHardware(const QString &instanceId) override;
    // Containers as last listed, and this provider's volumes.
    void findLeftovers() override;
    // loop-ext4 where this host allows it (WorkspaceDisk::probe, podman) and the operator did not
    // ask for measured; else stop-when-full, or none where the engine's volumes cannot be read
    // here (docker's data root), and why. The container's own disk: stop-when-full.
    DiskQuota diskQuota() const override { return m_diskQuota; }

    // Rehearsed failures inside running boxes (BoxFaults): drop_ssh anywhere, fill_disk only
    // where /workspace is bounded (else the host's own disk would fill).
    QString boxFaultsUnsupportedReason() const override { return {}; }
    void dropSshConnections(const QString &instanceId) override;
    void fillWorkspace(const QString &instanceId) override;
    void unfillWorkspace(const QString &instanceId) override;

    QString snapshotsUnsupportedReason() const override;
    void snapshot(const SnapshotSpec &spec) override;
    void removeSnapshot(const QString &snapshotId) override;
    // Where a snapshot's parts are kept: an image tag, and a tar of /workspace.
    static QString snapshotImage(const QString &snapshotId);
    static QString snapshotArchive(const QString &dataDir, const QString &snapshotId);

    // Rewrites the instance's authorized_keys (in the ssh dir of its last create/start, else
    // <dataDir>/instances/<id>/ssh), which the container mounts: sshd reads it on every log-in,
    // so the change applies at once, without a restart.
    void setAuthorizedKeys(const QString &instanceId, const QStringList &publicKeys) override;
    // Into the folder mounted at /run/cardhour/notices (NoticeFiles::hostDirFor).
    void writeNotice(const QString &instanceId, const QString &name,
                     const QByteArray &content) override;

    // Re-reads this provider's containers (`podman ps -a` by label) into the cache, then
    // emits refreshed(). refreshNow() does the same blocking, for provider start-up only.
    void refresh();
    bool refreshNow(int timeoutMs = 30000);
    QHash<QString, ContainerInfo> containers() const { return m_cache.all(); } // by instance id

    // Published ports as last seen (create, start, refresh): 0 / empty when unknown.
    int sshPortOf(const QString &instanceId) const;
    QHash<int, int> publishedPortsOf(const QString &instanceId) const;

    const Options &options() const { return m_options; }
    QString imageTag(const QString &imageId) const;
    bool selinuxEnabled() const { return m_selinux; }
    // What the constructor's `podman info` said (usable, or why not).
    bool looksUsable() const { return m_usable; }
    QString unusableReason() const { return m_unusableReason; }
    // Whether a request for this instance is queued or in progress (a reconciler should leave
    // such instances alone: a container being created is not running yet).
    bool hasPendingWork(const QString &instanceId) const;
    bool hasPendingWork() const;

    // Whether the engine's API answered (and serves the calls it can), and whether its event
    // stream is open: then a container that ends is noticed at once, not at the next refresh.
    bool usesEngineApi() const;
    bool watchesEvents() const;

    static QString containerName(const QString &instanceId);
    static QString volumeName(const QString &instanceId);
    static QString networkName(const QString &instanceId); // with network "per-instance"

    // Runs `<engine> info` (bounded by timeoutMs); false with *why when the engine is missing or
    // does not work. *slow (when given) tells an engine that ran but did not answer in time
    // (busy, e.g. building an image) from one that is missing or refuses.
    // Options: engine, program, containersConf, dockerHost.
    static bool isUsable(const Options &options, QString *why, int timeoutMs = 20000,
                         bool *slow = nullptr);

Q_SIGNALS:
    // Every instance of this provider that has a container, and whether it runs.
    void refreshed(const QHash<QString, bool> &runningById, bool ok);

private:
    void makeParts();
    void connectParts();
    // Fails a create/start armed with failNextLaunch() (→ failed, later); false when none is.
    bool failArmedLaunch(const InstanceSpec &spec);
    // Runs `info` (bounded): whether the engine answers, whether bind mounts need ",z", and
    // docker's data root.
    void readInfo();

    Options m_options;
    bool m_selinux = false;
    QString m_engineDataRoot; // docker's, from `info`: where its layers and volumes are
    DiskQuota m_diskQuota;
    bool m_usable = false;
    QString m_unusableReason;
    ContainerCache m_cache;
    // The parts, children of this runtime, made in this order (each uses those before it).
    CliEngine *m_engine = nullptr;
    InstanceOpQueue *m_queue = nullptr;
    ContainerListing *m_listing = nullptr;
    LaunchSteps *m_steps = nullptr;
    AppWatcher *m_apps = nullptr;
    SshdReadiness *m_readiness = nullptr;
    EgressFilter *m_egress = nullptr;
    InstanceNetworks *m_networks = nullptr;
    WorkspaceVolumes *m_volumes = nullptr;
    ContainerSnapshots *m_snapshots = nullptr;
    ImageWait *m_imageWait = nullptr;
    ContainerLauncher *m_launcher = nullptr;
    BoxInspector *m_inspector = nullptr;
    InstanceTeardown *m_teardown = nullptr;
    UsageSampler *m_usage = nullptr;
    ConnectionCounter *m_connections = nullptr;
    BoxFaults *m_boxFaults = nullptr;
    ContainerDiskWatch *m_diskWatch = nullptr;
};

} // namespace cardhour::sim
