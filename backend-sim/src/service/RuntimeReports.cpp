#include "RuntimeReports.h"

#include "BillingTick.h"
#include "HardwareCheck.h"
#include "InstanceRecords.h"
#include "InstanceViews.h"
#include "StorageFees.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "store/Database.h"

#include <QDebug>
#include <QSqlQuery>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

RuntimeReports::RuntimeReports(Database &db, Meter &meter, ContainerRuntime &runtime,
                               InstanceRecords &records, StorageFees &storage, InstanceViews &views,
                               BillingTick &tick, const Clock &clock, QObject *parent)
    : QObject(parent), m_db(db), m_meter(meter), m_runtime(runtime), m_records(records),
      m_storage(storage), m_views(views), m_tick(tick), m_clock(clock)
{
    connect(&m_runtime, &ContainerRuntime::stageReached, this, &RuntimeReports::onStage);
    connect(&m_runtime, &ContainerRuntime::ready, this, &RuntimeReports::onReady);
    connect(&m_runtime, &ContainerRuntime::hardwareInspected, this,
            &RuntimeReports::onHardwareInspected);
    connect(&m_runtime, &ContainerRuntime::failed, this, &RuntimeReports::onFailed);
    connect(&m_runtime, &ContainerRuntime::stopped, this, &RuntimeReports::onStopped);
    connect(&m_runtime, &ContainerRuntime::diskFull, this, &RuntimeReports::onDiskFull);
}

void RuntimeReports::onStage(const QString &instanceId, const QString &stage)
{
    const qint64 now = m_clock.nowMs();
    // An app answers after SSH is ready: its stage belongs to the running launch (billing
    // starts once the hardware check passes, whatever the app does), or to the launch whose box
    // is being checked; the launch stages only to one in progress.
    const bool appStage = stage.startsWith(u"app:"_s);
    Transaction tx(m_db);
    m_db.exec(
        u"INSERT INTO instance_stages(instance_id, launch_seq, stage, at)"
        " SELECT id, launch_seq, CAST(? AS TEXT), CAST(? AS BIGINT) FROM instances"
        " WHERE id = ? AND state IN "_s
            + (appStage ? u"('creating','starting','running')"_s : u"('creating','starting')"_s)
            + u" ON CONFLICT DO NOTHING"_s,
        {stage, now, instanceId});
    if (stage == u"container"_s)
        m_records.compareAndSwap(instanceId, {u"creating"_s}, u"starting"_s, {}, now);
    tx.commit();
    m_views.notify(instanceId);
}

void RuntimeReports::onReady(const QString &instanceId, const SshEndpoint &ssh)
{
    if (!m_check || !m_runtime.inspectsHardware())
        return goRunning(instanceId, ssh);
    const QString state = m_records.stateOf(instanceId);
    if (state != u"creating"_s && state != u"starting"_s)
        return goRunning(instanceId, ssh); // moved on meanwhile: that path ends it
    // Not billed yet: first what the box got, read inside it.
    m_awaitingCheck.insert(instanceId, ssh);
    m_runtime.inspectHardware(instanceId);
}

void RuntimeReports::onHardwareInspected(const QString &instanceId, const BoxHardware &found)
{
    const auto it = m_awaitingCheck.constFind(instanceId);
    if (it == m_awaitingCheck.cend())
        return; // not asked for by a launch (or asked for by one since superseded)
    const SshEndpoint ssh = it.value();
    m_awaitingCheck.erase(it);
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = m_records.stateOf(instanceId);
    if (state != u"creating"_s && state != u"starting"_s) {
        tx.commit();
        return goRunning(instanceId, ssh); // terminated meanwhile: removed there
    }
    const HardwareCheck::Verdict verdict = m_check->judge(instanceId, found, now);
    m_db.exec(u"INSERT INTO instance_stages(instance_id, launch_seq, stage, at)"
              " SELECT id, launch_seq, 'hardware_check', CAST(? AS BIGINT) FROM instances"
              " WHERE id = ? ON CONFLICT DO NOTHING"_s,
              {now, instanceId});
    if (verdict.passed) {
        tx.commit();
        return goRunning(instanceId, ssh);
    }
    // Never billed: the launch fails with what differs, and the box does not run on.
    m_records.compareAndSwap(instanceId, {state}, u"failed"_s,
                             u"hardware check failed: "_s + verdict.differences.join(u"; "_s), now);
    tx.commit();
    qWarning().noquote() << "cardhour-sim: instance" << instanceId
                         << "did not get what was ordered:" << verdict.differences.join(u"; "_s);
    m_runtime.stop(instanceId);
    m_views.notify(instanceId);
}

void RuntimeReports::goRunning(const QString &instanceId, const SshEndpoint &ssh)
{
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    if (!m_records.compareAndSwap(instanceId, {u"creating"_s, u"starting"_s}, u"running"_s, {},
                                  now)) {
        // Terminated (or otherwise moved on) while starting: the runtime keeps nothing running.
        const QString state = m_records.stateOf(instanceId);
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
    m_views.notify(instanceId);
}

void RuntimeReports::onFailed(const QString &instanceId, const QString &reason)
{
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const bool moved = m_records.compareAndSwap(instanceId, {u"creating"_s, u"starting"_s},
                                                u"failed"_s, reason, now);
    m_meter.closeSegment(instanceId, now);
    tx.commit();
    if (moved)
        m_views.notify(instanceId);
}

void RuntimeReports::onStopped(const QString &instanceId)
{
    Transaction tx(m_db);
    // Keeps the reason given when stopping began (user, balance, ...).
    m_db.exec(u"UPDATE instances SET state = 'stopped', updated_at = MAX(?, updated_at + 1)"
              " WHERE id = ? AND state = 'stopping'"_s,
              {m_clock.nowMs(), instanceId});
    tx.commit();
    m_views.notify(instanceId);
}

void RuntimeReports::onDiskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes)
{
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString userId = m_records.ownerOf(instanceId);
    // Like a stop by the user: compute ends now, the kept disk is billed from now.
    if (!m_records.compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, u"disk_full"_s, now))
        return;
    m_meter.closeSegment(instanceId, now);
    m_storage.open(instanceId, userId, now);
    tx.commit();
    qWarning().noquote() << "cardhour-sim: instance" << instanceId << "holds" << usedBytes
                         << "bytes on its own disk, more than its" << limitBytes
                         << "bytes: stopped (disk_full)";
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
    m_views.notify(instanceId);
}

// ---- reconcile ------------------------------------------------------------------------------

void RuntimeReports::reconcile(bool atStartup)
{
    const qint64 now = m_clock.nowMs();
    const QHash<QString, bool> containers = m_runtime.inventory();
    Followups out;
    out.nowMs = now;
    Transaction tx(m_db);
    // Another provider's instances (on a shared database) are its to reconcile.
    QSqlQuery q = m_db.exec(u"SELECT id, state, user_id, state_reason FROM instances"
                            " WHERE state != 'terminated' AND "_s
                                + InstanceRecords::hostedHereSql(),
                            {hostBinding()});
    while (q.next())
        reconcileRow(q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                     q.value(3).toString(), containers, atStartup, out);
    if (m_runtime.outlivesProvider())
        m_meter.markSeen(out.seenRunning, now);
    // Containers of terminated instances go (with their volumes). Ones this database does not
    // know at all are quarantined, never deleted: after the user restores an older database
    // they hold live data. They are stopped (nobody bills them) and kept with their volumes;
    // `cardhour-sim doctor` lists them.
    for (auto it = containers.cbegin(); it != containers.cend(); ++it) {
        const QString state = m_records.stateOf(it.key());
        if (state == u"terminated"_s)
            out.toRemove.append(it.key());
        else if (state.isEmpty() && it.value())
            out.toQuarantine.append(it.key());
    }
    tx.commit();
    for (const QString &id : std::as_const(out.toQuarantine)) {
        qWarning().noquote() << "cardhour-sim: instance" << id
                             << "has a container but no row in this database (an older database "
                                "restored?): stopped and kept, see `cardhour-sim doctor`";
        m_runtime.stop(id);
    }
    for (const QString &id : std::as_const(out.toRemove))
        m_runtime.remove(id);
    for (const QString &id : std::as_const(out.toStop))
        m_runtime.stop(id);
    for (const QString &id : std::as_const(out.changed))
        m_views.notify(id);
}

QVariant RuntimeReports::hostBinding() const
{
    return m_records.hostId().isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                        : QVariant(m_records.hostId());
}

void RuntimeReports::followOtherProviders()
{
    // What runs here follows the rows, whoever changed them: an instance stopped or
    // terminated through another provider, or started there since, stops or goes here.
    QStringList toStop;
    QStringList toRemove;
    for (const QString &id : m_runtime.instancesHere()) {
        QSqlQuery q = m_db.exec(u"SELECT state, host_provider FROM instances WHERE id = ?"_s, {id});
        if (!q.next())
            continue; // quarantined by reconcile(), not ours to judge here
        const QString state = q.value(0).toString();
        const bool elsewhere = !q.value(1).isNull() && q.value(1).toString() != m_records.hostId();
        if (state == u"terminated"_s)
            toRemove.append(id);
        else if (m_runtime.isRunning(id)
                 && (elsewhere
                     || !QStringList{u"creating"_s, u"starting"_s, u"running"_s}.contains(state)))
            toStop.append(id);
    }
    for (const QString &id : std::as_const(toRemove))
        m_runtime.remove(id);
    for (const QString &id : std::as_const(toStop))
        m_runtime.stop(id);
}

void RuntimeReports::reconcileRow(const QString &id, const QString &state, const QString &userId,
                                  const QString &reason, const QHash<QString, bool> &containers,
                                  bool atStartup, Followups &out)
{
    const bool exists = containers.contains(id);
    const bool running = exists && containers.value(id);
    if (state == u"creating"_s || state == u"starting"_s) {
        if (!atStartup)
            return; // a launch in flight; its own chain reports how it ends
        // The provider died mid-launch: nothing may be left running unbilled.
        if (exists)
            out.toRemove.append(id);
        m_meter.closeSegmentAtLastSeen(id);
        m_records.compareAndSwap(id, {state}, u"failed"_s, u"provider_restarted"_s, out.nowMs);
        out.changed.append(id);
    } else if (state == u"running"_s || state == u"stopping"_s) {
        if (!running) {
            endLostRun(id, state, userId, reason, exists, atStartup, out);
        } else if (state == u"stopping"_s) {
            out.toStop.append(id); // the stop asked for before the restart, once more
        } else {
            out.seenRunning.append(id);
        }
    } else if (running) {
        out.toStop.append(id); // stopped or failed here, yet its container runs: stop it
    }
}

void RuntimeReports::endLostRun(const QString &id, const QString &state, const QString &userId,
                                const QString &reason, bool exists, bool atStartup, Followups &out)
{
    const qint64 now = out.nowMs;
    // Billed up to the last second the provider saw it running, not a second more.
    const std::optional<Meter::OpenSegment> run = m_meter.openSegmentOf(id);
    const qint64 runEnd = run ? std::max(Meter::lastSighting(*run), run->chargedUntilMs) : now;
    m_meter.closeSegmentAtLastSeen(id);
    QString why = u"provider_restarted"_s;
    QString to = u"stopped"_s;
    if (m_runtime.outlivesProvider() && state == u"running"_s) {
        why = exists ? u"container_stopped"_s : u"container_gone"_s;
        to = exists ? u"stopped"_s : u"failed"_s;
    } else if (state == u"stopping"_s && !atStartup) {
        // A stop in flight whose container has ended: the engine's event can bring this
        // pass before the stop's own chain; it ends as that stop, with its reason.
        why = reason;
    }
    // The disk is billed from when the provider learns of the stop (the time it was down is
    // billed for neither), and never before the run's end (a clock set back).
    if (m_records.compareAndSwap(id, {state}, to, why, now) && to == u"stopped"_s)
        m_storage.open(id, userId, std::max(now, runEnd));
    out.changed.append(id);
}

} // namespace cardhour::sim
