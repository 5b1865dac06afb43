#include "SpendingGuard.h"

#include "AccountBill.h"
#include "EventBus.h"
#include "InstanceRecords.h"
#include "StopPolicies.h"
#include "billing/Meter.h"
#include "billing/Pricing.h"
#include "billing/SpendingLimits.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "store/Database.h"

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
} // namespace

SpendingGuard::SpendingGuard(Database &db, Meter &meter, StopPolicies &stops, AccountBill &bill,
                             InstanceRecords &records, EventBus &events, const Clock &clock)
    : m_db(db), m_meter(meter), m_stops(stops), m_bill(bill), m_records(records), m_events(events),
      m_clock(clock)
{}

qint64 SpendingGuard::unpostedOf(const QString &userId, qint64 nowMs)
{
    qint64 unposted = 0;
    for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId))
        unposted += Meter::unposted(s, nowMs);
    return unposted;
}

void SpendingGuard::requireSpendingRoom(const QString &userId, qint64 extraRatePerHourMicros,
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
    const qint64 unposted = unpostedOf(userId, now);
    const qint64 minute = pricing::oneMinuteCost(extraRatePerHourMicros + m_bill.spendRate(userId));
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

void SpendingGuard::requireFutureStop(const StopPolicy &policy, qint64 nowMs)
{
    if (policy.stopAtMs && *policy.stopAtMs <= nowMs)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"stop_policy.stop_at\" (%1) is not in the future (now %2)."_s.arg(
                           json::isoTime(*policy.stopAtMs), json::isoTime(nowMs)));
}

QJsonObject SpendingGuard::spendingLimitsJson(const QString &userId)
{
    if (!m_limits)
        throw ApiError(503, ErrorCode::Unavailable, u"Spending limits are not available."_s);
    const qint64 now = m_clock.nowMs();
    return m_limits->json(userId, now, unpostedOf(userId, now));
}

void SpendingGuard::changeLimits(const QString &userId,
                                 const std::array<std::optional<LimitChange>, 3> &changes)
{
    if (!m_limits)
        throw ApiError(503, ErrorCode::Unavailable, u"Spending limits are not available."_s);
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

void SpendingGuard::publishSpendingLimits(const QString &userId)
{
    if (!m_limits || !m_events.hasSubscribers(userId))
        return;
    m_events.publish(userId, u"spending_limits"_s, spendingLimitsJson(userId));
}

void SpendingGuard::setStopPolicy(const QString &userId, const QString &instanceId,
                                  const StopPolicy &policy)
{
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    if (m_records.requireState(userId, instanceId) == u"terminated"_s)
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is terminated."_s);
    requireFutureStop(policy, now);
    m_stops.set(instanceId, policy);
    tx.commit();
}

} // namespace cardhour::sim
