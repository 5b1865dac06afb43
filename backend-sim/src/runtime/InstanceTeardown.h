#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"
#include "InstanceOpQueue.h"

#include <QObject>

namespace cardhour::sim {

class InstanceNetworks;

// stop() and remove() of an instance, each queued with its other requests: the containers
// found by label are stopped (→ stopped) or removed with the instance's volumes, network and,
// with a data folder, its files (→ removed). A failure → failed(id, reason).
class InstanceTeardown final : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        int stopTimeoutS = 10; // SIGTERM, then SIGKILL after this
        QString dataDir; // where the instance's files are (removed with it); empty: none
    };

    InstanceTeardown(EngineCommands &engine, InstanceOpQueue &queue, ContainerCache &cache,
                     InstanceNetworks &networks, Settings settings, QObject *parent = nullptr);

    void stop(const QString &instanceId);
    void remove(const QString &instanceId);

Q_SIGNALS:
    void stopped(const QString &instanceId);
    void removed(const QString &instanceId);
    void failed(const QString &instanceId, const QString &reason);

private:
    void doStop(const QString &instanceId);
    // A stop that failed: gone or already stopped meanwhile is stopped all the same.
    void stopFailed(const QString &instanceId, const ProcessResult &result);
    void markStopped(const QString &instanceId);
    void doRemove(const QString &instanceId);
    // `goneIsDone`: ids from the cache, where "no such container" means removed already.
    void removeContainers(const QString &instanceId, const QStringList &ids, bool goneIsDone);
    void removeVolumes(const QString &instanceId);
    void removeNamedVolumes(const QString &instanceId, const QStringList &names);
    void finishRemoval(const QString &instanceId);
    void failRemoval(const QString &instanceId, const QString &reason);

    EngineCommands &m_engine;
    InstanceOpQueue &m_queue;
    ContainerCache &m_cache;
    InstanceNetworks &m_networks;
    Settings m_settings;
};

} // namespace cardhour::sim
