#include "api/ChaosFaults.h"

#include "api/Models.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace cardhour::core {

ChaosFault ChaosFault::fromJson(const QJsonObject &o)
{
    ChaosFault f;
    f.id = o.value("id"_L1).toString();
    f.kind = o.value("kind"_L1).toString();
    f.state = o.value("state"_L1).toString();
    f.instanceId = o.value("instance_id"_L1).toString();
    f.createdAt = parseTime(o.value("created_at"_L1));
    f.firedAt = parseTime(o.value("fired_at"_L1));
    f.detail = o.value("detail"_L1).toString();
    f.reason = o.value("reason"_L1).toString();
    f.failedInstanceId = o.value("failed_instance_id"_L1).toString();
    f.delayMs = o.value("delay_ms"_L1).toInt();
    f.durationS = o.value("duration_s"_L1).toInt();
    f.expiresAt = parseTime(o.value("expires_at"_L1));
    return f;
}

QString ChaosFault::describe(const QString &hostName, const QTimeZone &zone) const
{
    const QString host = hostName.isEmpty() ? instanceId : hostName;
    const QString until =
        QLocale().toString(expiresAt.toTimeZone(zone).time(), QLocale::ShortFormat);
    if (kind == "fail_launch"_L1 && state == "armed"_L1)
        return tr("Rehearsal: your next launch will fail (%1).").arg(reason);
    if (kind == "fail_launch"_L1 && state == "done"_L1)
        return tr("Rehearsal: the launch of %1 failed on purpose (%2).")
            .arg(hostName.isEmpty() ? failedInstanceId : hostName, reason);
    if (kind == "slow_api"_L1 && state == "active"_L1)
        return tr("Rehearsal: the provider holds every answer %1 ms until %2.")
            .arg(delayMs)
            .arg(until);
    if (kind == "slow_api"_L1 && (state == "expired"_L1 || state == "cleared"_L1))
        return tr("Rehearsal over: the provider answers at its own pace again.");
    if (kind == "drop_ssh"_L1 && state == "pending"_L1)
        return tr("Rehearsal: cutting the SSH connections of %1…").arg(host);
    if (kind == "drop_ssh"_L1 && state == "done"_L1)
        return tr("Rehearsal: the SSH connections of %1 were cut (%2).").arg(host, detail);
    if (kind == "fill_disk"_L1 && state == "pending"_L1)
        return tr("Rehearsal: filling /workspace of %1…").arg(host);
    if (kind == "fill_disk"_L1 && state == "active"_L1)
        return tr("Rehearsal: /workspace of %1 is full (%2).").arg(host, detail);
    if (kind == "fill_disk"_L1 && state == "clearing"_L1)
        return tr("Rehearsal: freeing /workspace of %1…").arg(host);
    if (kind == "fill_disk"_L1 && state == "cleared"_L1)
        return tr("Rehearsal over: /workspace of %1 was freed (%2).").arg(host, detail);
    if (state == "failed"_L1)
        return tr("Rehearsal on %1 could not be done: %2").arg(host, detail);
    if (state == "cleared"_L1)
        return tr("Rehearsal cleared before it took effect.");
    return tr("Rehearsal %1 is %2.").arg(kind, state);
}

QJsonObject NewChaosFault::toJson() const
{
    QJsonObject o{{u"kind"_s, kind}};
    if (!instanceId.isEmpty())
        o.insert(u"instance_id"_s, instanceId);
    if (!reason.isEmpty())
        o.insert(u"reason"_s, reason);
    if (delayMs > 0)
        o.insert(u"delay_ms"_s, delayMs);
    if (durationS > 0)
        o.insert(u"duration_s"_s, durationS);
    return o;
}

} // namespace cardhour::core
