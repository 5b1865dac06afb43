#include "LaunchSteps.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

LaunchSteps::LaunchSteps(EngineCommands &engine, InstanceOpQueue &queue, ContainerCache &cache,
                         QObject *parent)
    : QObject(parent), m_engine(engine), m_queue(queue), m_cache(cache)
{}

bool LaunchSteps::abandoned(const Launch &launch)
{
    if (current(launch))
        return false;
    m_queue.end(launch.id());
    return true;
}

void LaunchSteps::fail(const std::shared_ptr<Launch> &launch, const QString &reason,
                       bool stopContainer)
{
    const QString id = launch->id();
    if (!current(*launch)) {
        m_queue.end(id);
        return;
    }
    qCWarning(lcCli).noquote() << "instance" << id << "failed:" << reason;
    if (!stopContainer || launch->containerId.isEmpty()) {
        Q_EMIT failed(id, reason);
        m_queue.end(id);
        return;
    }
    m_engine.run({u"stop"_s, u"-t"_s, u"2"_s, launch->containerId},
                 [this, launch, reason](const ProcessResult &) {
                     const QString instanceId = launch->id();
                     m_cache.setRunning(instanceId, false);
                     if (current(*launch))
                         Q_EMIT failed(instanceId, reason);
                     m_queue.end(instanceId);
                 });
}

void LaunchSteps::failWithContainerLog(const std::shared_ptr<Launch> &launch, const QString &reason,
                                       bool stopContainer)
{
    m_engine.run({u"logs"_s, u"--tail"_s, u"15"_s, launch->containerId},
                 [this, launch, reason, stopContainer](const ProcessResult &logs) {
                     const QString log = cli::tail(logs.out + logs.err, 500);
                     fail(launch, log.isEmpty() ? reason : reason + u"; container log: "_s + log,
                          stopContainer);
                 });
}

} // namespace cardhour::sim
