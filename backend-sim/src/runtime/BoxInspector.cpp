#include "BoxInspector.h"

#include "BoxNames.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// The script waits up to 3 s for a card status file; the engine's exec adds its own start-up.
constexpr int kInspectTimeoutMs = 30'000;
} // namespace

BoxInspector::BoxInspector(EngineCommands &engine, const ContainerCache &cache,
                           bool workspaceBounded, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache), m_workspaceBounded(workspaceBounded)
{}

void BoxInspector::inspect(const QString &instanceId)
{
    // The container as last seen, else by its name (both are this provider's box).
    const auto it = m_cache.all().constFind(instanceId);
    const QString container = it != m_cache.all().cend() && !it->containerId.isEmpty()
        ? it->containerId
        : box::containerName(instanceId);
    m_engine.run(
        {u"exec"_s, container, u"sh"_s, u"-c"_s, boxhardware::probeScript()},
        [this, instanceId](const ProcessResult &result) {
            BoxHardware found = boxhardware::parse(result.out);
            found.workspaceBounded = m_workspaceBounded;
            if (!found.error.isEmpty() && !result.ok())
                found.error = EngineCommands::describe(result, m_engine.what(u"exec"_s));
            Q_EMIT inspected(instanceId, found);
        },
        kInspectTimeoutMs);
}

void BoxInspector::findLeftovers()
{
    // Containers as last listed; volumes asked for now (they outlive a removed container).
    QHash<QString, QStringList> held;
    for (auto it = m_cache.all().cbegin(); it != m_cache.all().cend(); ++it)
        held[it.key()].append(it->running ? u"container (running)"_s : u"container"_s);
    m_engine.run(
        {u"volume"_s, u"ls"_s, u"--filter"_s,
         u"label="_s + box::kProvider + u'=' + m_engine.providerId(), u"--format"_s, u"json"_s},
        [this, held](const ProcessResult &ls) mutable {
            if (!ls.ok())
                return Q_EMIT leftoversFound(held, false);
            for (const cli::VolumeInfo &volume : cli::parseVolumeList(ls.out)) {
                const QString id = volume.labels.value(box::kInstance);
                if (!id.isEmpty() && volume.labels.value(box::kProvider) == m_engine.providerId())
                    held[id].append(u"volume "_s + volume.name);
            }
            Q_EMIT leftoversFound(held, true);
        });
}

} // namespace cardhour::sim
