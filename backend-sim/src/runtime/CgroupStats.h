#pragma once

#include <QHash>
#include <QString>

#include <optional>

namespace cardhour::sim {

// Reads a container's CPU time and memory straight from its cgroup: microseconds per container,
// where a `podman stats` process costs ~0.2 s of CPU. Works with cgroup v1 (cpuacct, memory
// hierarchies) and v2 (unified), for podman (libpod-<id>) and Docker (docker-<id>.scope,
// docker/<id>) containers. A container's cgroup folder is found once by its id and remembered.
class CgroupStats
{
public:
    struct Reading
    {
        qint64 cpuNanos = 0; // CPU time used since the container started
        qint64 memoryBytes = 0; // in use, without reclaimable page cache (as `stats` shows)
        qint64 memoryLimitBytes = 0; // 0: no limit
    };

    explicit CgroupStats(QString root = QStringLiteral("/sys/fs/cgroup"));

    // nullopt when the container's cgroup is not found under root (another host, rootless
    // without delegation, or gone).
    std::optional<Reading> read(const QString &containerId);
    void forget(const QString &containerId) { m_paths.remove(containerId); }
    // One process of the container (from its cgroup.procs), to read what it shares with the
    // rest of the box (its network namespace's /proc/PID/net/tcp); 0 when none is found.
    qint64 anyPid(const QString &containerId);

private:
    struct Paths
    {
        QString cpu; // v1: cpuacct folder; v2: the unified folder
        QString memory; // v1: memory folder; v2: same as cpu
        bool v2 = false;
    };
    std::optional<Paths> locate(const QString &containerId) const;
    const Paths *paths(const QString &containerId); // located once, then remembered
    QString findFolder(const QString &hierarchy, const QString &containerId) const;

    QString m_root;
    QHash<QString, Paths> m_paths;
};

} // namespace cardhour::sim
