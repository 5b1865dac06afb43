#include "BoxGpuEnvironment.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

QList<QPair<QString, QString>> boxGpuEnvironment(const InstanceSpec &spec)
{
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
