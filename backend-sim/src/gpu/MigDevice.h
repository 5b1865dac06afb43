#pragma once

#include "service/Catalog.h"

#include <QJsonObject>
#include <QString>

namespace cardhour::sim {

// What a box lent a MIG slice shows of it (the status file's `mig` member of its card, which
// the box's nvidia-smi and NVML stand-in read): the profile, the GPU instance at its placement
// and the MIG device's own UUID, as `nvidia-smi -L` and `nvidia-smi mig -lgi` print them.
QJsonObject migDeviceJson(const QString &instanceId, const GpuSlice &slice, int placementStart,
                          int cardVramMib);

// The GPU instance id nvidia-smi gives a slice at this placement: 0 for the whole card, then
// the larger profiles' places first, as the driver numbers them on an A100 or H100.
int gpuInstanceId(const GpuSlice &slice, int placementStart);

} // namespace cardhour::sim
