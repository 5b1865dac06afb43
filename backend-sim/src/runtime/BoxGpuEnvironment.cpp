#include "BoxGpuEnvironment.h"

#include <QCryptographicHash>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

QString migDeviceUuid(const QString &instanceId)
{
    const QByteArray hash =
        QCryptographicHash::hash((instanceId + u"/mig"_s).toUtf8(), QCryptographicHash::Sha256)
            .toHex();
    return u"MIG-%1-%2-%3-%4-%5"_s.arg(
        QString::fromLatin1(hash.first(8)), QString::fromLatin1(hash.sliced(8, 4)),
        QString::fromLatin1(hash.sliced(12, 4)), QString::fromLatin1(hash.sliced(16, 4)),
        QString::fromLatin1(hash.sliced(20, 12)));
}

QList<QPair<QString, QString>> boxGpuEnvironment(const InstanceSpec &spec)
{
    if (!spec.gpuMigProfile.isEmpty()) // one MIG device: CUDA's device 0 in the box
        return {{u"NVIDIA_VISIBLE_DEVICES"_s, migDeviceUuid(spec.instanceId)},
                {u"CUDA_VISIBLE_DEVICES"_s, u"0"_s},
                {u"CUDA_DEVICE_ORDER"_s, u"PCI_BUS_ID"_s}};
    const qsizetype count = spec.gpuCards.isEmpty() ? spec.gpuCount : spec.gpuCards.size();
    if (count <= 0)
        return {};
    QStringList hostCards, boxCards;
    for (qsizetype i = 0; i < count; ++i) {
        boxCards << QString::number(i);
        hostCards << QString::number(spec.gpuCards.isEmpty() ? int(i) : spec.gpuCards.at(i));
    }
    QList<QPair<QString, QString>> env{{u"NVIDIA_VISIBLE_DEVICES"_s, hostCards.join(u',')},
                                       {u"CUDA_VISIBLE_DEVICES"_s, boxCards.join(u',')},
                                       {u"CUDA_DEVICE_ORDER"_s, u"PCI_BUS_ID"_s}};
    if (count > 1) {
        // All ranks are on this one machine: NCCL bootstraps over loopback and talks through
        // shared memory and P2P; there is no InfiniBand adapter in a box.
        env.append({u"NCCL_SOCKET_IFNAME"_s, u"lo"_s});
        env.append({u"NCCL_IB_DISABLE"_s, u"1"_s});
        env.append({u"NCCL_DEBUG"_s, u"WARN"_s});
    }
    return env;
}

} // namespace cardhour::sim
