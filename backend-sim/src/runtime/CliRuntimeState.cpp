#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "SshProbe.h"

using namespace Qt::StringLiterals;

// The runtime's view of its containers: listings by label, and the cache they fill.

namespace cardhour::sim {

using namespace clidetail;

QStringList CliRuntime::labelFilter(const QString &instanceId) const
{
    QStringList args{u"--filter"_s, u"label="_s + kManaged + u"=true"_s, u"--filter"_s,
                     u"label="_s + kProvider + u'=' + m_options.providerId};
    if (!instanceId.isEmpty())
        args << u"--filter"_s << u"label="_s + kInstance + u'=' + instanceId;
    return args;
}

void CliRuntime::findContainer(
    const QString &instanceId,
    std::function<void(bool, const QString &, const QList<ContainerInfo> &)> done)
{
    runCli(QStringList{u"ps"_s, u"-a"_s} + labelFilter(instanceId)
               + QStringList{u"--format"_s, u"json"_s},
           [this, instanceId, done = std::move(done)](const ProcResult &r) {
               if (!r.ok()) {
                   done(false, describe(r, what(u"ps"_s)), {});
                   return;
               }
               QList<ContainerInfo> found;
               const QList<ContainerInfo> all =
                   cli::parseContainerList(r.out, m_options.providerId);
               for (const ContainerInfo &info : all) {
                   if (info.instanceId == instanceId)
                       found.append(info);
               }
               done(true, {}, found);
           });
}

// ---- the cache ------------------------------------------------------------------------------

void CliRuntime::remember(const ContainerInfo &info)
{
    m_containers.insert(info.instanceId, info);
    m_touched.insert(info.instanceId, ++m_stamp);
}

void CliRuntime::setRunning(const QString &instanceId, bool running)
{
    auto it = m_containers.find(instanceId);
    if (it != m_containers.end()) {
        it->running = running;
        it->state = running ? u"running"_s : u"exited"_s;
    }
    m_touched.insert(instanceId, ++m_stamp);
}

void CliRuntime::forget(const QString &instanceId)
{
    m_containers.remove(instanceId);
    m_appPorts.remove(instanceId);
    m_touched.insert(instanceId, ++m_stamp);
}

void CliRuntime::applyRefresh(const QList<ContainerInfo> &found, quint64 stampAtStart)
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

QSet<int> CliRuntime::reservedPorts() const
{
    QSet<int> ports;
    for (const ContainerInfo &info : m_containers) {
        for (const int port : info.ports)
            ports.insert(port);
    }
    return ports;
}

bool CliRuntime::isRunning(const QString &instanceId) const
{
    return m_containers.value(instanceId).running;
}

int CliRuntime::sshPortOf(const QString &instanceId) const
{
    return m_containers.value(instanceId).sshPort;
}

QHash<int, int> CliRuntime::publishedPortsOf(const QString &instanceId) const
{
    return m_containers.value(instanceId).ports;
}

bool CliRuntime::hasPendingWork(const QString &instanceId) const
{
    const auto it = m_ops.constFind(instanceId);
    return it != m_ops.cend() && (it->busy || !it->queue.isEmpty());
}

void CliRuntime::refresh()
{
    const quint64 stamp = m_stamp;
    runCli(QStringList{u"ps"_s, u"-a"_s} + labelFilter({}) + QStringList{u"--format"_s, u"json"_s},
           [this, stamp](const ProcResult &r) {
               if (!r.ok()) {
                   qCWarning(lcCli).noquote() << describe(r, what(u"ps"_s));
                   Q_EMIT refreshed({}, false);
                   return;
               }
               applyRefresh(cli::parseContainerList(r.out, m_options.providerId), stamp);
               QHash<QString, bool> running;
               for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it)
                   running.insert(it.key(), it->running);
               Q_EMIT refreshed(running, true);
           });
}

} // namespace cardhour::sim

namespace cardhour::sim {

void CliRuntime::sampleUsage()
{
    QHash<QString, ResourceUsage> usage;
    QHash<QString, QString> unmeasured; // container id → instance id
    for (auto it = m_containers.cbegin(); it != m_containers.cend(); ++it) {
        if (!it->running)
            continue;
        const std::optional<CgroupStats::Reading> reading = m_cgroups.read(it->containerId);
        if (!reading) {
            unmeasured.insert(it->containerId, it.key());
            continue;
        }
        usage.insert(
            it.key(),
            ResourceUsage{reading->cpuNanos, -1, reading->memoryBytes, reading->memoryLimitBytes});
    }
    if (unmeasured.isEmpty() || m_statsInFlight) {
        Q_EMIT usageSampled(usage);
        return;
    }
    // Cgroups out of reach (a remote engine, rootless without delegation): one call for all.
    m_statsInFlight = true;
    runCli(
        cli::statsArgs(m_options.engine),
        [this, usage, unmeasured](const ProcResult &r) mutable {
            m_statsInFlight = false;
            if (r.ok()) {
                const QHash<QString, cli::StatsLine> stats =
                    cli::parseStats(m_options.engine, r.out);
                for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
                    // docker prints short ids, podman long ones; the cache has what ps printed.
                    for (auto u = unmeasured.cbegin(); u != unmeasured.cend(); ++u) {
                        if (u.key().startsWith(it.key()) || it.key().startsWith(u.key())) {
                            usage.insert(u.value(),
                                         ResourceUsage{it->cpuNanos, it->cpuPercent,
                                                       it->memoryBytes, it->memoryLimitBytes});
                            break;
                        }
                    }
                }
            } else {
                qCDebug(lcCli).noquote() << describe(r, what(u"stats"_s));
            }
            Q_EMIT usageSampled(usage);
        },
        10000);
}

} // namespace cardhour::sim
