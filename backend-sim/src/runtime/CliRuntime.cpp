#include "CliRuntime.h"

#include "AppWatcher.h"
#include "BoxFaults.h"
#include "BoxInspector.h"
#include "BoxNames.h"
#include "CliEngine.h"
#include "ConnectionCounter.h"
#include "ContainerDiskWatch.h"
#include "ContainerLauncher.h"
#include "ContainerListing.h"
#include "ContainerSnapshots.h"
#include "EgressFilter.h"
#include "ImageWait.h"
#include "InstanceFiles.h"
#include "InstanceNetworks.h"
#include "InstanceOpQueue.h"
#include "InstanceTeardown.h"
#include "LaunchSteps.h"
#include "NoticeFiles.h"
#include "SshdReadiness.h"
#include "UsageSampler.h"
#include "WorkspaceDisk.h"
#include "WorkspaceVolumes.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kInfoTimeoutMs = 20000;

// Blocking, bounded: for isUsable() only.
ProcessResult runBlockingProcess(const QString &program, const QProcessEnvironment &env,
                                 const QStringList &args, int timeoutMs)
{
    Process::Options options;
    options.environment = env;
    options.timeoutMs = timeoutMs;
    return Process::run(program, args, options);
}

// Why a blocking run did not get to an exit status: empty when it did.
QString notFinished(const ProcessResult &result, int timeoutMs)
{
    if (!result.started)
        return result.startError;
    if (result.timedOut)
        return u"timed out after %1 s"_s.arg(timeoutMs / 1000);
    return {};
}

QProcessEnvironment environmentFor(const CliRuntime::Options &options)
{
    QProcessEnvironment env = containersEnvironment(options.containersConf);
    if (!options.dockerHost.isEmpty())
        env.insert(u"DOCKER_HOST"_s, options.dockerHost);
    return env;
}

QString programOf(const CliRuntime::Options &options)
{
    return options.program.isEmpty() ? cli::engineName(options.engine) : options.program;
}

CliEngine::Settings engineSettings(const CliRuntime::Options &options)
{
    CliEngine::Settings engine;
    engine.engine = options.engine;
    engine.program = options.program;
    engine.environment = environmentFor(options);
    engine.providerId = options.providerId;
    engine.commandTimeoutMs = options.commandTimeoutMs;
    engine.dockerHost = options.dockerHost;
    engine.engineSocket = options.engineSocket;
    engine.dataDir = options.dataDir;
    return engine;
}

} // namespace

// ---- construction ---------------------------------------------------------------------------

namespace {
// loop-ext4 where the host allows it and the operator did not ask for measured disks. With
// either engine, overlay has no size limit on most hosts: the container's own disk is measured,
// and where no loop device bounds /workspace (rootless podman, docker) its volume is measured
// with it. `unmeasured`: why this provider cannot read the engine's folders of layers and volumes
// (empty where it can, or cannot tell): the engine's `ps --size` then measures the container's
// own disk, and nothing measures a /workspace volume.
DiskQuota diskQuotaFor(const CliRuntime::Options &options, const QString &unmeasured)
{
    const QString why = options.measuredWorkspace
        ? u"the operator chose it (--workspace-disk measured)"_s
        : WorkspaceDisk::unavailableReason(options.engine, options.dataDir);
    DiskQuota quota =
        why.isEmpty() ? WorkspaceDisk::probe(options.engine, options.dataDir) : DiskQuota{};
    quota.containerDisk = u"stop-when-full"_s;
    if (!why.isEmpty() && !unmeasured.isEmpty()) {
        quota.detail = u"/workspace is not bounded: no loop-mounted disk (%1), and %2. The "
                       "container's own disk is measured by the engine every %3 s and the "
                       "instance stopped once it holds more than its disk."_s.arg(why, unmeasured)
                           .arg(options.diskCheckIntervalMs / 1000);
    } else if (!why.isEmpty()) {
        quota.mechanism = u"stop-when-full"_s;
        quota.detail = u"/workspace is measured with the container's own disk every %1 s and the "
                       "instance stopped once together they hold more than its disk (no "
                       "loop-mounted disk: %2)."_s.arg(options.diskCheckIntervalMs / 1000)
                           .arg(why);
    }
    return quota;
}

// docker keeps its layers and volumes under its data root, root's alone unless the engine is
// rootless; a remote engine's is not on this host at all.
QString unreadableDataRoot(const QString &root)
{
    if (root.isEmpty())
        return {};
#ifdef Q_OS_UNIX
    if (::access(QFile::encodeName(root).constData(), R_OK | X_OK) == 0)
        return {};
#else
    if (QFileInfo(root).isReadable())
        return {};
#endif
    return u"docker's data root (%1) cannot be read here (it is root's, or on the engine's own "
           "host), so its volumes cannot be measured (run cardhour-sim as root on the engine's "
           "host, or docker rootless)"_s.arg(root);
}
} // namespace

CliRuntime::CliRuntime(QObject *parent) : CliRuntime(Options{}, parent) {}

CliRuntime::CliRuntime(Options options, QObject *parent)
    : ContainerRuntime(parent), m_options(std::move(options))
{
    m_options.program = programOf(m_options);
    if (m_options.network == u"auto"_s)
        m_options.network = m_options.engine == cli::Engine::Podman ? box::kAutoPodmanNetwork
                                                                    : box::kPerInstanceNetwork;
    m_engine = new CliEngine(engineSettings(m_options), this);
    readInfo();
    m_diskQuota = diskQuotaFor(m_options, unreadableDataRoot(m_engineDataRoot));
    makeParts();
    connectParts();
    if (m_usable && m_options.engineApi)
        m_engine->connectApi();
}

void CliRuntime::makeParts()
{
    m_queue = new InstanceOpQueue(this);
    m_listing = new ContainerListing(*m_engine, m_cache, this);
    m_steps = new LaunchSteps(*m_engine, *m_queue, m_cache, this);
    m_apps = new AppWatcher(*m_engine, m_cache, this);
    m_readiness = new SshdReadiness(*m_steps, *m_apps, m_options.readyDeadlineMs, this);
    EgressFilter::Settings egress;
#ifdef Q_OS_LINUX
    egress.enabled = !m_options.allowPrivateNetwork;
#else
    egress.enabled = false; // the engine's boxes live in a VM of its own, not this host's netns
#endif
    egress.dataDir = m_options.dataDir;
    m_egress = new EgressFilter(*m_engine, egress, this);
    m_networks = new InstanceNetworks(*m_steps, m_options.network, this);
    m_volumes = new WorkspaceVolumes(*m_steps, m_diskQuota, m_options.dataDir,
                                     m_options.commandTimeoutMs, this);
    m_snapshots = new ContainerSnapshots(*m_steps, *m_volumes, m_options.dataDir,
                                         m_options.imagePrefix, this);
    m_imageWait = new ImageWait(*m_steps, m_options.dataDir, m_options.imagePrefix, this);
    ContainerLauncher::Settings launch;
    launch.run.engine = m_options.engine;
    launch.run.providerId = m_options.providerId;
    launch.run.imagePrefix = m_options.imagePrefix;
    launch.run.dataDir = m_options.dataDir;
    launch.run.stopTimeoutS = m_options.stopTimeoutS;
    launch.run.selinux = m_selinux;
    launch.dataDir = m_options.dataDir;
    m_launcher = new ContainerLauncher(
        {*m_steps, *m_networks, *m_volumes, *m_snapshots, *m_imageWait, *m_readiness, *m_egress},
        launch, this);
    m_teardown = new InstanceTeardown(*m_engine, *m_queue, m_cache, *m_networks,
                                      {m_options.stopTimeoutS, m_options.dataDir}, this);
    m_inspector = new BoxInspector(*m_engine, m_cache, m_diskQuota.workspaceBounded(), this);
    m_usage = new UsageSampler(*m_engine, m_cache, this);
    m_connections = new ConnectionCounter(*m_engine, m_cache, this);
    m_boxFaults = new BoxFaults(*m_engine, m_cache, this);
    // The running boxes' own disks (and their /workspace where nothing else bounds it).
    m_diskWatch = new ContainerDiskWatch(*m_engine, m_cache, m_options.diskCheckIntervalMs,
                                         m_diskQuota.mechanism == u"stop-when-full"_s, this);
}

void CliRuntime::connectParts()
{
    connect(m_listing, &ContainerListing::refreshed, this, &CliRuntime::refreshed);
    connect(m_steps, &LaunchSteps::failed, this, &ContainerRuntime::failed);
    connect(m_launcher, &ContainerLauncher::stageReached, this, &ContainerRuntime::stageReached);
    connect(m_readiness, &SshdReadiness::stageReached, this, &ContainerRuntime::stageReached);
    connect(m_readiness, &SshdReadiness::ready, this, &ContainerRuntime::ready);
    connect(m_apps, &AppWatcher::appAnswered, this,
            [this](const QString &instanceId, const QString &app) {
                Q_EMIT stageReached(instanceId, u"app:"_s + app);
            });
    connect(m_teardown, &InstanceTeardown::stopped, this, &ContainerRuntime::stopped);
    connect(m_teardown, &InstanceTeardown::removed, this, &ContainerRuntime::removed);
    connect(m_teardown, &InstanceTeardown::failed, this, &ContainerRuntime::failed);
    connect(m_snapshots, &ContainerSnapshots::taken, this, &ContainerRuntime::snapshotTaken);
    connect(m_snapshots, &ContainerSnapshots::failed, this, &ContainerRuntime::snapshotFailed);
    connect(m_snapshots, &ContainerSnapshots::removed, this, &ContainerRuntime::snapshotRemoved);
    connect(m_usage, &UsageSampler::sampled, this, &ContainerRuntime::usageSampled);
    connect(m_connections, &ConnectionCounter::counted, this,
            &ContainerRuntime::connectionsCounted);
    connect(m_diskWatch, &ContainerDiskWatch::diskFull, this, &ContainerRuntime::diskFull);
    connect(m_boxFaults, &BoxFaults::done, this, &ContainerRuntime::boxFaultDone);
    connect(m_inspector, &BoxInspector::inspected, this, &ContainerRuntime::hardwareInspected);
    connect(m_inspector, &BoxInspector::leftoversFound, this, &ContainerRuntime::leftoversFound);
    // The engine's events: a launch waiting for sshd fails now rather than at its watchdog's
    // next tick, and the reconcile learns of a box that ended, or of a box of ours started by no
    // operation of ours (by hand, a restored database's box), now rather than at the periodic
    // listing's next turn (a minute while events flow).
    connect(m_engine, &CliEngine::containerEnded, this, [this](const QString &instanceId) {
        m_readiness->checkNow(instanceId);
        m_listing->refreshSoon();
    });
    connect(m_engine, &CliEngine::containerStarted, this, [this](const QString &instanceId) {
        if (!m_queue->contains(instanceId) && !m_cache.isRunning(instanceId))
            m_listing->refreshSoon();
    });
    connect(m_engine, &CliEngine::eventsMissed, this, [this] { m_listing->refreshSoon(true); });
}

void CliRuntime::readInfo()
{
    // Bounded, once: whether the engine answers at all, and whether bind mounts need ",z".
    const ProcessResult info =
        m_engine->runBlocking(cli::infoArgs(m_options.engine), kInfoTimeoutMs);
    if (!info.ok()) {
        const QString unfinished = notFinished(info, kInfoTimeoutMs);
        m_unusableReason = unfinished.isEmpty() ? cli::tail(info.err) : unfinished;
        qCWarning(lcCli).noquote() << m_engine->what(u"info"_s) << "failed:" << m_unusableReason;
        return;
    }
    const QJsonObject obj = QJsonDocument::fromJson(info.out).object();
    if (m_options.engine == cli::Engine::Podman) {
        const QJsonObject host = obj.value(u"host"_s).toObject();
        m_selinux = host.value(u"security"_s).toObject().value(u"selinuxEnabled"_s).toBool();
    } else {
        m_engineDataRoot = obj.value(u"DockerRootDir"_s).toString();
        const QJsonArray security = obj.value(u"SecurityOptions"_s).toArray();
        for (const QJsonValue &option : security)
            m_selinux = m_selinux || option.toString().contains(u"selinux"_s);
    }
    m_usable = true;
}

CliRuntime::~CliRuntime()
{
    m_engine->shutDown();
    // What the parts started themselves (a disk being formatted, layers being measured) ends
    // without callbacks into a half-destroyed runtime; containers outlive the provider.
    const QList<QObject *> parts = children();
    for (QObject *part : parts) {
        const QList<Process *> procs = part->findChildren<Process *>(Qt::FindDirectChildrenOnly);
        for (Process *proc : procs) {
            disconnect(proc, nullptr, part, nullptr);
            proc->kill();
            proc->waitForFinished(2000);
        }
    }
    // The parts go before the cache they use, the later ones (which use the earlier) first.
    for (auto it = parts.crbegin(); it != parts.crend(); ++it)
        delete *it;
}

// ---- what the runtime is --------------------------------------------------------------------

QString CliRuntime::name() const
{
    return cli::engineName(m_options.engine);
}

QString CliRuntime::containerName(const QString &instanceId)
{
    return box::containerName(instanceId);
}

QString CliRuntime::volumeName(const QString &instanceId)
{
    return box::volumeName(instanceId);
}

QString CliRuntime::networkName(const QString &instanceId)
{
    return box::networkName(instanceId);
}

QString CliRuntime::snapshotImage(const QString &snapshotId)
{
    return box::snapshotImage(snapshotId);
}

QString CliRuntime::snapshotArchive(const QString &dataDir, const QString &snapshotId)
{
    return box::snapshotArchive(dataDir, snapshotId);
}

QString CliRuntime::imageTag(const QString &imageId) const
{
    return m_options.imagePrefix + imageId + u":latest"_s;
}

bool CliRuntime::isUsable(const Options &options, QString *why, int timeoutMs, bool *slow)
{
    const QString program = programOf(options);
    const ProcessResult r = runBlockingProcess(program, environmentFor(options),
                                               cli::infoArgs(options.engine), timeoutMs);
    QString reason;
    if (!r.started)
        reason = u"cannot run %1: %2"_s.arg(program, r.startError);
    else if (r.timedOut)
        reason = u"`%1 info` %2"_s.arg(program, notFinished(r, timeoutMs));
    else if (r.exitCode != 0)
        reason =
            u"`%1 info` failed (exit %2): %3"_s.arg(program).arg(r.exitCode).arg(cli::tail(r.err));
    else if (!QJsonDocument::fromJson(r.out).isObject())
        reason = u"`%1 info` printed no JSON"_s.arg(program);
    if (why)
        *why = reason;
    if (slow)
        *slow = r.started && r.timedOut;
    return reason.isEmpty();
}

bool CliRuntime::usesEngineApi() const
{
    return m_engine->usesApi();
}

bool CliRuntime::watchesEvents() const
{
    return m_engine->watchesEvents();
}

// ---- requests -------------------------------------------------------------------------------

void CliRuntime::create(const InstanceSpec &given)
{
    InstanceSpec spec = given;
    applyShortfall(takeShortfall(), spec);
    if (!failArmedLaunch(spec))
        m_launcher->create(spec);
}

void CliRuntime::start(const InstanceSpec &spec)
{
    if (!failArmedLaunch(spec))
        m_launcher->start(spec);
}

bool CliRuntime::failArmedLaunch(const InstanceSpec &spec)
{
    const QString reason = takeLaunchFailure(spec);
    if (reason.isEmpty())
        return false;
    QTimer::singleShot(0, this,
                       [this, id = spec.instanceId, reason] { Q_EMIT failed(id, reason); });
    return true;
}

void CliRuntime::dropSshConnections(const QString &instanceId)
{
    m_boxFaults->dropSsh(instanceId);
}

void CliRuntime::fillWorkspace(const QString &instanceId)
{
    if (m_diskQuota.workspaceBounded())
        m_boxFaults->fillWorkspace(instanceId);
    else
        QTimer::singleShot(0, this, [this, instanceId, why = m_diskQuota.detail] {
            Q_EMIT boxFaultDone(instanceId, u"fill_disk"_s, false,
                                u"/workspace is not bounded here (%1)"_s.arg(why));
        });
}

void CliRuntime::unfillWorkspace(const QString &instanceId)
{
    m_boxFaults->unfillWorkspace(instanceId);
}

void CliRuntime::stop(const QString &instanceId)
{
    m_apps->stopWatching(instanceId);
    m_teardown->stop(instanceId);
}

void CliRuntime::remove(const QString &instanceId)
{
    if (const QString failure = takeRemovalFailure(); !failure.isEmpty()) {
        // As a teardown that failed leaves it: the container and its volume stay.
        QTimer::singleShot(0, this, [this, instanceId, failure] {
            Q_EMIT failed(instanceId, u"cannot remove: "_s + failure);
        });
        return;
    }
    m_apps->stopWatching(instanceId);
    m_teardown->remove(instanceId);
}

void CliRuntime::inspectHardware(const QString &instanceId)
{
    m_inspector->inspect(instanceId);
}

void CliRuntime::findLeftovers()
{
    m_inspector->findLeftovers();
}

void CliRuntime::setAuthorizedKeys(const QString &instanceId, const QStringList &publicKeys)
{
    QString sshDir = m_cache.sshDir(instanceId);
    if (sshDir.isEmpty() && !m_options.dataDir.isEmpty() && InstanceFiles::isSafeId(instanceId))
        sshDir = InstanceFiles::instanceDirFor(m_options.dataDir, instanceId) + u"/ssh"_s;
    if (sshDir.isEmpty() || !QFileInfo(sshDir).isDir()) {
        qCWarning(lcCli) << "no ssh directory for instance" << instanceId
                         << ": authorized_keys not written";
        return;
    }
    try {
        InstanceFiles::writeAuthorizedKeysTo(sshDir, publicKeys);
    } catch (const std::exception &error) {
        qCWarning(lcCli) << "cannot rewrite authorized_keys of" << instanceId << ":"
                         << error.what();
    }
}

QString CliRuntime::snapshotsUnsupportedReason() const
{
    return m_snapshots->unsupportedReason();
}

void CliRuntime::snapshot(const SnapshotSpec &spec)
{
    m_snapshots->snapshot(spec);
}

void CliRuntime::removeSnapshot(const QString &snapshotId)
{
    m_snapshots->remove(snapshotId);
}

void CliRuntime::sampleUsage()
{
    m_usage->sample();
}

void CliRuntime::countConnections(const QStringList &instanceIds)
{
    m_connections->count(instanceIds);
}

// ---- the cache ------------------------------------------------------------------------------

void CliRuntime::refresh()
{
    m_listing->refresh();
}

bool CliRuntime::refreshNow(int timeoutMs)
{
    return m_listing->refreshNow(timeoutMs);
}

bool CliRuntime::isRunning(const QString &instanceId) const
{
    return m_cache.isRunning(instanceId);
}

int CliRuntime::sshPortOf(const QString &instanceId) const
{
    return m_cache.info(instanceId).sshPort;
}

QHash<int, int> CliRuntime::publishedPortsOf(const QString &instanceId) const
{
    return m_cache.info(instanceId).ports;
}

bool CliRuntime::hasPendingWork(const QString &instanceId) const
{
    return m_queue->hasPendingWork(instanceId);
}

bool CliRuntime::hasPendingWork() const
{
    return m_queue->hasPendingWork();
}

} // namespace cardhour::sim

namespace cardhour::sim {

void CliRuntime::writeNotice(const QString &instanceId, const QString &name,
                             const QByteArray &content)
{
    const QString dir = notices::hostDirFor(m_options.dataDir, instanceId);
    if (!dir.isEmpty() && InstanceFiles::isSafeId(name))
        notices::write(dir, name, content);
}

} // namespace cardhour::sim
