#pragma once

#include "CgroupStats.h"
#include "CliDialect.h"
#include "ContainerRuntime.h"
#include "EngineCalls.h"
#include "InstanceFiles.h"
#include "Process.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QProcessEnvironment>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

namespace cardhour::sim {

class SpareDisks;
class SshProbe;

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
// starts listening inside the box (CliApps.cpp: `exec cat /proc/net/tcp*`, no tool needed); stop →
// stopped; remove (container, volume, and with Options::dataDir the instance files) → removed.
// Failures of stop/remove come as failed(id, reason).
//
// Snapshots (podman only; see CliSnapshot.cpp): snapshot() commits the container's disk to the
// image snapshotImage(<snapshot id>) and exports its /workspace volume to
// snapshotArchive(<dataDir>, <snapshot id>); a running container is paused for both, so that
// the two are one moment's state. A create() with spec.snapshotId runs that image, and a
// /workspace volume it makes anew is imported from that archive.
//
// Requests for one instance run one after another; stop() and remove() end a create() or
// start() still in progress at its next step (that one then emits nothing).
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
        // How often the running boxes' own disks are measured (podman; stopped when full).
        int diskCheckIntervalMs = 20000;
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
    QHash<QString, bool> inventory() const override
    {
        QHash<QString, bool> runningById;
        for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it)
            runningById.insert(it.key(), it->running);
        return runningById;
    }
    // Reads each running container's cgroup (CgroupStats); containers whose cgroup is not on
    // this host are measured with one `stats --no-stream` call for all of them.
    void sampleUsage() override;
    // CliConnections.cpp: ESTABLISHED sockets to the box's sshd and apps, one `exec` per box.
    void countConnections(const QStringList &instanceIds) override;
    // loop-ext4 where this host allows it (WorkspaceDisk::probe), else none and why.
    DiskQuota diskQuota() const override { return m_diskQuota; }

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

    // Re-reads this provider's containers (`podman ps -a` by label) into the cache, then
    // emits refreshed(). refreshNow() does the same blocking, for provider start-up only.
    void refresh();
    bool refreshNow(int timeoutMs = 30000);
    QHash<QString, ContainerInfo> containers() const { return m_containers; } // by instance id

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
    bool hasPendingWork() const { return !m_ops.isEmpty(); }

    // Whether the engine's API answered (and serves the calls it can), and whether its event
    // stream is open: then a container that ends is noticed at once, not at the next refresh.
    bool usesEngineApi() const { return m_api != nullptr; }
    bool watchesEvents() const { return m_events != 0; }

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
    enum class OpKind {
        Create,
        Start,
        Stop,
        Remove,
        Snapshot
    };
    struct Op
    {
        OpKind kind;
        std::function<void(quint64 token)> run;
    };
    struct Launch; // the state of one create()/start() chain
    struct InstanceOps
    {
        quint64 epoch = 0; // token of the op in progress; 0 once a newer request superseded it
        bool busy = false;
        OpKind current = OpKind::Create;
        QList<Op> queue;
        QPointer<SshProbe> probe;
        std::weak_ptr<Launch> launch; // while its sshd is probed: an event may end it sooner
    };
    using ProcResult = ProcessResult;
    // "podman rm failed (exit 2): <its stderr>", "... timed out: ...", "...: could not be run
    // (...)".
    static QString describe(const ProcResult &result, const QString &what);
    using ProcCallback = std::function<void(const ProcResult &)>;
    struct AppWatch
    {
        quint64 generation = 0;
        QString containerId;
        QList<QPair<QString, int>> pending; // apps not answering yet
        QElapsedTimer since;
        bool polling = false; // an `exec` is under way
    };

    void enqueue(const QString &instanceId, OpKind kind, std::function<void(quint64)> run);
    bool current(const QString &instanceId, quint64 token) const;
    void endOp(const QString &instanceId);

    // Over the engine's API when it is up and EngineCalls knows the command, else as a process.
    void runCli(const QStringList &args, ProcCallback done, int timeoutMs = 0,
                const QProcessEnvironment &extraEnv = {});
    void runProcess(const QStringList &args, ProcCallback done, int timeoutMs,
                    const QProcessEnvironment &extraEnv);
    // CliEngineApi.cpp: the API's socket (started for podman), its calls, its events.
    void connectEngineApi();
    QString startPodmanService();
    void runOverApi(const cli::ApiCall &call, const QStringList &args, ProcCallback done,
                    int timeoutMs, const QProcessEnvironment &extraEnv);
    // A start the engine's service failed by losing a helper's exit, tried once more as
    // `start <id>` on the command line.
    // `fresh`: the start of a container made for this launch (see cli::lostStartOutcome).
    void startAsCommand(const cli::ApiCall &start, const EngineReply &failed,
                        const ProcCallback &done, int timeoutMs, bool fresh);
    void watchEvents();
    void noteEvent(const QByteArray &line);
    // A step of a snapshot: it dies with the provider (whose restart marks the snapshot
    // failed), so that no commit or export finishes for a snapshot nobody records.
    void runSnapshotStep(const QStringList &args, ProcCallback done, int timeoutMs);
    QStringList labelFilter(const QString &instanceId) const;
    void findContainer(
        const QString &instanceId,
        std::function<void(bool ok, const QString &error, const QList<ContainerInfo> &found)> done);
    QString program() const;
    QString what(const QString &verb) const; // "podman run", "docker rm", ... for messages

    void doCreate(InstanceSpec spec, quint64 token);
    void doStart(InstanceSpec spec, quint64 token);
    void doStop(const QString &instanceId, quint64 token);
    void doRemove(const QString &instanceId, quint64 token);
    void doSnapshot(const SnapshotSpec &spec, quint64 token);
    void doRemoveSnapshot(const QString &snapshotId, int attempt);
    void importWorkspace(const std::shared_ptr<Launch> &launch);
    bool resolveSsh(InstanceSpec &spec, QString *error) const;
    void clearLeftovers(const std::shared_ptr<Launch> &launch);
    void createVolume(const std::shared_ptr<Launch> &launch);
    void makeWorkspaceImage(const std::shared_ptr<Launch> &launch, const QStringList &args);
    void runVolumeCreate(const std::shared_ptr<Launch> &launch, const QStringList &args);
    // Measures the writable layer of every running container (`ps --size`) → diskFull.
    void checkContainerDisks();
    // `volume export` / `import` of a volume with mount options (the ext4 image) only work
    // while podman has it mounted: mounted around `args` when it is one.
    void runOnWorkspace(const QString &instanceId, const QStringList &args, ProcCallback done,
                        int timeoutMs, bool snapshotStep = false);
    void runContainer(const std::shared_ptr<Launch> &launch, int attempt);
    // CliImageWait.cpp: while `images build` makes the missing image (ImageBuildStatus in
    // dataDir), waits at stage "image" and runs the container again when it is built; false
    // (nothing done) when no build of it is under way.
    bool waitForImage(const std::shared_ptr<Launch> &launch, int attempt);
    void dropLaunchWithoutImage(const std::shared_ptr<Launch> &launch, const QString &reason);
    static QString imageMissingReason(const QString &imageId);
    bool perInstanceNetwork() const;
    void ensureNetwork(const std::shared_ptr<Launch> &launch, std::function<void()> then);
    void removeNetwork(const QString &instanceId, std::function<void()> then);
    void startContainer(const std::shared_ptr<Launch> &launch);
    void waitForSshd(const std::shared_ptr<Launch> &launch);
    void checkContainer(const std::shared_ptr<Launch> &launch);
    // failLaunch with the container's last log lines after the reason (they say why).
    void failWithContainerLog(const std::shared_ptr<Launch> &launch, const QString &reason,
                              bool stopContainer);
    void watchApps(const QString &instanceId, const QString &containerId,
                   const QList<QPair<QString, int>> &apps);
    void pollApps(const QString &instanceId, quint64 generation);
    void stopWatchingApps(const QString &instanceId);
    void failLaunch(const std::shared_ptr<Launch> &launch, const QString &reason,
                    bool stopContainer);
    void remember(const ContainerInfo &info);
    void setRunning(const QString &instanceId, bool running);
    void forget(const QString &instanceId);
    void applyRefresh(const QList<ContainerInfo> &found, quint64 stampAtStart);
    QSet<int> reservedPorts() const;

    Options m_options;
    QProcessEnvironment m_env;
    bool m_selinux = false;
    DiskQuota m_diskQuota;
    SpareDisks *m_spareDisks = nullptr; // formatted /workspace images, with loop-ext4 only
    bool m_usable = false;
    QString m_unusableReason;
    QHash<QString, InstanceOps> m_ops;
    QHash<QString, AppWatch> m_appWatches; // running instances whose apps do not answer yet
    QHash<QString, QList<int>> m_appPorts; // instance → its apps' ports in the box, once ready
    quint64 m_lastAppWatch = 0;
    QHash<QString, ContainerInfo> m_containers;
    QHash<QString, QString> m_sshDirs; // instance → ssh dir of its last create/start
    QHash<QString, quint64> m_touched; // instance → m_stamp of its last local cache update
    quint64 m_stamp = 0;
    quint64 m_lastToken = 0;
    bool m_shuttingDown = false;
    CgroupStats m_cgroups;
    bool m_statsInFlight = false;
    // What each running container's own disk may hold beyond its size since it started (by
    // its start time): a box started again after a stop for a full disk may clean up, not grow.
    struct DiskBaseline
    {
        qint64 startedAt = 0;
        qint64 bytes = 0;
    };
    QHash<QString, DiskBaseline> m_diskBaselines;
    QHash<QString, qint64> m_diskFullBytes; // what it held when last stopped for a full disk
    bool m_diskCheckInFlight = false;
    QHash<QString, QString> m_upperDirs; // container id → its writable layer's folder
    QTimer *m_diskTimer = nullptr;
    EngineApi *m_api = nullptr;
    QPointer<Process> m_apiService; // the podman service this runtime started, while it runs
    quint64 m_events = 0; // the event stream's handle; 0 while it is not open
    QTimer *m_eventRefresh = nullptr; // one refresh for a burst of events
};

} // namespace cardhour::sim
