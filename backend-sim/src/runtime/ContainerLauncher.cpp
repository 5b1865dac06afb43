#include "ContainerLauncher.h"

#include "BoxNames.h"
#include "ContainerSnapshots.h"
#include "EgressFilter.h"
#include "ImageWait.h"
#include "InstanceFiles.h"
#include "InstanceNetworks.h"
#include "SshdReadiness.h"
#include "WorkspaceVolumes.h"

#include <QFileInfo>
#include <QTcpServer>

#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// Reserves `count` distinct free loopback ports (bound together, then released), none of them
// in `avoid`. Empty on failure.
QList<int> freeLoopbackPorts(int count, const QSet<int> &avoid)
{
    std::vector<std::unique_ptr<QTcpServer>> servers;
    QList<int> ports;
    for (int tries = 0; ports.size() < count && tries < count + 64; ++tries) {
        auto server = std::make_unique<QTcpServer>();
        if (!server->listen(QHostAddress::LocalHost, 0))
            return {};
        const int port = server->serverPort();
        servers.push_back(std::move(server)); // held until all are chosen, so they differ
        if (!avoid.contains(port))
            ports.append(port);
    }
    return ports.size() == count ? ports : QList<int>{};
}

QString portTakenReason(int port, const QString &reason)
{
    return u"port %1 on 127.0.0.1 is taken by another program; %2"_s.arg(port).arg(reason);
}

} // namespace

ContainerLauncher::ContainerLauncher(Parts parts, Settings settings, QObject *parent)
    : QObject(parent), m_parts(parts), m_steps(parts.steps), m_engine(parts.steps.engine()),
      m_cache(parts.steps.cache()), m_settings(std::move(settings))
{}

void ContainerLauncher::create(const InstanceSpec &spec)
{
    m_steps.queue().enqueue(spec.instanceId, InstanceOpQueue::Kind::Create,
                            [this, spec](quint64 token) { doCreate(spec, token); });
}

void ContainerLauncher::start(const InstanceSpec &spec)
{
    m_steps.queue().enqueue(spec.instanceId, InstanceOpQueue::Kind::Start,
                            [this, spec](quint64 token) { doStart(spec, token); });
}

std::shared_ptr<Launch> ContainerLauncher::begin(InstanceSpec spec, quint64 token, bool fresh)
{
    auto launch = std::make_shared<Launch>();
    launch->clock.start();
    launch->token = token;
    launch->fresh = fresh;
    launch->spec = std::move(spec);
    return launch;
}

bool ContainerLauncher::resolveSsh(InstanceSpec &spec, QString *error) const
{
    try {
        if (spec.sshDir.isEmpty()) {
            if (m_settings.dataDir.isEmpty()) {
                *error = u"no SSH directory for the instance (InstanceSpec::sshDir)"_s;
                return false;
            }
            const InstanceFiles files = InstanceFiles::prepare(m_settings.dataDir, spec.instanceId);
            spec.sshDir = files.sshDir();
            if (spec.hostKeySha256.isEmpty())
                spec.hostKeySha256 = files.hostKeySha256();
        }
        spec.sshDir = QFileInfo(spec.sshDir).absoluteFilePath();
        if (!QFileInfo(spec.sshDir).isDir()) {
            *error = u"the SSH directory %1 does not exist"_s.arg(spec.sshDir);
            return false;
        }
        if (!QFileInfo::exists(spec.sshDir + u"/ssh_host_ed25519_key"_s)) {
            *error = u"no host key in %1"_s.arg(spec.sshDir);
            return false;
        }
        if (!spec.hostKeySha256.startsWith(u"SHA256:"_s)) {
            *error = u"no host key fingerprint for the instance"_s;
            return false;
        }
        InstanceFiles::writeAuthorizedKeysTo(spec.sshDir, spec.authorizedKeys);
        InstanceFiles::writeBootFilesTo(spec.sshDir, spec.appToken);
    } catch (const std::exception &e) {
        *error = u"instance files: %1"_s.arg(QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

// ---- create ---------------------------------------------------------------------------------

void ContainerLauncher::doCreate(InstanceSpec spec, quint64 token)
{
    const QString id = spec.instanceId;
    auto launch = begin(std::move(spec), token, true);
    Q_EMIT stageReached(id, u"image"_s);
    if (!InstanceFiles::isSafeId(id))
        return m_steps.fail(launch, u"invalid instance id"_s, false);
    QString error;
    if (!resolveSsh(launch->spec, &error))
        return m_steps.fail(launch, error, false);
    m_cache.setSshDir(id, launch->spec.sshDir);
    if (!launch->spec.snapshotId.isEmpty()) {
        const QString unsupported = m_parts.snapshots.unsupportedReason();
        if (!unsupported.isEmpty())
            return m_steps.fail(launch, unsupported, false);
        if (!QFileInfo::exists(box::snapshotArchive(m_settings.dataDir, launch->spec.snapshotId)))
            return m_steps.fail(launch, u"the snapshot's /workspace archive is gone"_s, false);
    }
    // The quick path: two engine calls (volume create, run). What it does not expect (an earlier
    // container of this instance, a volume or port already taken) sends it down the slow path.
    if (m_cache.contains(id))
        return clearLeftovers(launch);
    createVolume(launch);
}

void ContainerLauncher::clearLeftovers(const std::shared_ptr<Launch> &launch)
{
    m_engine.findContainer(
        launch->id(),
        [this, launch](bool ok, const QString &findError, const QList<cli::ContainerInfo> &found) {
            if (m_steps.abandoned(*launch))
                return;
            if (!ok)
                return m_steps.fail(launch, findError, false);
            if (found.isEmpty()) {
                m_cache.forget(launch->id());
                return createVolume(launch);
            }
            QStringList ids;
            for (const cli::ContainerInfo &info : found)
                ids.append(info.containerId);
            m_engine.run(cli::forceRemoveArgs(m_engine.engine(), ids),
                         [this, launch](const ProcessResult &rm) {
                             if (m_steps.abandoned(*launch))
                                 return;
                             if (!rm.ok())
                                 return m_steps.fail(
                                     launch,
                                     EngineCommands::describe(
                                         rm, m_engine.what(u"rm (an earlier container)"_s)),
                                     false);
                             m_cache.forget(launch->id());
                             createVolume(launch);
                         });
        });
}

void ContainerLauncher::createVolume(const std::shared_ptr<Launch> &launch)
{
    m_parts.volumes.create(launch, [this, launch](bool fresh) {
        // A new volume of a restore is filled from the snapshot first.
        if (fresh && !launch->spec.snapshotId.isEmpty())
            return m_parts.snapshots.restoreWorkspace(launch,
                                                      [this, launch] { runContainer(launch, 1); });
        runContainer(launch, 1);
    });
}

void ContainerLauncher::runContainer(const std::shared_ptr<Launch> &launch, int attempt)
{
    if (m_parts.networks.perInstance() && !launch->networkReady)
        return m_parts.networks.ensure(launch,
                                       [this, launch, attempt] { runContainer(launch, attempt); });
    const QList<int> hostPorts = freeLoopbackPorts(1, m_cache.reservedPorts());
    if (hostPorts.isEmpty())
        return m_steps.fail(launch, u"no free port on 127.0.0.1"_s, false);
    launch->sshPort = hostPorts.first();
    launch->ports.clear();
    launch->ports.insert(box::kSshPort, launch->sshPort);
    ContainerRunArgs::Settings settings = m_settings.run;
    settings.network = m_parts.networks.runOption(launch->id());
    const ContainerRunArgs run = ContainerRunArgs::forSpec(launch->spec, launch->sshPort, settings);
    m_engine.run(
        run.args,
        [this, launch, attempt](const ProcessResult &r) {
            if (m_steps.abandoned(*launch))
                return;
            if (r.ok())
                return containerRan(launch, r);
            runFailed(launch, attempt, r);
        },
        0);
}

void ContainerLauncher::containerRan(const std::shared_ptr<Launch> &launch, const ProcessResult &r)
{
    const QString iid = launch->id();
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    launch->containerId = QString::fromLatin1(lines.last().trimmed());
    if (launch->containerId.isEmpty())
        return m_steps.fail(launch, m_engine.what(u"run printed no container id"_s), false);
    cli::ContainerInfo info;
    info.containerId = launch->containerId;
    info.instanceId = iid;
    info.ownerId = launch->spec.ownerId;
    info.state = u"running"_s;
    info.running = true;
    info.sshPort = launch->sshPort;
    info.ports = launch->ports;
    m_cache.remember(info);
    Q_EMIT stageReached(iid, u"container"_s);
    filterThenAwaitSshd(launch);
}

void ContainerLauncher::runFailed(const std::shared_ptr<Launch> &launch, int attempt,
                                  const ProcessResult &r)
{
    const bool ran = r.started && !r.timedOut;
    const cli::Failure failure =
        ran ? cli::classify(QString::fromUtf8(r.err)) : cli::Failure::Other;
    const QString &snapshotId = launch->spec.snapshotId;
    if (failure == cli::Failure::ImageMissing) {
        if (snapshotId.isEmpty() && m_parts.imageWait.waitFor(launch, [this, launch, attempt] {
                runContainer(launch, attempt);
            }))
            return;
        return m_parts.imageWait.dropLaunch(
            launch,
            snapshotId.isEmpty()
                ? ImageWait::missingReason(launch->spec.image)
                : u"the snapshot's disk image is gone (snapshot %1 deleted)"_s.arg(snapshotId));
    }
    const bool portTaken = failure == cli::Failure::PortInUse;
    const bool nameTaken = failure == cli::Failure::NameInUse;
    // The engine lost its record of this new container's start (lostStartOutcome).
    const bool startLost = failure == cli::Failure::AlreadyRunning;
    if ((portTaken || nameTaken || startLost) && attempt < 3) {
        // A port taken between choosing and binding it leaves a created container behind; a
        // name taken is a container of an earlier attempt; a start the engine lost leaves one
        // it can no longer manage. Each way: clear, run again.
        qCInfo(lcCli) << "instance" << launch->id()
                      << (portTaken       ? ": port taken meanwhile"
                              : nameTaken ? ": name in use"
                                          : ": the engine lost its start")
                      << ", running the container again";
        return runAgain(launch, attempt);
    }
    QString reason = EngineCommands::describe(r, m_engine.what(u"run"_s));
    if (portTaken)
        reason = portTakenReason(launch->sshPort, reason);
    m_steps.fail(launch, reason, false);
}

void ContainerLauncher::runAgain(const std::shared_ptr<Launch> &launch, int attempt)
{
    m_engine.findContainer(
        launch->id(),
        [this, launch, attempt](bool ok, const QString &findError,
                                const QList<cli::ContainerInfo> &found) {
            const QString fid = launch->id();
            if (m_steps.abandoned(*launch))
                return;
            if (!ok)
                return m_steps.fail(launch, findError, false);
            if (found.isEmpty()) // names are not trusted: what is not ours by label stays
                return m_steps.fail(
                    launch,
                    u"the container name %1 is taken by a container that is not this "
                    "instance's"_s.arg(box::containerName(fid)),
                    false);
            QStringList ids;
            for (const cli::ContainerInfo &info : found)
                ids.append(info.containerId);
            m_engine.run(cli::forceRemoveArgs(m_engine.engine(), ids),
                         [this, launch, attempt](const ProcessResult &rm) {
                             if (m_steps.abandoned(*launch))
                                 return;
                             if (!rm.ok())
                                 return m_steps.fail(
                                     launch, EngineCommands::describe(rm, m_engine.what(u"rm"_s)),
                                     false);
                             m_cache.forget(launch->id());
                             runContainer(launch, attempt + 1);
                         });
        });
}

// ---- start ----------------------------------------------------------------------------------

void ContainerLauncher::doStart(InstanceSpec spec, quint64 token)
{
    const QString id = spec.instanceId;
    auto launch = begin(std::move(spec), token, false);
    QString error;
    if (!InstanceFiles::isSafeId(id))
        return m_steps.fail(launch, u"invalid instance id"_s, false);
    if (!resolveSsh(launch->spec, &error))
        return m_steps.fail(launch, error, false);
    m_cache.setSshDir(id, launch->spec.sshDir);
    // Known from the last listing (ids and port bindings do not change while a container
    // exists): start it straight away; `start` itself says if it has gone since.
    const cli::ContainerInfo known = m_cache.info(id);
    if (!known.containerId.isEmpty() && known.sshPort > 0) {
        launch->containerId = known.containerId;
        launch->sshPort = known.sshPort;
        launch->ports = known.ports;
        return startContainer(launch);
    }
    m_engine.findContainer(
        id,
        [this, launch](bool ok, const QString &findError, const QList<cli::ContainerInfo> &found) {
            if (m_steps.abandoned(*launch))
                return;
            if (!ok)
                return m_steps.fail(launch, findError, false);
            startFound(launch, found);
        });
}

void ContainerLauncher::startFound(const std::shared_ptr<Launch> &launch,
                                   const QList<cli::ContainerInfo> &found)
{
    const QString iid = launch->id();
    if (found.isEmpty()) {
        m_cache.forget(iid);
        return m_steps.fail(launch, u"container is gone"_s, false);
    }
    if (found.size() > 1)
        qCWarning(lcCli) << "instance" << iid << "has" << found.size()
                         << "containers; starting the first";
    const cli::ContainerInfo info = found.first();
    launch->containerId = info.containerId;
    launch->sshPort = info.sshPort;
    launch->ports = info.ports;
    m_cache.remember(info);
    if (launch->sshPort > 0)
        return startContainer(launch);
    // Not in the listing: the bindings made at create time are in the container's config.
    m_engine.run(
        {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s, launch->containerId},
        [this, launch, info](const ProcessResult &r) {
            if (m_steps.abandoned(*launch))
                return;
            if (!r.ok())
                return m_steps.fail(
                    launch, EngineCommands::describe(r, m_engine.what(u"inspect"_s)), false);
            cli::ContainerInfo updated = info;
            updated.ports = cli::portsFromInspect(r.out);
            updated.sshPort = updated.ports.value(box::kSshPort);
            if (updated.sshPort <= 0)
                return m_steps.fail(launch, u"the container publishes no SSH port"_s, false);
            launch->sshPort = updated.sshPort;
            launch->ports = updated.ports;
            m_cache.remember(updated);
            startContainer(launch);
        });
}

void ContainerLauncher::startContainer(const std::shared_ptr<Launch> &launch)
{
    m_engine.run({u"start"_s, launch->containerId}, [this, launch](const ProcessResult &r) {
        const QString id = launch->id();
        if (m_steps.abandoned(*launch))
            return;
        if (!r.ok()) {
            const cli::Failure failure = r.started && !r.timedOut
                ? cli::classify(QString::fromUtf8(r.err))
                : cli::Failure::Other;
            if (failure == cli::Failure::NoSuchContainer) {
                m_cache.forget(id);
                return m_steps.fail(launch, u"container is gone"_s, false);
            }
            QString reason = EngineCommands::describe(r, m_engine.what(u"start"_s));
            if (failure == cli::Failure::PortInUse)
                reason = portTakenReason(launch->sshPort, reason);
            return m_steps.fail(launch, reason, false);
        }
        m_cache.setRunning(id, true);
        Q_EMIT stageReached(id, u"container"_s);
        filterThenAwaitSshd(launch);
    });
}

void ContainerLauncher::filterThenAwaitSshd(const std::shared_ptr<Launch> &launch)
{
    m_parts.egress.apply(launch->containerId, [this, launch](const QString &error, bool gone) {
        if (m_steps.abandoned(*launch))
            return;
        // A container that ended cannot let anything out: the readiness check finds it ended
        // and fails the launch with its log.
        if (!error.isEmpty() && !gone)
            return m_steps.fail(launch, error, true);
        m_parts.readiness.waitFor(launch);
    });
}

} // namespace cardhour::sim
