#pragma once

#include "CliDialect.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace cardhour::sim {

// The container runtime's view of its containers by instance id: what the last listing said,
// overlaid with what the runtime itself did since (a listing that began before a local change
// does not undo it). No engine calls: ContainerListing fills it.
class ContainerCache
{
public:
    using ContainerInfo = cli::ContainerInfo;

    void remember(const ContainerInfo &info);
    void setRunning(const QString &instanceId, bool running);
    void forget(const QString &instanceId);
    // Replaces the cache with a listing that began at stampAtStart (stamp()), keeping what
    // changed here after that.
    void applyRefresh(const QList<ContainerInfo> &found, quint64 stampAtStart);
    quint64 stamp() const { return m_stamp; }

    bool contains(const QString &instanceId) const { return m_containers.contains(instanceId); }
    ContainerInfo info(const QString &instanceId) const { return m_containers.value(instanceId); }
    bool isRunning(const QString &instanceId) const { return info(instanceId).running; }
    bool anyRunning() const;
    const QHash<QString, ContainerInfo> &all() const { return m_containers; }
    QHash<QString, bool> runningById() const;
    // The host ports the containers publish (a new one must not take one of them).
    QSet<int> reservedPorts() const;

    // The ports of a ready instance's apps inside its box; forgotten with the container.
    void setAppPorts(const QString &instanceId, const QList<int> &ports);
    QList<int> appPorts(const QString &instanceId) const { return m_appPorts.value(instanceId); }

    // The ssh dir of an instance's last create/start (setAuthorizedKeys writes there); kept
    // until the instance is removed.
    void setSshDir(const QString &instanceId, const QString &dir)
    {
        m_sshDirs.insert(instanceId, dir);
    }
    QString sshDir(const QString &instanceId) const { return m_sshDirs.value(instanceId); }
    void dropSshDir(const QString &instanceId) { m_sshDirs.remove(instanceId); }

private:
    QHash<QString, ContainerInfo> m_containers;
    QHash<QString, QString> m_sshDirs;
    QHash<QString, QList<int>> m_appPorts;
    QHash<QString, quint64> m_touched; // instance → m_stamp of its last local change
    quint64 m_stamp = 0;
};

} // namespace cardhour::sim
