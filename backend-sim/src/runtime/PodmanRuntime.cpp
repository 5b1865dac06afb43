#include "PodmanRuntime.h"

#include "InstanceFiles.h"
#include "SshProbe.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QProcess>
#include <QTcpServer>
#include <QTimer>

#include <memory>
#include <stdexcept>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// "ssh-ed25519 AAAA..." of the instance's host key, from the .pub file beside it.
QString hostKeyLine(const QString &sshDir)
{
    QFile file(sshDir + QStringLiteral("/ssh_host_ed25519_key.pub"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> fields = file.readAll().trimmed().split(' ');
    return fields.size() >= 2 ? QString::fromLatin1(fields.at(0) + ' ' + fields.at(1)) : QString();
}
} // namespace

Q_LOGGING_CATEGORY(lcPodman, "cardhour.sim.podman", QtInfoMsg)

namespace {

const QString kManaged = u"cardhour.managed"_s;
const QString kInstance = u"cardhour.instance"_s;
const QString kOwner = u"cardhour.owner"_s;
const QString kProvider = u"cardhour.provider"_s;
const QString kLoopback = u"127.0.0.1"_s;
constexpr int kSshPort = 22;
constexpr int kTailChars = 700;

// The last `chars` characters of a process's output, whitespace tidied, for error messages.
QString tail(const QByteArray &bytes, int chars = kTailChars)
{
    QString text = QString::fromUtf8(bytes).remove(u'\r').trimmed();
    if (text.size() > chars)
        text = u"…"_s + text.right(chars);
    return text.replace(u'\n', u" | "_s);
}

int jsonInt(const QJsonValue &value)
{
    return value.isString() ? value.toString().toInt() : value.toInt();
}

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

PodmanRuntime::ContainerInfo containerFromJson(const QJsonObject &obj)
{
    PodmanRuntime::ContainerInfo info;
    const QJsonObject labels = obj.value(u"Labels"_s).toObject();
    info.containerId = obj.value(u"Id"_s).toString();
    info.instanceId = labels.value(kInstance).toString();
    info.ownerId = labels.value(kOwner).toString();
    info.state = obj.value(u"State"_s).toString().toLower();
    info.running = info.state == u"running"_s;
    const QJsonArray ports = obj.value(u"Ports"_s).toArray();
    for (const QJsonValue &value : ports) {
        const QJsonObject p = value.toObject();
        const QString protocol = p.value(u"protocol"_s).toString(u"tcp"_s);
        if (protocol != u"tcp"_s)
            continue;
        // podman 4: host_port/container_port; podman 3: hostPort/containerPort.
        const int host = jsonInt(p.contains(u"host_port"_s) ? p.value(u"host_port"_s) : p.value(u"hostPort"_s));
        const int container =
            jsonInt(p.contains(u"container_port"_s) ? p.value(u"container_port"_s) : p.value(u"containerPort"_s));
        const int range = std::max(1, jsonInt(p.value(u"range"_s)));
        if (host <= 0 || container <= 0)
            continue;
        for (int i = 0; i < range; ++i)
            info.ports.insert(container + i, host + i);
    }
    info.sshPort = info.ports.value(kSshPort);
    return info;
}

// Ports from `podman inspect` (HostConfig.PortBindings: set at create, kept while stopped).
QHash<int, int> portsFromInspect(const QByteArray &json)
{
    QHash<int, int> ports;
    const QJsonArray all = QJsonDocument::fromJson(json).array();
    if (all.isEmpty())
        return ports;
    const QJsonObject bindings =
        all.first().toObject().value(u"HostConfig"_s).toObject().value(u"PortBindings"_s).toObject();
    for (auto it = bindings.begin(); it != bindings.end(); ++it) {
        const QStringList key = it.key().split(u'/');
        if (key.size() > 1 && key.at(1) != u"tcp"_s)
            continue;
        const int container = key.first().toInt();
        const QJsonArray hosts = it.value().toArray();
        if (container > 0 && !hosts.isEmpty())
            ports.insert(container, jsonInt(hosts.first().toObject().value(u"HostPort"_s)));
    }
    return ports;
}

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

QProcessEnvironment podmanEnvironment(const QString &containersConf)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!containersConf.isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, containersConf);
    return env;
}

} // namespace

// ---- one create()/start() ------------------------------------------------------------------

struct PodmanRuntime::Launch
{
    InstanceSpec spec;
    quint64 token = 0;
    bool fresh = true; // create (true) or start (false)
    bool createdVolume = false; // by this launch (not kept from an earlier one)
    QString containerId;
    int sshPort = 0;
    QHash<int, int> ports;
    QElapsedTimer clock;
    bool probing = false;       // the sshd probe runs (and the watchdog with it)
    bool checking = false;      // a watchdog `podman inspect` is under way
    QPointer<QTimer> watchdog;  // notices a container that exits before sshd answers
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

QString PodmanRuntime::ProcResult::describe(const QString &what) const
{
    if (!started)
        return u"%1: podman could not be run (%2)"_s.arg(what, tail(err));
    if (timedOut)
        return u"%1 timed out: %2"_s.arg(what, tail(err));
    const QString detail = tail(err.trimmed().isEmpty() ? out : err);
    return u"%1 failed (exit %2)%3"_s.arg(what).arg(exitCode).arg(detail.isEmpty() ? QString() : u": "_s + detail);
}

// ---- construction ---------------------------------------------------------------------------

PodmanRuntime::PodmanRuntime(QObject *parent) : PodmanRuntime(Options{}, parent) {}

PodmanRuntime::PodmanRuntime(Options options, QObject *parent)
    : ContainerRuntime(parent), m_options(std::move(options)), m_env(podmanEnvironment(m_options.containersConf))
{
    if (m_options.podman.isEmpty())
        m_options.podman = u"podman"_s;
    // Bounded, once: whether podman answers at all, and whether bind mounts need ",z".
    const BlockingResult info = runBlocking(m_options.podman, m_env, {u"info"_s, u"--format"_s, u"json"_s}, 20000);
    if (info.finished && info.exitCode == 0) {
        const QJsonObject host = QJsonDocument::fromJson(info.out).object().value(u"host"_s).toObject();
        m_selinux = host.value(u"security"_s).toObject().value(u"selinuxEnabled"_s).toBool();
        m_usable = true;
    } else {
        m_unusableReason = info.error.isEmpty() ? tail(info.err) : info.error;
        qCWarning(lcPodman).noquote() << "podman info failed:" << m_unusableReason;
    }
}

PodmanRuntime::~PodmanRuntime()
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

QString PodmanRuntime::name() const
{
    return u"podman"_s;
}

QString PodmanRuntime::containerName(const QString &instanceId)
{
    return u"cardhour-"_s + instanceId;
}

QString PodmanRuntime::volumeName(const QString &instanceId)
{
    return u"cardhour-ws-"_s + instanceId;
}

QString PodmanRuntime::imageTag(const QString &imageId) const
{
    return m_options.imagePrefix + imageId + u":latest"_s;
}

bool PodmanRuntime::isUsable(const QString &podmanPath, const QString &containersConf, QString *why, int timeoutMs)
{
    const QString podman = podmanPath.isEmpty() ? u"podman"_s : podmanPath;
    const BlockingResult r =
        runBlocking(podman, podmanEnvironment(containersConf), {u"info"_s, u"--format"_s, u"json"_s}, timeoutMs);
    QString reason;
    if (!r.started)
        reason = u"cannot run %1: %2"_s.arg(podman, r.error);
    else if (!r.finished)
        reason = u"`%1 info` %2"_s.arg(podman, r.error);
    else if (r.exitCode != 0)
        reason = u"`%1 info` failed (exit %2): %3"_s.arg(podman).arg(r.exitCode).arg(tail(r.err));
    else if (!QJsonDocument::fromJson(r.out).isObject())
        reason = u"`%1 info --format json` printed no JSON"_s.arg(podman);
    if (why)
        *why = reason;
    return reason.isEmpty();
}

// ---- processes ------------------------------------------------------------------------------

void PodmanRuntime::runPodman(const QStringList &args, ProcCallback done, int timeoutMs,
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
    qCDebug(lcPodman).noquote() << "podman" << args.join(u' ');
    proc->start(m_options.podman, args);
    timer->start(timeoutMs > 0 ? timeoutMs : m_options.commandTimeoutMs);
}

QStringList PodmanRuntime::labelFilter(const QString &instanceId) const
{
    QStringList args{u"--filter"_s, kManaged + u"=true"_s, u"--filter"_s,
                     u"label="_s + kProvider + u'=' + m_options.providerId};
    args[1] = u"label="_s + args[1];
    if (!instanceId.isEmpty())
        args << u"--filter"_s << u"label="_s + kInstance + u'=' + instanceId;
    return args;
}

QList<PodmanRuntime::ContainerInfo> PodmanRuntime::parsePs(const QByteArray &json) const
{
    QList<ContainerInfo> found;
    const QJsonArray all = QJsonDocument::fromJson(json).array();
    for (const QJsonValue &value : all) {
        const QJsonObject obj = value.toObject();
        const QJsonObject labels = obj.value(u"Labels"_s).toObject();
        // podman ANDs label filters for containers; checked again anyway.
        if (labels.value(kManaged).toString() != u"true"_s
            || labels.value(kProvider).toString() != m_options.providerId)
            continue;
        ContainerInfo info = containerFromJson(obj);
        if (!info.instanceId.isEmpty() && !info.containerId.isEmpty())
            found.append(info);
    }
    return found;
}

void PodmanRuntime::findContainer(const QString &instanceId,
                                  std::function<void(bool, const QString &, const QList<ContainerInfo> &)> done)
{
    runPodman(QStringList{u"ps"_s, u"-a"_s} + labelFilter(instanceId) + QStringList{u"--format"_s, u"json"_s},
              [this, instanceId, done = std::move(done)](const ProcResult &r) {
                  if (!r.ok()) {
                      done(false, r.describe(u"podman ps"_s), {});
                      return;
                  }
                  QList<ContainerInfo> found;
                  const QList<ContainerInfo> all = parsePs(r.out);
                  for (const ContainerInfo &info : all) {
                      if (info.instanceId == instanceId)
                          found.append(info);
                  }
                  done(true, {}, found);
              });
}

// ---- the cache ------------------------------------------------------------------------------

void PodmanRuntime::remember(const ContainerInfo &info)
{
    m_containers.insert(info.instanceId, info);
    m_touched.insert(info.instanceId, ++m_stamp);
}

void PodmanRuntime::setRunning(const QString &instanceId, bool running)
{
    auto it = m_containers.find(instanceId);
    if (it != m_containers.end()) {
        it->running = running;
        it->state = running ? u"running"_s : u"exited"_s;
    }
    m_touched.insert(instanceId, ++m_stamp);
}

void PodmanRuntime::forget(const QString &instanceId)
{
    m_containers.remove(instanceId);
    m_touched.insert(instanceId, ++m_stamp);
}

void PodmanRuntime::applyRefresh(const QList<ContainerInfo> &found, quint64 stampAtStart)
{
    QHash<QString, ContainerInfo> fresh;
    for (const ContainerInfo &info : found)
        fresh.insert(info.instanceId, info);
    // What this runtime did after the listing began is newer than the listing.
    for (auto it = m_touched.cbegin(); it != m_touched.cend(); ++it) {
        if (it.value() <= stampAtStart)
            continue;
        if (m_containers.contains(it.key()))
            fresh.insert(it.key(), m_containers.value(it.key()));
        else
            fresh.remove(it.key());
    }
    m_containers = fresh;
    m_touched.clear();
}

QSet<int> PodmanRuntime::reservedPorts() const
{
    QSet<int> ports;
    for (const ContainerInfo &info : m_containers) {
        for (const int port : info.ports)
            ports.insert(port);
    }
    return ports;
}

bool PodmanRuntime::isRunning(const QString &instanceId) const
{
    return m_containers.value(instanceId).running;
}

int PodmanRuntime::sshPortOf(const QString &instanceId) const
{
    return m_containers.value(instanceId).sshPort;
}

QHash<int, int> PodmanRuntime::publishedPortsOf(const QString &instanceId) const
{
    return m_containers.value(instanceId).ports;
}

bool PodmanRuntime::hasPendingWork(const QString &instanceId) const
{
    const auto it = m_ops.constFind(instanceId);
    return it != m_ops.cend() && (it->busy || !it->queue.isEmpty());
}

void PodmanRuntime::refresh()
{
    const quint64 stamp = m_stamp;
    runPodman(QStringList{u"ps"_s, u"-a"_s} + labelFilter({}) + QStringList{u"--format"_s, u"json"_s},
              [this, stamp](const ProcResult &r) {
                  if (!r.ok()) {
                      qCWarning(lcPodman).noquote() << r.describe(u"podman ps"_s);
                      Q_EMIT refreshed({}, false);
                      return;
                  }
                  applyRefresh(parsePs(r.out), stamp);
                  QHash<QString, bool> running;
                  for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it)
                      running.insert(it.key(), it->running);
                  Q_EMIT refreshed(running, true);
              });
}

bool PodmanRuntime::refreshNow(int timeoutMs)
{
    const quint64 stamp = m_stamp;
    const BlockingResult r =
        runBlocking(m_options.podman, m_env,
                    QStringList{u"ps"_s, u"-a"_s} + labelFilter({}) + QStringList{u"--format"_s, u"json"_s},
                    timeoutMs);
    if (!r.finished || r.exitCode != 0) {
        qCWarning(lcPodman).noquote() << "podman ps failed:" << (r.error.isEmpty() ? tail(r.err) : r.error);
        Q_EMIT refreshed({}, false);
        return false;
    }
    applyRefresh(parsePs(r.out), stamp);
    QHash<QString, bool> running;
    for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it)
        running.insert(it.key(), it->running);
    Q_EMIT refreshed(running, true);
    return true;
}

// ---- request queue --------------------------------------------------------------------------

void PodmanRuntime::enqueue(const QString &instanceId, OpKind kind, std::function<void(quint64)> run)
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

bool PodmanRuntime::current(const QString &instanceId, quint64 token) const
{
    const auto it = m_ops.constFind(instanceId);
    return it != m_ops.cend() && it->epoch == token;
}

void PodmanRuntime::endOp(const QString &instanceId)
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

// ---- create / start -------------------------------------------------------------------------

void PodmanRuntime::create(const InstanceSpec &spec)
{
    enqueue(spec.instanceId, OpKind::Create, [this, spec](quint64 token) { doCreate(spec, token); });
}

void PodmanRuntime::start(const InstanceSpec &spec)
{
    enqueue(spec.instanceId, OpKind::Start, [this, spec](quint64 token) { doStart(spec, token); });
}

void PodmanRuntime::setAuthorizedKeys(const QString &instanceId, const QStringList &publicKeys)
{
    QString sshDir = m_sshDirs.value(instanceId);
    if (sshDir.isEmpty() && !m_options.dataDir.isEmpty() && InstanceFiles::isSafeId(instanceId))
        sshDir = InstanceFiles::instanceDirFor(m_options.dataDir, instanceId) + u"/ssh"_s;
    if (sshDir.isEmpty() || !QFileInfo(sshDir).isDir()) {
        qCWarning(lcPodman) << "no ssh directory for instance" << instanceId << ": authorized_keys not written";
        return;
    }
    try {
        InstanceFiles::writeAuthorizedKeysTo(sshDir, publicKeys);
    } catch (const std::exception &error) {
        qCWarning(lcPodman) << "cannot rewrite authorized_keys of" << instanceId << ":" << error.what();
    }
}

bool PodmanRuntime::resolveSsh(InstanceSpec &spec, QString *error) const
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

void PodmanRuntime::failLaunch(const std::shared_ptr<Launch> &launch, const QString &reason, bool stopContainer)
{
    const QString id = launch->id();
    if (!current(id, launch->token)) {
        endOp(id);
        return;
    }
    qCWarning(lcPodman).noquote() << "instance" << id << "failed:" << reason;
    if (!stopContainer || launch->containerId.isEmpty()) {
        Q_EMIT failed(id, reason);
        endOp(id);
        return;
    }
    // Not left running (and using resources) while the instance is `failed`.
    runPodman({u"stop"_s, u"-t"_s, u"2"_s, launch->containerId}, [this, launch, reason](const ProcResult &) {
        const QString instanceId = launch->id();
        setRunning(instanceId, false);
        if (current(instanceId, launch->token))
            Q_EMIT failed(instanceId, reason);
        endOp(instanceId);
    });
}

void PodmanRuntime::doCreate(InstanceSpec spec, quint64 token)
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
    // The quick path: two podman calls (volume create, run). What it does not expect (an earlier
    // container of this instance, a volume or port already taken) sends it down the slow path.
    if (m_containers.contains(id))
        return clearLeftovers(launch);
    createVolume(launch);
}

void PodmanRuntime::clearLeftovers(const std::shared_ptr<Launch> &launch)
{
    findContainer(launch->id(), [this, launch](bool ok, const QString &findError, const QList<ContainerInfo> &found) {
        const QString id = launch->id();
        if (!current(id, launch->token))
            return endOp(id);
        if (!ok)
            return failLaunch(launch, findError, false);
        if (found.isEmpty()) {
            forget(id);
            return createVolume(launch);
        }
        QStringList args{u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s};
        for (const ContainerInfo &info : found)
            args.append(info.containerId);
        runPodman(args, [this, launch](const ProcResult &rm) {
            const QString rid = launch->id();
            if (!current(rid, launch->token))
                return endOp(rid);
            if (!rm.ok())
                return failLaunch(launch, rm.describe(u"podman rm (an earlier container)"_s), false);
            forget(rid);
            createVolume(launch);
        });
    });
}

void PodmanRuntime::createVolume(const std::shared_ptr<Launch> &launch)
{
    const QString id = launch->id();
    QStringList args{u"volume"_s, u"create"_s};
    args << u"--label"_s << kManaged + u"=true"_s << u"--label"_s << kInstance + u'=' + id << u"--label"_s
         << kOwner + u'=' + launch->spec.ownerId << u"--label"_s << kProvider + u'=' + m_options.providerId
         << volumeName(id);
    runPodman(args, [this, launch](const ProcResult &vc) {
        const QString vid = launch->id();
        if (!current(vid, launch->token))
            return endOp(vid);
        if (vc.ok()) {
            launch->createdVolume = true;
            return runContainer(launch, 1);
        }
        if (!vc.started || vc.timedOut || !QString::fromUtf8(vc.err).contains(u"already exists"_s))
            return failLaunch(launch, vc.describe(u"podman volume create"_s), false);
        // Kept from an earlier launch of this instance (reused), or a name someone else took.
        runPodman({u"volume"_s, u"inspect"_s, volumeName(vid)}, [this, launch](const ProcResult &vi) {
            const QString iid = launch->id();
            if (!current(iid, launch->token))
                return endOp(iid);
            if (!vi.ok())
                return failLaunch(launch, vi.describe(u"podman volume inspect"_s), false);
            const QJsonObject labels =
                QJsonDocument::fromJson(vi.out).array().first().toObject().value(u"Labels"_s).toObject();
            if (labels.value(kInstance).toString() != iid || labels.value(kProvider).toString() != m_options.providerId)
                return failLaunch(launch, u"volume %1 exists and does not belong to this instance"_s.arg(volumeName(iid)),
                                  false);
            runContainer(launch, 1);
        });
    });
}

void PodmanRuntime::runContainer(const std::shared_ptr<Launch> &launch, int attempt)
{
    const InstanceSpec &spec = launch->spec;
    const QString id = spec.instanceId;
    const QList<int> hostPorts = freeLoopbackPorts(1 + int(spec.appPorts.size()), reservedPorts());
    if (hostPorts.isEmpty())
        return failLaunch(launch, u"no free port on 127.0.0.1"_s, false);
    launch->sshPort = hostPorts.first();
    launch->ports.clear();
    launch->ports.insert(kSshPort, launch->sshPort);

    // `run -d` is create + start in one podman process: each process costs ~0.1-0.3 s here.
    QStringList args{u"run"_s, u"-d"_s, u"--name"_s, containerName(id)};
    args << u"--label"_s << kManaged + u"=true"_s << u"--label"_s << kInstance + u'=' + id << u"--label"_s
         << kOwner + u'=' + spec.ownerId << u"--label"_s << kProvider + u'=' + m_options.providerId;
    args << u"--hostname"_s << hostnameFor(id) << u"--pull=never"_s;
    if (!m_options.network.isEmpty())
        args << u"--network"_s << m_options.network;
    args << u"-p"_s << u"%1:%2:%3"_s.arg(kLoopback).arg(launch->sshPort).arg(kSshPort);
    for (int i = 0; i < spec.appPorts.size(); ++i) {
        const int appPort = spec.appPorts.at(i);
        if (appPort <= 0 || appPort > 65535 || launch->ports.contains(appPort))
            continue;
        launch->ports.insert(appPort, hostPorts.at(i + 1));
        args << u"-p"_s << u"%1:%2:%3"_s.arg(kLoopback).arg(hostPorts.at(i + 1)).arg(appPort);
    }
    args << u"-v"_s << volumeName(id) + u":/workspace"_s;
    args << u"-v"_s << spec.sshDir + u":/etc/cardhour/ssh:ro"_s + (m_selinux ? u",z"_s : QString());
    if (spec.cpus > 0)
        args << u"--cpus"_s << QString::number(spec.cpus, 'g', 6);
    if (spec.memoryMib > 0)
        args << u"--memory"_s << QString::number(spec.memoryMib) + u'm';
    QProcessEnvironment extra;
    if (!spec.appToken.isEmpty()) {
        // By name only: the value comes from podman's environment, not its command line.
        args << u"-e"_s << u"CARDHOUR_APP_TOKEN"_s;
        extra.insert(u"CARDHOUR_APP_TOKEN"_s, spec.appToken);
    }
    args << u"--stop-timeout"_s << QString::number(m_options.stopTimeoutS) << imageTag(spec.image);

    runPodman(
        args,
        [this, launch, attempt](const ProcResult &r) {
            const QString iid = launch->id();
            if (!current(iid, launch->token))
                return endOp(iid);
            if (r.ok()) {
                const QList<QByteArray> lines = r.out.trimmed().split('\n');
                launch->containerId = QString::fromLatin1(lines.last().trimmed());
                if (launch->containerId.isEmpty())
                    return failLaunch(launch, u"podman run printed no container id"_s, false);
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
            const QString err = QString::fromUtf8(r.err);
            const bool ran = r.started && !r.timedOut;
            if (ran && (err.contains(u"image not known"_s) || err.contains(u"no such image"_s, Qt::CaseInsensitive))) {
                const QString reason =
                    u"image %1 is not built: run cardhour-sim images build %1"_s.arg(launch->spec.image);
                if (!launch->createdVolume)
                    return failLaunch(launch, reason, false);
                // Nothing of a launch that never had an image is left behind.
                return runPodman({u"volume"_s, u"rm"_s, volumeName(iid)}, [this, launch, reason](const ProcResult &) {
                    failLaunch(launch, reason, false);
                });
            }
            const bool portTaken = ran && err.contains(u"address already in use"_s, Qt::CaseInsensitive);
            const bool nameTaken = ran && err.contains(u"name"_s) && err.contains(u"already in use"_s);
            if ((portTaken || nameTaken) && attempt < 3) {
                // A port taken between choosing and binding it leaves a created container behind;
                // a name taken is a container of an earlier attempt. Either way: clear, run again.
                qCInfo(lcPodman) << "instance" << iid << (portTaken ? ": port taken meanwhile" : ": name in use")
                                 << ", running the container again";
                findContainer(iid, [this, launch, attempt](bool ok, const QString &findError,
                                                           const QList<ContainerInfo> &found) {
                    const QString fid = launch->id();
                    if (!current(fid, launch->token))
                        return endOp(fid);
                    if (!ok)
                        return failLaunch(launch, findError, false);
                    QStringList rmArgs{u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s};
                    for (const ContainerInfo &info : found)
                        rmArgs.append(info.containerId);
                    if (found.isEmpty())
                        rmArgs.append(containerName(fid)); // not ours by label: podman refuses if it runs
                    runPodman(rmArgs, [this, launch, attempt](const ProcResult &rm) {
                        const QString rid = launch->id();
                        if (!current(rid, launch->token))
                            return endOp(rid);
                        if (!rm.ok())
                            return failLaunch(launch, rm.describe(u"podman rm"_s), false);
                        forget(rid);
                        runContainer(launch, attempt + 1);
                    });
                });
                return;
            }
            QString reason = r.describe(u"podman run"_s);
            if (portTaken)
                reason = u"port %1 on 127.0.0.1 is taken by another program; %2"_s.arg(launch->sshPort).arg(reason);
            failLaunch(launch, reason, false);
        },
        0, extra);
}

void PodmanRuntime::startContainer(const std::shared_ptr<Launch> &launch)
{
    runPodman({u"start"_s, launch->containerId}, [this, launch](const ProcResult &r) {
        const QString id = launch->id();
        if (!current(id, launch->token))
            return endOp(id);
        if (!r.ok()) {
            const QString err = QString::fromUtf8(r.err);
            if (r.started && !r.timedOut && err.contains(u"no such container"_s, Qt::CaseInsensitive)) {
                forget(id);
                return failLaunch(launch, u"container is gone"_s, false);
            }
            QString reason = r.describe(u"podman start"_s);
            if (err.contains(u"address already in use"_s, Qt::CaseInsensitive))
                reason = u"port %1 on 127.0.0.1 is taken by another program; %2"_s.arg(launch->sshPort).arg(reason);
            return failLaunch(launch, reason, false);
        }
        setRunning(id, true);
        Q_EMIT stageReached(id, u"container"_s);
        waitForSshd(launch);
    });
}

void PodmanRuntime::waitForSshd(const std::shared_ptr<Launch> &launch)
{
    const QString id = launch->id();
    if (!current(id, launch->token))
        return endOp(id);
    Q_EMIT stageReached(id, u"sshd"_s);
    if (!current(id, launch->token)) // a slot asked for stop/remove (no probe yet to cancel)
        return endOp(id);
    SshProbe *probe = SshProbe::probeUntilReady(
        kLoopback, launch->sshPort, launch->spec.hostKeySha256, m_options.readyDeadlineMs, this,
        [this, launch](const SshProbe::Result &result) {
            const QString iid = launch->id();
            launch->stopWatchdog();
            auto it = m_ops.find(iid);
            if (it != m_ops.end())
                it->probe = nullptr;
            if (!current(iid, launch->token))
                return endOp(iid);
            if (result.isReady()) {
                qCInfo(lcPodman).noquote()
                    << u"instance %1 ready on %2:%3 after %4 ms (%5; sshd answered after %6 ms, %7 probes)"_s
                           .arg(iid, kLoopback)
                           .arg(launch->sshPort)
                           .arg(launch->clock.elapsed())
                           .arg(launch->fresh ? u"create"_s : u"start"_s)
                           .arg(result.elapsedMs)
                           .arg(result.attempts);
                Q_EMIT stageReached(iid, u"ready"_s);
                if (current(iid, launch->token))
                    Q_EMIT ready(iid, SshEndpoint{kLoopback, launch->sshPort, launch->spec.sshUser,
                                                  launch->spec.hostKeySha256, hostKeyLine(launch->spec.sshDir)});
                return endOp(iid);
            }
            // Why: the container's own log says more than "not listening" does.
            const QString reason = u"sshd did not become ready: %1"_s.arg(result.message);
            runPodman({u"logs"_s, u"--tail"_s, u"15"_s, launch->containerId},
                      [this, launch, reason](const ProcResult &logs) {
                          const QString log = tail(logs.out + logs.err, 500);
                          failLaunch(launch, log.isEmpty() ? reason : reason + u"; container log: "_s + log, true);
                      });
        });
    m_ops[id].probe = probe;

    // A container that exits (a broken image, an unusable host key) fails at once, not at the
    // probe's deadline.
    launch->probing = true;
    auto *watchdog = new QTimer(this);
    watchdog->setInterval(1000);
    launch->watchdog = watchdog;
    connect(watchdog, &QTimer::timeout, this, [this, launch] { checkContainer(launch); });
    watchdog->start();
}

void PodmanRuntime::checkContainer(const std::shared_ptr<Launch> &launch)
{
    if (!launch->probing || !current(launch->id(), launch->token)) {
        launch->stopWatchdog(); // the op ended, or was ended by a newer request
        return;
    }
    if (launch->checking)
        return;
    launch->checking = true;
    runPodman({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"{{.State.Running}} {{.State.ExitCode}}"_s,
               launch->containerId},
              [this, launch](const ProcResult &r) {
                  launch->checking = false;
                  const QString id = launch->id();
                  if (!launch->probing || !current(id, launch->token))
                      return;
                  QString reason;
                  if (r.ok()) {
                      const QStringList fields = QString::fromUtf8(r.out).simplified().split(u' ');
                      if (fields.value(0) != u"false"_s)
                          return; // still running: the probe carries on
                      reason = u"the container exited (code %1) before sshd was ready"_s.arg(fields.value(1));
                  } else if (r.started && !r.timedOut
                             && QString::fromUtf8(r.err).contains(u"no such"_s, Qt::CaseInsensitive)) {
                      reason = u"the container disappeared before sshd was ready"_s;
                  } else {
                      return; // podman hiccup: ask again at the next tick
                  }
                  launch->stopWatchdog();
                  auto it = m_ops.find(id);
                  if (it != m_ops.end() && it->probe) {
                      it->probe->cancel();
                      it->probe = nullptr;
                  }
                  setRunning(id, false);
                  runPodman({u"logs"_s, u"--tail"_s, u"15"_s, launch->containerId},
                            [this, launch, reason](const ProcResult &logs) {
                                const QString log = tail(logs.out + logs.err, 500);
                                failLaunch(launch, log.isEmpty() ? reason : reason + u"; container log: "_s + log,
                                           false);
                            });
              });
}

void PodmanRuntime::doStart(InstanceSpec spec, quint64 token)
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
    // exists): start it straight away; `podman start` itself says if it has gone since.
    const ContainerInfo known = m_containers.value(id);
    if (!known.containerId.isEmpty() && known.sshPort > 0) {
        launch->containerId = known.containerId;
        launch->sshPort = known.sshPort;
        launch->ports = known.ports;
        return startContainer(launch);
    }
    findContainer(id, [this, launch](bool ok, const QString &findError, const QList<ContainerInfo> &found) {
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
            qCWarning(lcPodman) << "instance" << iid << "has" << found.size() << "containers; starting the first";
        const ContainerInfo info = found.first();
        launch->containerId = info.containerId;
        launch->sshPort = info.sshPort;
        launch->ports = info.ports;
        remember(info);
        if (launch->sshPort > 0)
            return startContainer(launch);
        // Not in the listing: the bindings made at create time are in the container's config.
        runPodman({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s, launch->containerId},
                  [this, launch, info](const ProcResult &r) {
                      const QString rid = launch->id();
                      if (!current(rid, launch->token))
                          return endOp(rid);
                      if (!r.ok())
                          return failLaunch(launch, r.describe(u"podman inspect"_s), false);
                      ContainerInfo updated = info;
                      updated.ports = portsFromInspect(r.out);
                      updated.sshPort = updated.ports.value(kSshPort);
                      if (updated.sshPort <= 0)
                          return failLaunch(launch, u"the container publishes no SSH port"_s, false);
                      launch->sshPort = updated.sshPort;
                      launch->ports = updated.ports;
                      remember(updated);
                      startContainer(launch);
                  });
    });
}

// ---- stop / remove --------------------------------------------------------------------------

void PodmanRuntime::stop(const QString &instanceId)
{
    enqueue(instanceId, OpKind::Stop, [this, instanceId](quint64 token) { doStop(instanceId, token); });
}

void PodmanRuntime::remove(const QString &instanceId)
{
    enqueue(instanceId, OpKind::Remove, [this, instanceId](quint64 token) { doRemove(instanceId, token); });
}

void PodmanRuntime::doStop(const QString &instanceId, quint64)
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
        runPodman(
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
                                          Q_EMIT failed(instanceId, r.describe(u"podman stop"_s));
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

void PodmanRuntime::doRemove(const QString &instanceId, quint64)
{
    findContainer(instanceId, [this, instanceId](bool ok, const QString &error, const QList<ContainerInfo> &found) {
        if (!ok) {
            Q_EMIT failed(instanceId, u"cannot remove: "_s + error);
            return endOp(instanceId);
        }
        auto removeVolumes = [this, instanceId] {
            runPodman({u"volume"_s, u"ls"_s, u"--filter"_s, u"label="_s + kInstance + u'=' + instanceId,
                       u"--format"_s, u"json"_s},
                      [this, instanceId](const ProcResult &ls) {
                          if (!ls.ok()) {
                              Q_EMIT failed(instanceId, u"cannot remove: "_s + ls.describe(u"podman volume ls"_s));
                              return endOp(instanceId);
                          }
                          // Volume label filters are ORed by podman: the rest is checked here.
                          QStringList names;
                          const QJsonArray volumes = QJsonDocument::fromJson(ls.out).array();
                          for (const QJsonValue &v : volumes) {
                              const QJsonObject obj = v.toObject();
                              const QJsonObject labels = obj.value(u"Labels"_s).toObject();
                              if (labels.value(kInstance).toString() == instanceId
                                  && labels.value(kProvider).toString() == m_options.providerId)
                                  names.append(obj.value(u"Name"_s).toString());
                          }
                          auto finish = [this, instanceId] {
                              if (!m_options.dataDir.isEmpty() && !InstanceFiles::remove(m_options.dataDir, instanceId))
                                  qCWarning(lcPodman) << "could not delete the files of instance" << instanceId;
                              forget(instanceId);
                              m_sshDirs.remove(instanceId);
                              Q_EMIT removed(instanceId);
                              endOp(instanceId);
                          };
                          if (names.isEmpty())
                              return finish();
                          runPodman(QStringList{u"volume"_s, u"rm"_s, u"-f"_s} + names,
                                    [this, instanceId, finish](const ProcResult &rm) {
                                        if (!rm.ok()) {
                                            Q_EMIT failed(instanceId,
                                                          u"cannot remove: "_s + rm.describe(u"podman volume rm"_s));
                                            return endOp(instanceId);
                                        }
                                        finish();
                                    });
                      });
        };
        if (found.isEmpty())
            return removeVolumes();
        QStringList args{u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s};
        for (const ContainerInfo &info : found)
            args.append(info.containerId);
        runPodman(args, [this, instanceId, removeVolumes](const ProcResult &r) {
            if (!r.ok()) {
                Q_EMIT failed(instanceId, u"cannot remove: "_s + r.describe(u"podman rm"_s));
                return endOp(instanceId);
            }
            setRunning(instanceId, false);
            removeVolumes();
        });
    });
}

} // namespace cardhour::sim
