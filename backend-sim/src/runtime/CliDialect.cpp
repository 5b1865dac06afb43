#include "CliDialect.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim::cli {

namespace {

int jsonInt(const QJsonValue &value)
{
    return value.isString() ? value.toString().toInt() : value.toInt();
}

// A JSON array, or JSON objects one per line (docker's --format json), as a list of objects.
QList<QJsonObject> objectsOf(const QByteArray &output)
{
    QList<QJsonObject> objects;
    const QByteArray trimmed = output.trimmed();
    if (trimmed.startsWith('[')) {
        const QJsonArray all = QJsonDocument::fromJson(trimmed).array();
        for (const QJsonValue &value : all) {
            if (value.isObject())
                objects.append(value.toObject());
        }
        return objects;
    }
    const QList<QByteArray> lines = trimmed.split('\n');
    for (const QByteArray &line : lines) {
        const QJsonDocument doc = QJsonDocument::fromJson(line.trimmed());
        if (doc.isObject())
            objects.append(doc.object());
    }
    return objects;
}

// `ps --size`'s "Size" of a container: its writable layer's bytes, or -1.
qint64 ownDiskBytesOf(const QJsonValue &size)
{
    if (size.isObject())
        return size.toObject().value(u"rwSize"_s).toInteger(-1);
    // docker rounds to 3 or 4 digits ("2.15GB"): within half a percent.
    const QString text = size.toString();
    return text.isEmpty() ? -1 : parseSize(text.section(u" ("_s, 0, 0));
}

} // namespace

QString engineName(Engine engine)
{
    return engine == Engine::Docker ? u"docker"_s : u"podman"_s;
}

QHash<QString, QString> parseLabels(const QJsonValue &value)
{
    QHash<QString, QString> labels;
    if (value.isObject()) {
        const QJsonObject obj = value.toObject();
        for (auto it = obj.begin(); it != obj.end(); ++it)
            labels.insert(it.key(), it.value().toString());
        return labels;
    }
    // Docker joins them with commas and does not escape: a value with a comma is cut there,
    // which CardHour's own labels (ids) never have.
    const QStringList pairs = value.toString().split(u',', Qt::SkipEmptyParts);
    for (const QString &pair : pairs) {
        const qsizetype eq = pair.indexOf(u'=');
        if (eq > 0)
            labels.insert(pair.left(eq).trimmed(), pair.mid(eq + 1));
    }
    return labels;
}

QHash<int, int> parsePorts(const QJsonValue &value)
{
    QHash<int, int> ports;
    if (value.isArray()) {
        const QJsonArray all = value.toArray();
        for (const QJsonValue &entry : all) {
            const QJsonObject p = entry.toObject();
            if (p.value(u"protocol"_s).toString(u"tcp"_s) != u"tcp"_s)
                continue;
            // podman 4: host_port/container_port; podman 3: hostPort/containerPort.
            const int host = jsonInt(p.contains(u"host_port"_s) ? p.value(u"host_port"_s)
                                                                : p.value(u"hostPort"_s));
            const int container =
                jsonInt(p.contains(u"container_port"_s) ? p.value(u"container_port"_s)
                                                        : p.value(u"containerPort"_s));
            const int range = std::max(1, jsonInt(p.value(u"range"_s)));
            if (host <= 0 || container <= 0)
                continue;
            for (int i = 0; i < range; ++i)
                ports.insert(container + i, host + i);
        }
        return ports;
    }
    // "127.0.0.1:40022->22/tcp, 127.0.0.1:40023-40024->8888-8889/tcp, 9000/tcp"
    static const QRegularExpression binding(
        uR"((?:^|[\s,])[^\s,]*:(\d+)(?:-(\d+))?->(\d+)(?:-(\d+))?/tcp)"_s);
    auto matches = binding.globalMatch(value.toString());
    while (matches.hasNext()) {
        const QRegularExpressionMatch m = matches.next();
        const int hostFirst = m.captured(1).toInt();
        const int hostLast = m.captured(2).isEmpty() ? hostFirst : m.captured(2).toInt();
        const int containerFirst = m.captured(3).toInt();
        const int containerLast = m.captured(4).isEmpty() ? containerFirst : m.captured(4).toInt();
        const int count = std::min(hostLast - hostFirst, containerLast - containerFirst) + 1;
        if (hostFirst <= 0 || containerFirst <= 0 || count <= 0 || count > 65535)
            continue;
        for (int i = 0; i < count; ++i)
            ports.insert(containerFirst + i, hostFirst + i);
    }
    return ports;
}

QList<ContainerInfo> parseContainerList(const QByteArray &output, const QString &providerId)
{
    QList<ContainerInfo> found;
    const QList<QJsonObject> objects = objectsOf(output);
    for (const QJsonObject &obj : objects) {
        const QHash<QString, QString> labels = parseLabels(obj.value(u"Labels"_s));
        // Both engines AND label filters for containers; checked again anyway.
        if (labels.value(kManagedLabel) != u"true"_s || labels.value(kProviderLabel) != providerId)
            continue;
        ContainerInfo info;
        info.containerId =
            obj.contains(u"Id"_s) ? obj.value(u"Id"_s).toString() : obj.value(u"ID"_s).toString();
        info.instanceId = labels.value(kInstanceLabel);
        info.ownerId = labels.value(kOwnerLabel);
        info.state = obj.value(u"State"_s).toString().toLower();
        // Paused only while a snapshot is copied (ContainerSnapshots): its processes live on.
        info.running = info.state == u"running"_s || info.state == u"paused"_s;
        info.ports = parsePorts(obj.value(u"Ports"_s));
        info.sshPort = info.ports.value(22);
        info.diskGib = labels.value(kDiskGibLabel).toLongLong();
        const QJsonValue started = obj.value(u"StartedAt"_s); // podman: Unix seconds
        info.startedAt =
            started.isDouble() ? QString::number(started.toInteger()) : started.toString();
        info.ownDiskBytes = ownDiskBytesOf(obj.value(u"Size"_s));
        if (!info.instanceId.isEmpty() && !info.containerId.isEmpty())
            found.append(info);
    }
    return found;
}

QList<VolumeInfo> parseVolumeList(const QByteArray &output)
{
    QList<VolumeInfo> volumes;
    const QList<QJsonObject> objects = objectsOf(output);
    for (const QJsonObject &obj : objects)
        volumes.append(
            VolumeInfo{obj.value(u"Name"_s).toString(), parseLabels(obj.value(u"Labels"_s))});
    return volumes;
}

QHash<int, int> portsFromInspect(const QByteArray &output)
{
    QHash<int, int> ports;
    const QList<QJsonObject> all = objectsOf(output);
    if (all.isEmpty())
        return ports;
    const QJsonObject bindings =
        all.first().value(u"HostConfig"_s).toObject().value(u"PortBindings"_s).toObject();
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

Failure classify(const QString &err)
{
    // podman (CLI and its Docker-compatible API) and Docker Engine phrase these differently.
    if (err.contains(u"image not known"_s) || err.contains(u"no such image"_s, Qt::CaseInsensitive)
        || err.contains(u"unable to find image"_s, Qt::CaseInsensitive))
        return Failure::ImageMissing;
    if (err.contains(u"address already in use"_s, Qt::CaseInsensitive)
        || err.contains(u"port is already allocated"_s, Qt::CaseInsensitive)
        // slirp4netns's port handler says no more than that its bind failed.
        || err.contains(u"slirp_add_hostfwd failed"_s, Qt::CaseInsensitive))
        return Failure::PortInUse;
    if (err.contains(u"name"_s, Qt::CaseInsensitive)
        && err.contains(u"already in use"_s, Qt::CaseInsensitive))
        return Failure::NameInUse;
    if (err.contains(u"no such container"_s, Qt::CaseInsensitive))
        return Failure::NoSuchContainer;
    if (err.contains(u"cannot start an already running container"_s, Qt::CaseInsensitive))
        return Failure::AlreadyRunning;
    if (err.contains(u"network"_s, Qt::CaseInsensitive)
        && (err.contains(u"already exists"_s, Qt::CaseInsensitive)
            || err.contains(u"already used"_s, Qt::CaseInsensitive)))
        return Failure::NetworkExists;
    if (err.contains(u"volume"_s, Qt::CaseInsensitive)
        && err.contains(u"already exists"_s, Qt::CaseInsensitive))
        return Failure::VolumeExists;
    return Failure::Other;
}

QStringList forceRemoveArgs(Engine engine, const QStringList &containers)
{
    QStringList args{u"rm"_s, u"-f"_s};
    if (engine == Engine::Podman)
        args << u"-t"_s << u"0"_s;
    return args + containers;
}

QStringList gpuDeviceArgs(Engine engine, const QList<int> &cards)
{
    QStringList args;
    if (cards.isEmpty())
        return args;
    if (engine == Engine::Docker) {
        QStringList numbers;
        for (int card : cards)
            numbers.append(QString::number(card));
        // The quotes are part of the value: docker reads --gpus as CSV, and a list has commas.
        return {u"--gpus"_s, u"\"device=%1\""_s.arg(numbers.join(u','))};
    }
    for (int card : cards)
        args << u"--device"_s << u"nvidia.com/gpu=%1"_s.arg(card);
    return args;
}

QStringList infoArgs(Engine engine)
{
    if (engine == Engine::Docker)
        return {u"info"_s, u"--format"_s, u"{{json .}}"_s};
    return {u"info"_s, u"--format"_s, u"json"_s};
}

QStringList statsArgs(Engine engine)
{
    if (engine == Engine::Podman)
        return {u"stats"_s, u"--no-stream"_s, u"--no-reset"_s, u"--format"_s,
                u"{{.ContainerID}} {{.ContainerStats.CPUNano}} {{.ContainerStats.MemUsage}} "
                "{{.ContainerStats.MemLimit}}"_s};
    return {u"stats"_s, u"--no-stream"_s, u"--format"_s, u"{{.ID}}\t{{.CPUPerc}}\t{{.MemUsage}}"_s};
}

qint64 parseSize(const QString &text)
{
    static const QRegularExpression size(uR"(^\s*([0-9]+(?:\.[0-9]+)?)\s*([kKMGTP]?)(i?)B\s*$)"_s);
    const QRegularExpressionMatch m = size.match(text);
    if (!m.hasMatch())
        return -1;
    const double number = m.captured(1).toDouble();
    const double base = m.captured(3).isEmpty() ? 1000.0 : 1024.0;
    const QString prefix = m.captured(2).toUpper();
    const int power = prefix.isEmpty() ? 0 : int(QStringView(u"KMGTP").indexOf(prefix)) + 1;
    double factor = 1;
    for (int i = 0; i < power; ++i)
        factor *= base;
    return qint64(number * factor + 0.5);
}

QHash<QString, StatsLine> parseStats(Engine engine, const QByteArray &output)
{
    QHash<QString, StatsLine> stats;
    const QList<QByteArray> lines = output.split('\n');
    for (const QByteArray &raw : lines) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty())
            continue;
        StatsLine s;
        if (engine == Engine::Podman) {
            const QStringList f = line.split(u' ', Qt::SkipEmptyParts);
            bool ok1 = false, ok2 = false, ok3 = false;
            if (f.size() != 4)
                continue;
            s.cpuNanos = f.at(1).toLongLong(&ok1);
            s.memoryBytes = f.at(2).toLongLong(&ok2);
            s.memoryLimitBytes = f.at(3).toLongLong(&ok3);
            if (ok1 && ok2 && ok3)
                stats.insert(f.at(0), s);
            continue;
        }
        const QStringList f = line.split(u'\t');
        if (f.size() != 3)
            continue;
        QString percent = f.at(1).trimmed();
        percent.chop(percent.endsWith(u'%') ? 1 : 0);
        bool ok = false;
        s.cpuPercent = percent.toDouble(&ok);
        const QStringList mem = f.at(2).split(u'/');
        if (!ok || mem.size() != 2)
            continue;
        s.memoryBytes = parseSize(mem.at(0));
        s.memoryLimitBytes = parseSize(mem.at(1));
        if (s.memoryBytes >= 0 && s.memoryLimitBytes >= 0)
            stats.insert(f.at(0).trimmed(), s);
    }
    return stats;
}

QString tail(const QByteArray &bytes, int chars)
{
    QString text = QString::fromUtf8(bytes).remove(u'\r').trimmed();
    if (text.size() > chars)
        text = u"…"_s + text.right(chars);
    return text.replace(u'\n', u" | "_s);
}

namespace {
// Each socket of /proc/net/tcp*: "  0: 0100007F:22B8 00000000:0000 0A ...", the local
// address:port in hex, the remote one, then the state. Header lines and anything else fail the
// checks and are skipped.
template<typename Each>
void forEachSocket(const QByteArray &procNetTcp, Each each)
{
    for (const QByteArray &line : procNetTcp.split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 4 || !fields.at(0).endsWith(':'))
            continue;
        bool stateOk = false;
        bool portOk = false;
        const int state = fields.at(3).toInt(&stateOk, 16);
        const int port = fields.at(1).mid(fields.at(1).lastIndexOf(':') + 1).toInt(&portOk, 16);
        if (stateOk && portOk && port > 0)
            each(port, state);
    }
}
} // namespace

QSet<int> listeningPorts(const QByteArray &procNetTcp)
{
    constexpr int kListen = 0x0A;
    QSet<int> ports;
    forEachSocket(procNetTcp, [&](int port, int state) {
        if (state == kListen)
            ports.insert(port);
    });
    return ports;
}

int establishedTo(const QByteArray &procNetTcp, const QSet<int> &localPorts)
{
    constexpr int kEstablished = 0x01;
    int count = 0;
    forEachSocket(procNetTcp, [&](int port, int state) {
        if (state == kEstablished && localPorts.contains(port))
            ++count;
    });
    return count;
}

} // namespace cardhour::sim::cli
