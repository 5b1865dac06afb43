// InstanceService, continued: the stops the provider makes by itself. The account's spending
// limits (a hard maximum per day, month and in total, never overrun: hosts stop at the
// millisecond what they owe reaches it, like at a zero balance), each host's stop policy (a stop
// time, a maximum cost, idle cards) with its warning, and what the API reads and changes of them.
#include "Catalog.h"
#include "EventBus.h"
#include "InstanceService.h"
#include "SnapshotRules.h"
#include "billing/Bookkeeper.h"
#include "billing/Pricing.h"
#include "billing/SpendingLimits.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QSqlQuery>
#include <QTimer>

#include <algorithm>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
QString yuan(qint64 micros)
{
    const qint64 whole = micros / pricing::kMicrosPerYuan;
    const qint64 rest = std::abs(micros % pricing::kMicrosPerYuan);
    if (rest % 10'000 == 0)
        return u"%1%2.%3"_s.arg(micros < 0 && whole == 0 ? u"-"_s : QString())
            .arg(whole)
            .arg(rest / 10'000, 2, 10, QLatin1Char('0'));
    return u"%1%2.%3"_s.arg(micros < 0 && whole == 0 ? u"-"_s : QString())
        .arg(whole)
        .arg(rest, 6, 10, QLatin1Char('0'));
}

QString periodPhrase(SpendingLimits::Period period)
{
    switch (period) {
    case SpendingLimits::Period::Day:
        return u"daily"_s;
    case SpendingLimits::Period::Month:
        return u"monthly"_s;
    case SpendingLimits::Period::Total:
        return u"total"_s;
    }
    return {};
}

constexpr qint64 kHorizonMs = 100LL * 365 * 24 * pricing::kMsPerHour;

// The stop of a running compute segment its policy's time or cost asks for (idle aside).
std::optional<PlannedStop> timedStop(const StopPolicy &policy, const Meter::OpenSegment &run,
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
} // namespace

// ---- billing up to the clock ----------------------------------------------------------------

bool InstanceService::stopFor(const QString &instanceId, qint64 atMs, const QString &reason)
{
    if (!compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, reason, atMs))
        return false;
    m_meter.closeSegment(instanceId, atMs, Meter::Kind::Compute, reason);
    m_stops.forget(instanceId);
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
    return true;
}

void InstanceService::settle(const QString &userId, qint64 fromMs, qint64 nowMs,
                             const QHash<QString, StopPolicy> &policies, Settlement &out)
{
    struct Due
    {
        qint64 atMs;
        QString instanceId;
        QString reason;
    };
    QList<Due> due;
    if (!policies.isEmpty()) {
        const QHash<QString, Meter::Costs> posted = m_meter.postedByInstance(userId);
        for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId)) {
            const auto policy = policies.constFind(s.instanceId);
            if (!s.snapshotId.isEmpty() || s.kind != Meter::Kind::Compute
                || policy == policies.cend())
                continue;
            const qint64 cost =
                posted.value(s.instanceId).computeMicros + Meter::unposted(s, nowMs);
            const std::optional<PlannedStop> stop = timedStop(*policy, s, cost, nowMs);
            if (stop && stop->atMs <= nowMs)
                // A maximum lowered under what is spent stops now, not in the past.
                due.append(
                    {stop->reason == u"max_cost"_s ? std::max(stop->atMs, fromMs) : stop->atMs,
                     s.instanceId, stop->reason});
        }
        std::sort(due.begin(), due.end(),
                  [](const Due &a, const Due &b) { return a.atMs < b.atMs; });
    }
    const QList<qint64> cuts =
        m_limits ? m_limits->boundariesBetween(fromMs, nowMs) : QList<qint64>();

    qint64 pieceStart = fromMs;
    qsizetype nextDue = 0;
    qsizetype nextCut = 0;
    for (;;) {
        // The next moment something happens: a policy's stop, a period boundary, or now.
        qint64 pieceEnd = nowMs;
        enum class Event {
            End,
            Policy,
            Cut
        } event = Event::End;
        if (nextDue < due.size() && due.at(nextDue).atMs <= pieceEnd) {
            pieceEnd = due.at(nextDue).atMs;
            event = Event::Policy;
        }
        if (nextCut < cuts.size() && cuts.at(nextCut) < pieceEnd) {
            pieceEnd = cuts.at(nextCut);
            event = Event::Cut;
        }
        pieceEnd = std::max(pieceEnd, pieceStart);
        // Summed in place: most ticks nothing runs out, and the segments are not copied.
        const Meter::OpenTotals owed = m_meter.openTotalsOf(userId, pieceEnd);
        if (owed.segments == 0)
            break;
        // What may still be charged in this piece: the balance, or a cap's room if smaller.
        qint64 limit = m_books.balance(userId);
        QString reason = u"balance_exhausted"_s;
        if (m_limits) {
            const std::optional<qint64> room = m_limits->headroom(userId, pieceEnd);
            if (room && *room < limit) {
                limit = *room;
                reason = u"spending_limit"_s;
            }
        }
        // exhaustionTime finds nothing unless what is owed at the piece's end reaches the limit.
        const QList<Meter::OpenSegment> open = owed.unpostedMicros >= limit
            ? m_meter.openSegmentsOf(userId)
            : QList<Meter::OpenSegment>();
        if (const std::optional<qint64> at =
                Meter::exhaustionTime(open, limit, pieceStart, pieceEnd)) {
            // Runs stop; stopped disks and kept snapshots stay as they are, their fees paused.
            for (const Meter::OpenSegment &s : open) {
                if (!s.snapshotId.isEmpty()) {
                    m_meter.closeSnapshotSegment(s.snapshotId, *at);
                    continue;
                }
                if (s.kind == Meter::Kind::Storage)
                    m_meter.closeSegment(s.instanceId, *at, Meter::Kind::Storage, reason);
                else
                    stopFor(s.instanceId, *at, reason);
                out.changed.append(s.instanceId);
            }
            if (reason == u"spending_limit"_s)
                out.limitUsers.insert(userId);
            break;
        }
        if (event == Event::End)
            break;
        if (event == Event::Policy) {
            const Due &stop = due.at(nextDue++);
            if (stopFor(stop.instanceId, stop.atMs, stop.reason)) {
                if (stop.reason == u"max_duration"_s)
                    m_stops.clearStopAt(stop.instanceId); // done; a later start runs on
                openStorage(stop.instanceId, userId, stop.atMs); // the kept disk, as at a stop
                out.changed.append(stop.instanceId);
            }
        } else {
            m_meter.checkpointUser(userId, cuts.at(nextCut++)); // each period its own postings
        }
        pieceStart = pieceEnd;
    }

    // Warnings before the timed stops still to come, once each.
    if (!policies.isEmpty()) {
        const QHash<QString, Meter::Costs> posted = m_meter.postedByInstance(userId);
        for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId)) {
            const auto policy = policies.constFind(s.instanceId);
            if (!s.snapshotId.isEmpty() || s.kind != Meter::Kind::Compute
                || policy == policies.cend())
                continue;
            const qint64 cost =
                posted.value(s.instanceId).computeMicros + Meter::unposted(s, nowMs);
            const std::optional<PlannedStop> stop = timedStop(*policy, s, cost, nowMs);
            if (stop && stop->atMs > nowMs
                && nowMs >= stop->atMs - qint64(policy->warningSeconds()) * 1000
                && m_stops.warnOnce(s.instanceId, stop->reason, stop->atMs))
                out.warnings.append(QJsonObject{{u"user_id"_s, userId},
                                                {u"instance_id"_s, s.instanceId},
                                                {u"reason"_s, stop->reason},
                                                {u"stop_at"_s, json::isoTime(stop->atMs)}});
        }
    }
    if (m_limits) {
        qint64 unposted = 0;
        for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId))
            unposted += Meter::unposted(s, nowMs);
        if (m_limits->noteAlerts(userId, nowMs, unposted))
            out.limitUsers.insert(userId);
    }
}

void InstanceService::announce(const Settlement &settled)
{
    for (const QString &instanceId : std::as_const(settled.changed))
        notify(instanceId);
    for (QJsonObject warning : settled.warnings) {
        const QString userId = warning.take(u"user_id"_s).toString();
        m_events.publish(userId, u"instance.stop_warning"_s, warning);
        notify(warning.value(u"instance_id"_s).toString()); // its planned_stop now warns
    }
    for (const QString &userId : settled.limitUsers)
        publishSpendingLimits(userId);
}

void InstanceService::resumeSnapshotFees(const QString &userId, qint64 nowMs)
{
    if (!m_limits) {
        snapshots::resumeBilling(m_db, m_meter, m_catalog, userId, nowMs);
        return;
    }
    // Owners of kept snapshots whose fee is paused; one at a cap keeps it paused until the
    // period ends or the cap is raised.
    QSqlQuery q = m_db.exec(
        u"SELECT DISTINCT s.user_id FROM snapshots s JOIN users u ON u.id = s.user_id"
        " WHERE s.state = 'ready' AND u.balance_micros > 0"
        " AND (COALESCE(?, '') = '' OR s.user_id = ?)"
        " AND NOT EXISTS (SELECT 1 FROM segments g WHERE g.snapshot_id = s.id AND g.ended_at IS NULL)"_s,
        {userId, userId});
    QStringList users;
    while (q.next())
        users.append(q.value(0).toString());
    for (const QString &user : std::as_const(users)) {
        if (!storagePausedByLimit(user, nowMs))
            snapshots::resumeBilling(m_db, m_meter, m_catalog, user, nowMs);
    }
}

bool InstanceService::storagePausedByLimit(const QString &userId, qint64 atMs) const
{
    return m_limits && m_limits->headroom(userId, atMs).value_or(1) <= 0;
}

// ---- refusals -------------------------------------------------------------------------------

void InstanceService::requireSpendingRoom(const QString &userId, qint64 extraRatePerHourMicros,
                                          const QString &instanceId)
{
    const qint64 now = m_clock.nowMs();
    if (!instanceId.isEmpty()) {
        const StopPolicy policy = m_stops.of(instanceId);
        if (policy.stopAtMs && *policy.stopAtMs <= now)
            m_stops.clearStopAt(instanceId); // a passed stop time does not stop the new run
        if (policy.maxCostMicros) {
            const qint64 cost =
                m_meter.postedByInstance(userId, instanceId).value(instanceId).computeMicros;
            if (cost >= *policy.maxCostMicros)
                throw ApiError(409, ErrorCode::InvalidState,
                               u"This instance has cost %1 yuan, its maximum cost is %2 yuan. "
                               "Raise or remove the maximum in its stop policy to start it."_s.arg(
                                   yuan(cost), yuan(*policy.maxCostMicros)));
        }
    }
    if (!m_limits)
        return;
    const std::optional<SpendingLimits::Binding> binding = m_limits->tightest(userId, now);
    if (!binding)
        return;
    qint64 unposted = 0;
    for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId))
        unposted += Meter::unposted(s, now);
    const qint64 minute = pricing::oneMinuteCost(extraRatePerHourMicros + spendRate(userId));
    if (binding->headroomMicros - unposted >= minute)
        return;
    const qint64 spent = binding->spentMicros + unposted;
    throw ApiError(402, ErrorCode::SpendingLimitReached,
                   u"The %1 spending limit of %2 yuan leaves no room for one more minute: %3 yuan "
                   "spent, one minute costs %4 yuan. Raise the limit or wait for the period to "
                   "end."_s.arg(periodPhrase(binding->period), yuan(binding->maxMicros),
                                yuan(spent), yuan(minute)))
        .withDetails(QJsonObject{{u"period"_s, SpendingLimits::periodName(binding->period)},
                                 {u"max_micros"_s, binding->maxMicros},
                                 {u"spent_micros"_s, spent}});
}

// ---- views ----------------------------------------------------------------------------------

std::optional<PlannedStop> InstanceService::plannedStop(const QString &instanceId,
                                                        const StopPolicy &policy,
                                                        const Meter::OpenSegment *computeSegment,
                                                        qint64 computeCostMicros,
                                                        qint64 nowMs) const
{
    if (!computeSegment)
        return std::nullopt;
    std::optional<PlannedStop> stop = timedStop(policy, *computeSegment, computeCostMicros, nowMs);
    const std::optional<qint64> idleAt = m_stops.idleStopAt(instanceId, policy);
    if (idleAt && (!stop || *idleAt < stop->atMs))
        stop = PlannedStop{*idleAt, u"idle"_s, false};
    if (stop)
        stop->warning = nowMs >= stop->atMs - qint64(policy.warningSeconds()) * 1000;
    return stop;
}

QJsonValue InstanceService::plannedStopJson(const QString &instanceId, const QString &state,
                                            const StopPolicy &policy,
                                            const Meter::OpenSegment *computeSegment,
                                            qint64 computeCostMicros, qint64 nowMs) const
{
    if (state != u"running"_s)
        return QJsonValue::Null;
    const std::optional<PlannedStop> stop =
        plannedStop(instanceId, policy, computeSegment, computeCostMicros, nowMs);
    if (!stop)
        return QJsonValue::Null;
    return QJsonObject{{u"at"_s, json::isoTime(stop->atMs)},
                       {u"reason"_s, stop->reason},
                       {u"warning"_s, stop->warning}};
}

// ---- what the API changes -------------------------------------------------------------------

QJsonObject InstanceService::spendingLimitsJson(const QString &userId)
{
    if (!m_limits)
        throw ApiError(503, ErrorCode::Unavailable, u"Spending limits are not available."_s);
    const qint64 now = m_clock.nowMs();
    qint64 unposted = 0;
    for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId))
        unposted += Meter::unposted(s, now);
    return m_limits->json(userId, now, unposted);
}

QJsonObject
InstanceService::changeSpendingLimits(const QString &userId,
                                      const std::array<std::optional<LimitChange>, 3> &changes)
{
    if (!m_limits)
        throw ApiError(503, ErrorCode::Unavailable, u"Spending limits are not available."_s);
    tick(); // billed under the old limits up to now
    {
        Transaction tx(m_db);
        std::array<SpendingLimits::Limit, 3> limits = m_limits->limitsOf(userId);
        for (const SpendingLimits::Period period : SpendingLimits::kPeriods) {
            const std::optional<LimitChange> &change = changes.at(static_cast<size_t>(period));
            if (!change)
                continue;
            SpendingLimits::Limit &limit = limits.at(static_cast<size_t>(period));
            if (change->alertGiven)
                limit.alertMicros = change->alertMicros;
            if (change->maxGiven)
                limit.maxMicros = change->maxMicros;
            const QString name = SpendingLimits::periodName(period);
            if ((limit.alertMicros && *limit.alertMicros < 0)
                || (limit.maxMicros && *limit.maxMicros < 0))
                throw ApiError(400, ErrorCode::InvalidRequest,
                               u"The %1 limit must not be negative."_s.arg(name));
            if (limit.alertMicros && limit.maxMicros && *limit.alertMicros > *limit.maxMicros)
                throw ApiError(400, ErrorCode::InvalidRequest,
                               u"The %1 alert (%2 yuan) is above its maximum (%3 yuan)."_s.arg(
                                   name, yuan(*limit.alertMicros), yuan(*limit.maxMicros)));
            m_limits->setLimit(userId, period, limit);
        }
        tx.commit();
    }
    tick(); // from now on: a maximum already passed stops the hosts at once
    publishSpendingLimits(userId); // the tick above announced the bill
    return spendingLimitsJson(userId);
}

QJsonObject InstanceService::setStopPolicy(const QString &userId, const QString &instanceId,
                                           const StopPolicy &policy)
{
    tick();
    const qint64 now = m_clock.nowMs();
    {
        Transaction tx(m_db);
        if (requireState(userId, instanceId) == u"terminated"_s)
            throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is terminated."_s);
        requireFutureStop(policy, now);
        m_stops.set(instanceId, policy);
        tx.commit();
    }
    tick(); // a maximum cost already reached stops it now
    notify(instanceId);
    return instanceJson(instanceId, m_clock.nowMs());
}

void InstanceService::requireFutureStop(const StopPolicy &policy, qint64 nowMs)
{
    if (policy.stopAtMs && *policy.stopAtMs <= nowMs)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"stop_policy.stop_at\" (%1) is not in the future (now %2)."_s.arg(
                           json::isoTime(*policy.stopAtMs), json::isoTime(nowMs)));
}

QJsonObject InstanceService::keepRunning(const QString &userId, const QString &instanceId)
{
    const qint64 now = m_clock.nowMs();
    if (requireState(userId, instanceId) != u"running"_s || !m_stops.postpone(instanceId, now))
        throw ApiError(409, ErrorCode::InvalidState,
                       u"No idle stop is pending for this instance."_s);
    notify(instanceId);
    return instanceJson(instanceId, now);
}

void InstanceService::noteUtilisation(const QString &instanceId, qint64 atMs,
                                      double busiestCardPercent)
{
    const StopPolicy policy = m_stops.of(instanceId);
    const std::optional<Meter::OpenSegment> run =
        policy.idle ? m_meter.openSegmentOf(instanceId) : std::nullopt;
    if (!run || !policy.idle->requireNoConnections) {
        m_connectionWatch.remove(instanceId);
        m_connections.remove(instanceId);
    }
    if (!policy.idle)
        return;
    if (!run) {
        m_stops.forget(instanceId);
        return;
    }
    bool connected = false;
    if (policy.idle->requireNoConnections) {
        m_connectionWatch.insert(instanceId);
        countConnectionsSoon();
        // Not counted yet (or the count failed): connected, so that it keeps running.
        connected = m_connections.value(instanceId, -1) != 0;
    }
    const bool busy = busiestCardPercent >= policy.idle->thresholdPercent || connected;
    const bool planned = m_stops.idleStopAt(instanceId, policy).has_value();
    const StopPolicies::IdleVerdict verdict =
        m_stops.noteSample(instanceId, *policy.idle, run->startedAtMs, atMs, busy);
    if (verdict == StopPolicies::IdleVerdict::Warn) {
        const std::optional<qint64> stopAt = m_stops.idleStopAt(instanceId, policy);
        m_events.publish(run->userId, u"instance.stop_warning"_s,
                         QJsonObject{{u"instance_id"_s, instanceId},
                                     {u"reason"_s, u"idle"_s},
                                     {u"stop_at"_s, json::isoTime(stopAt.value_or(atMs))}});
        notify(instanceId);
    } else if (verdict == StopPolicies::IdleVerdict::Stop) {
        tick();
        const qint64 now = m_clock.nowMs();
        Transaction tx(m_db);
        const bool stopped = stopFor(instanceId, now, u"idle"_s);
        if (stopped)
            openStorage(instanceId, run->userId, now);
        tx.commit(); // its bill moved with the closed run: announced by the Bookkeeper
        notify(instanceId);
    } else if (planned != m_stops.idleStopAt(instanceId, policy).has_value()) {
        notify(instanceId); // an idle window began or ended: planned_stop changed
    }
}

void InstanceService::countConnectionsSoon()
{
    constexpr qint64 kCountEveryMs = 2000; // each count is an `exec` per box
    if (!m_counting.isEmpty() || m_connectionWatch.isEmpty()
        || (m_countedAgo.isValid() && !m_countedAgo.hasExpired(kCountEveryMs)))
        return;
    m_counting = QStringList(m_connectionWatch.cbegin(), m_connectionWatch.cend());
    m_countedAgo.start();
    m_runtime.countConnections(m_counting);
}

void InstanceService::onConnectionsCounted(const QHash<QString, int> &byInstance)
{
    for (const QString &instanceId : std::as_const(m_counting)) {
        if (m_connectionWatch.contains(instanceId))
            m_connections.insert(instanceId, byInstance.value(instanceId, -1));
    }
    m_counting.clear();
}

void InstanceService::publishSpendingLimits(const QString &userId)
{
    if (!m_limits || !m_events.hasSubscribers(userId))
        return;
    m_events.publish(userId, u"spending_limits"_s, spendingLimitsJson(userId));
}

} // namespace cardhour::sim
