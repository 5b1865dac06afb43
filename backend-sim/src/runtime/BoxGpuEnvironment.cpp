#include "BoxGpuEnvironment.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

QString simulatedCardUuid(const QString &instanceId, int index)
{
    const QByteArray hash =
        QCryptographicHash::hash((instanceId + u'/' + QString::number(index)).toUtf8(),
                                 QCryptographicHash::Sha256)
            .toHex();
    return u"GPU-sim-%1-%2-%3-%4-%5"_s.arg(
        QString::fromLatin1(hash.mid(0, 8)), QString::fromLatin1(hash.mid(8, 4)),
        QString::fromLatin1(hash.mid(12, 4)), QString::fromLatin1(hash.mid(16, 4)),
        QString::fromLatin1(hash.mid(20, 12)));
}

QByteArray initialGpuStatus(const InstanceSpec &spec, qint64 nowMs)
{
    QJsonArray gpus;
    const int count = spec.gpuCards.isEmpty() ? spec.gpuCount : int(spec.gpuCards.size());
    for (int i = 0; i < count; ++i)
        gpus.append(QJsonObject{
            {u"index"_s, i},
            {u"name"_s, spec.gpuName.isEmpty() ? spec.gpuType : spec.gpuName},
            {u"uuid"_s, simulatedCardUuid(spec.instanceId, i)},
            {u"bus_id"_s, u"00000000:%1:00.0"_s.arg(i + 1, 2, 16, QChar(u'0')).toUpper()},
            {u"memory_total_mib"_s, spec.gpuVramMib},
            {u"memory_used_mib"_s, 0},
            {u"utilization_gpu"_s, 0},
            {u"utilization_memory"_s, 0},
            {u"temperature_c"_s, 30},
            {u"power_draw_w"_s, 20},
            {u"power_limit_w"_s, 300},
            {u"fan_speed_pct"_s, 30},
            {u"pstate"_s, u"P8"_s}});
    const QJsonObject status{{u"format"_s, u"cardhour-gpu-status/1"_s},
                             {u"simulated"_s, true},
                             {u"updated_at_unix"_s, double(nowMs) / 1000.0},
                             {u"gpu_type"_s, spec.gpuType},
                             // The box's topology from its first second (telemetry's first
                             // pass may come after the user's first nvidia-smi).
                             {u"nvlinks"_s, spec.gpuNvlinks},
                             {u"gpus"_s, gpus}};
    return QJsonDocument(status).toJson(QJsonDocument::Compact);
}

} // namespace cardhour::sim
