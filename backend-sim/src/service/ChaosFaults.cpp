#include "ChaosFaults.h"

#include "EventBus.h"
#include "InstanceService.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"

#include <QDateTime>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
const QStringList kKinds{u"fail_launch"_s, u"slow_api"_s, u"drop_ssh"_s, u"fill_disk"_s,
                         u"interrupt"_s};
const QStringList kLiveStates{u"armed"_s, u"pending"_s, u"active"_s, u"clearing"_s};

bool actsOnHost(const QString &kind)
{
    return kind == u"drop_ssh"_s || kind == u"fill_disk"_s || kind == u"interrupt"_s;
}
} // namespace

ChaosFaults::ChaosFaults(ContainerRuntime &runtime, InstanceService &instances, EventBus &events,
                         const Clock &clock, QObject *parent)
    : QObject(parent), m_runtime(runtime), m_instances(instances), m_events(events), m_clock(clock)
{
    connect(&m_runtime, &ContainerRuntime::launchFailureUsed, this,
            &ChaosFaults::onLaunchFailureUsed);
    connect(&m_runtime, &ContainerRuntime::boxFaultDone, this, &ChaosFaults::onBoxFaultDone);
}

void ChaosFaults::requireAllowed() const
{
    if (!m_allowed)
        throw ApiError(403, ErrorCode::ChaosDisabled,
                       u"Rehearsed failures are off on this provider: its operator starts it "
                       "with --allow-chaos to allow them (the desktop client's sandbox does)."_s);
}

ChaosFaults::Fault ChaosFaults::parse(const QString &userId, const QByteArray &body) const
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(
        o, {u"kind"_s, u"instance_id"_s, u"reason"_s, u"delay_ms"_s, u"duration_s"_s});
    Fault f;
    f.userId = userId;
    f.kind = json::requiredString(o, u"kind"_s, 32);
    if (!kKinds.contains(f.kind))
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"kind\" must be one of: %1."_s.arg(kKinds.join(u", "_s)));
    const auto allow = [&](const QStringList &fields) {
        for (const QString &key : o.keys())
            if (key != u"kind"_s && !fields.contains(key))
                throw ApiError(400, ErrorCode::InvalidField,
                               u"Field \"%1\" does not apply to a %2 fault."_s.arg(key, f.kind));
    };
    if (actsOnHost(f.kind)) {
        allow({u"instance_id"_s});
        f.instanceId = json::requiredString(o, u"instance_id"_s, 64);
    } else if (f.kind == u"fail_launch"_s) {
        allow({u"reason"_s});
        f.reason = json::optionalString(o, u"reason"_s, 200).value_or(QString()).trimmed();
        if (f.reason.isEmpty())
            f.reason = u"launch failed on purpose"_s;
    } else {
        allow({u"delay_ms"_s, u"duration_s"_s});
        f.delayMs = int(json::requiredInteger(o, u"delay_ms"_s, 1, kMaxDelayMs));
        f.durationS = int(json::requiredInteger(o, u"duration_s"_s, 1, kMaxDurationS));
    }
    return f;
}

void ChaosFaults::requireRunningHost(const QString &userId, const Fault &fault)
{
    const QString state = m_instances.requireState(userId, fault.instanceId); // 404: not theirs
    // An interruption acts through the provider, not inside the box: any runtime can do it
    // (InstanceService::interrupt says 409 for a host that is not a running interruptible one).
    if (fault.kind == u"interrupt"_s)
        return;
    if (const QString why = m_runtime.boxFaultsUnsupportedReason(); !why.isEmpty())
        throw ApiError(409, ErrorCode::ChaosUnsupported,
                       u"A %1 fault acts inside the host, and %2."_s.arg(fault.kind, why));
    if (fault.kind == u"fill_disk"_s && !m_runtime.diskQuota().workspaceBounded())
        throw ApiError(409, ErrorCode::ChaosUnsupported,
                       u"/workspace is not bounded on this provider, so filling it would fill the "
                       "provider's own disk: %1"_s.arg(m_runtime.diskQuota().detail));
    if (state != u"running"_s)
        throw ApiError(
            409, ErrorCode::InvalidState,
            u"The instance is %1; a %2 fault needs it running."_s.arg(state, fault.kind));
    if (fault.kind == u"fill_disk"_s && liveBoxFault(fault.instanceId, fault.kind))
        throw ApiError(409, ErrorCode::InvalidState,
                       u"/workspace of this instance is already being filled or full: clear that "
                       "fault first."_s);
}

QJsonObject ChaosFaults::add(const QString &userId, const QByteArray &body)
{
    requireAllowed();
    Fault fault = parse(userId, body);
    if (actsOnHost(fault.kind))
        requireRunningHost(userId, fault);
    int live = 0;
    for (const Fault &f : std::as_const(m_faults))
        live += f.userId == userId && kLiveStates.contains(f.state) ? 1 : 0;
    if (live >= kMaxLiveFaults)
        throw ApiError(409, ErrorCode::LimitReached,
                       u"At most %1 faults may be armed or active at once; clear one first."_s.arg(
                           kMaxLiveFaults));
    fault.id = ids::newUuid();
    fault.createdMs = m_clock.nowMs();
    start(fault);
    m_faults.insert(fault.id, fault);
    m_order.append(fault.id);
    forgetOldFaults(userId);
    publish(fault);
    return toJson(fault);
}

void ChaosFaults::start(Fault &fault)
{
    if (fault.kind == u"fail_launch"_s) {
        fault.state = u"armed"_s;
        fault.reason = u"%1 [chaos fault %2]"_s.arg(fault.reason, fault.id);
        m_runtime.failNextLaunch(fault.reason, fault.userId, fault.id);
    } else if (fault.kind == u"slow_api"_s) {
        fault.state = u"active"_s;
        fault.expiresMs = fault.createdMs + qint64(fault.durationS) * 1000;
        fault.realExpiry = QDateTime::currentMSecsSinceEpoch() + qint64(fault.durationS) * 1000;
        QTimer::singleShot(fault.durationS * 1000, this, [this, id = fault.id] { expire(id); });
    } else if (fault.kind == u"interrupt"_s) {
        // The same notice, deadline and millisecond billing as the provider's own interruption.
        const QJsonObject host = m_instances.interrupt(fault.instanceId, std::nullopt, u"chaos"_s);
        fault.state = u"done"_s;
        fault.firedMs = m_clock.nowMs();
        fault.detail =
            u"interrupted: stopped at %1"_s.arg(host.value(u"interruption_at"_s).toString());
    } else {
        fault.state = u"pending"_s;
        if (fault.kind == u"drop_ssh"_s)
            m_runtime.dropSshConnections(fault.instanceId);
        else
            m_runtime.fillWorkspace(fault.instanceId);
    }
}

QJsonArray ChaosFaults::list(const QString &userId)
{
    requireAllowed();
    QJsonArray out;
    for (auto it = m_order.crbegin(); it != m_order.crend(); ++it) {
        const Fault &f = m_faults[*it];
        if (f.userId == userId)
            out.append(toJson(f));
    }
    return out;
}

QJsonObject ChaosFaults::clear(const QString &userId, const QString &faultId)
{
    requireAllowed();
    Fault *fault = find(userId, faultId);
    if (!fault)
        throw ApiError(404, ErrorCode::NotFound, u"No chaos fault with this id."_s);
    if (!kLiveStates.contains(fault->state) || fault->state == u"clearing"_s)
        return toJson(*fault); // finished already: nothing to undo
    if (fault->kind == u"fill_disk"_s && fault->state == u"active"_s) {
        fault->state = u"clearing"_s;
        m_runtime.unfillWorkspace(fault->instanceId);
    } else {
        if (fault->kind == u"fail_launch"_s)
            m_runtime.cancelLaunchFailure(fault->id);
        // A drop_ssh or fill_disk still under way finishes in the box; it is then reported.
        fault->state = fault->state == u"pending"_s ? fault->state : u"cleared"_s;
    }
    publish(*fault);
    return toJson(*fault);
}

int ChaosFaults::responseDelayMs(const QString &userId) const
{
    if (!m_allowed)
        return 0;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    int delay = 0;
    for (const Fault &f : m_faults)
        if (f.userId == userId && f.kind == u"slow_api"_s && f.state == u"active"_s
            && f.realExpiry > now)
            delay = std::max(delay, f.delayMs);
    return delay;
}

ChaosFaults::Fault *ChaosFaults::find(const QString &userId, const QString &faultId)
{
    const auto it = m_faults.find(faultId);
    return it != m_faults.end() && it->userId == userId ? &*it : nullptr;
}

ChaosFaults::Fault *ChaosFaults::liveBoxFault(const QString &instanceId, const QString &kind)
{
    for (const QString &id : std::as_const(m_order)) {
        Fault &f = m_faults[id];
        if (f.instanceId == instanceId && f.kind == kind && kLiveStates.contains(f.state))
            return &f;
    }
    return nullptr;
}

void ChaosFaults::onLaunchFailureUsed(const QString &tag, const QString &instanceId,
                                      const QString &reason)
{
    const auto it = m_faults.find(tag);
    if (it == m_faults.end() || it->state != u"armed"_s)
        return;
    it->state = u"done"_s;
    it->firedMs = m_clock.nowMs();
    it->firedInstanceId = instanceId;
    it->detail = u"the launch of %1 failed: %2"_s.arg(instanceId, reason);
    publish(*it);
}

void ChaosFaults::onBoxFaultDone(const QString &instanceId, const QString &kind, bool ok,
                                 const QString &detail)
{
    const bool unfill = kind == u"unfill_disk"_s;
    Fault *fault = liveBoxFault(instanceId, unfill ? u"fill_disk"_s : kind);
    if (!fault)
        return;
    fault->detail = detail;
    if (unfill)
        fault->state = ok ? u"cleared"_s : u"active"_s;
    else if (!ok)
        fault->state = u"failed"_s;
    else
        fault->state = kind == u"fill_disk"_s ? u"active"_s : u"done"_s;
    if (!unfill && ok)
        fault->firedMs = m_clock.nowMs();
    publish(*fault);
}

void ChaosFaults::expire(const QString &faultId)
{
    const auto it = m_faults.find(faultId);
    if (it == m_faults.end() || it->state != u"active"_s)
        return;
    it->state = u"expired"_s;
    publish(*it);
}

void ChaosFaults::publish(const Fault &fault)
{
    m_events.publish(fault.userId, u"chaos.fault"_s, toJson(fault));
}

void ChaosFaults::forgetOldFaults(const QString &userId)
{
    int kept = 0;
    for (qsizetype i = m_order.size() - 1; i >= 0; --i) {
        const Fault &f = m_faults[m_order.at(i)];
        if (f.userId != userId || kLiveStates.contains(f.state))
            continue;
        if (++kept > kMaxKeptFaults) {
            m_faults.remove(m_order.at(i));
            m_order.removeAt(i);
        }
    }
}

QJsonObject ChaosFaults::toJson(const Fault &fault) const
{
    const auto orNull = [](const QString &text) {
        return text.isEmpty() ? QJsonValue() : QJsonValue(text);
    };
    const bool failLaunch = fault.kind == u"fail_launch"_s;
    const bool slow = fault.kind == u"slow_api"_s;
    return {{u"id"_s, fault.id},
            {u"kind"_s, fault.kind},
            {u"state"_s, fault.state},
            {u"instance_id"_s, orNull(fault.instanceId)},
            {u"created_at"_s, json::isoTime(fault.createdMs)},
            {u"fired_at"_s, json::isoTimeOrNull(fault.firedMs)},
            {u"detail"_s, fault.detail},
            {u"reason"_s, failLaunch ? QJsonValue(fault.reason) : QJsonValue()},
            {u"failed_instance_id"_s, orNull(fault.firedInstanceId)},
            {u"delay_ms"_s, slow ? QJsonValue(fault.delayMs) : QJsonValue()},
            {u"duration_s"_s, slow ? QJsonValue(fault.durationS) : QJsonValue()},
            {u"expires_at"_s, slow ? QJsonValue(json::isoTime(fault.expiresMs)) : QJsonValue()}};
}

} // namespace cardhour::sim
