#include "MigDevice.h"

#include "runtime/BoxGpuEnvironment.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

int gpuInstanceId(const GpuSlice &slice, int placementStart)
{
    if (slice.memorySlices >= slice.cardMemorySlices)
        return 0;
    if (slice.memorySlices * 2 >= slice.cardMemorySlices) // 3g/4g: half a card
        return 1 + placementStart * 2 / slice.cardMemorySlices;
    if (slice.memorySlices > 1) // 2g or 1g.20gb: a quarter
        return 3 + placementStart / slice.memorySlices;
    return 7 + placementStart; // 1g: an eighth
}

QJsonObject migDeviceJson(const QString &instanceId, const GpuSlice &slice, int placementStart,
                          int cardVramMib)
{
    return {{u"profile"_s, slice.profile},
            {u"profile_id"_s, slice.profileId},
            {u"gpu_instance_id"_s, gpuInstanceId(slice, placementStart)},
            {u"compute_instance_id"_s, 0},
            {u"placement_start"_s, placementStart},
            {u"placement_size"_s, slice.memorySlices},
            {u"compute_slices"_s, slice.computeSlices},
            {u"card_compute_slices"_s, slice.cardComputeSlices},
            {u"card_memory_total_mib"_s, cardVramMib},
            {u"uuid"_s, migDeviceUuid(instanceId)}};
}

} // namespace cardhour::sim
