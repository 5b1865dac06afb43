#include "CliRuntime.h"

#include "CliRuntimePrivate.h"
#include "InstanceFiles.h"
#include "SshProbe.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Q_LOGGING_CATEGORY(lcCli, "cardhour.sim.containers", QtInfoMsg)

using namespace clidetail;

namespace {

struct BlockingResult
{
    bool started = false;
    bool finished = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString error;
};

BlockingResult runBlocking(const QString &podman, const QProcessEnvironment &env, const QStringList &args,
                           int timeoutMs)
{
    BlockingResult result;
    QProcess proc;
    proc.setProcessEnvironment(env);
    proc.setStandardInputFile(QProcess::nullDevice());
    proc.start(podman, args);
    if (!proc.waitForStarted(std::min(timeoutMs, 10000))) {
        result.error = proc.errorString();
        return result;
    }
    result.started = true;
    if (!proc.waitForFinished(timeoutMs)) {
        proc.kill();
        proc.waitForFinished(2000);
        result.error = u"timed out after %1 s"_s.arg(timeoutMs / 1000);
        return result;
    }
    result.finished = true;
    result.exitCode = proc.exitStatus() == QProcess::NormalExit ? proc.exitCode() : -1;
    result.out = proc.readAllStandardOutput();
    result.err = proc.readAllStandardError();
    return result;
}

QProcessEnvironment environmentFor(const CliRuntime::Options &options)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!options.containersConf.isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, options.containersConf);
    if (!options.dockerHost.isEmpty())
        env.insert(u"DOCKER_HOST"_s, options.dockerHost);
    return env;
}

QString programOf(const CliRuntime::Options &options)
{
    return options.program.isEmpty() ? cli::engineName(options.engine) : options.program;
}

} // namespace

QString CliRuntime::ProcResult::describe(const QString &what) const
{
    if (!started)
        return u"%1: could not be run (%2)"_s.arg(what, cli::tail(err));
    if (timedOut)
        return u"%1 timed out: %2"_s.arg(what, cli::tail(err));
    const QString detail = cli::tail(err.trimmed().isEmpty() ? out : err);
    return u"%1 failed (exit %2)%3"_s.arg(what).arg(exitCode).arg(detail.isEmpty() ? QString() : u": "_s + detail);
}

// ---- construction ---------------------------------------------------------------------------

CliRuntime::CliRuntime(QObject *parent) : CliRuntime(Options{}, parent) {}

CliRuntime::CliRuntime(Options options, QObject *parent)
    : ContainerRuntime(parent), m_options(std::move(options)), m_env(environmentFor(m_options))
{
    m_options.program = programOf(m_options);
    if (m_options.network == u"auto"_s)
        m_options.network = m_options.engine == cli::Engine::Podman ? u"slirp4netns"_s : QString();
    // Bounded, once: whether the engine answers at all, and whether bind mounts need ",z".
    const BlockingResult info = runBlocking(m_options.program, m_env, cli::infoArgs(m_options.engine), 20000);
    if (info.finished && info.exitCode == 0) {
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
    } else {
        m_unusableReason = info.error.isEmpty() ? cli::tail(info.err) : info.error;
        qCWarning(lcCli).noquote() << what(u"info"_s) << "failed:" << m_unusableReason;
    }
}

CliRuntime::~CliRuntime()
{
    m_shuttingDown = true;
    // No callbacks into a half-destroyed runtime; containers themselves outlive the provider.
    const QList<QProcess *> procs = findChildren<QProcess *>(Qt::FindDirectChildrenOnly);
    for (QProcess *proc : procs) {
        disconnect(proc, nullptr, this, nullptr);
        if (proc->state() != QProcess::NotRunning) {
            proc->kill();
            proc->waitForFinished(2000);
        }
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

bool CliRuntime::isUsable(const Options &options, QString *why, int timeoutMs)
{
    const QString program = programOf(options);
    const BlockingResult r = runBlocking(program, environmentFor(options), cli::infoArgs(options.engine), timeoutMs);
    QString reason;
    if (!r.started)
        reason = u"cannot run %1: %2"_s.arg(program, r.error);
    else if (!r.finished)
        reason = u"`%1 info` %2"_s.arg(program, r.error);
    else if (r.exitCode != 0)
        reason = u"`%1 info` failed (exit %2): %3"_s.arg(program).arg(r.exitCode).arg(cli::tail(r.err));
    else if (!QJsonDocument::fromJson(r.out).isObject())
        reason = u"`%1 info` printed no JSON"_s.arg(program);
    if (why)
        *why = reason;
    return reason.isEmpty();
}

// ---- processes ------------------------------------------------------------------------------

void CliRuntime::runCli(const QStringList &args, ProcCallback done, int timeoutMs,
                              const QProcessEnvironment &extraEnv)
{
    auto *proc = new QProcess(this);
    if (extraEnv.isEmpty()) {
        proc->setProcessEnvironment(m_env);
    } else {
        QProcessEnvironment env = m_env;
        const QStringList keys = extraEnv.keys();
        for (const QString &key : keys)
            env.insert(key, extraEnv.value(key));
        proc->setProcessEnvironment(env);
    }
    proc->setStandardInputFile(QProcess::nullDevice());
    auto result = std::make_shared<ProcResult>();
    auto pending = std::make_shared<ProcCallback>(std::move(done));
    auto complete = [this, proc, result, pending] {
        if (!*pending)
            return; // finished and errorOccurred may both arrive
        ProcCallback callback = std::move(*pending);
        *pending = nullptr;
        result->out += proc->readAllStandardOutput();
        result->err += proc->readAllStandardError();
        proc->deleteLater();
        if (!m_shuttingDown)
            callback(*result);
    };
    auto *timer = new QTimer(proc);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, proc, [proc, result] {
        result->timedOut = true;
        proc->kill();
    });
    connect(proc, &QProcess::finished, this, [result, complete](int code, QProcess::ExitStatus status) {
        result->started = true;
        result->exitCode = status == QProcess::NormalExit ? code : -1;
        complete();
    });
    connect(proc, &QProcess::errorOccurred, this, [proc, result, complete](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes and kills end in finished()
        result->started = false;
        result->err = proc->errorString().toUtf8();
        complete();
    });
    qCDebug(lcCli).noquote() << m_options.program << args.join(u' ');
    proc->start(m_options.program, args);
    timer->start(timeoutMs > 0 ? timeoutMs : m_options.commandTimeoutMs);
}

bool CliRuntime::refreshNow(int timeoutMs)
{
    const quint64 stamp = m_stamp;
    const BlockingResult r =
        runBlocking(m_options.program, m_env,
                    QStringList{u"ps"_s, u"-a"_s} + labelFilter({}) + QStringList{u"--format"_s, u"json"_s},
                    timeoutMs);
    if (!r.finished || r.exitCode != 0) {
        qCWarning(lcCli).noquote() << what(u"ps"_s) << "failed:" << (r.error.isEmpty() ? cli::tail(r.err) : r.error);
        Q_EMIT refreshed({}, false);
        return false;
    }
    const QList<ContainerInfo> found = cli::parseContainerList(r.out, m_options.providerId);
    // A provider that died in the middle of a snapshot left its container frozen: thawed here.
    for (const ContainerInfo &info : found) {
        if (info.state == u"paused"_s) {
            const BlockingResult up = runBlocking(m_options.program, m_env, {u"unpause"_s, info.containerId}, timeoutMs);
            if (!up.finished || up.exitCode != 0)
                qCWarning(lcCli).noquote() << what(u"unpause"_s) << info.containerId << "failed:" << cli::tail(up.err);
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
    enqueue(instanceId, OpKind::Stop, [this, instanceId](quint64 token) { doStop(instanceId, token); });
}

void CliRuntime::remove(const QString &instanceId)
{
    enqueue(instanceId, OpKind::Remove, [this, instanceId](quint64 token) { doRemove(instanceId, token); });
}

void CliRuntime::doStop(const QString &instanceId, quint64)
{
    findContainer(instanceId, [this, instanceId](bool ok, const QString &error, const QList<ContainerInfo> &found) {
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
        const QStringList args = QStringList{u"stop"_s, u"-t"_s, QString::number(m_options.stopTimeoutS)} + ids;
        runCli(
            args,
            [this, instanceId](const ProcResult &r) {
                if (!r.ok()) {
                    // Gone or already stopped meanwhile is stopped all the same.
                    findContainer(instanceId,
                                  [this, instanceId, r](bool ok2, const QString &, const QList<ContainerInfo> &left) {
                                      bool anyRunning = !ok2;
                                      for (const ContainerInfo &info : left)
                                          anyRunning = anyRunning || info.running;
                                      if (anyRunning) {
                                          Q_EMIT failed(instanceId, r.describe(what(u"stop"_s)));
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
    findContainer(instanceId, [this, instanceId](bool ok, const QString &error, const QList<ContainerInfo> &found) {
        if (!ok) {
            Q_EMIT failed(instanceId, u"cannot remove: "_s + error);
            return endOp(instanceId);
        }
        auto removeVolumes = [this, instanceId] {
            runCli({u"volume"_s, u"ls"_s, u"--filter"_s, u"label="_s + kInstance + u'=' + instanceId,
                       u"--format"_s, u"json"_s},
                      [this, instanceId](const ProcResult &ls) {
                          if (!ls.ok()) {
                              Q_EMIT failed(instanceId, u"cannot remove: "_s + ls.describe(what(u"volume ls"_s)));
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
                              if (!m_options.dataDir.isEmpty() && !InstanceFiles::remove(m_options.dataDir, instanceId))
                                  qCWarning(lcCli) << "could not delete the files of instance" << instanceId;
                              forget(instanceId);
                              m_sshDirs.remove(instanceId);
                              Q_EMIT removed(instanceId);
                              endOp(instanceId);
                          };
                          if (names.isEmpty())
                              return finish();
                          runCli(QStringList{u"volume"_s, u"rm"_s, u"-f"_s} + names,
                                    [this, instanceId, finish](const ProcResult &rm) {
                                        if (!rm.ok()) {
                                            Q_EMIT failed(instanceId,
                                                          u"cannot remove: "_s + rm.describe(what(u"volume rm"_s)));
                                            return endOp(instanceId);
                                        }
                                        finish();
                                    });
                      });
        };
        if (found.isEmpty())
            return removeVolumes();
        QStringList args;
        for (const ContainerInfo &info : found)
            args.append(info.containerId);
        runCli(cli::forceRemoveArgs(m_options.engine, args), [this, instanceId, removeVolumes](const ProcResult &r) {
            if (!r.ok()) {
                Q_EMIT failed(instanceId, u"cannot remove: "_s + r.describe(what(u"rm"_s)));
                return endOp(instanceId);
            }
            setRunning(instanceId, false);
            removeVolumes();
        });
    });
}

} // namespace cardhour::sim
