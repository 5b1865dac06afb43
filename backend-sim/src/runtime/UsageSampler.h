#pragma once

#include "CgroupStats.h"
#include "ContainerCache.h"
#include "ContainerRuntime.h"
#include "EngineCommands.h"

#include <QHash>
#include <QObject>

namespace cardhour::sim {

// CPU and memory of every running box at once: from each container's cgroup (CgroupStats)
// where this host has it, else one `stats --no-stream` call for all the others.
class UsageSampler final : public QObject
{
    Q_OBJECT
public:
    UsageSampler(EngineCommands &engine, const ContainerCache &cache, QObject *parent = nullptr);

    void sample(); // → sampled

Q_SIGNALS:
    void sampled(const QHash<QString, cardhour::sim::ResourceUsage> &byInstance);

private:
    // Adds what `stats` printed for the containers not measured by their cgroup.
    void addStats(QHash<QString, ResourceUsage> &usage, const QHash<QString, QString> &unmeasured,
                  const QByteArray &out) const;

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
    CgroupStats m_cgroups;
    bool m_statsInFlight = false;
};

} // namespace cardhour::sim
