#include "CliRuntime.h"

#include "CliRuntimePrivate.h"
#include "InstanceFiles.h"
#include "SpareDisks.h"
#include "SshProbe.h"
#include "WorkspaceDisk.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Q_LOGGING_CATEGORY(lcCli, "cardhour.sim.containers", QtInfoMsg)

using namespace clidetail;

namespace {

// Blocking, bounded: for the constructor and refreshNow() only.
ProcessResult runBlocking(const QString &program, const QProcessEnvironment &env,
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

} // namespace

QString CliRuntime::describe(const ProcResult &result, const QString &what)
{
    if (!result.started)
        return u"%1: could not be run (%2)"_s.arg(what, result.startError);
    if (result.timedOut)
        return u"%1 timed out: %2"_s.arg(what, cli::tail(result.err));
    const QString detail = cli::tail(result.err.trimmed().isEmpty() ? result.out : result.err);
    return u"%1 failed (exit %2)%3"_s.arg(what)
        .arg(result.exitCode)
        .arg(detail.isEmpty() ? QString() : u": "_s + detail);
}

// ---- construction ---------------------------------------------------------------------------

CliRuntime::CliRuntime(QObject *parent) : CliRuntime(Options{}, parent) {}

CliRuntime::CliRuntime(Options options, QObject *parent)
    : ContainerRuntime(parent), m_options(std::move(options)), m_env(environmentFor(m_options))
{
    m_options.program = programOf(m_options);
    m_diskQuota = WorkspaceDisk::probe(m_options.engine, m_options.dataDir);
    if (m_diskQuota.workspaceBounded())
        m_spareDisks = new SpareDisks(QDir(m_options.dataDir).filePath(u"spare-disks"_s),
                                      kSpareDiskSizes, this);
    if (m_options.engine == cli::Engine::Podman) {
        // overlay has no size limit on most hosts: the container's own disk is measured.
        m_diskQuota.containerDisk = u"stop-when-full"_s;
        m_diskTimer = new QTimer(this);
        m_diskTimer->setInterval(m_options.diskCheckIntervalMs);
        connect(m_diskTimer, &QTimer::timeout, this, &CliRuntime::checkContainerDisks);
        m_diskTimer->start();
    }
    if (m_options.network == u"auto"_s)
        m_options.network =
            m_options.engine == cli::Engine::Podman ? kAutoPodmanNetwork : kPerInstanceNetwork;
    // Bounded, once: whether the engine answers at all, and whether bind mounts need ",z".
    constexpr int kInfoTimeoutMs = 20000;
    const ProcessResult info =
        runBlocking(m_options.program, m_env, cli::infoArgs(m_options.engine), kInfoTimeoutMs);
    if (info.ok()) {
        const QJsonObject obj = QJsonDocument::fromJson(info.out).object();
        if (m_options.engine == cli::Engine::Podman) {
            const QJsonObject host = obj.value(u"host"_s).toObject();
            m_selinux = host.value(u"security"_s).toObject().value(u"selinuxEnabled"_s).toBool();
        } else {
            const QJsonArray security = obj.value(u"SecurityOptions"_s).toArray();
            for (const QJsonValue &option : security)
                m_selinux = m_selinux || option.toString().contains(u"selinux"_s);
        }
        m_usable = true;
        if (m_options.engineApi)
            connectEngineApi();
    } else {
        const QString unfinished = notFinished(info, kInfoTimeoutMs);
        m_unusableReason = unfinished.isEmpty() ? cli::tail(info.err) : unfinished;
        qCWarning(lcCli).noquote() << what(u"info"_s) << "failed:" << m_unusableReason;
    }
}

CliRuntime::~CliRuntime()
{
    m_shuttingDown = true;
    // The socket of a service of our own (the service may leave it behind).
    const QString ownSocket = m_apiService && m_api ? m_api->socketPath() : QString();
    delete m_api;
    m_api = nullptr;
    if (m_apiService) { // asked to end (SIGTERM) before the rest are killed: it shuts down cleanly
        m_apiService->terminate();
        m_apiService->waitForFinished(2000);
        if (!ownSocket.isEmpty())
            QFile::remove(ownSocket);
    }
    // No callbacks into a half-destroyed runtime; containers themselves outlive the provider.
    const QList<Process *> procs = findChildren<Process *>(Qt::FindDirectChildrenOnly);
    for (Process *proc : procs) {
        disconnect(proc, nullptr, this, nullptr);
        proc->kill();
        proc->waitForFinished(2000);
    }
}

QString CliRuntime::name() const
{
    return cli::engineName(m_options.engine);
}

QString CliRuntime::program() const
{
    return m_options.program;
}

QString CliRuntime::what(const QString &verb) const
{
    return name() + u' ' + verb;
}

QString CliRuntime::containerName(const QString &instanceId)
{
    return u"cardhour-"_s + instanceId;
}

QString CliRuntime::volumeName(const QString &instanceId)
{
    return u"cardhour-ws-"_s + instanceId;
}

QString CliRuntime::imageTag(const QString &imageId) const
{
    return m_options.imagePrefix + imageId + u":latest"_s;
}

bool CliRuntime::isUsable(const Options &options, QString *why, int timeoutMs, bool *slow)
{
    const QString program = programOf(options);
    const ProcessResult r =
        runBlocking(program, environmentFor(options), cli::infoArgs(options.engine), timeoutMs);
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

// ---- processes ------------------------------------------------------------------------------

void CliRuntime::runCli(const QStringList &args, ProcCallback done, int timeoutMs,
                        const QProcessEnvironment &extraEnv)
{
    if (m_api) {
        QProcessEnvironment environment = m_env;
        const QStringList keys = extraEnv.keys();
        for (const QString &key : keys)
            environment.insert(key, extraEnv.value(key));
        if (const std::optional<cli::ApiCall> call =
                cli::apiCallFor(m_options.engine, args, environment))
            return runOverApi(*call, args, std::move(done), timeoutMs, extraEnv);
    }
    runProcess(args, std::move(done), timeoutMs, extraEnv);
}

void CliRuntime::runProcess(const QStringList &args, ProcCallback done, int timeoutMs,
                            const QProcessEnvironment &extraEnv)
{
    Process::Options options;
    options.environment = m_env;
    const QStringList keys = extraEnv.keys();
    for (const QString &key : keys)
        options.environment.insert(key, extraEnv.value(key));
    options.timeoutMs = timeoutMs > 0 ? timeoutMs : m_options.commandTimeoutMs;
    qCDebug(lcCli).noquote() << m_options.program << args.join(u' ');
    Process::start(this, m_options.program, args, options,
                   [this, done = std::move(done)](const ProcResult &result) {
                       if (!m_shuttingDown)
                           done(result);
                   });
}

void CliRuntime::runSnapshotStep(const QStringList &args, ProcCallback done, int timeoutMs)
{
    Process::Options options;
    options.environment = m_env;
    options.timeoutMs = timeoutMs;
    options.onParentDeath = Process::Options::ParentDeath::Kill;
    qCDebug(lcCli).noquote() << m_options.program << args.join(u' ');
    Process::start(this, m_options.program, args, options,
                   [this, done = std::move(done)](const ProcResult &result) {
                       if (!m_shuttingDown)
                           done(result);
                   });
}

bool CliRuntime::refreshNow(int timeoutMs)
{
    const quint64 stamp = m_stamp;
    const ProcessResult r = runBlocking(m_options.program, m_env,
                                        QStringList{u"ps"_s, u"-a"_s} + labelFilter({})
                                            + QStringList{u"--format"_s, u"json"_s},
                                        timeoutMs);
    if (!r.ok()) {
        const QString unfinished = notFinished(r, timeoutMs);
        qCWarning(lcCli).noquote()
            << what(u"ps"_s) << "failed:" << (unfinished.isEmpty() ? cli::tail(r.err) : unfinished);
        Q_EMIT refreshed({}, false);
        return false;
    }
    const QList<ContainerInfo> found = cli::parseContainerList(r.out, m_options.providerId);
    // A provider that died in the middle of a snapshot left its container frozen: thawed here.
    for (const ContainerInfo &info : found) {
        if (info.state == u"paused"_s) {
            const ProcessResult up =
                runBlocking(m_options.program, m_env, {u"unpause"_s, info.containerId}, timeoutMs);
            if (!up.ok())
                qCWarning(lcCli).noquote()
                    << what(u"unpause"_s) << info.containerId << "failed:" << cli::tail(up.err);
        }
    }
    applyRefresh(found, stamp);
    QHash<QString, bool> running;
    for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it)
        running.insert(it.key(), it->running);
    Q_EMIT refreshed(running, true);
    return true;
}

// ---- request queue --------------------------------------------------------------------------

void CliRuntime::enqueue(const QString &instanceId, OpKind kind, std::function<void(quint64)> run)
{
    InstanceOps &ops = m_ops[instanceId];
    ops.queue.append(Op{kind, std::move(run)});
    if (!ops.busy) {
        endOp(instanceId); // starts the queue's head (on the event loop)
        return;
    }
    // stop/remove end a create/start at its next step; a probe wait ends at once.
    if ((kind == OpKind::Stop || kind == OpKind::Remove)
        && (ops.current == OpKind::Create || ops.current == OpKind::Start)) {
        ops.epoch = 0; // no token is 0: the running op is not current any more
        if (ops.probe) {
            ops.probe->cancel();
            ops.probe = nullptr;
            endOp(instanceId);
        }
    }
}

bool CliRuntime::current(const QString &instanceId, quint64 token) const
{
    const auto it = m_ops.constFind(instanceId);
    return it != m_ops.cend() && it->epoch == token;
}

void CliRuntime::endOp(const QString &instanceId)
{
    auto it = m_ops.find(instanceId);
    if (it == m_ops.end())
        return;
    it->busy = false;
    it->probe = nullptr;
    if (it->queue.isEmpty()) {
        m_ops.erase(it);
        return;
    }
    Op next = it->queue.takeFirst();
    it->busy = true;
    it->current = next.kind;
    // Tokens are unique for the runtime's life, so a stale callback can never pass for a
    // later op of the same instance.
    const quint64 token = ++m_lastToken;
    it->epoch = token;
    QTimer::singleShot(0, this, [run = std::move(next.run), token] { run(token); });
}

// ---- stop / remove --------------------------------------------------------------------------

void CliRuntime::stop(const QString &instanceId)
{
    stopWatchingApps(instanceId);
    enqueue(instanceId, OpKind::Stop,
            [this, instanceId](quint64 token) { doStop(instanceId, token); });
}

void CliRuntime::remove(const QString &instanceId)
{
    stopWatchingApps(instanceId);
    enqueue(instanceId, OpKind::Remove,
            [this, instanceId](quint64 token) { doRemove(instanceId, token); });
}

void CliRuntime::doStop(const QString &instanceId, quint64)
{
    findContainer(
        instanceId,
        [this, instanceId](bool ok, const QString &error, const QList<ContainerInfo> &found) {
            if (!ok) {
                Q_EMIT failed(instanceId, u"cannot stop: "_s + error);
                return endOp(instanceId);
            }
            QStringList ids;
            for (const ContainerInfo &info : found) {
                if (info.running || info.state != u"exited"_s)
                    ids.append(info.containerId);
            }
            if (ids.isEmpty()) {
                setRunning(instanceId, false);
                Q_EMIT stopped(instanceId);
                return endOp(instanceId);
            }
            const QStringList args =
                QStringList{u"stop"_s, u"-t"_s, QString::number(m_options.stopTimeoutS)} + ids;
            runCli(
                args,
                [this, instanceId](const ProcResult &r) {
                    if (!r.ok()) {
                        // Gone or already stopped meanwhile is stopped all the same.
                        findContainer(instanceId,
                                      [this, instanceId, r](bool ok2, const QString &,
                                                            const QList<ContainerInfo> &left) {
                                          bool anyRunning = !ok2;
                                          for (const ContainerInfo &info : left)
                                              anyRunning = anyRunning || info.running;
                                          if (anyRunning) {
                                              Q_EMIT failed(instanceId,
                                                            describe(r, what(u"stop"_s)));
                                          } else {
                                              setRunning(instanceId, false);
                                              Q_EMIT stopped(instanceId);
                                          }
                                          endOp(instanceId);
                                      });
                        return;
                    }
                    setRunning(instanceId, false);
                    Q_EMIT stopped(instanceId);
                    endOp(instanceId);
                },
                (m_options.stopTimeoutS + 60) * 1000);
        });
}

void CliRuntime::doRemove(const QString &instanceId, quint64)
{
    findContainer(
        instanceId,
        [this, instanceId](bool ok, const QString &error, const QList<ContainerInfo> &found) {
            if (!ok) {
                Q_EMIT failed(instanceId, u"cannot remove: "_s + error);
                return endOp(instanceId);
            }
            auto removeVolumes = [this, instanceId] {
                runCli({u"volume"_s, u"ls"_s, u"--filter"_s,
                        u"label="_s + kInstance + u'=' + instanceId, u"--format"_s, u"json"_s},
                       [this, instanceId](const ProcResult &ls) {
                           if (!ls.ok()) {
                               Q_EMIT failed(instanceId,
                                             u"cannot remove: "_s
                                                 + describe(ls, what(u"volume ls"_s)));
                               return endOp(instanceId);
                           }
                           // Volume label filters are ORed by podman: the rest is checked here.
                           QStringList names;
                           const QList<cli::VolumeInfo> volumes = cli::parseVolumeList(ls.out);
                           for (const cli::VolumeInfo &volume : volumes) {
                               if (volume.labels.value(kInstance) == instanceId
                                   && volume.labels.value(kProvider) == m_options.providerId)
                                   names.append(volume.name);
                           }
                           auto finish = [this, instanceId] {
                               if (!m_options.dataDir.isEmpty()
                                   && !InstanceFiles::remove(m_options.dataDir, instanceId))
                                   qCWarning(lcCli)
                                       << "could not delete the files of instance" << instanceId;
                               forget(instanceId);
                               m_sshDirs.remove(instanceId);
                               Q_EMIT removed(instanceId);
                               endOp(instanceId);
                           };
                           if (names.isEmpty())
                               return removeNetwork(instanceId, finish);
                           runCli(QStringList{u"volume"_s, u"rm"_s, u"-f"_s} + names,
                                  [this, instanceId, finish](const ProcResult &rm) {
                                      if (!rm.ok()) {
                                          Q_EMIT failed(instanceId,
                                                        u"cannot remove: "_s
                                                            + describe(rm, what(u"volume rm"_s)));
                                          return endOp(instanceId);
                                      }
                                      removeNetwork(instanceId, finish);
                                  });
                       });
            };
            if (found.isEmpty())
                return removeVolumes();
            QStringList args;
            for (const ContainerInfo &info : found)
                args.append(info.containerId);
            runCli(cli::forceRemoveArgs(m_options.engine, args),
                   [this, instanceId, removeVolumes](const ProcResult &r) {
                       if (!r.ok()) {
                           Q_EMIT failed(instanceId,
                                         u"cannot remove: "_s + describe(r, what(u"rm"_s)));
                           return endOp(instanceId);
                       }
                       setRunning(instanceId, false);
                       removeVolumes();
                   });
        });
}

} // namespace cardhour::sim
