#include "HardwareCheckModel.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace cardhour::core {

std::optional<HardwareCheck> HardwareCheck::fromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    HardwareCheck c;
    c.passed = o.value("status"_L1).toString() == "passed"_L1;
    c.checkedAt = QDateTime::fromString(o.value("checked_at"_L1).toString(), Qt::ISODateWithMs);
    for (const QJsonValue &d : o.value("differences"_L1).toArray())
        c.differences.append(d.toString());
    const QJsonObject ordered = o.value("ordered"_L1).toObject();
    c.orderedGpuCount = ordered.value("gpu_count"_L1).toInt();
    c.orderedGpuName = ordered.value("gpu_name"_L1).toString();
    c.orderedVramMib = ordered.value("vram_mib"_L1).toInteger();
    c.orderedCpus = ordered.value("cpus"_L1).toDouble();
    c.orderedMemoryMib = ordered.value("memory_mib"_L1).toInteger();
    c.orderedDiskGib = ordered.value("disk_gib"_L1).toInteger();
    const QJsonObject found = o.value("found"_L1).toObject();
    if (found.value("gpu_count"_L1).isDouble())
        c.foundGpuCount = found.value("gpu_count"_L1).toInt();
    for (const QJsonValue &card : found.value("gpus"_L1).toArray())
        c.foundCards.append({card.toObject().value("name"_L1).toString(),
                             card.toObject().value("vram_mib"_L1).toInteger()});
    if (found.value("cpus"_L1).isDouble())
        c.foundCpus = found.value("cpus"_L1).toDouble();
    if (found.value("memory_mib"_L1).isDouble())
        c.foundMemoryMib = found.value("memory_mib"_L1).toInteger();
    if (found.value("workspace_bytes"_L1).isDouble())
        c.foundWorkspaceBytes = found.value("workspace_bytes"_L1).toInteger();
    c.workspaceBounded = found.value("workspace_bounded"_L1).toBool();
    return c;
}

} // namespace cardhour::core
