#include "CgroupStats.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

QByteArray readSmall(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(64 * 1024) : QByteArray();
}

std::optional<qint64> readNumber(const QString &path)
{
    const QByteArray text = readSmall(path).trimmed();
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

// "key value" lines (cpu.stat, memory.stat).
qint64 statValue(const QByteArray &stat, const QByteArray &key)
{
    const QList<QByteArray> lines = stat.split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() == 2 && fields.at(0) == key)
            return fields.at(1).toLongLong();
    }
    return 0;
}

} // namespace

CgroupStats::CgroupStats(QString root) : m_root(std::move(root)) {}

QString CgroupStats::findFolder(const QString &hierarchy, const QString &containerId) const
{
    // libpod-<id>, libpod-<id>.scope, docker-<id>.scope, docker/<id>: a folder whose name holds
    // the id, a few levels down (libpod_parent/, machine.slice/, system.slice/, docker/).
    const QString base = hierarchy;
    if (!QFileInfo(base).isDir())
        return {};
    QList<QPair<QString, int>> pending{{base, 0}};
    while (!pending.isEmpty()) {
        const auto [dir, depth] = pending.takeFirst();
        const QStringList children =
            QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
        for (const QString &child : children) {
            const QString path = dir + u'/' + child;
            if (child.contains(containerId) && !child.endsWith(u"-conmon"_s)
                && !child.contains(u"conmon"_s))
                return path;
            if (depth < 3)
                pending.append({path, depth + 1});
        }
    }
    return {};
}

std::optional<CgroupStats::Paths> CgroupStats::locate(const QString &containerId) const
{
    if (containerId.size() < 12)
        return std::nullopt; // too short to be matched safely
    // v1 (or hybrid): the cpuacct and memory hierarchies.
    const QString cpuacct = findFolder(m_root + u"/cpuacct"_s, containerId);
    if (!cpuacct.isEmpty() && QFileInfo::exists(cpuacct + u"/cpuacct.usage"_s)) {
        const QString memory = findFolder(m_root + u"/memory"_s, containerId);
        return Paths{cpuacct, memory, false};
    }
    // v2: everything in one tree.
    const QString unified = findFolder(m_root, containerId);
    if (!unified.isEmpty() && QFileInfo::exists(unified + u"/cpu.stat"_s))
        return Paths{unified, unified, true};
    return std::nullopt;
}

const CgroupStats::Paths *CgroupStats::paths(const QString &containerId)
{
    auto it = m_paths.find(containerId);
    if (it == m_paths.end()) {
        const std::optional<Paths> found = locate(containerId);
        if (!found)
            return nullptr;
        it = m_paths.insert(containerId, *found);
    }
    return &*it;
}

qint64 CgroupStats::anyPid(const QString &containerId)
{
    const Paths *found = paths(containerId);
    if (!found)
        return 0;
    const QString folder = found->memory.isEmpty() ? found->cpu : found->memory;
    const QByteArray procs = readSmall(folder + u"/cgroup.procs"_s);
    const qint64 pid = procs.left(procs.indexOf('\n')).trimmed().toLongLong();
    if (pid <= 0)
        m_paths.remove(containerId); // stopped: found again when it runs
    return pid;
}

std::optional<CgroupStats::Reading> CgroupStats::read(const QString &containerId)
{
    const Paths *found = this->paths(containerId);
    if (!found)
        return std::nullopt;
    const Paths paths = *found;
    Reading reading;
    if (paths.v2) {
        const QByteArray cpuStat = readSmall(paths.cpu + u"/cpu.stat"_s);
        if (cpuStat.isEmpty()) {
            m_paths.remove(containerId); // gone (stopped): found again when it runs
            return std::nullopt;
        }
        reading.cpuNanos = statValue(cpuStat, "usage_usec") * 1000;
        const qint64 current = readNumber(paths.memory + u"/memory.current"_s).value_or(0);
        const qint64 inactiveFile =
            statValue(readSmall(paths.memory + u"/memory.stat"_s), "inactive_file");
        reading.memoryBytes = std::max<qint64>(0, current - inactiveFile);
        const QByteArray max = readSmall(paths.memory + u"/memory.max"_s).trimmed();
        reading.memoryLimitBytes = max == "max" ? 0 : max.toLongLong();
        return reading;
    }
    const std::optional<qint64> usage = readNumber(paths.cpu + u"/cpuacct.usage"_s);
    if (!usage) {
        m_paths.remove(containerId);
        return std::nullopt;
    }
    reading.cpuNanos = *usage;
    if (!paths.memory.isEmpty()) {
        const qint64 current = readNumber(paths.memory + u"/memory.usage_in_bytes"_s).value_or(0);
        const qint64 inactiveFile =
            statValue(readSmall(paths.memory + u"/memory.stat"_s), "total_inactive_file");
        reading.memoryBytes = std::max<qint64>(0, current - inactiveFile);
        const qint64 limit = readNumber(paths.memory + u"/memory.limit_in_bytes"_s).value_or(0);
        // v1 says "no limit" with a huge number (PAGE_COUNTER_MAX pages).
        reading.memoryLimitBytes = limit >= (qint64(1) << 60) ? 0 : limit;
    }
    return reading;
}

} // namespace cardhour::sim
