#pragma once

#include "runtime/ContainerRuntime.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace cardhour::sim {

// The variables a box's shells and apps get for the cards it is lent, as on a rented host with
// the NVIDIA container toolkit: NVIDIA_VISIBLE_DEVICES names the lent cards as the host numbers
// them, CUDA_VISIBLE_DEVICES the box's own 0..n-1, and a host with several cards gets NCCL
// settings for one machine (bootstrap over loopback, no InfiniBand in a box).
// A box lent a MIG slice gets its MIG device's UUID instead, as the toolkit passes a MIG device.
QList<QPair<QString, QString>> boxGpuEnvironment(const InstanceSpec &spec);

// The UUID of the MIG device an instance is lent ("MIG-…", as `nvidia-smi -L` shows it): one per
// instance, the same in the box's environment and in its status file.
QString migDeviceUuid(const QString &instanceId);
// A simulated card's UUID, "GPU-sim-…", the same for an instance's card `index` every time.
QString simulatedCardUuid(const QString &instanceId, int index);
// The first simulated-card status file (cardhour-gpu-status/1) for the cards a box is given, so
// its nvidia-smi lists them from the first second (the live numbers follow once it runs).
QByteArray initialGpuStatus(const InstanceSpec &spec, qint64 nowMs);

} // namespace cardhour::sim
