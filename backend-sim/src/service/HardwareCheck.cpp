#include "HardwareCheck.h"

#include "InstanceRecords.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// "24 GiB", "23.9 GiB": sizes as people read them.
QString gib(double mib)
{
    const double value = mib / 1024.0;
    return std::abs(value - std::round(value)) < 0.05 ? u"%1 GiB"_s.arg(std::llround(value))
                                                      : u"%1 GiB"_s.arg(value, 0, 'f', 1);
}

QString cpuCount(double cpus)
{
    return std::abs(cpus - std::round(cpus)) < 0.01 ? QString::number(std::llround(cpus))
                                                    : QString::number(cpus, 'f', 2);
}

// ext4's own metadata takes a few percent of a disk of the ordered size.
constexpr double kFileSystemShare = 0.9;

QStringList cardDifferences(const InstanceSpec &ordered, const BoxHardware &found)
{
    QStringList out;
    const QString order =
        u"%1 × %2 %3"_s.arg(ordered.gpuCount).arg(ordered.gpuName, gib(ordered.gpuVramMib));
    if (found.gpuCount < 0) {
        out.append(u"ordered %1, the box's cards could not be listed (%2)"_s.arg(
            order, found.gpuError.isEmpty() ? u"no nvidia-smi answer"_s : found.gpuError));
        return out;
    }
    if (found.gpuCount != ordered.gpuCount)
        out.append(u"ordered %1, the box has %2"_s.arg(order).arg(found.gpuCount));
    for (qsizetype i = 0; i < found.gpuNames.size(); ++i) {
        if (found.gpuNames.at(i) != ordered.gpuName)
            out.append(u"ordered %1, card %2 of the box is a %3"_s.arg(order).arg(i).arg(
                found.gpuNames.at(i)));
        else if (found.gpuVramMib.value(i, -1) < ordered.gpuVramMib)
            out.append(u"ordered %1 per card, card %2 of the box has %3"_s.arg(
                gib(ordered.gpuVramMib), QString::number(i),
                found.gpuVramMib.value(i, -1) < 0 ? u"an unknown amount"_s
                                                  : gib(found.gpuVramMib.value(i))));
    }
    return out;
}
} // namespace

HardwareCheck::HardwareCheck(Database &db, InstanceRecords &records) : m_db(db), m_records(records)
{}

QStringList HardwareCheck::differences(const InstanceSpec &ordered, const BoxHardware &found)
{
    if (!found.error.isEmpty())
        return {u"the box could not be checked: "_s + found.error};
    QStringList out = cardDifferences(ordered, found);
    // No quota means the host's CPUs, all of them.
    const double cpus = found.cpus > 0 ? found.cpus : found.cpusOnline;
    if (ordered.cpus > 0 && cpus >= 0 && cpus + 0.01 < ordered.cpus)
        out.append(
            u"ordered %1 CPUs, the box has %2"_s.arg(cpuCount(ordered.cpus), cpuCount(cpus)));
    if (ordered.memoryMib > 0 && found.memoryMib > 0 && found.memoryMib < ordered.memoryMib)
        out.append(u"ordered %1 of memory, the box has %2"_s.arg(gib(ordered.memoryMib),
                                                                 gib(found.memoryMib)));
    const double workspaceMib = double(found.workspaceBytes) / (1024.0 * 1024.0);
    if (found.workspaceBounded && ordered.diskGib > 0
        && (found.workspaceBytes < 0 || workspaceMib < ordered.diskGib * 1024.0 * kFileSystemShare))
        out.append(u"ordered /workspace %1, the box has %2"_s.arg(
            gib(ordered.diskGib * 1024.0),
            found.workspaceBytes < 0 ? u"none"_s : gib(workspaceMib)));
    return out;
}

QJsonObject HardwareCheck::orderedJson(const InstanceSpec &ordered)
{
    return {{u"gpu_count"_s, ordered.gpuCount},   {u"gpu_name"_s, ordered.gpuName},
            {u"vram_mib"_s, ordered.gpuVramMib},  {u"cpus"_s, ordered.cpus},
            {u"memory_mib"_s, ordered.memoryMib}, {u"disk_gib"_s, ordered.diskGib}};
}

HardwareCheck::Verdict HardwareCheck::judge(const QString &instanceId, const BoxHardware &found,
                                            qint64 nowMs)
{
    const InstanceSpec ordered = m_records.specFor(instanceId);
    Verdict verdict;
    verdict.differences = differences(ordered, found);
    verdict.passed = verdict.differences.isEmpty();
    verdict.json = {{u"status"_s, verdict.passed ? u"passed"_s : u"failed"_s},
                    {u"checked_at"_s, json::isoTime(nowMs)},
                    {u"ordered"_s, orderedJson(ordered)},
                    {u"found"_s, found.toJson()},
                    {u"differences"_s, QJsonArray::fromStringList(verdict.differences)}};
    m_db.exec(
        u"INSERT INTO instance_hardware_checks(instance_id, launch_seq, checked_at, passed,"
        " result) SELECT id, launch_seq, CAST(? AS BIGINT), CAST(? AS INTEGER),"
        " CAST(? AS TEXT) FROM instances WHERE id = ?"
        " ON CONFLICT (instance_id, launch_seq) DO UPDATE SET checked_at = excluded.checked_at,"
        " passed = excluded.passed, result = excluded.result"_s,
        {nowMs, verdict.passed ? 1 : 0,
         QString::fromUtf8(QJsonDocument(verdict.json).toJson(QJsonDocument::Compact)),
         instanceId});
    return verdict;
}

} // namespace cardhour::sim
