#include "UsageSampler.h"

namespace cardhour::sim {

UsageSampler::UsageSampler(EngineCommands &engine, const ContainerCache &cache, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache)
{}

void UsageSampler::sample()
{
    QHash<QString, ResourceUsage> usage;
    QHash<QString, QString> unmeasured; // container id → instance id
    for (auto it = m_cache.all().cbegin(); it != m_cache.all().cend(); ++it) {
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
        Q_EMIT sampled(usage);
        return;
    }
    // Cgroups out of reach (a remote engine, rootless without delegation): one call for all.
    m_statsInFlight = true;
    m_engine.run(
        cli::statsArgs(m_engine.engine()),
        [this, usage, unmeasured](const ProcessResult &r) mutable {
            m_statsInFlight = false;
            if (r.ok())
                addStats(usage, unmeasured, r.out);
            else
                qCDebug(lcCli).noquote()
                    << EngineCommands::describe(r, m_engine.what(QStringLiteral("stats")));
            Q_EMIT sampled(usage);
        },
        10000);
}

void UsageSampler::addStats(QHash<QString, ResourceUsage> &usage,
                            const QHash<QString, QString> &unmeasured, const QByteArray &out) const
{
    const QHash<QString, cli::StatsLine> stats = cli::parseStats(m_engine.engine(), out);
    for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
        // docker prints short ids, podman long ones; the cache has what ps printed.
        for (auto u = unmeasured.cbegin(); u != unmeasured.cend(); ++u) {
            if (u.key().startsWith(it.key()) || it.key().startsWith(u.key())) {
                usage.insert(u.value(),
                             ResourceUsage{it->cpuNanos, it->cpuPercent, it->memoryBytes,
                                           it->memoryLimitBytes});
                break;
            }
        }
    }
}

} // namespace cardhour::sim
