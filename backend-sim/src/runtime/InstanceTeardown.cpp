#include "InstanceTeardown.h"

#include "BoxNames.h"
#include "InstanceFiles.h"
#include "InstanceNetworks.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

InstanceTeardown::InstanceTeardown(EngineCommands &engine, InstanceOpQueue &queue,
                                   ContainerCache &cache, InstanceNetworks &networks,
                                   Settings settings, QObject *parent)
    : QObject(parent), m_engine(engine), m_queue(queue), m_cache(cache), m_networks(networks),
      m_settings(std::move(settings))
{}

void InstanceTeardown::stop(const QString &instanceId)
{
    m_queue.enqueue(instanceId, InstanceOpQueue::Kind::Stop,
                    [this, instanceId](quint64) { doStop(instanceId); });
}

void InstanceTeardown::remove(const QString &instanceId)
{
    m_queue.enqueue(instanceId, InstanceOpQueue::Kind::Remove,
                    [this, instanceId](quint64) { doRemove(instanceId); });
}

void InstanceTeardown::markStopped(const QString &instanceId)
{
    m_cache.setRunning(instanceId, false);
    Q_EMIT stopped(instanceId);
    m_queue.end(instanceId);
}

void InstanceTeardown::doStop(const QString &instanceId)
{
    m_engine.findContainer(
        instanceId,
        [this, instanceId](bool ok, const QString &error, const QList<cli::ContainerInfo> &found) {
            if (!ok) {
                Q_EMIT failed(instanceId, u"cannot stop: "_s + error);
                return m_queue.end(instanceId);
            }
            QStringList ids;
            for (const cli::ContainerInfo &info : found) {
                if (info.running || info.state != u"exited"_s)
                    ids.append(info.containerId);
            }
            if (ids.isEmpty())
                return markStopped(instanceId);
            const QStringList args =
                QStringList{u"stop"_s, u"-t"_s, QString::number(m_settings.stopTimeoutS)} + ids;
            m_engine.run(
                args,
                [this, instanceId](const ProcessResult &r) {
                    if (!r.ok())
                        return stopFailed(instanceId, r);
                    markStopped(instanceId);
                },
                (m_settings.stopTimeoutS + 60) * 1000);
        });
}

void InstanceTeardown::stopFailed(const QString &instanceId, const ProcessResult &result)
{
    m_engine.findContainer(
        instanceId,
        [this, instanceId, result](bool ok, const QString &,
                                   const QList<cli::ContainerInfo> &left) {
            bool anyRunning = !ok;
            for (const cli::ContainerInfo &info : left)
                anyRunning = anyRunning || info.running;
            if (!anyRunning)
                return markStopped(instanceId);
            Q_EMIT failed(instanceId, EngineCommands::describe(result, m_engine.what(u"stop"_s)));
            m_queue.end(instanceId);
        });
}

void InstanceTeardown::failRemoval(const QString &instanceId, const QString &reason)
{
    Q_EMIT failed(instanceId, u"cannot remove: "_s + reason);
    m_queue.end(instanceId);
}

void InstanceTeardown::doRemove(const QString &instanceId)
{
    // Known from the last listing or from its launch (this provider's by label either way):
    // removed by id, without a `ps`, which reads the state of every container the engine holds
    // (hundreds of removals at once each asking for one made podman's calls time out).
    const QString known = m_cache.info(instanceId).containerId;
    if (!known.isEmpty())
        return removeContainers(instanceId, {known}, true);
    m_engine.findContainer(
        instanceId,
        [this, instanceId](bool ok, const QString &error, const QList<cli::ContainerInfo> &found) {
            if (!ok)
                return failRemoval(instanceId, error);
            if (found.isEmpty())
                return removeVolumes(instanceId);
            QStringList ids;
            for (const cli::ContainerInfo &info : found)
                ids.append(info.containerId);
            removeContainers(instanceId, ids, false);
        });
}

void InstanceTeardown::removeContainers(const QString &instanceId, const QStringList &ids,
                                        bool goneIsDone)
{
    m_engine.run(
        cli::forceRemoveArgs(m_engine.engine(), ids),
        [this, instanceId, goneIsDone](const ProcessResult &r) {
            // A container the cache knew may have been removed since (by hand, by an
            // earlier removal): nothing of it left to remove.
            const bool gone = goneIsDone && r.started && !r.timedOut
                && cli::classify(QString::fromUtf8(r.err)) == cli::Failure::NoSuchContainer;
            if (!r.ok() && !gone)
                return failRemoval(instanceId, EngineCommands::describe(r, m_engine.what(u"rm"_s)));
            m_cache.setRunning(instanceId, false);
            removeVolumes(instanceId);
        });
}

void InstanceTeardown::removeVolumes(const QString &instanceId)
{
    m_engine.run({u"volume"_s, u"ls"_s, u"--filter"_s,
                  u"label="_s + box::kInstance + u'=' + instanceId, u"--format"_s, u"json"_s},
                 [this, instanceId](const ProcessResult &ls) {
                     if (!ls.ok())
                         return failRemoval(
                             instanceId,
                             EngineCommands::describe(ls, m_engine.what(u"volume ls"_s)));
                     // Volume label filters are ORed by podman: the rest is checked here.
                     QStringList names;
                     const QList<cli::VolumeInfo> volumes = cli::parseVolumeList(ls.out);
                     for (const cli::VolumeInfo &volume : volumes) {
                         if (volume.labels.value(box::kInstance) == instanceId
                             && volume.labels.value(box::kProvider) == m_engine.providerId())
                             names.append(volume.name);
                     }
                     removeNamedVolumes(instanceId, names);
                 });
}

void InstanceTeardown::removeNamedVolumes(const QString &instanceId, const QStringList &names)
{
    auto finish = [this, instanceId] { finishRemoval(instanceId); };
    if (names.isEmpty())
        return m_networks.remove(instanceId, finish);
    m_engine.run(QStringList{u"volume"_s, u"rm"_s, u"-f"_s} + names,
                 [this, instanceId, finish](const ProcessResult &rm) {
                     if (!rm.ok())
                         return failRemoval(
                             instanceId,
                             EngineCommands::describe(rm, m_engine.what(u"volume rm"_s)));
                     m_networks.remove(instanceId, finish);
                 });
}

void InstanceTeardown::finishRemoval(const QString &instanceId)
{
    if (!m_settings.dataDir.isEmpty() && !InstanceFiles::remove(m_settings.dataDir, instanceId))
        qCWarning(lcCli) << "could not delete the files of instance" << instanceId;
    m_cache.forget(instanceId);
    m_cache.dropSshDir(instanceId);
    Q_EMIT removed(instanceId);
    m_queue.end(instanceId);
}

} // namespace cardhour::sim
