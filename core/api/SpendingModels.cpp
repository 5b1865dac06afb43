#include "api/SpendingModels.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
std::optional<qint64> optionalMicros(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble())
        return std::nullopt;
    return v.toInteger();
}

QDateTime time(const QJsonValue &value)
{
    if (!value.isString())
        return {};
    const QDateTime t = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : QDateTime();
}

QJsonValue micros(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject orNothing(const std::optional<SpendingLimitChange> &change)
{
    return change ? change->toJson() : QJsonObject();
}
} // namespace

SpendingPeriod SpendingPeriod::fromJson(const QJsonObject &o)
{
    SpendingPeriod p;
    p.period = o.value("period"_L1).toString();
    p.alertMicros = optionalMicros(o, "alert_micros"_L1);
    p.maxMicros = optionalMicros(o, "max_micros"_L1);
    p.spentMicros = o.value("spent_micros"_L1).toInteger();
    p.startsAt = time(o.value("starts_at"_L1));
    p.endsAt = time(o.value("ends_at"_L1));
    p.alerted = o.value("alerted"_L1).toBool();
    return p;
}

SpendingLimits SpendingLimits::fromJson(const QJsonObject &o)
{
    SpendingLimits l;
    l.timeZone = o.value("time_zone"_L1).toString();
    const QJsonArray periods = o.value("periods"_L1).toArray();
    for (const QJsonValue &p : periods) {
        if (p.isObject())
            l.periods.append(SpendingPeriod::fromJson(p.toObject()));
    }
    return l;
}

std::optional<SpendingPeriod> SpendingLimits::period(const QString &name) const
{
    for (const SpendingPeriod &p : periods) {
        if (p.period == name)
            return p;
    }
    return std::nullopt;
}

QJsonObject SpendingLimitChange::toJson() const
{
    QJsonObject o;
    if (setAlert)
        o.insert(u"alert_micros"_s, micros(alertMicros));
    if (setMax)
        o.insert(u"max_micros"_s, micros(maxMicros));
    return o;
}

QJsonObject SpendingLimitsChange::toJson() const
{
    QJsonObject o;
    if (day)
        o.insert(u"day"_s, orNothing(day));
    if (month)
        o.insert(u"month"_s, orNothing(month));
    if (total)
        o.insert(u"total"_s, orNothing(total));
    return o;
}

StopPolicy StopPolicy::fromJson(const QJsonObject &o)
{
    StopPolicy p;
    p.stopAt = time(o.value("stop_at"_L1));
    p.maxCostMicros = optionalMicros(o, "max_cost_micros"_L1);
    const QJsonValue idle = o.value("idle"_L1);
    if (idle.isObject()) {
        const QJsonObject i = idle.toObject();
        IdlePolicy parsed;
        parsed.thresholdPercent = i.value("threshold_percent"_L1).toInt(parsed.thresholdPercent);
        parsed.windowSeconds = i.value("window_seconds"_L1).toInt(parsed.windowSeconds);
        parsed.requireNoConnections = i.value("require_no_connections"_L1).toBool();
        parsed.warningSeconds = i.value("warning_seconds"_L1).toInt(parsed.warningSeconds);
        p.idle = parsed;
    }
    return p;
}

QJsonObject StopPolicy::toJson() const
{
    QJsonValue idleJson;
    if (idle)
        idleJson = QJsonObject{{u"threshold_percent"_s, idle->thresholdPercent},
                               {u"window_seconds"_s, idle->windowSeconds},
                               {u"require_no_connections"_s, idle->requireNoConnections},
                               {u"warning_seconds"_s, idle->warningSeconds}};
    return QJsonObject{{u"stop_at"_s,
                        stopAt.isValid() ? QJsonValue(stopAt.toUTC().toString(Qt::ISODateWithMs))
                                         : QJsonValue(QJsonValue::Null)},
                       {u"max_cost_micros"_s, micros(maxCostMicros)},
                       {u"idle"_s, idleJson}};
}

std::optional<PlannedStop> PlannedStop::fromJson(const QJsonValue &value)
{
    if (!value.isObject())
        return std::nullopt;
    const QJsonObject o = value.toObject();
    PlannedStop p;
    p.at = time(o.value("at"_L1));
    p.reason = o.value("reason"_L1).toString();
    p.warning = o.value("warning"_L1).toBool();
    if (!p.at.isValid())
        return std::nullopt;
    return p;
}

StopWarning StopWarning::fromJson(const QJsonObject &o)
{
    StopWarning w;
    w.instanceId = o.value("instance_id"_L1).toString();
    w.reason = o.value("reason"_L1).toString();
    w.stopAt = time(o.value("stop_at"_L1));
    return w;
}

} // namespace cardhour::core
