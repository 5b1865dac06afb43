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

void ContainerRuntime::failNextLaunch(const QString &reason, const QString &ownerId,
                                      const QString &tag)
{
    m_armedFailures.append({reason, ownerId, tag});
}

void ContainerRuntime::cancelLaunchFailure(const QString &tag)
{
    m_armedFailures.removeIf([&tag](const ArmedFailure &armed) { return armed.tag == tag; });
}

QString ContainerRuntime::takeLaunchFailure(const InstanceSpec &spec)
{
    for (qsizetype i = 0; i < m_armedFailures.size(); ++i) {
        const ArmedFailure &armed = m_armedFailures.at(i);
        if (!armed.ownerId.isEmpty() && armed.ownerId != spec.ownerId)
            continue;
        const ArmedFailure used = m_armedFailures.takeAt(i);
        QTimer::singleShot(0, this, [this, used, id = spec.instanceId] {
            Q_EMIT launchFailureUsed(used.tag, id, used.reason);
        });
        return used.reason;
    }
    return {};
}

void ContainerRuntime::refuseBoxFault(const QString &instanceId, const QString &fault)
{
    const QString why = boxFaultsUnsupportedReason();
    QTimer::singleShot(0, this, [this, instanceId, fault, why] {
        Q_EMIT boxFaultDone(instanceId, fault, false, why);
    });
}

void ContainerRuntime::dropSshConnections(const QString &instanceId)
{
    refuseBoxFault(instanceId, QStringLiteral("drop_ssh"));
}

void ContainerRuntime::fillWorkspace(const QString &instanceId)
{
    refuseBoxFault(instanceId, QStringLiteral("fill_disk"));
}

void ContainerRuntime::unfillWorkspace(const QString &instanceId)
{
    refuseBoxFault(instanceId, QStringLiteral("unfill_disk"));
}

void ContainerRuntime::findLeftovers()
{
    QTimer::singleShot(0, this, [this] { Q_EMIT leftoversFound({}, true); });
}

} // namespace cardhour::sim
