#include "BoxHardware.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

QJsonObject BoxHardware::toJson() const
{
    QJsonArray cards;
    for (qsizetype i = 0; i < gpuNames.size(); ++i)
        cards.append(
            QJsonObject{{u"name"_s, gpuNames.at(i)}, {u"vram_mib"_s, gpuVramMib.value(i, -1)}});
    const auto known = [](auto value) { return value < 0 ? QJsonValue() : QJsonValue(value); };
    return {{u"gpu_count"_s, known(gpuCount)},
            {u"gpus"_s, cards},
            {u"cpus"_s, cpus > 0 ? QJsonValue(cpus) : known(cpusOnline)},
            {u"memory_mib"_s, memoryMib > 0 ? QJsonValue(memoryMib) : QJsonValue()},
            {u"memory_limited"_s, memoryMib > 0},
            {u"workspace_bytes"_s, known(workspaceBytes)},
            {u"workspace_bounded"_s, workspaceBounded}};
}

namespace boxhardware {

namespace {
void readGpuLine(BoxHardware &hw, const QString &value)
{
    const qsizetype comma = value.lastIndexOf(u',');
    if (value.trimmed().isEmpty() || comma < 0)
        return;
    hw.gpuNames.append(value.first(comma).trimmed());
    bool ok = false;
    const qint64 mib = value.sliced(comma + 1).trimmed().toLongLong(&ok);
    hw.gpuVramMib.append(ok ? mib : -1);
}

// "max 100000", "150000 100000" (v2) or "-1 100000", "150000 100000" (v1): CPUs, 0 for none.
double cpusOf(const QString &value)
{
    const QStringList parts = value.split(u' ', Qt::SkipEmptyParts);
    if (parts.size() != 2 || parts.first() == u"max"_s || parts.first().startsWith(u'-'))
        return 0;
    const double quota = parts.at(0).toDouble();
    const double period = parts.at(1).toDouble();
    return period > 0 ? quota / period : 0;
}
} // namespace

BoxHardware parse(const QByteArray &output, const QString &startId)
{
    BoxHardware hw;
    bool ended = false;
    bool listed = false;
    QString start;
    for (const QByteArray &raw : output.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line == u"end"_s)
            ended = true;
        const qsizetype eq = line.indexOf(u'=');
        if (eq <= 0)
            continue;
        const QString key = line.first(eq);
        const QString value = line.sliced(eq + 1).trimmed();
        if (key == u"start"_s)
            start = value;
        else if (key == u"cpu_max"_s)
            hw.cpus = cpusOf(value);
        else if (key == u"cpus_online"_s)
            hw.cpusOnline = value.toInt();
        else if (key == u"memory_max"_s) {
            const qint64 bytes = value.toLongLong();
            // "max", or v1's "no limit" (a huge number): no limit.
            hw.memoryMib = value == u"max"_s || bytes <= 0 || bytes >= (qint64(1) << 60)
                ? 0
                : bytes / (1024 * 1024);
        } else if (key == u"workspace_bytes"_s && !value.isEmpty())
            hw.workspaceBytes = value.toLongLong();
        else if (key == u"gpu"_s)
            readGpuLine(hw, value);
        else if (key == u"gpus_listed"_s)
            listed = true;
        else if (key == u"gpu_error"_s)
            hw.gpuError = value;
    }
    if (!ended)
        hw.error = u"the box did not answer the hardware check"_s;
    else if (!startId.isEmpty() && start != startId)
        hw.error = u"the box's hardware report is not this start's"_s;
    // nvidia-smi that fails for want of cards lists none.
    hw.gpuCount = listed || !hw.gpuError.isEmpty() ? int(hw.gpuNames.size()) : -1;
    return hw;
}

} // namespace boxhardware
} // namespace cardhour::sim
