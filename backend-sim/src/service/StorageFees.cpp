#include "StorageFees.h"

#include "Catalog.h"
#include "InstanceRecords.h"
#include "SnapshotRules.h"
#include "billing/Bookkeeper.h"
#include "billing/Meter.h"
#include "billing/SpendingLimits.h"
#include "core/Clock.h"
#include "store/Database.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

StorageFees::StorageFees(Database &db, Bookkeeper &books, Meter &meter, const Catalog &catalog,
                         InstanceRecords &records, const Clock &clock)
    : m_db(db), m_books(books), m_meter(meter), m_catalog(catalog), m_records(records),
      m_clock(clock)
{}

void StorageFees::open(const QString &instanceId, const QString &userId, qint64 atMs)
{
    // Only a stopped (or stopping) instance's disk is billed, at the rate of the moment it
    // opens; a free disk needs no segment, and an empty balance pauses the fee rather than
    // making a debt. Nothing is deleted either way.
    QSqlQuery q = m_db.exec(u"SELECT gpu_type, disk_gib FROM instances"
                            " WHERE id = ? AND state IN ('stopping','stopped')"_s,
                            {instanceId});
    if (!q.next())
        return;
    const qint64 rate =
        m_catalog.storageRatePerHourMicros(m_records.diskGibOf(q.value(0).toString(), q.value(1)));
    if (rate <= 0 || m_books.balance(userId) <= 0 || pausedByLimit(userId, atMs)
        || !m_meter.openSegmentsOfInstance(instanceId).isEmpty())
        return;
    m_meter.openSegment(instanceId, userId, rate, atMs, Meter::Kind::Storage);
}

void StorageFees::resume(const QString &userId)
{
    if (m_catalog.storagePricePerGibHourMicros() <= 0)
        return;
    // Stopped instances whose storage is not billed: the balance ran out and has been topped
    // up since (or they were stopped before the fee existed). Billed again from now on.
    const qint64 now = m_clock.nowMs();
    QSqlQuery q = m_db.exec(
        u"SELECT i.id, i.user_id FROM instances i JOIN users u ON u.id = i.user_id"
        " WHERE i.state IN ('stopping','stopped') AND u.balance_micros > 0"
        " AND (COALESCE(?, '') = '' OR i.user_id = ?)"
        " AND NOT EXISTS (SELECT 1 FROM segments s"
        "   WHERE s.instance_id = i.id AND s.ended_at IS NULL AND s.snapshot_id IS NULL)"_s,
        {userId, userId});
    QList<std::pair<QString, QString>> due;
    while (q.next())
        due.append({q.value(0).toString(), q.value(1).toString()});
    for (const auto &[instanceId, owner] : std::as_const(due))
        open(instanceId, owner, now);
    resumeSnapshotFees(userId, now);
}

void StorageFees::resumeSnapshotFees(const QString &userId, qint64 nowMs)
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
        if (!pausedByLimit(user, nowMs))
            snapshots::resumeBilling(m_db, m_meter, m_catalog, user, nowMs);
    }
}

bool StorageFees::pausedByLimit(const QString &userId, qint64 atMs) const
{
    return m_limits && m_limits->headroom(userId, atMs).value_or(1) <= 0;
}

} // namespace cardhour::sim
