#pragma once

#include <QJsonObject>
#include <QString>

#include <array>
#include <optional>

namespace cardhour::sim {

class AccountBill;
class Clock;
class Database;
class EventBus;
class InstanceRecords;
class Meter;
class SpendingLimits;
class StopPolicies;
struct StopPolicy;

// What the account's spending limits and each host's stop policy let happen, and what the API
// reads and changes of them: a launch or start refused when a minute more would pass a cap or
// the host's maximum cost, the limits themselves (GET/PUT /v1/spending-limits, the SSE
// `spending_limits` event), a host's stop policy.
class SpendingGuard
{
public:
    SpendingGuard(Database &db, Meter &meter, StopPolicies &stops, AccountBill &bill,
                  InstanceRecords &records, EventBus &events, const Clock &clock);
    // The account's spending limits (the same the Meter caps its postings at); without them,
    // only the balance stops hosts.
    void setSpendingLimits(SpendingLimits *limits) { m_limits = limits; }
    const SpendingLimits *spendingLimits() const { return m_limits; }

    // 402 spending_limit_reached unless a minute of `extraRate` more fits under every cap; for
    // a start of `instanceId`, 409 invalid_state when its max cost is reached (a passed stop
    // time is dropped).
    void requireSpendingRoom(const QString &userId, qint64 extraRatePerHourMicros,
                             const QString &instanceId = {});
    // 400 invalid_field when the policy's stop time has passed.
    static void requireFutureStop(const StopPolicy &policy, qint64 nowMs);

    // GET /v1/spending-limits; 503 without limits.
    QJsonObject spendingLimitsJson(const QString &userId);
    struct LimitChange
    {
        bool alertGiven = false, maxGiven = false;
        std::optional<qint64> alertMicros, maxMicros; // empty: cleared
    };
    // PUT /v1/spending-limits, in a transaction of its own: an unset optional leaves the period
    // as it is. The caller brings billing up to the clock before and after.
    void changeLimits(const QString &userId,
                      const std::array<std::optional<LimitChange>, 3> &changes);
    // The user's clients get their limits and what is spent (SSE `spending_limits`).
    void publishSpendingLimits(const QString &userId);
    // A host's new stop policy, in a transaction of its own (409 once it is terminated).
    void setStopPolicy(const QString &userId, const QString &instanceId, const StopPolicy &policy);

private:
    qint64 unpostedOf(const QString &userId, qint64 nowMs);

    Database &m_db;
    Meter &m_meter;
    StopPolicies &m_stops;
    AccountBill &m_bill;
    InstanceRecords &m_records;
    EventBus &m_events;
    const Clock &m_clock;
    SpendingLimits *m_limits = nullptr;
};

} // namespace cardhour::sim
