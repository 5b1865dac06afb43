#pragma once

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <QTimeZone>

#include <array>
#include <optional>

namespace cardhour::sim {

class Database;

// Per-account spending limits: an alert amount and a hard maximum per day and per calendar
// month (in the provider's stated time zone) and in total. What a period has spent is the sum
// of the compute and storage charges posted in it; a posting belongs to the period that holds
// its time, a period being (start, end], so a checkpoint posted at midnight closes the old day.
// The Meter asks headroom() before every charge and never posts more; InstanceService stops the
// hosts when what they owe reaches it. Mutating calls must run inside a Transaction.
class SpendingLimits
{
public:
    enum class Period {
        Day,
        Month,
        Total
    };
    static constexpr std::array<Period, 3> kPeriods{Period::Day, Period::Month, Period::Total};

    struct Limit
    {
        std::optional<qint64> alertMicros;
        std::optional<qint64> maxMicros;
    };
    // (startMs, endMs]; endMs empty for the total.
    struct Window
    {
        qint64 startMs = 0;
        std::optional<qint64> endMs;
    };
    // The period whose hard maximum is the nearest: what a refusal or a stop names.
    struct Binding
    {
        Period period = Period::Total;
        qint64 maxMicros = 0;
        qint64 spentMicros = 0;
        qint64 headroomMicros = 0; // max - spent, may be negative after a limit was lowered
    };

    // An invalid or empty zone id falls back to Asia/Shanghai, then to a fixed UTC+8.
    explicit SpendingLimits(Database &db, const QByteArray &timeZoneId = "Asia/Shanghai");

    QString timeZoneId() const;
    static QString periodName(Period period);
    static std::optional<Period> periodFromName(const QString &name);

    // The window of `period` that holds the instant `atMs` (for the total: from account creation).
    Window windowAt(const QString &userId, Period period, qint64 atMs) const;
    // Day boundaries (midnight in the zone; month starts are among them) in (fromMs, toMs).
    QList<qint64> boundariesBetween(qint64 fromMs, qint64 toMs) const;

    std::array<Limit, 3> limitsOf(const QString &userId) const;
    void setLimit(const QString &userId, Period period, const Limit &limit);
    bool hasAnyMax(const QString &userId) const;

    // Charges posted in the window.
    qint64 spentIn(const QString &userId, const Window &window) const;
    // The tightest hard maximum at `atMs`, or none when no maximum is set.
    std::optional<Binding> tightest(const QString &userId, qint64 atMs) const;
    // How much more may be charged by a posting at `atMs` (never negative); none: no maximum.
    std::optional<qint64> headroom(const QString &userId, qint64 atMs) const;

    // Records the periods whose alert amount `spent + unposted` has crossed in their current
    // window for the first time; returns whether any did.
    bool noteAlerts(const QString &userId, qint64 atMs, qint64 unpostedMicros);

    // GET /v1/spending-limits: `unpostedMicros` is what running hosts owe but is not posted.
    QJsonObject json(const QString &userId, qint64 atMs, qint64 unpostedMicros) const;

private:
    qint64 createdAt(const QString &userId) const;
    std::optional<qint64> alertedWindow(const QString &userId, Period period) const;

    Database &m_db;
    QTimeZone m_zone;
};

} // namespace cardhour::sim
