#include "SpendingLimits.h"

#include "core/Json.h"
#include "store/Database.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
QVariant nullableInt(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}

std::optional<qint64> optionalInt(const QVariant &value)
{
    if (value.isNull() || !value.isValid())
        return std::nullopt;
    return value.toLongLong();
}

QJsonValue jsonInt(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}
} // namespace

SpendingLimits::SpendingLimits(Database &db, const QByteArray &timeZoneId) : m_db(db)
{
    m_zone = QTimeZone(timeZoneId.isEmpty() ? QByteArray("Asia/Shanghai") : timeZoneId);
    if (!m_zone.isValid())
        m_zone = QTimeZone(QByteArray("Asia/Shanghai"));
    if (!m_zone.isValid())
        m_zone = QTimeZone(8 * 3600); // the system has no zone database
}

QString SpendingLimits::timeZoneId() const
{
    return QString::fromLatin1(m_zone.id());
}

QString SpendingLimits::periodName(Period period)
{
    switch (period) {
    case Period::Day:
        return u"day"_s;
    case Period::Month:
        return u"month"_s;
    case Period::Total:
        return u"total"_s;
    }
    return {};
}

std::optional<SpendingLimits::Period> SpendingLimits::periodFromName(const QString &name)
{
    for (const Period period : kPeriods) {
        if (periodName(period) == name)
            return period;
    }
    return std::nullopt;
}

qint64 SpendingLimits::createdAt(const QString &userId) const
{
    return m_db.scalar(u"SELECT created_at FROM users WHERE id = ?"_s, {userId}).toLongLong();
}

SpendingLimits::Window SpendingLimits::windowAt(const QString &userId, Period period,
                                                qint64 atMs) const
{
    if (period == Period::Total)
        return Window{createdAt(userId) - 1, std::nullopt};
    // The window is (start, end]: the instant just before atMs names its day.
    const QDate day = QDateTime::fromMSecsSinceEpoch(atMs - 1, m_zone).date();
    const QDate first = period == Period::Day ? day : QDate(day.year(), day.month(), 1);
    const QDate next = period == Period::Day ? first.addDays(1) : first.addMonths(1);
    return Window{first.startOfDay(m_zone).toMSecsSinceEpoch(),
                  next.startOfDay(m_zone).toMSecsSinceEpoch()};
}

QList<qint64> SpendingLimits::boundariesBetween(qint64 fromMs, qint64 toMs) const
{
    QList<qint64> result;
    if (toMs <= fromMs)
        return result;
    QDate day = QDateTime::fromMSecsSinceEpoch(fromMs, m_zone).date().addDays(1);
    for (;;) {
        const qint64 at = day.startOfDay(m_zone).toMSecsSinceEpoch();
        if (at >= toMs)
            break;
        if (at > fromMs)
            result.append(at);
        day = day.addDays(1);
    }
    return result;
}

std::array<SpendingLimits::Limit, 3> SpendingLimits::limitsOf(const QString &userId) const
{
    std::array<Limit, 3> limits{};
    QSqlQuery q = m_db.exec(
        u"SELECT period, alert_micros, max_micros FROM spending_limits WHERE user_id = ?"_s,
        {userId});
    while (q.next()) {
        const std::optional<Period> period = periodFromName(q.value(0).toString());
        if (period)
            limits.at(static_cast<size_t>(*period)) =
                Limit{optionalInt(q.value(1)), optionalInt(q.value(2))};
    }
    return limits;
}

void SpendingLimits::setLimit(const QString &userId, Period period, const Limit &limit)
{
    m_db.exec(
        u"INSERT INTO spending_limits(user_id, period, alert_micros, max_micros)"
        " VALUES (?,?,?,?) ON CONFLICT(user_id, period) DO UPDATE SET"
        " alert_micros = excluded.alert_micros, max_micros = excluded.max_micros"_s,
        {userId, periodName(period), nullableInt(limit.alertMicros), nullableInt(limit.maxMicros)});
}

bool SpendingLimits::hasAnyMax(const QString &userId) const
{
    return m_db.scalar(
                   u"SELECT COUNT(*) FROM spending_limits WHERE user_id = ? AND max_micros IS NOT NULL"_s,
                   {userId})
               .toInt()
        > 0;
}

qint64 SpendingLimits::spentIn(const QString &userId, const Window &window) const
{
    if (!window.endMs)
        return m_db
            .scalar(u"SELECT COALESCE(-SUM(amount_micros), 0) FROM ledger_txns WHERE user_id = ?"
                    " AND kind IN ('compute','storage')"_s,
                    {userId})
            .toLongLong();
    return m_db
        .scalar(u"SELECT COALESCE(-SUM(amount_micros), 0) FROM ledger_txns WHERE user_id = ?"
                " AND kind IN ('compute','storage') AND created_at > ? AND created_at <= ?"_s,
                {userId, window.startMs, *window.endMs})
        .toLongLong();
}

std::optional<SpendingLimits::Binding> SpendingLimits::tightest(const QString &userId,
                                                                qint64 atMs) const
{
    const std::array<Limit, 3> limits = limitsOf(userId);
    std::optional<Binding> best;
    for (const Period period : kPeriods) {
        const Limit &limit = limits.at(static_cast<size_t>(period));
        if (!limit.maxMicros)
            continue;
        const qint64 spent = spentIn(userId, windowAt(userId, period, atMs));
        const Binding binding{period, *limit.maxMicros, spent, *limit.maxMicros - spent};
        if (!best || binding.headroomMicros < best->headroomMicros)
            best = binding;
    }
    return best;
}

std::optional<qint64> SpendingLimits::headroom(const QString &userId, qint64 atMs) const
{
    const std::optional<Binding> binding = tightest(userId, atMs);
    if (!binding)
        return std::nullopt;
    return std::max<qint64>(0, binding->headroomMicros);
}

std::optional<qint64> SpendingLimits::alertedWindow(const QString &userId, Period period) const
{
    return optionalInt(m_db.scalar(
        u"SELECT alerted_window_start FROM spending_limits WHERE user_id = ? AND period = ?"_s,
        {userId, periodName(period)}));
}

bool SpendingLimits::noteAlerts(const QString &userId, qint64 atMs, qint64 unpostedMicros)
{
    const std::array<Limit, 3> limits = limitsOf(userId);
    bool crossed = false;
    for (const Period period : kPeriods) {
        const Limit &limit = limits.at(static_cast<size_t>(period));
        if (!limit.alertMicros)
            continue;
        const Window window = windowAt(userId, period, atMs);
        if (alertedWindow(userId, period) == window.startMs)
            continue;
        if (spentIn(userId, window) + unpostedMicros < *limit.alertMicros)
            continue;
        m_db.exec(u"UPDATE spending_limits SET alerted_window_start = ? WHERE user_id = ?"
                  " AND period = ?"_s,
                  {window.startMs, userId, periodName(period)});
        crossed = true;
    }
    return crossed;
}

QJsonObject SpendingLimits::json(const QString &userId, qint64 atMs, qint64 unpostedMicros) const
{
    const std::array<Limit, 3> limits = limitsOf(userId);
    QJsonArray periods;
    for (const Period period : kPeriods) {
        const Limit &limit = limits.at(static_cast<size_t>(period));
        const Window window = windowAt(userId, period, atMs);
        const qint64 spent = spentIn(userId, window) + unpostedMicros;
        const bool alerted = limit.alertMicros
            && (alertedWindow(userId, period) == window.startMs || spent >= *limit.alertMicros);
        periods.append(QJsonObject{
            {u"period"_s, periodName(period)},
            {u"alert_micros"_s, jsonInt(limit.alertMicros)},
            {u"max_micros"_s, jsonInt(limit.maxMicros)},
            {u"spent_micros"_s, spent},
            {u"starts_at"_s, json::isoTime(window.startMs + (window.endMs ? 0 : 1))},
            {u"ends_at"_s, window.endMs ? QJsonValue(json::isoTime(*window.endMs)) : QJsonValue()},
            {u"alerted"_s, alerted},
        });
    }
    return QJsonObject{{u"time_zone"_s, timeZoneId()}, {u"periods"_s, periods}};
}

} // namespace cardhour::sim
