#include "Limits.h"

#include "core/ApiError.h"
#include "store/Database.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
ApiError limitReached(const QString &message)
{
    return ApiError(409, ErrorCode::LimitReached, message);
}

QJsonObject limitJson(qint64 limit, qint64 used)
{
    return {{u"limit"_s, limit}, {u"used"_s, used}};
}
} // namespace

qint64 Limits::instancesHeld(const QString &userId) const
{
    return m_db
        .scalar(u"SELECT COUNT(*) FROM instances WHERE user_id = ? AND state != 'terminated'"_s,
                {userId})
        .toLongLong();
}

qint64 Limits::snapshotsHeld(const QString &userId) const
{
    return m_db
        .scalar(u"SELECT COUNT(*) FROM snapshots WHERE user_id = ?"
                " AND state IN ('creating', 'ready')"_s,
                {userId})
        .toLongLong();
}

qint64 Limits::toppedUp(const QString &userId) const
{
    return m_db
        .scalar(u"SELECT COALESCE(SUM(amount_micros), 0) FROM ledger_txns"
                " WHERE user_id = ? AND kind = 'topup'"_s,
                {userId})
        .toLongLong();
}

void Limits::requireInstanceRoom(const QString &userId) const
{
    const qint64 held = instancesHeld(userId);
    if (held >= m_limits.instances)
        throw limitReached(u"An account may have at most %1 instances that are not terminated "
                           "(user_limits.instances); this one has %2. Terminate one first."_s
                               .arg(m_limits.instances)
                               .arg(held));
}

void Limits::requireSnapshotRoom(const QString &userId) const
{
    const qint64 held = snapshotsHeld(userId);
    if (held >= m_limits.snapshots)
        throw limitReached(u"An account may keep at most %1 snapshots (user_limits.snapshots); "
                           "this one has %2. Delete one first."_s.arg(m_limits.snapshots)
                               .arg(held));
}

void Limits::requireTopupRoom(const QString &userId, qint64 amountMicros) const
{
    if (amountMicros > m_limits.topupMaxMicros)
        throw limitReached(
            u"One sandbox top-up may add at most %1 micro-yuan "
            "(user_limits.topup_max_micros); %2 was asked."_s.arg(m_limits.topupMaxMicros)
                .arg(amountMicros));
    const qint64 total = toppedUp(userId);
    if (total + amountMicros > m_limits.topupsTotalMaxMicros)
        throw limitReached(u"Sandbox top-ups of one account may come to at most %1 micro-yuan "
                           "(user_limits.topups_total_max_micros); this one has added %2, so at "
                           "most %3 more."_s.arg(m_limits.topupsTotalMaxMicros)
                               .arg(total)
                               .arg(std::max<qint64>(0, m_limits.topupsTotalMaxMicros - total)));
}

QJsonObject Limits::usageJson(const QString &userId) const
{
    return {
        {u"instances"_s, limitJson(m_limits.instances, instancesHeld(userId))},
        {u"snapshots"_s, limitJson(m_limits.snapshots, snapshotsHeld(userId))},
        {u"topup_max_micros"_s, m_limits.topupMaxMicros},
        {u"topups_total"_s, limitJson(m_limits.topupsTotalMaxMicros, toppedUp(userId))},
    };
}

} // namespace cardhour::sim
