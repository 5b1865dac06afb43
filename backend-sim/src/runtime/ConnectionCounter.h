#pragma once

#include "CgroupStats.h"
#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QHash>
#include <QObject>

#include <optional>

namespace cardhour::sim {

// How many connections are open into running boxes (for idle stops). Every way in is a box's
// sshd (port 22; the apps are reached through SSH forwards, which sshd opens to the app's port
// on the box's loopback), so the box's kernel tables (/proc/net/tcp*) tell whether anyone is
// connected. Read from here through one of the box's processes (/proc/PID/net, the PID from
// its cgroup): no engine call at all; else with one `exec` per box (a remote engine).
class ConnectionCounter final : public QObject
{
    Q_OBJECT
public:
    ConnectionCounter(EngineCommands &engine, const ContainerCache &cache,
                      QObject *parent = nullptr,
                      const QString &cgroupRoot = QStringLiteral("/sys/fs/cgroup"));

    // → counted, later, with the running ones among these that could be read.
    void count(const QStringList &instanceIds);

Q_SIGNALS:
    void counted(const QHash<QString, int> &byInstance);

private:
    // The box's tables read through its process on this host; nullopt where that cannot be.
    std::optional<QByteArray> readTables(const QString &containerId);

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
    CgroupStats m_cgroups;
};

} // namespace cardhour::sim
