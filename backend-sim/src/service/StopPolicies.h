#pragma once

#include "billing/Meter.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Database;

// When the provider itself stops a host: at a time, at a cost, or after its cards have stayed
// idle for a window. Kept per instance in SQLite (instance_stop_policies), so a timer survives
// the client's sleep and the provider's restart.
struct StopPolicy
{
    struct Idle
    {
        int thresholdPercent = 5; // every card under this utilisation counts as idle
        int windowSeconds = 1800;
        bool requireNoConnections = false; // idle only with no SSH or app connection open
        int warningSeconds = 300; // instance.stop_warning this long before the stop
    };
    std::optional<qint64> stopAtMs;
    std::optional<qint64> maxCostMicros; // of the instance's compute cost (cost_micros)
    std::optional<Idle> idle;

    static constexpr int kDefaultWarningSeconds = 300;
    // The warning time of timed stops too: the idle one's when it is set.
    int warningSeconds() const { return idle ? idle->warningSeconds : kDefaultWarningSeconds; }
    bool isEmpty() const { return !stopAtMs && !maxCostMicros && !idle; }

    // The API's "stop_policy" object (absent or null: no policy); ApiError 400 naming the field.
    static StopPolicy fromJson(const QJsonValue &value);
    QJsonObject toJson() const;
};

// The earliest stop the provider will make of a running instance.
struct PlannedStop
{
    qint64 atMs = 0;
    QString reason; // max_duration, max_cost, idle
    bool warning = false; // the warning time has come
};

// The stored policies, and what the provider remembers between samples about idle cards and the
// warnings it has sent (in memory: after a restart an idle window starts again, never shorter).
class StopPolicies
{
public:
    explicit StopPolicies(Database &db) : m_db(db) {}

    // Telemetry asks for every running instance's policy each second, the tick for all of them:
    // both are answered from a copy of the table (it has few rows), read again in one statement
    // after set() or clearStopAt() (the only writers of the table) or a rollback, not one
    // statement per instance.
    StopPolicy of(const QString &instanceId) const;
    QHash<QString, StopPolicy> ofUser(const QString &userId) const;
    // Every user's policies (user → instance → policy).
    QHash<QString, QHash<QString, StopPolicy>> byUser() const;
    // Must run inside a Transaction. An empty policy removes the row.
    void set(const QString &instanceId, const StopPolicy &policy);
    void clearStopAt(const QString &instanceId);

    enum class IdleVerdict {
        Busy,
        Idle,
        Warn, // the warning time has just come
        Stop
    };
    // One sample of a running instance's run that began at runStartMs: `busy` when a card was
    // at or over the threshold (or a connection was open and that counts).
    IdleVerdict noteSample(const QString &instanceId, const StopPolicy::Idle &idle,
                           qint64 runStartMs, qint64 atMs, bool busy);
    // When the idle stop comes if the cards stay idle; none while they are busy.
    std::optional<qint64> idleStopAt(const QString &instanceId, const StopPolicy &policy) const;
    // Restarts a running idle window from `nowMs`; false when none is running.
    bool postpone(const QString &instanceId, qint64 nowMs);
    // Forgets idle tracking (a policy change, a stop).
    void forget(const QString &instanceId);
    // True the first time it is asked about this stop (reason and time) of the instance.
    bool warnOnce(const QString &instanceId, const QString &reason, qint64 stopAtMs);

    // The stop of a running compute segment its policy's time or cost asks for (idle aside).
    // `computeCostMicros`: the instance's compute cost at `nowMs`, this run's included.
    static std::optional<PlannedStop> timedStop(const StopPolicy &policy,
                                                const Meter::OpenSegment &run,
                                                qint64 computeCostMicros, qint64 nowMs);
    // The earliest stop of the instance's run (none without `computeSegment`), idle included,
    // its warning set once the warning time has come.
    std::optional<PlannedStop> plannedStop(const QString &instanceId, const StopPolicy &policy,
                                           const Meter::OpenSegment *computeSegment,
                                           qint64 computeCostMicros, qint64 nowMs) const;

private:
    struct IdleTrack
    {
        qint64 runStartMs = 0;
        std::optional<qint64> idleSinceMs;
        bool warned = false;
    };
    struct Kept
    {
        QHash<QString, StopPolicy> byInstance;
        QHash<QString, QHash<QString, StopPolicy>> byUser;
    };
    const Kept &kept() const;

    Database &m_db;
    mutable Kept m_kept;
    mutable bool m_keptValid = false;
    mutable quint64 m_keptRollbacks = 0; // Database::rollbackCount() when m_kept was read
    QHash<QString, IdleTrack> m_idle;
    QHash<QString, QString> m_warned; // instance → "reason@time" of the last warning
};

} // namespace cardhour::sim
