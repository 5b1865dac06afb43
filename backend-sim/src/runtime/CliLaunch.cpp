#include "BoxGpuEnvironment.h"
#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "InstanceFiles.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>

#include <memory>

using namespace Qt::StringLiterals;

// create() and start(): from a spec to a running container (CliReadiness.cpp waits for its sshd).

namespace cardhour::sim {

using namespace clidetail;

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

QString hostnameFor(const QString &instanceId)
{
    QString shortId;
    for (const QChar c : instanceId) {
        if (shortId.size() == 8)
            break;
        if (c.isLetterOrNumber() && c.unicode() < 128)
            shortId.append(c.toLower());
    }
    return u"cardhour-"_s + (shortId.isEmpty() ? u"instance"_s : shortId);
}

} // namespace

// ---- create / start -------------------------------------------------------------------------

void CliRuntime::create(const InstanceSpec &spec)
{
    enqueue(spec.instanceId, OpKind::Create,
            [this, spec](quint64 token) { doCreate(spec, token); });
}

void CliRuntime::start(const InstanceSpec &spec)
{
    enqueue(spec.instanceId, OpKind::Start, [this, spec](quint64 token) { doStart(spec, token); });
}

void CliRuntime::setAuthorizedKeys(const QString &instanceId, const QStringList &publicKeys)
{
    QString sshDir = m_sshDirs.value(instanceId);
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

bool CliRuntime::resolveSsh(InstanceSpec &spec, QString *error) const
{
    try {
        if (spec.sshDir.isEmpty()) {
            if (m_options.dataDir.isEmpty()) {
                *error = u"no SSH directory for the instance (InstanceSpec::sshDir)"_s;
                return false;
            }
            const InstanceFiles files = InstanceFiles::prepare(m_options.dataDir, spec.instanceId);
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
    } catch (const std::exception &e) {
        *error = u"instance files: %1"_s.arg(QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

void CliRuntime::failLaunch(const std::shared_ptr<Launch> &launch, const QString &reason,
                            bool stopContainer)
{
    const QString id = launch->id();
    if (!current(id, launch->token)) {
        endOp(id);
        return;
    }
    qCWarning(lcCli).noquote() << "instance" << id << "failed:" << reason;
    if (!stopContainer || launch->containerId.isEmpty()) {
        Q_EMIT failed(id, reason);
        endOp(id);
        return;
    }
    // Not left running (and using resources) while the instance is `failed`.
    runCli({u"stop"_s, u"-t"_s, u"2"_s, launch->containerId},
           [this, launch, reason](const ProcResult &) {
               const QString instanceId = launch->id();
               setRunning(instanceId, false);
               if (current(instanceId, launch->token))
                   Q_EMIT failed(instanceId, reason);
               endOp(instanceId);
           });
}

void CliRuntime::doCreate(InstanceSpec spec, quint64 token)
{
    auto launch = std::make_shared<Launch>();
    launch->clock.start();
    launch->token = token;
    launch->fresh = true;
    const QString id = spec.instanceId;
    launch->spec = std::move(spec);
    Q_EMIT stageReached(id, u"image"_s);
    if (!InstanceFiles::isSafeId(id)) {
        failLaunch(launch, u"invalid instance id"_s, false);
        return;
    }
    QString error;
    if (!resolveSsh(launch->spec, &error)) {
        failLaunch(launch, error, false);
        return;
    }
    m_sshDirs.insert(id, launch->spec.sshDir);
    if (!launch->spec.snapshotId.isEmpty()) {
        const QString unsupported = snapshotsUnsupportedReason();
        if (!unsupported.isEmpty())
            return failLaunch(launch, unsupported, false);
        if (!QFileInfo::exists(snapshotArchive(m_options.dataDir, launch->spec.snapshotId)))
            return failLaunch(launch, u"the snapshot's /workspace archive is gone"_s, false);
    }
    // The quick path: two engine calls (volume create, run). What it does not expect (an earlier
    // container of this instance, a volume or port already taken) sends it down the slow path.
    if (m_containers.contains(id))
        return clearLeftovers(launch);
    createVolume(launch);
}

void CliRuntime::clearLeftovers(const std::shared_ptr<Launch> &launch)
{
    findContainer(
        launch->id(),
        [this, launch](bool ok, const QString &findError, const QList<ContainerInfo> &found) {
            const QString id = launch->id();
            if (!current(id, launch->token))
                return endOp(id);
            if (!ok)
                return failLaunch(launch, findError, false);
            if (found.isEmpty()) {
                forget(id);
                return createVolume(launch);
            }
            QStringList args;
            for (const ContainerInfo &info : found)
                args.append(info.containerId);
            runCli(cli::forceRemoveArgs(m_options.engine, args),
                   [this, launch](const ProcResult &rm) {
                       const QString rid = launch->id();
                       if (!current(rid, launch->token))
                           return endOp(rid);
                       if (!rm.ok())
                           return failLaunch(
                               launch, describe(rm, what(u"rm (an earlier container)"_s)), false);
                       forget(rid);
                       createVolume(launch);
                   });
        });
}

void CliRuntime::runVolumeCreate(const std::shared_ptr<Launch> &launch, const QStringList &args)
{
    runCli(args, [this, launch](const ProcResult &vc) {
        const QString vid = launch->id();
        if (!current(vid, launch->token))
            return endOp(vid);
        const bool exists = vc.started && !vc.timedOut
            && cli::classify(QString::fromUtf8(vc.err)) == cli::Failure::VolumeExists;
        if (!vc.ok() && !exists)
            return failLaunch(launch, describe(vc, what(u"volume create"_s)), false);
        if (vc.ok() && m_options.engine == cli::Engine::Podman) {
            // podman refuses an existing name: this one is new (a restore fills it first).
            if (!launch->spec.snapshotId.isEmpty())
                return importWorkspace(launch);
            return runContainer(launch, 1);
        }
        // Kept from an earlier attempt of this instance (reused), or a name someone else took.
        // (docker's `volume create` succeeds for an existing volume and keeps its labels.)
        runCli({u"volume"_s, u"inspect"_s, volumeName(vid)}, [this, launch](const ProcResult &vi) {
            const QString iid = launch->id();
            if (!current(iid, launch->token))
                return endOp(iid);
            if (!vi.ok())
                return failLaunch(launch, describe(vi, what(u"volume inspect"_s)), false);
            const QList<cli::VolumeInfo> volumes = cli::parseVolumeList(vi.out);
            const QHash<QString, QString> labels =
                volumes.isEmpty() ? QHash<QString, QString>{} : volumes.first().labels;
            if (labels.value(kInstance) != iid || labels.value(kProvider) != m_options.providerId)
                return failLaunch(
                    launch,
                    u"volume %1 exists and does not belong to this instance"_s.arg(volumeName(iid)),
                    false);
            runContainer(launch, 1);
        });
    });
}

void CliRuntime::runContainer(const std::shared_ptr<Launch> &launch, int attempt)
{
    if (perInstanceNetwork() && !launch->networkReady)
        return ensureNetwork(launch, [this, launch, attempt] { runContainer(launch, attempt); });
    const InstanceSpec &spec = launch->spec;
    const QString id = spec.instanceId;
    const QList<int> hostPorts = freeLoopbackPorts(1, reservedPorts());
    if (hostPorts.isEmpty())
        return failLaunch(launch, u"no free port on 127.0.0.1"_s, false);
    launch->sshPort = hostPorts.first();
    launch->ports.clear();
    launch->ports.insert(kSshPort, launch->sshPort);

    // `run -d` is create + start in one process: each podman process costs ~0.1-0.3 s here.
    QStringList args{u"run"_s, u"-d"_s, u"--name"_s, containerName(id)};
    args << u"--label"_s << kManaged + u"=true"_s << u"--label"_s << kInstance + u'=' + id
         << u"--label"_s << kOwner + u'=' + spec.ownerId << u"--label"_s
         << kProvider + u'=' + m_options.providerId << u"--label"_s
         << kDiskGibLabel + u'=' + QString::number(spec.diskGib);
    args << u"--hostname"_s << hostnameFor(id) << u"--pull=never"_s;
    if (!m_options.network.isEmpty())
        args << u"--network"_s << (perInstanceNetwork() ? networkName(id) : m_options.network);
    // Only sshd is published. One-click apps listen on the box's own loopback and are reached
    // through an SSH forward: a published port would serve them to every user of the host.
    args << u"-p"_s << u"%1:%2:%3"_s.arg(kLoopback).arg(launch->sshPort).arg(kSshPort);
    args << u"-v"_s << volumeName(id) + u":/workspace"_s;
    args << u"-v"_s << spec.sshDir + u":/etc/cardhour/ssh:ro"_s + (m_selinux ? u",z"_s : QString());
    for (const auto &[name, folder] : spec.datasets)
        args << u"-v"_s
             << folder + u":/datasets/"_s + name + u":ro"_s + (m_selinux ? u",z"_s : QString());
    for (const auto &[name, folder] : spec.models)
        args << u"-v"_s
             << folder + u":/models/"_s + name + u":ro"_s + (m_selinux ? u",z"_s : QString());
    if (spec.realGpus) {
        // Real cards: the devices and driver come in through the engine; without a status file
        // the image's nvidia-smi hands over to the real one.
        args << cli::gpuDeviceArgs(m_options.engine, spec.gpuCards);
    } else {
        // Simulated GPUs: the provider's live numbers for the box's nvidia-smi (Telemetry).
        const QString gpuDir = spec.gpuStatusDir.isEmpty() && !m_options.dataDir.isEmpty()
            ? InstanceFiles::instanceDirFor(m_options.dataDir, id) + u"/gpu"_s
            : spec.gpuStatusDir;
        if (!gpuDir.isEmpty() && QDir().mkpath(gpuDir))
            args << u"-v"_s
                 << gpuDir + u":/run/cardhour/gpu:ro"_s + (m_selinux ? u",z"_s : QString());
    }
    if (spec.cpus > 0)
        args << u"--cpus"_s << QString::number(spec.cpus, 'g', 6);
    if (spec.memoryMib > 0)
        args << u"--memory"_s << QString::number(spec.memoryMib) + u'm';
    if (spec.pidsLimit > 0)
        args << u"--pids-limit"_s << QString::number(spec.pidsLimit);
    // No raw sockets (docker grants NET_RAW by default; podman's defaults lack it already):
    // a box must not forge packets on the network it is on.
    args << u"--cap-drop"_s << u"NET_RAW"_s;
    // The cards' variables go to PID 1; the entrypoint hands them to every ssh session.
    for (const auto &[name, value] : boxGpuEnvironment(spec))
        args << u"-e"_s << name + u'=' + value;
    QProcessEnvironment extra;
    if (!spec.appToken.isEmpty()) {
        // By name only: the value comes from the CLI's environment, not its command line.
        args << u"-e"_s << u"CARDHOUR_APP_TOKEN"_s;
        extra.insert(u"CARDHOUR_APP_TOKEN"_s, spec.appToken);
    }
    const QString image =
        spec.snapshotId.isEmpty() ? imageTag(spec.image) : snapshotImage(spec.snapshotId);
    args << u"--stop-timeout"_s << QString::number(m_options.stopTimeoutS) << image;

    runCli(
        args,
        [this, launch, attempt](const ProcResult &r) {
            const QString iid = launch->id();
            if (!current(iid, launch->token))
                return endOp(iid);
            if (r.ok()) {
                const QList<QByteArray> lines = r.out.trimmed().split('\n');
                launch->containerId = QString::fromLatin1(lines.last().trimmed());
                if (launch->containerId.isEmpty())
                    return failLaunch(launch, what(u"run printed no container id"_s), false);
                ContainerInfo info;
                info.containerId = launch->containerId;
                info.instanceId = iid;
                info.ownerId = launch->spec.ownerId;
                info.state = u"running"_s;
                info.running = true;
                info.sshPort = launch->sshPort;
                info.ports = launch->ports;
                remember(info);
                Q_EMIT stageReached(iid, u"container"_s);
                return waitForSshd(launch);
            }
            const bool ran = r.started && !r.timedOut;
            const cli::Failure failure =
                ran ? cli::classify(QString::fromUtf8(r.err)) : cli::Failure::Other;
            if (failure == cli::Failure::ImageMissing) {
                if (launch->spec.snapshotId.isEmpty() && waitForImage(launch, attempt))
                    return;
                return dropLaunchWithoutImage(
                    launch,
                    launch->spec.snapshotId.isEmpty()
                        ? imageMissingReason(launch->spec.image)
                        : u"the snapshot's disk image is gone (snapshot %1 deleted)"_s.arg(
                            launch->spec.snapshotId));
            }
            const bool portTaken = failure == cli::Failure::PortInUse;
            const bool nameTaken = failure == cli::Failure::NameInUse;
            // The engine lost its record of this new container's start (lostStartOutcome).
            const bool startLost = failure == cli::Failure::AlreadyRunning;
            if ((portTaken || nameTaken || startLost) && attempt < 3) {
                // A port taken between choosing and binding it leaves a created container behind;
                // a name taken is a container of an earlier attempt; a start the engine lost
                // leaves one it can no longer manage. Each way: clear, run again.
                qCInfo(lcCli) << "instance" << iid
                              << (portTaken       ? ": port taken meanwhile"
                                      : nameTaken ? ": name in use"
                                                  : ": the engine lost its start")
                              << ", running the container again";
                findContainer(
                    iid,
                    [this, launch, attempt](bool ok, const QString &findError,
                                            const QList<ContainerInfo> &found) {
                        const QString fid = launch->id();
                        if (!current(fid, launch->token))
                            return endOp(fid);
                        if (!ok)
                            return failLaunch(launch, findError, false);
                        QStringList rmArgs;
                        for (const ContainerInfo &info : found)
                            rmArgs.append(info.containerId);
                        if (found.isEmpty()) // names are not trusted: what is not ours by label
                                             // stays
                            return failLaunch(
                                launch,
                                u"the container name %1 is taken by a container that is not this "
                                "instance's"_s.arg(containerName(fid)),
                                false);
                        runCli(cli::forceRemoveArgs(m_options.engine, rmArgs),
                               [this, launch, attempt](const ProcResult &rm) {
                                   const QString rid = launch->id();
                                   if (!current(rid, launch->token))
                                       return endOp(rid);
                                   if (!rm.ok())
                                       return failLaunch(launch, describe(rm, what(u"rm"_s)),
                                                         false);
                                   forget(rid);
                                   runContainer(launch, attempt + 1);
                               });
                    });
                return;
            }
            QString reason = describe(r, what(u"run"_s));
            if (portTaken)
                reason =
                    u"port %1 on 127.0.0.1 is taken by another program; %2"_s.arg(launch->sshPort)
                        .arg(reason);
            failLaunch(launch, reason, false);
        },
        0, extra);
}

void CliRuntime::startContainer(const std::shared_ptr<Launch> &launch)
{
    runCli({u"start"_s, launch->containerId}, [this, launch](const ProcResult &r) {
        const QString id = launch->id();
        if (!current(id, launch->token))
            return endOp(id);
        if (!r.ok()) {
            const QString err = QString::fromUtf8(r.err);
            const cli::Failure failure =
                r.started && !r.timedOut ? cli::classify(err) : cli::Failure::Other;
            if (failure == cli::Failure::NoSuchContainer) {
                forget(id);
                return failLaunch(launch, u"container is gone"_s, false);
            }
            QString reason = describe(r, what(u"start"_s));
            if (failure == cli::Failure::PortInUse)
                reason =
                    u"port %1 on 127.0.0.1 is taken by another program; %2"_s.arg(launch->sshPort)
                        .arg(reason);
            return failLaunch(launch, reason, false);
        }
        setRunning(id, true);
        Q_EMIT stageReached(id, u"container"_s);
        waitForSshd(launch);
    });
}

void CliRuntime::doStart(InstanceSpec spec, quint64 token)
{
    auto launch = std::make_shared<Launch>();
    launch->clock.start();
    launch->token = token;
    launch->fresh = false;
    const QString id = spec.instanceId;
    launch->spec = std::move(spec);
    QString error;
    if (!InstanceFiles::isSafeId(id))
        return failLaunch(launch, u"invalid instance id"_s, false);
    if (!resolveSsh(launch->spec, &error))
        return failLaunch(launch, error, false);
    m_sshDirs.insert(id, launch->spec.sshDir);
    // Known from the last listing (ids and port bindings do not change while a container
    // exists): start it straight away; `start` itself says if it has gone since.
    const ContainerInfo known = m_containers.value(id);
    if (!known.containerId.isEmpty() && known.sshPort > 0) {
        launch->containerId = known.containerId;
        launch->sshPort = known.sshPort;
        launch->ports = known.ports;
        return startContainer(launch);
    }
    findContainer(
        id, [this, launch](bool ok, const QString &findError, const QList<ContainerInfo> &found) {
            const QString iid = launch->id();
            if (!current(iid, launch->token))
                return endOp(iid);
            if (!ok)
                return failLaunch(launch, findError, false);
            if (found.isEmpty()) {
                forget(iid);
                return failLaunch(launch, u"container is gone"_s, false);
            }
            if (found.size() > 1)
                qCWarning(lcCli) << "instance" << iid << "has" << found.size()
                                 << "containers; starting the first";
            const ContainerInfo info = found.first();
            launch->containerId = info.containerId;
            launch->sshPort = info.sshPort;
            launch->ports = info.ports;
            remember(info);
            if (launch->sshPort > 0)
                return startContainer(launch);
            // Not in the listing: the bindings made at create time are in the container's config.
            runCli({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s,
                    launch->containerId},
                   [this, launch, info](const ProcResult &r) {
                       const QString rid = launch->id();
                       if (!current(rid, launch->token))
                           return endOp(rid);
                       if (!r.ok())
                           return failLaunch(launch, describe(r, what(u"inspect"_s)), false);
                       ContainerInfo updated = info;
                       updated.ports = cli::portsFromInspect(r.out);
                       updated.sshPort = updated.ports.value(kSshPort);
                       if (updated.sshPort <= 0)
                           return failLaunch(launch, u"the container publishes no SSH port"_s,
                                             false);
                       launch->sshPort = updated.sshPort;
                       launch->ports = updated.ports;
                       remember(updated);
                       startContainer(launch);
                   });
        });
}

} // namespace cardhour::sim
