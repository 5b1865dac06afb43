#include "StopPolicies.h"

#include "billing/Pricing.h"
#include "core/ApiError.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QDateTime>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
ApiError fieldError(const QString &field, const QString &what)
{
    return ApiError(400, ErrorCode::InvalidField,
                    u"Field \"stop_policy.%1\" %2."_s.arg(field, what));
}

std::optional<qint64> optionalInteger(const QJsonObject &o, const QString &key, qint64 min,
                                      qint64 max)
{
    const QJsonValue value = o.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    const double number = value.toDouble(-1.0);
    if (!value.isDouble() || number < static_cast<double>(min) || number > static_cast<double>(max)
        || std::trunc(number) != number)
        throw fieldError(key, u"must be an integer from %1 to %2"_s.arg(min).arg(max));
    return static_cast<qint64>(number);
}

const QString kPolicyColumns =
    u"instance_id, stop_at, max_cost_micros, idle_threshold_percent,"
    " idle_window_seconds, idle_require_no_connections, idle_warning_seconds"_s;

StopPolicy readPolicy(const QSqlQuery &q)
{
    StopPolicy p;
    if (!q.value(1).isNull())
        p.stopAtMs = q.value(1).toLongLong();
    if (!q.value(2).isNull())
        p.maxCostMicros = q.value(2).toLongLong();
    if (!q.value(3).isNull())
        p.idle = StopPolicy::Idle{q.value(3).toInt(), q.value(4).toInt(), q.value(5).toInt() != 0,
                                  q.value(6).toInt()};
    return p;
}

QVariant nullable(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}
} // namespace

StopPolicy StopPolicy::fromJson(const QJsonValue &value)
{
    StopPolicy policy;
    if (value.isUndefined() || value.isNull())
        return policy;
    if (!value.isObject())
        throw ApiError(400, ErrorCode::InvalidField, u"Field \"stop_policy\" must be an object."_s);
    const QJsonObject o = value.toObject();
    json::rejectUnknownFields(o, {u"stop_at"_s, u"max_cost_micros"_s, u"idle"_s});
    const QJsonValue stopAt = o.value(u"stop_at"_s);
    if (!stopAt.isUndefined() && !stopAt.isNull()) {
        const QDateTime at = QDateTime::fromString(stopAt.toString(), Qt::ISODateWithMs);
        if (!stopAt.isString() || !at.isValid())
            throw fieldError(u"stop_at"_s, u"must be an ISO 8601 time"_s);
        policy.stopAtMs = at.toMSecsSinceEpoch();
    }
    policy.maxCostMicros = optionalInteger(o, u"max_cost_micros"_s, 0, 1'000'000'000'000'000);
    const QJsonValue idle = o.value(u"idle"_s);
    if (!idle.isUndefined() && !idle.isNull()) {
        if (!idle.isObject())
            throw fieldError(u"idle"_s, u"must be an object or null"_s);
        const QJsonObject i = idle.toObject();
        json::rejectUnknownFields(i,
                                  {u"threshold_percent"_s, u"window_seconds"_s,
                                   u"require_no_connections"_s, u"warning_seconds"_s});
        Idle parsed;
        parsed.thresholdPercent = static_cast<int>(
            optionalInteger(i, u"threshold_percent"_s, 1, 100).value_or(parsed.thresholdPercent));
        parsed.windowSeconds =
            static_cast<int>(optionalInteger(i, u"window_seconds"_s, 60, 7 * 24 * 3600)
                                 .value_or(parsed.windowSeconds));
        parsed.warningSeconds = static_cast<int>(
            optionalInteger(i, u"warning_seconds"_s, 0, 24 * 3600).value_or(parsed.warningSeconds));
        if (parsed.warningSeconds >= parsed.windowSeconds)
            throw fieldError(u"idle.warning_seconds"_s, u"must be shorter than window_seconds"_s);
        const QJsonValue connections = i.value(u"require_no_connections"_s);
        if (!connections.isUndefined() && !connections.isNull() && !connections.isBool())
            throw fieldError(u"idle.require_no_connections"_s, u"must be true or false"_s);
        parsed.requireNoConnections = connections.toBool(false);
        policy.idle = parsed;
    }
    return policy;
}

QJsonObject StopPolicy::toJson() const
{
    QJsonValue idleJson;
    if (idle)
        idleJson = QJsonObject{{u"threshold_percent"_s, idle->thresholdPercent},
                               {u"window_seconds"_s, idle->windowSeconds},
                               {u"require_no_connections"_s, idle->requireNoConnections},
                               {u"warning_seconds"_s, idle->warningSeconds}};
    return QJsonObject{{u"stop_at"_s, json::isoTimeOrNull(stopAtMs)},
                       {u"max_cost_micros"_s,
                        maxCostMicros ? QJsonValue(*maxCostMicros) : QJsonValue(QJsonValue::Null)},
                       {u"idle"_s, idleJson}};
}

const StopPolicies::Kept &StopPolicies::kept() const
{
    if (m_keptValid && m_keptRollbacks == m_db.rollbackCount())
        return m_kept;
    // From the policies' side (few rows, each instance found by its key), not through every
    // user's instances.
    static const QString sql = u"SELECT p."_s + QString(kPolicyColumns).replace(u", "_s, u", p."_s)
        + u", i.user_id FROM instance_stop_policies p CROSS JOIN instances i"
          " ON i.id = p.instance_id"_s;
    Kept read;
    m_db.forEachRow(sql, {}, [&read](const QSqlQuery &q) {
        const StopPolicy policy = readPolicy(q);
        const QString instanceId = q.value(0).toString();
        read.byInstance.insert(instanceId, policy);
        read.byUser[q.value(7).toString()].insert(instanceId, policy);
    });
    m_kept = std::move(read);
    m_keptValid = true;
    m_keptRollbacks = m_db.rollbackCount();
    return m_kept;
}

StopPolicy StopPolicies::of(const QString &instanceId) const
{
    return kept().byInstance.value(instanceId);
}

QHash<QString, StopPolicy> StopPolicies::ofUser(const QString &userId) const
{
    return kept().byUser.value(userId);
}

QHash<QString, QHash<QString, StopPolicy>> StopPolicies::byUser() const
{
    return kept().byUser;
}

void StopPolicies::set(const QString &instanceId, const StopPolicy &policy)
{
    m_keptValid = false;
    m_db.exec(u"DELETE FROM instance_stop_policies WHERE instance_id = ?"_s, {instanceId});
    if (!policy.isEmpty()) {
        const bool idle = policy.idle.has_value();
        const QVariant none{QMetaType(QMetaType::LongLong)};
        m_db.exec(u"INSERT INTO instance_stop_policies("_s + kPolicyColumns
                      + u") VALUES (?,?,?,?,?,?,?)"_s,
                  {instanceId, nullable(policy.stopAtMs), nullable(policy.maxCostMicros),
                   idle ? QVariant(policy.idle->thresholdPercent) : none,
                   idle ? QVariant(policy.idle->windowSeconds) : none,
                   idle ? QVariant(policy.idle->requireNoConnections ? 1 : 0) : none,
                   idle ? QVariant(policy.idle->warningSeconds) : none});
    }
    forget(instanceId);
}

void StopPolicies::clearStopAt(const QString &instanceId)
{
    m_keptValid = false;
    m_db.exec(u"UPDATE instance_stop_policies SET stop_at = NULL WHERE instance_id = ?"_s,
              {instanceId});
}

StopPolicies::IdleVerdict StopPolicies::noteSample(const QString &instanceId,
                                                   const StopPolicy::Idle &idle, qint64 runStartMs,
                                                   qint64 atMs, bool busy)
{
    IdleTrack &track = m_idle[instanceId];
    if (track.runStartMs != runStartMs)
        track = IdleTrack{runStartMs, std::nullopt, false};
    if (busy) {
        track.idleSinceMs.reset();
        track.warned = false;
        return IdleVerdict::Busy;
    }
    if (!track.idleSinceMs)
        track.idleSinceMs = std::max(atMs, runStartMs);
    const qint64 stopAt = *track.idleSinceMs + qint64(idle.windowSeconds) * 1000;
    if (atMs >= stopAt)
        return IdleVerdict::Stop;
    if (!track.warned && atMs >= stopAt - qint64(idle.warningSeconds) * 1000) {
        track.warned = true;
        return IdleVerdict::Warn;
    }
    return IdleVerdict::Idle;
}

std::optional<qint64> StopPolicies::idleStopAt(const QString &instanceId,
                                               const StopPolicy &policy) const
{
    const auto it = m_idle.constFind(instanceId);
    if (!policy.idle || it == m_idle.cend() || !it->idleSinceMs)
        return std::nullopt;
    return *it->idleSinceMs + qint64(policy.idle->windowSeconds) * 1000;
}

bool StopPolicies::postpone(const QString &instanceId, qint64 nowMs)
{
    const auto it = m_idle.find(instanceId);
    if (it == m_idle.end() || !it->idleSinceMs)
        return false;
    it->idleSinceMs = nowMs;
    it->warned = false;
    return true;
}

void StopPolicies::forget(const QString &instanceId)
{
    m_idle.remove(instanceId);
    m_warned.remove(instanceId);
}

bool StopPolicies::warnOnce(const QString &instanceId, const QString &reason, qint64 stopAtMs)
{
    const QString key = u"%1@%2"_s.arg(reason).arg(stopAtMs);
    if (m_warned.value(instanceId) == key)
        return false;
    m_warned.insert(instanceId, key);
    return true;
}

// ---- the planned stops ----------------------------------------------------------------------

namespace {
constexpr qint64 kHorizonMs = 100LL * 365 * 24 * pricing::kMsPerHour;
} // namespace

std::optional<PlannedStop> StopPolicies::timedStop(const StopPolicy &policy,
                                                   const Meter::OpenSegment &run,
                                                   qint64 computeCostMicros, qint64 nowMs)
{
    std::optional<PlannedStop> best;
    if (policy.stopAtMs)
        best = PlannedStop{std::max(*policy.stopAtMs, run.startedAtMs), u"max_duration"_s, false};
    if (policy.maxCostMicros && run.ratePerHourMicros > 0) {
        // The instance's cost is its other runs' plus this one's, computed over its whole length:
        // it stops at the last millisecond at which that is still within the maximum.
        const qint64 others = computeCostMicros
            - pricing::segmentCost(std::max<qint64>(0, nowMs - run.startedAtMs),
                                   run.ratePerHourMicros);
        const qint64 max = *policy.maxCostMicros;
        const qint64 over =
            pricing::firstTimeReached(run.startedAtMs, run.startedAtMs + kHorizonMs, [&](qint64 t) {
                return others + pricing::segmentCost(t - run.startedAtMs, run.ratePerHourMicros)
                    > max;
            });
        if (over <= run.startedAtMs + kHorizonMs) {
            const qint64 at = std::max(run.startedAtMs, over - 1);
            if (!best || at < best->atMs)
                best = PlannedStop{at, u"max_cost"_s, false};
        }
    }
    return best;
}

std::optional<PlannedStop> StopPolicies::plannedStop(const QString &instanceId,
                                                     const StopPolicy &policy,
                                                     const Meter::OpenSegment *computeSegment,
                                                     qint64 computeCostMicros, qint64 nowMs) const
{
    if (!computeSegment)
        return std::nullopt;
    std::optional<PlannedStop> stop = timedStop(policy, *computeSegment, computeCostMicros, nowMs);
    const std::optional<qint64> idleAt = idleStopAt(instanceId, policy);
    if (idleAt && (!stop || *idleAt < stop->atMs))
        stop = PlannedStop{*idleAt, u"idle"_s, false};
    if (stop)
        stop->warning = nowMs >= stop->atMs - qint64(policy.warningSeconds()) * 1000;
    return stop;
}

} // namespace cardhour::sim
