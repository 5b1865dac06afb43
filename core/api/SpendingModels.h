#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace cardhour::core {

// One period of GET /v1/spending-limits: day, month (calendar, in the provider's time zone) or
// total (since the account was made).
struct SpendingPeriod
{
    QString period; // day, month, total
    std::optional<qint64> alertMicros;
    std::optional<qint64> maxMicros; // the hard maximum; the provider never charges past it
    qint64 spentMicros = 0; // posted and owed, live
    QDateTime startsAt;
    QDateTime endsAt; // invalid for the total
    bool alerted = false;

    static SpendingPeriod fromJson(const QJsonObject &o);
};

// GET /v1/spending-limits and the SSE `spending_limits` event.
struct SpendingLimits
{
    QString timeZone; // IANA id of the provider's days and months
    QList<SpendingPeriod> periods; // day, month, total

    static SpendingLimits fromJson(const QJsonObject &o);
    // The period named `period`, if the provider sent it.
    std::optional<SpendingPeriod> period(const QString &period) const;
};

// PUT /v1/spending-limits: what to change of one period. Unset `alert`/`max`: unchanged;
// set to nullopt inside (clear = true): removed.
struct SpendingLimitChange
{
    bool setAlert = false;
    std::optional<qint64> alertMicros; // with setAlert: the new alert, or none
    bool setMax = false;
    std::optional<qint64> maxMicros;

    QJsonObject toJson() const;
};

struct SpendingLimitsChange
{
    std::optional<SpendingLimitChange> day;
    std::optional<SpendingLimitChange> month;
    std::optional<SpendingLimitChange> total;

    QJsonObject toJson() const;
};

// When the provider stops a host by itself (create's stop_policy, PUT .../stop-policy).
struct IdlePolicy
{
    int thresholdPercent = 5;
    int windowSeconds = 1800;
    bool requireNoConnections = false;
    int warningSeconds = 300;
};

struct StopPolicy
{
    QDateTime stopAt; // invalid: none
    std::optional<qint64> maxCostMicros;
    std::optional<IdlePolicy> idle;

    bool isEmpty() const { return !stopAt.isValid() && !maxCostMicros && !idle; }
    static StopPolicy fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
};

// The earliest stop the provider will make of a running instance.
struct PlannedStop
{
    QDateTime at;
    QString reason; // max_duration, max_cost, idle
    bool warning = false; // the warning time has come

    static std::optional<PlannedStop> fromJson(const QJsonValue &value);
};

// The SSE `instance.stop_warning` event.
struct StopWarning
{
    QString instanceId;
    QString reason;
    QDateTime stopAt;

    static StopWarning fromJson(const QJsonObject &o);
};

} // namespace cardhour::core

Q_DECLARE_METATYPE(cardhour::core::SpendingLimits)
Q_DECLARE_METATYPE(cardhour::core::StopWarning)
