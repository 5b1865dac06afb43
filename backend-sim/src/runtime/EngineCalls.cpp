#include "EngineCalls.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace cardhour::sim::cli {

namespace {

QString encoded(const QString &part)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(part));
}

QString containerPath(const QString &id, const QString &action = {})
{
    return u"/containers/"_s + encoded(id) + (action.isEmpty() ? QString() : u'/' + action);
}

QByteArray compact(const QJsonObject &obj)
{
    return QJsonDocument(obj).toJson(QJsonDocument::Compact);
}

// "k=v" → (k, v); false without a key.
bool splitPair(const QString &text, QString *key, QString *value)
{
    const qsizetype eq = text.indexOf(u'=');
    *key = eq < 0 ? text : text.left(eq);
    *value = eq < 0 ? QString() : text.mid(eq + 1);
    return !key->isEmpty();
}

// libpod's container spec, flag by flag of `podman run -d` as CardHour passes them. Each add
// is false for a value it cannot take.
class RunSpec
{
public:
    explicit RunSpec(const QProcessEnvironment &environment) : m_environment(environment) {}

    // false for a flag that is not one of CardHour's, or a value that does not fit it.
    bool add(const QString &flag, const QString &value);
    void setImage(const QString &image) { m_spec.insert(u"image"_s, image); }
    void setCommand(const QStringList &command)
    {
        if (!command.isEmpty())
            m_spec.insert(u"command"_s, QJsonArray::fromStringList(command));
    }
    // nullopt without an image or a name.
    std::optional<QJsonObject> finish();

private:
    bool addNetwork(const QString &value);
    bool addPort(const QString &value);
    bool addVolume(const QString &value);
    bool addLimit(const QString &flag, const QString &value);
    bool addEnv(const QString &value);

    const QProcessEnvironment &m_environment;
    QJsonObject m_spec;
    QJsonObject m_labels;
    QJsonObject m_env;
    QJsonObject m_limits;
    QJsonArray m_ports;
    QJsonArray m_volumes;
    QJsonArray m_mounts;
    QJsonArray m_capDrop;
    QJsonArray m_capAdd;
};

bool RunSpec::add(const QString &flag, const QString &value)
{
    QString key;
    QString val;
    if (flag == u"--name"_s) {
        m_spec.insert(u"name"_s, value);
    } else if (flag == u"--label"_s) {
        if (!splitPair(value, &key, &val))
            return false;
        m_labels.insert(key, val);
    } else if (flag == u"--hostname"_s) {
        m_spec.insert(u"hostname"_s, value);
    } else if (flag == u"--network"_s) {
        return addNetwork(value);
    } else if (flag == u"-p"_s) {
        return addPort(value);
    } else if (flag == u"-v"_s) {
        return addVolume(value);
    } else if (flag == u"--cpus"_s || flag == u"--memory"_s || flag == u"--pids-limit"_s) {
        return addLimit(flag, value);
    } else if (flag == u"--cap-drop"_s || flag == u"--cap-add"_s) {
        // The command line takes a comma list; libpod one capability per element.
        for (const QString &cap : value.split(u','))
            (flag == u"--cap-drop"_s ? m_capDrop : m_capAdd).append(cap);
    } else if (flag == u"--security-opt"_s) {
        if (value != u"no-new-privileges"_s)
            return false;
        m_spec.insert(u"no_new_privileges"_s, true);
    } else if (flag == u"-e"_s) {
        return addEnv(value);
    } else if (flag == u"--stop-timeout"_s) {
        bool ok = false;
        const int seconds = value.toInt(&ok);
        if (!ok || seconds < 0)
            return false;
        m_spec.insert(u"stop_timeout"_s, seconds);
    } else {
        return false; // --device and the rest: the command line knows them
    }
    return true;
}

bool RunSpec::addNetwork(const QString &v)
{
    static const QStringList modes{u"slirp4netns"_s, u"bridge"_s,  u"host"_s,
                                   u"none"_s,        u"private"_s, u"pasta"_s};
    // "slirp4netns:a=b,c=d", as the command line takes it: libpod's network_options.
    const qsizetype colon = v.indexOf(u':');
    const QString mode = colon < 0 ? v : v.left(colon);
    if (colon >= 0 && mode != u"slirp4netns"_s)
        return false;
    if (modes.contains(mode)) {
        m_spec.insert(u"netns"_s, QJsonObject{{u"nsmode"_s, mode}});
        if (colon >= 0) {
            const QStringList opts = v.mid(colon + 1).split(u',', Qt::SkipEmptyParts);
            m_spec.insert(u"network_options"_s,
                          QJsonObject{{mode, QJsonArray::fromStringList(opts)}});
        }
    } else {
        m_spec.insert(u"netns"_s, QJsonObject{{u"nsmode"_s, u"bridge"_s}});
        m_spec.insert(u"Networks"_s, QJsonObject{{v, QJsonObject{}}});
    }
    return true;
}

bool RunSpec::addPort(const QString &v)
{
    const QStringList parts = v.split(u':'); // ip:host:container, as CardHour writes it
    const QStringList target = parts.value(2).split(u'/');
    bool hostOk = false;
    bool containerOk = false;
    const int hostPort = parts.value(1).toInt(&hostOk);
    const int containerPort = target.first().toInt(&containerOk);
    if (parts.size() != 3 || !hostOk || !containerOk)
        return false;
    m_ports.append(QJsonObject{{u"host_ip"_s, parts.first()},
                               {u"host_port"_s, hostPort},
                               {u"container_port"_s, containerPort},
                               {u"protocol"_s, target.value(1, u"tcp"_s)}});
    return true;
}

bool RunSpec::addVolume(const QString &v)
{
    const QStringList parts = v.split(u':');
    if (parts.size() < 2 || parts.size() > 3)
        return false;
    QJsonArray options;
    if (parts.size() == 3) {
        const QStringList opts = parts.at(2).split(u',', Qt::SkipEmptyParts);
        for (const QString &opt : opts)
            options.append(opt);
    }
    if (parts.first().startsWith(u'/')) {
        options.prepend(u"rbind"_s);
        m_mounts.append(QJsonObject{{u"Type"_s, u"bind"_s},
                                    {u"Source"_s, parts.at(0)},
                                    {u"Destination"_s, parts.at(1)},
                                    {u"Options"_s, options}});
    } else {
        m_volumes.append(QJsonObject{
            {u"Name"_s, parts.at(0)}, {u"Dest"_s, parts.at(1)}, {u"Options"_s, options}});
    }
    return true;
}

bool RunSpec::addLimit(const QString &flag, const QString &v)
{
    bool ok = false;
    if (flag == u"--cpus"_s) {
        const double cpus = v.toDouble(&ok);
        if (!ok || cpus <= 0)
            return false;
        constexpr qint64 kPeriod = 100000;
        QJsonObject cpu{{u"period"_s, kPeriod}, {u"quota"_s, static_cast<qint64>(cpus * kPeriod)}};
        m_limits.insert(u"cpu"_s, cpu);
    } else if (flag == u"--memory"_s) {
        const qint64 mib = v.endsWith(u'm') ? v.chopped(1).toLongLong(&ok) : 0;
        if (!ok || mib <= 0)
            return false;
        m_limits.insert(u"memory"_s, QJsonObject{{u"limit"_s, mib * 1024 * 1024}});
    } else {
        const qint64 pids = v.toLongLong(&ok);
        if (!ok)
            return false;
        m_limits.insert(u"pids"_s, QJsonObject{{u"limit"_s, pids}});
    }
    return true;
}

bool RunSpec::addEnv(const QString &v)
{
    QString key;
    QString val;
    if (!splitPair(v, &key, &val))
        return false;
    if (!v.contains(u'=')) { // by name: the value from the environment, as the CLI does
        if (!m_environment.contains(key))
            return true;
        val = m_environment.value(key);
    }
    m_env.insert(key, val);
    return true;
}

std::optional<QJsonObject> RunSpec::finish()
{
    if (!m_spec.contains(u"image"_s) || !m_spec.contains(u"name"_s))
        return std::nullopt;
    m_spec.insert(u"labels"_s, m_labels);
    m_spec.insert(u"env"_s, m_env);
    if (!m_ports.isEmpty())
        m_spec.insert(u"portmappings"_s, m_ports);
    if (!m_volumes.isEmpty())
        m_spec.insert(u"volumes"_s, m_volumes);
    if (!m_mounts.isEmpty())
        m_spec.insert(u"mounts"_s, m_mounts);
    if (!m_capDrop.isEmpty())
        m_spec.insert(u"cap_drop"_s, m_capDrop);
    if (!m_capAdd.isEmpty())
        m_spec.insert(u"cap_add"_s, m_capAdd);
    if (!m_limits.isEmpty())
        m_spec.insert(u"resource_limits"_s, m_limits);
    return m_spec;
}

// What `podman run -d` does with the flags CardHour passes, as libpod's container spec; nothing
// when a flag is not one of them (that run goes through the command line).
std::optional<QJsonObject> podmanRunSpec(const QStringList &args,
                                         const QProcessEnvironment &environment)
{
    RunSpec spec(environment);
    for (qsizetype i = 2; i < args.size(); ++i) { // after "run -d"
        const QString &flag = args.at(i);
        if (!flag.startsWith(u'-')) { // the image, then the command (PID 1) if any
            spec.setImage(flag);
            spec.setCommand(args.mid(i + 1));
            break;
        }
        if (flag == u"--pull=never"_s)
            continue; // create never pulls
        if (i + 1 >= args.size() || !spec.add(flag, args.at(++i)))
            return std::nullopt;
    }
    return spec.finish();
}

// `volume create [--label k=v]... [--opt k=v]... NAME`
std::optional<ApiCall> volumeCreate(Engine engine, const QStringList &args)
{
    QJsonObject labels;
    QJsonObject options;
    QString name;
    for (qsizetype i = 2; i < args.size(); ++i) {
        const QString &flag = args.at(i);
        QString key;
        QString val;
        if (!flag.startsWith(u'-')) {
            if (i != args.size() - 1)
                return std::nullopt;
            name = flag;
            break;
        }
        if (i + 1 >= args.size() || !splitPair(args.at(i + 1), &key, &val))
            return std::nullopt;
        ++i;
        if (flag == u"--label"_s)
            labels.insert(key, val);
        else if (flag == u"--opt"_s)
            options.insert(key, val);
        else
            return std::nullopt;
    }
    if (name.isEmpty())
        return std::nullopt;
    ApiCall call;
    call.method = "POST";
    call.path = u"/volumes/create"_s;
    // libpod names its fields as the Go struct does; Docker Engine has its own.
    call.body = engine == Engine::Podman
        ? compact(QJsonObject{{u"Name"_s, name}, {u"Label"_s, labels}, {u"Options"_s, options}})
        : compact(
            QJsonObject{{u"Name"_s, name}, {u"Labels"_s, labels}, {u"DriverOpts"_s, options}});
    return call;
}

// `--filter label=K=V ... [--filter status=S ...] --format json` from args[from] on, as a GET
// of `path` with the same filters: for podman the API sends what its command line prints.
std::optional<ApiCall> labelFilteredList(const QStringList &args, qsizetype from,
                                         const QString &path, bool statusFilters = false)
{
    QJsonArray labelFilters;
    QJsonArray statuses;
    for (qsizetype i = from; i < args.size(); i += 2) {
        const QString &flag = args.at(i);
        const QString value = args.value(i + 1);
        if (flag == u"--filter"_s && value.startsWith(u"label="_s))
            labelFilters.append(value.mid(6));
        else if (statusFilters && flag == u"--filter"_s && value.startsWith(u"status="_s))
            statuses.append(value.mid(7));
        else if (flag == u"--format"_s && value == u"json"_s)
            continue;
        else
            return std::nullopt;
    }
    QJsonObject filters{{u"label"_s, labelFilters}};
    if (!statuses.isEmpty())
        filters.insert(u"status"_s, statuses);
    ApiCall call;
    call.method = "GET";
    call.path = path + encoded(QString::fromUtf8(compact(filters)));
    call.output = ApiCall::Output::Body;
    return call;
}

// `volume ls ...` (Docker Engine wraps its list in an object: its command line does that one).
std::optional<ApiCall> volumeList(Engine engine, const QStringList &args)
{
    if (engine != Engine::Podman)
        return std::nullopt;
    return labelFilteredList(args, 2, u"/volumes/json?filters="_s);
}

// `volume rm [-f] NAME`, one volume (several stay one command line).
std::optional<ApiCall> volumeRemove(const QStringList &args)
{
    const bool force = args.value(2) == u"-f"_s;
    if (args.size() != (force ? 4 : 3) || args.last().startsWith(u'-'))
        return std::nullopt;
    ApiCall call;
    call.method = "DELETE";
    call.path = u"/volumes/"_s + encoded(args.last()) + (force ? u"?force=true"_s : QString());
    return call;
}

// `ps -a ...`
// `ps -a ...` (every state) or `ps ...` (running ones only, as both the command line and the
// API list by default).
std::optional<ApiCall> containerList(Engine engine, const QStringList &args)
{
    if (engine != Engine::Podman)
        return std::nullopt;
    if (args.value(1) == u"-a"_s)
        return labelFilteredList(args, 2, u"/containers/json?all=true&filters="_s, true);
    return labelFilteredList(args, 1, u"/containers/json?filters="_s, true);
}

} // namespace

QString apiPrefix(Engine engine)
{
    // libpod's v4 API is served by every podman 4 and 5; Docker Engine 20.10 and later: 1.41.
    return engine == Engine::Podman ? u"/v4.0.0/libpod"_s : u"/v1.41"_s;
}

std::optional<ApiCall> apiCallFor(Engine engine, const QStringList &args,
                                  const QProcessEnvironment &environment)
{
    const QString verb = args.value(0);
    ApiCall call;
    if (verb == u"run"_s && args.value(1) == u"-d"_s) {
        if (engine != Engine::Podman) // Docker Engine's create body differs: its CLI does it
            return std::nullopt;
        const std::optional<QJsonObject> spec = podmanRunSpec(args, environment);
        if (!spec)
            return std::nullopt;
        call.method = "POST";
        call.path = u"/containers/create"_s;
        call.body = compact(*spec);
        call.startAfterCreate = true;
        call.output = ApiCall::Output::Id;
        return call;
    }
    if (verb == u"start"_s && args.size() == 2) {
        call.method = "POST";
        call.path = containerPath(args.at(1), u"start"_s);
        call.output = ApiCall::Output::Id;
        call.id = args.at(1);
        return call;
    }
    if (verb == u"stop"_s && args.size() == 4 && args.at(1) == u"-t"_s) {
        call.method = "POST";
        // libpod names the grace period `timeout`, Docker Engine `t`.
        call.path = containerPath(args.at(3), u"stop"_s)
            + (engine == Engine::Podman ? u"?timeout="_s : u"?t="_s) + encoded(args.at(2));
        call.output = ApiCall::Output::Id;
        call.id = args.at(3);
        return call;
    }
    if (args == forceRemoveArgs(engine, {args.value(args.size() - 1)}) && args.size() > 2) {
        call.method = "DELETE";
        call.path = containerPath(args.last())
            + (engine == Engine::Podman ? u"?force=true&timeout=0"_s : u"?force=true"_s);
        return call;
    }
    if (verb == u"inspect"_s && args.size() == 6 && args.at(1) == u"--type"_s
        && args.at(2) == u"container"_s && args.at(3) == u"--format"_s) {
        const QString format = args.at(4);
        if (format == u"json"_s)
            call.output = ApiCall::Output::BodyAsArray;
        else if (format == u"{{.State.Running}} {{.State.ExitCode}}"_s)
            call.output = ApiCall::Output::RunningAndExitCode;
        else
            return std::nullopt;
        call.method = "GET";
        call.path = containerPath(args.at(5), u"json"_s);
        return call;
    }
    if (verb == u"volume"_s && args.value(1) == u"create"_s)
        return volumeCreate(engine, args);
    if (verb == u"volume"_s && args.value(1) == u"ls"_s)
        return volumeList(engine, args);
    if (verb == u"volume"_s && args.value(1) == u"rm"_s)
        return volumeRemove(args);
    if (verb == u"ps"_s)
        return containerList(engine, args);
    return std::nullopt;
}

namespace {
bool failedStart(const ApiCall &call, const EngineReply &reply)
{
    return call.method == "POST" && call.path.endsWith(u"/start"_s) && reply.connected
        && !reply.timedOut && !reply.ok() && reply.status != 304;
}
} // namespace

QString volumeMountLostBy(const ApiCall &call, const EngineReply &reply)
{
    if (!failedStart(call, reply))
        return {};
    static const QRegularExpression lost(
        uR"(^mounting volume ([A-Za-z0-9][A-Za-z0-9_.-]*) for container [0-9a-f]+:\s*$)"_s);
    const QRegularExpressionMatch match = lost.match(reply.message());
    return match.hasMatch() ? match.captured(1) : QString();
}

LostStart lostStartOutcome(const ProcessResult &retry, bool fresh)
{
    if (retry.ok())
        return LostStart::Started;
    if (retry.started && !retry.timedOut
        && classify(QString::fromUtf8(retry.err)) == Failure::AlreadyRunning)
        return fresh ? LostStart::MakeAgain : LostStart::Started;
    return LostStart::Failed;
}

bool startLostHelperExit(const ApiCall &call, const EngineReply &reply)
{
    return failedStart(call, reply)
        && (reply.message().contains(u"no child processes"_s, Qt::CaseInsensitive)
            || !volumeMountLostBy(call, reply).isEmpty());
}

ProcessResult resultOf(const ApiCall &call, const EngineReply &reply)
{
    ProcessResult result;
    result.started = reply.connected;
    if (!reply.connected) {
        result.startError = u"the engine's API did not answer: "_s + reply.error;
        return result;
    }
    if (reply.timedOut) {
        result.timedOut = true;
        result.crashed = true;
        result.err = reply.error.toUtf8();
        return result;
    }
    const bool unchanged = reply.status == 304; // started or stopped already: done all the same
    QString failure;
    if (!reply.ok() && !unchanged) {
        failure = reply.message();
    } else if (call.method == "DELETE") {
        // libpod answers 200 with one report per container, each with its own error.
        const QJsonArray reports = QJsonDocument::fromJson(reply.body).array();
        for (const QJsonValue &report : reports)
            if (const QString err = report.toObject().value(u"Err"_s).toString(); !err.isEmpty())
                failure = err;
    }
    if (!failure.isEmpty()) {
        result.exitCode = 125;
        result.err = (u"Error: "_s + failure).toUtf8();
        return result;
    }
    result.exitCode = 0;
    switch (call.output) {
    case ApiCall::Output::None:
        break;
    case ApiCall::Output::Id:
        result.out = call.id.toUtf8() + '\n';
        break;
    case ApiCall::Output::Body:
        result.out = reply.body;
        break;
    case ApiCall::Output::BodyAsArray:
        result.out = '[' + reply.body + ']';
        break;
    case ApiCall::Output::RunningAndExitCode: {
        const QJsonObject state =
            QJsonDocument::fromJson(reply.body).object().value(u"State"_s).toObject();
        result.out = (state.value(u"Running"_s).toBool() ? "true " : "false ")
            + QByteArray::number(state.value(u"ExitCode"_s).toInteger()) + '\n';
        break;
    }
    }
    return result;
}

QString eventsPath(Engine engine, const QString &providerId)
{
    const QJsonObject filters{{u"type"_s, QJsonArray{u"container"_s}},
                              {u"label"_s, QJsonArray{kProviderLabel + u'=' + providerId}}};
    return (engine == Engine::Podman ? u"/events?stream=true&filters="_s : u"/events?filters="_s)
        + encoded(QString::fromUtf8(compact(filters)));
}

bool EngineEvent::ended() const
{
    static const QStringList endings{u"died"_s, u"die"_s, u"remove"_s, u"destroy"_s, u"stop"_s};
    return endings.contains(action);
}

std::optional<EngineEvent> parseEvent(const QByteArray &line)
{
    const QJsonObject obj = QJsonDocument::fromJson(line).object();
    if (obj.isEmpty())
        return std::nullopt;
    const QString type =
        obj.contains(u"Type"_s) ? obj.value(u"Type"_s).toString() : obj.value(u"type"_s).toString();
    if (type != u"container"_s)
        return std::nullopt;
    const QJsonObject actor = obj.value(u"Actor"_s).toObject();
    const QJsonObject attributes = actor.value(u"Attributes"_s).toObject();
    EngineEvent event;
    event.action = obj.contains(u"Action"_s) ? obj.value(u"Action"_s).toString()
                                             : obj.value(u"status"_s).toString();
    event.containerId = actor.value(u"ID"_s).toString();
    if (event.containerId.isEmpty())
        event.containerId = obj.value(u"id"_s).toString();
    event.instanceId = attributes.value(kInstanceLabel).toString();
    event.providerId = attributes.value(kProviderLabel).toString();
    return event;
}

} // namespace cardhour::sim::cli
