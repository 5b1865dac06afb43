#include "Interruptions.h"

#include "Catalog.h"
#include "EventBus.h"
#include "InstanceRecords.h"
#include "InstanceViews.h"
#include "StopPolicies.h"
#include "StorageFees.h"
#include "billing/Meter.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"
#include "store/Database.h"

#include <QSqlQuery>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
const QString kNoticeFile = u"interruption"_s;

// /run/cardhour/notices/interruption: lines a shell can source (`. file`) or grep.
QByteArray noticeFileContent(qint64 deadlineMs, int noticeSeconds, const QString &reason)
{
    return u"interruption_at=%1\ninterruption_at_epoch_ms=%2\nnotice_seconds=%3\nreason=%4\n"_s
        .arg(json::isoTime(deadlineMs))
        .arg(deadlineMs)
        .arg(noticeSeconds)
        .arg(reason)
        .toUtf8();
}
} // namespace

Interruptions::Interruptions(Database &db, Meter &meter, const Catalog &catalog,
                             ContainerRuntime &runtime, InstanceRecords &records,
                             InstanceViews &views, StorageFees &storage, StopPolicies &stops,
                             std::function<void()> billUpToNow, EventBus &events,
                             const Clock &clock, QObject *parent)
    : QObject(parent), m_db(db), m_meter(meter), m_catalog(catalog), m_runtime(runtime),
      m_records(records), m_views(views), m_storage(storage), m_stops(stops),
      m_billUpToNow(std::move(billUpToNow)), m_events(events), m_clock(clock)
{}

QJsonObject Interruptions::interrupt(const QString &instanceId, std::optional<int> noticeSeconds,
                                     const QString &reason)
{
    const int notice = noticeSeconds.value_or(m_catalog.interruptionNoticeSeconds());
    if (notice < 0 || notice > 3600)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"notice_seconds\" must be an integer in [0, 3600]."_s);
    m_billUpToNow(); // billed up to now before the deadline is set
    const qint64 now = m_clock.nowMs();
    qint64 deadline = now + qint64(notice) * 1000;
    {
        Transaction tx(m_db);
        QSqlQuery q =
            m_db.exec(u"SELECT state, price_class, interruption_at FROM instances WHERE id = ?"_s,
                      {instanceId});
        if (!q.next())
            throw ApiError(404, ErrorCode::NotFound, u"No such instance."_s);
        const QString state = q.value(0).toString();
        if (q.value(1).toString() != u"interruptible"_s)
            throw ApiError(409, ErrorCode::IllegalTransition,
                           u"Only an interruptible host can be interrupted; this one is on "
                           "demand."_s);
        if (state != u"running"_s)
            throw ApiError(409, ErrorCode::IllegalTransition,
                           u"Only a running host can be interrupted; this one is %1."_s.arg(state));
        if (!q.value(2).isNull()) // a second notice never moves the deadline later
            deadline = std::min(deadline, q.value(2).toLongLong());
        m_db.exec(u"UPDATE instances SET interruption_at = ? WHERE id = ?"_s,
                  {deadline, instanceId});
        tx.commit();
    }
    announce(instanceId, deadline, int((deadline - now + 999) / 1000), reason);
    if (deadline <= now)
        m_billUpToNow(); // stopped at this very millisecond
    return m_views.instanceJson(instanceId, m_clock.nowMs());
}

QStringList Interruptions::preemptFor(const GpuType &gpu, int needed, int freeNow, qint64 nowMs)
{
    QStringList chosen;
    QStringList owners;
    int freed = freeNow;
    // The most recently started first: it has done the least work since its start.
    QSqlQuery q = m_db.exec(u"SELECT id, user_id, gpu_count FROM instances WHERE gpu_type = ?"
                            " AND state = 'running' AND price_class = 'interruptible'"
                            " ORDER BY launch_requested_at DESC, rowid DESC"_s,
                            {gpu.id});
    while (freed < needed && q.next()) {
        chosen.append(q.value(0).toString());
        owners.append(q.value(1).toString());
        freed += q.value(2).toInt();
    }
    if (freed < needed)
        return {};
    for (qsizetype i = 0; i < chosen.size(); ++i) {
        const QString &id = chosen.at(i);
        // Its cards go to the launch now: it is `stopped` at once (the container stops after
        // the commit), its compute billed to this millisecond and its disk from it.
        m_records.compareAndSwap(id, {u"running"_s}, u"stopped"_s, kReason, nowMs);
        m_meter.closeSegment(id, nowMs, Meter::Kind::Compute, kReason);
        m_stops.forget(id);
        m_storage.open(id, owners.at(i), nowMs);
        m_db.exec(u"UPDATE instances SET interruption_at = NULL WHERE id = ?"_s, {id});
        // After the (outermost) commit: a rolled-back launch interrupted nobody.
        QTimer::singleShot(0, this, [this, id, nowMs] {
            if (m_records.stateOf(id) != u"stopped"_s)
                return;
            announce(id, nowMs, 0, u"capacity"_s);
            m_runtime.stop(id);
        });
    }
    return chosen;
}

QHash<QString, QList<QPair<QString, qint64>>> Interruptions::dueBy(qint64 nowMs)
{
    QHash<QString, QList<QPair<QString, qint64>>> due;
    // Through the partial index of the few pending deadlines: `state || ''` keeps SQLite's
    // planner off the indexes by state, which walked every running instance each tick
    // (125 ms a tick at 100 000 running hosts).
    QSqlQuery q = m_db.exec(u"SELECT user_id, id, interruption_at FROM instances"
                            " WHERE interruption_at IS NOT NULL AND interruption_at <= ?"
                            " AND (state || '') = 'running'"_s,
                            {nowMs});
    while (q.next())
        due[q.value(0).toString()].append({q.value(1).toString(), q.value(2).toLongLong()});
    return due;
}

void Interruptions::noteStopped(const QString &instanceId)
{
    m_db.exec(u"UPDATE instances SET interruption_at = NULL WHERE id = ?"_s, {instanceId});
}

QList<QPair<QString, QString>> Interruptions::restartCandidates()
{
    QList<QPair<QString, QString>> ready;
    QHash<QString, int> claimed; // cards of each type the earlier candidates take
    QSqlQuery q = m_db.exec(u"SELECT user_id, id, gpu_type, gpu_count FROM instances"
                            " WHERE state = 'stopped' AND state_reason = 'interrupted'"
                            " AND restart_when_available = 1 ORDER BY updated_at, rowid"_s);
    while (q.next()) {
        const std::optional<GpuType> gpu = m_catalog.gpu(q.value(2).toString());
        if (!gpu)
            continue;
        const int count = q.value(3).toInt();
        const int free = gpu->capacity - m_records.cardsHeld(gpu->id) - claimed.value(gpu->id);
        if (free < count)
            continue;
        claimed[gpu->id] += count;
        ready.append({q.value(0).toString(), q.value(1).toString()});
    }
    return ready;
}

void Interruptions::announceRestart(const QString &userId, const QString &instanceId)
{
    QSqlQuery q = m_db.exec(u"SELECT gpu_type FROM instances WHERE id = ?"_s, {instanceId});
    const QString gpuType = q.next() ? q.value(0).toString() : QString();
    m_events.publish(userId, u"instance.auto_restart"_s,
                     QJsonObject{{u"instance_id"_s, instanceId},
                                 {u"gpu_type"_s, gpuType},
                                 {u"at"_s, json::isoTime(m_clock.nowMs())}});
}

void Interruptions::announce(const QString &instanceId, qint64 deadlineMs, int noticeSeconds,
                             const QString &reason)
{
    m_runtime.writeNotice(instanceId, kNoticeFile,
                          noticeFileContent(deadlineMs, noticeSeconds, reason));
    m_events.publish(m_records.ownerOf(instanceId), u"instance.interruption_notice"_s,
                     QJsonObject{{u"instance_id"_s, instanceId},
                                 {u"interruption_at"_s, json::isoTime(deadlineMs)},
                                 {u"notice_seconds"_s, noticeSeconds},
                                 {u"reason"_s, reason}});
    m_views.notify(instanceId); // its interruption_at
}

} // namespace cardhour::sim
