#include "ContainerRuntime.h"

#include <QTimer>

#include <algorithm>

namespace cardhour::sim {

ContainerRuntime::~ContainerRuntime() = default;

void applyShortfall(const BoxShortfall &shortfall, InstanceSpec &spec)
{
    if (shortfall.gpuCount > 0 && shortfall.gpuCount < spec.gpuCount) {
        spec.gpuCount = shortfall.gpuCount;
        spec.gpuCards = spec.gpuCards.mid(0, shortfall.gpuCount);
    }
    if (shortfall.cpus > 0)
        spec.cpus = spec.cpus > 0 ? std::min(spec.cpus, shortfall.cpus) : shortfall.cpus;
    if (shortfall.memoryMib > 0)
        spec.memoryMib = spec.memoryMib > 0 ? std::min(spec.memoryMib, shortfall.memoryMib)
                                            : shortfall.memoryMib;
    if (shortfall.diskGib > 0)
        spec.diskGib = std::min(spec.diskGib, shortfall.diskGib);
}

void ContainerRuntime::countConnections(const QStringList &instanceIds)
{
    QHash<QString, int> none;
    for (const QString &id : instanceIds)
        none.insert(id, 0);
    QTimer::singleShot(0, this, [this, none] { Q_EMIT connectionsCounted(none); });
}

void ContainerRuntime::findLeftovers()
{
    QTimer::singleShot(0, this, [this] { Q_EMIT leftoversFound({}, true); });
}

} // namespace cardhour::sim
