#include "ContainerCache.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void ContainerCache::remember(const ContainerInfo &info)
{
    m_containers.insert(info.instanceId, info);
    m_touched.insert(info.instanceId, ++m_stamp);
}

void ContainerCache::setRunning(const QString &instanceId, bool running)
{
    auto it = m_containers.find(instanceId);
    if (it != m_containers.end()) {
        it->running = running;
        it->state = running ? u"running"_s : u"exited"_s;
    }
    m_touched.insert(instanceId, ++m_stamp);
}

void ContainerCache::forget(const QString &instanceId)
{
    m_containers.remove(instanceId);
    m_appPorts.remove(instanceId);
    m_touched.insert(instanceId, ++m_stamp);
}

void ContainerCache::applyRefresh(const QList<ContainerInfo> &found, quint64 stampAtStart)
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

bool ContainerCache::anyRunning() const
{
    for (const ContainerInfo &info : m_containers) {
        if (info.running)
            return true;
    }
    return false;
}

QHash<QString, bool> ContainerCache::runningById() const
{
    QHash<QString, bool> running;
    for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it)
        running.insert(it.key(), it->running);
    return running;
}

QSet<int> ContainerCache::reservedPorts() const
{
    QSet<int> ports;
    for (const ContainerInfo &info : m_containers) {
        for (const int port : info.ports)
            ports.insert(port);
    }
    return ports;
}

void ContainerCache::setAppPorts(const QString &instanceId, const QList<int> &ports)
{
    m_appPorts.insert(instanceId, ports);
}

} // namespace cardhour::sim
