// InstanceService, continued: what the runtime and the clock tell it. Stages, readiness,
// failures and stops from the runtime; the meter's tick, the balance running out, storage
// billing; reconciling the database with the containers the engine has.
#include "CardLending.h"
#include "Catalog.h"
#include "EventBus.h"
#include "InstanceService.h"
#include "SnapshotRules.h"
#include "billing/Bookkeeper.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QDebug>
#include <QHash>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

// ---- runtime callbacks ----------------------------------------------------------------------

void InstanceService::onStage(const QString &instanceId, const QString &stage)
{
    const qint64 now = m_clock.nowMs();
    // An app answers after SSH is ready: its stage belongs to the running launch (billing has
    // started at `ready`, whatever the app does); the launch stages only to one in progress.
    const bool appStage = stage.startsWith(u"app:"_s);
    Transaction tx(m_db);
    m_db.exec(u"INSERT OR IGNORE INTO instance_stages(instance_id, launch_seq, stage, at)"
              " SELECT id, launch_seq, ?, ? FROM instances WHERE id = ? AND state IN "_s
                  + (appStage ? u"('running')"_s : u"('creating','starting')"_s),
              {stage, now, instanceId});
    if (stage == u"container"_s)
        compareAndSwap(instanceId, {u"creating"_s}, u"starting"_s, {}, now);
    tx.commit();
    notify(instanceId);
}

void InstanceService::onReady(const QString &instanceId, const SshEndpoint &ssh)
{
    tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    if (!compareAndSwap(instanceId, {u"creating"_s, u"starting"_s}, u"running"_s, {}, now)) {
        // Terminated (or otherwise moved on) while starting: the runtime keeps nothing running.
        const QString state =
            m_db.scalar(u"SELECT state FROM instances WHERE id = ?"_s, {instanceId}).toString();
        tx.commit();
        if (state == u"terminated"_s || state.isEmpty())
            m_runtime.remove(instanceId);
        return;
    }
    QSqlQuery q = m_db.exec(u"SELECT user_id, price_per_hour_micros FROM instances WHERE id = ?"_s,
                            {instanceId});
    q.next();
    const QString userId = q.value(0).toString();
    if (ssh.isValid()) {
        m_db.exec(u"UPDATE instances SET ssh_host = ?, ssh_port = ?, ssh_user = ?, "
                  u"ssh_host_key_sha256 = ?,"
                  " ssh_host_key = ? WHERE id = ?"_s,
                  {ssh.host, ssh.port, ssh.user, ssh.hostKeySha256,
                   ssh.hostKey.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                         : QVariant(ssh.hostKey),
                   instanceId});
    }
    // Billing starts here, at `running`, not while creating or starting.
    m_meter.openSegment(instanceId, userId, q.value(1).toLongLong(), now);
    tx.commit();
    notify(instanceId);
}

void InstanceService::onFailed(const QString &instanceId, const QString &reason)
{
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const bool moved =
        compareAndSwap(instanceId, {u"creating"_s, u"starting"_s}, u"failed"_s, reason, now);
    m_meter.closeSegment(instanceId, now);
    tx.commit();
    if (moved)
        notify(instanceId);
}

void InstanceService::onStopped(const QString &instanceId)
{
    Transaction tx(m_db);
    // Keeps the reason given when stopping began (user, balance, ...).
    m_db.exec(u"UPDATE instances SET state = 'stopped', updated_at = MAX(?, updated_at + 1)"
              " WHERE id = ? AND state = 'stopping'"_s,
              {m_clock.nowMs(), instanceId});
    tx.commit();
    notify(instanceId);
}

void InstanceService::onDiskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes)
{
    tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString userId =
        m_db.scalar(u"SELECT user_id FROM instances WHERE id = ?"_s, {instanceId}).toString();
    // Like a stop by the user: compute ends now, the kept disk is billed from now.
    if (!compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, u"disk_full"_s, now))
        return;
    m_meter.closeSegment(instanceId, now);
    openStorage(instanceId, userId, now);
    tx.commit();
    qWarning().noquote() << "cardhour-sim: instance" << instanceId << "holds" << usedBytes
                         << "bytes on its own disk, more than its" << limitBytes
                         << "bytes: stopped (disk_full)";
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
    notify(instanceId);
}

// ---- time -----------------------------------------------------------------------------------

void InstanceService::stopForExhaustion(const QString &instanceId, qint64 atMs)
{
    if (!compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, u"balance_exhausted"_s, atMs))
        return;
    m_meter.closeSegment(instanceId, atMs, Meter::Kind::Compute, u"balance_exhausted"_s);
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
}

void InstanceService::openStorage(const QString &instanceId, const QString &userId, qint64 atMs)
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
        m_catalog.storageRatePerHourMicros(diskGibOf(q.value(0).toString(), q.value(1)));
    if (rate <= 0 || m_books.balance(userId) <= 0 || storagePausedByLimit(userId, atMs)
        || !m_meter.openSegmentsOfInstance(instanceId).isEmpty())
        return;
    m_meter.openSegment(instanceId, userId, rate, atMs, Meter::Kind::Storage);
}

void InstanceService::resumeStorageBilling(const QString &userId)
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
        openStorage(instanceId, owner, now);
    resumeSnapshotFees(userId, now);
}

void InstanceService::tick()
{
    // Inside a caller's transaction a rollback would undo the tick's stops but not its
    // queued runtime calls; the API layer ticks before it opens one.
    if (m_db.inTransaction())
        return;
    const qint64 now = m_clock.nowMs();
    const qint64 from = std::min(m_lastTickMs, now);
    Settlement settled; // what the balance, the caps and the stop policies ended
    {
        Transaction tx(m_db);
        const QStringList users = m_meter.usersWithOpenSegments();
        const QHash<QString, QHash<QString, StopPolicy>> policies = m_stops.byUser();
        for (const QString &userId : users)
            settle(userId, from, now, policies.value(userId), settled);
        // A container may die while the provider is not looking: only a runtime listing
        // (reconcile) says it was alive. Without containers, a live provider is the evidence.
        m_meter.accrue(now, !m_runtime.outlivesProvider());
        resumeStorageBilling();
        // The clock moves every watched bill (its live balance, its runway), posted or not.
        for (const QString &userId : m_events.subscribedUsers())
            m_books.noteBillMoved(userId);
        tx.commit();
    }
    m_lastTickMs = now;
    announce(settled);
}

void InstanceService::reconcile(bool atStartup)
{
    const qint64 now = m_clock.nowMs();
    const bool durable = m_runtime.outlivesProvider();
    const QHash<QString, bool> containers = m_runtime.inventory();
    QStringList changed;
    QStringList toRemove;
    QStringList toStop;
    QStringList seenRunning;
    Transaction tx(m_db);
    QSqlQuery q = m_db.exec(u"SELECT id, state, user_id, state_reason FROM instances"
                            " WHERE state != 'terminated'"_s);
    while (q.next()) {
        const QString id = q.value(0).toString();
        const QString state = q.value(1).toString();
        const bool exists = containers.contains(id);
        const bool running = exists && containers.value(id);
        if (state == u"creating"_s || state == u"starting"_s) {
            if (!atStartup)
                continue; // a launch in flight; its own chain reports how it ends
            // The provider died mid-launch: nothing may be left running unbilled.
            if (exists)
                toRemove.append(id);
            m_meter.closeSegmentAtLastSeen(id);
            compareAndSwap(id, {state}, u"failed"_s, u"provider_restarted"_s, now);
            changed.append(id);
        } else if (state == u"running"_s || state == u"stopping"_s) {
            if (running) {
                if (state == u"stopping"_s)
                    toStop.append(id); // the stop asked for before the restart, once more
                else
                    seenRunning.append(id);
                continue;
            }
            // Billed up to the last second the provider saw it running, not a second more.
            const std::optional<Meter::OpenSegment> run = m_meter.openSegmentOf(id);
            const qint64 runEnd =
                run ? std::max(Meter::lastSighting(*run), run->chargedUntilMs) : now;
            m_meter.closeSegmentAtLastSeen(id);
            QString reason = u"provider_restarted"_s;
            QString to = u"stopped"_s;
            if (durable && state == u"running"_s) {
                reason = exists ? u"container_stopped"_s : u"container_gone"_s;
                to = exists ? u"stopped"_s : u"failed"_s;
            } else if (state == u"stopping"_s && !atStartup) {
                // A stop in flight whose container has ended: the engine's event can bring this
                // pass before the stop's own chain; it ends as that stop, with its reason.
                reason = q.value(3).toString();
            }
            // The disk is billed from when the provider learns of the stop (the time it was
            // down is billed for neither), and never before the run's end (a clock set back).
            if (compareAndSwap(id, {state}, to, reason, now) && to == u"stopped"_s)
                openStorage(id, q.value(2).toString(), std::max(now, runEnd));
            changed.append(id);
        } else if (running) {
            toStop.append(id); // stopped or failed here, yet its container runs: stop it
        }
    }
    if (durable)
        m_meter.markSeen(seenRunning, now);
    // Containers of terminated instances go (with their volumes). Ones this database does not
    // know at all are quarantined, never deleted: after the user restores an older database
    // they hold live data. They are stopped (nobody bills them) and kept with their volumes;
    // `cardhour-sim doctor` lists them.
    QStringList toQuarantine;
    for (auto it = containers.cbegin(); it != containers.cend(); ++it) {
        const QString state =
            m_db.scalar(u"SELECT state FROM instances WHERE id = ?"_s, {it.key()}).toString();
        if (state == u"terminated"_s)
            toRemove.append(it.key());
        else if (state.isEmpty() && it.value())
            toQuarantine.append(it.key());
    }
    tx.commit();
    for (const QString &id : std::as_const(toQuarantine)) {
        qWarning().noquote() << "cardhour-sim: instance" << id
                             << "has a container but no row in this database (an older database "
                                "restored?): stopped and kept, see `cardhour-sim doctor`";
        m_runtime.stop(id);
    }
    for (const QString &id : std::as_const(toRemove))
        m_runtime.remove(id);
    for (const QString &id : std::as_const(toStop))
        m_runtime.stop(id);
    for (const QString &id : std::as_const(changed))
        notify(id);
}

} // namespace cardhour::sim
