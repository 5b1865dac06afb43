#include "BillingTick.h"

#include "EventBus.h"
#include "InstanceRecords.h"
#include "InstanceViews.h"
#include "Interruptions.h"
#include "SpendingGuard.h"
#include "StorageFees.h"
#include "billing/Bookkeeper.h"
#include "billing/Meter.h"
#include "billing/SpendingLimits.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"
#include "store/Database.h"

#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

BillingTick::BillingTick(Database &db, Bookkeeper &books, Meter &meter, ContainerRuntime &runtime,
                         InstanceRecords &records, StopPolicies &stops, StorageFees &storage,
                         InstanceViews &views, SpendingGuard &guard, EventBus &events,
                         const Clock &clock, QObject *parent)
    : QObject(parent), m_db(db), m_books(books), m_meter(meter), m_runtime(runtime),
      m_records(records), m_stops(stops), m_storage(storage), m_views(views), m_guard(guard),
      m_events(events), m_clock(clock), m_lastTickMs(clock.nowMs())
{}

void BillingTick::tick()
{
    if (m_db.inTransaction())
        return;
    const qint64 now = m_clock.nowMs();
    const qint64 from = std::min(m_lastTickMs, now);
    Settlement settled; // what the balance, the caps and the stop policies ended
    {
        Transaction tx(m_db);
        const QStringList users = m_meter.usersWithOpenSegments();
        const QHash<QString, QHash<QString, StopPolicy>> policies = m_stops.byUser();
        const QHash<QString, Deadlines> interruptions =
            m_interruptions ? m_interruptions->dueBy(now) : QHash<QString, Deadlines>();
        for (const QString &userId : users)
            settle(userId, from, now, policies.value(userId), interruptions.value(userId), settled);
        // A container may die while the provider is not looking: only a runtime listing
        // (reconcile) says it was alive. Without containers, a live provider is the evidence.
        m_meter.accrue(now, !m_runtime.outlivesProvider());
        m_storage.resume();
        // The clock moves every watched bill (its live balance, its runway), posted or not.
        for (const QString &userId : m_events.subscribedUsers())
            m_books.noteBillMoved(userId);
        tx.commit();
    }
    m_lastTickMs = now;
    announce(settled);
}

bool BillingTick::stopFor(const QString &instanceId, qint64 atMs, const QString &reason)
{
    if (!m_records.compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, reason, atMs))
        return false;
    m_meter.closeSegment(instanceId, atMs, Meter::Kind::Compute, reason);
    m_stops.forget(instanceId);
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
    return true;
}

QList<BillingTick::Due> BillingTick::dueStops(const QString &userId, qint64 fromMs, qint64 nowMs,
                                              const QHash<QString, StopPolicy> &policies,
                                              const Deadlines &interruptions)
{
    QList<Due> due;
    // An interruption's deadline is never before the tick that bills past it began.
    for (const auto &[instanceId, atMs] : interruptions)
        due.append({std::max(atMs, fromMs), instanceId, QString(Interruptions::kReason)});
    if (policies.isEmpty()) {
        std::sort(due.begin(), due.end(),
                  [](const Due &a, const Due &b) { return a.atMs < b.atMs; });
        return due;
    }
    const QHash<QString, Meter::Costs> posted = m_meter.postedByInstance(userId);
    for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId)) {
        const auto policy = policies.constFind(s.instanceId);
        if (!s.snapshotId.isEmpty() || s.kind != Meter::Kind::Compute || policy == policies.cend())
            continue;
        const qint64 cost = posted.value(s.instanceId).computeMicros + Meter::unposted(s, nowMs);
        const std::optional<PlannedStop> stop = StopPolicies::timedStop(*policy, s, cost, nowMs);
        if (stop && stop->atMs <= nowMs)
            // A maximum lowered under what is spent stops now, not in the past.
            due.append({stop->reason == u"max_cost"_s ? std::max(stop->atMs, fromMs) : stop->atMs,
                        s.instanceId, stop->reason});
    }
    std::sort(due.begin(), due.end(), [](const Due &a, const Due &b) { return a.atMs < b.atMs; });
    return due;
}

bool BillingTick::runOut(const QString &userId, const Meter::OpenTotals &owed, qint64 pieceStart,
                         qint64 pieceEnd, Settlement &out)
{
    // What may still be charged in this piece: the balance, or a cap's room if smaller.
    qint64 limit = m_books.balance(userId);
    QString reason = u"balance_exhausted"_s;
    if (m_limits) {
        const std::optional<qint64> room = m_limits->headroom(userId, pieceEnd);
        if (room && *room < limit) {
            limit = *room;
            reason = u"spending_limit"_s;
        }
    }
    // exhaustionTime finds nothing unless what is owed at the piece's end reaches the limit.
    const QList<Meter::OpenSegment> open =
        owed.unpostedMicros >= limit ? m_meter.openSegmentsOf(userId) : QList<Meter::OpenSegment>();
    const std::optional<qint64> at = Meter::exhaustionTime(open, limit, pieceStart, pieceEnd);
    if (!at)
        return false;
    // Runs stop; stopped disks and kept snapshots stay as they are, their fees paused.
    for (const Meter::OpenSegment &s : open) {
        if (!s.snapshotId.isEmpty()) {
            m_meter.closeSnapshotSegment(s.snapshotId, *at);
            continue;
        }
        if (s.kind == Meter::Kind::Storage)
            m_meter.closeSegment(s.instanceId, *at, Meter::Kind::Storage, reason);
        else
            stopFor(s.instanceId, *at, reason);
        out.changed.append(s.instanceId);
    }
    if (reason == u"spending_limit"_s)
        out.limitUsers.insert(userId);
    return true;
}

void BillingTick::settle(const QString &userId, qint64 fromMs, qint64 nowMs,
                         const QHash<QString, StopPolicy> &policies, const Deadlines &interruptions,
                         Settlement &out)
{
    const QList<Due> due = dueStops(userId, fromMs, nowMs, policies, interruptions);
    const QList<qint64> cuts =
        m_limits ? m_limits->boundariesBetween(fromMs, nowMs) : QList<qint64>();
    qint64 pieceStart = fromMs;
    qsizetype nextDue = 0;
    qsizetype nextCut = 0;
    for (;;) {
        // The next moment something happens: a policy's stop, a period boundary, or now.
        qint64 pieceEnd = nowMs;
        enum class Event {
            End,
            Policy,
            Cut
        } event = Event::End;
        if (nextDue < due.size() && due.at(nextDue).atMs <= pieceEnd) {
            pieceEnd = due.at(nextDue).atMs;
            event = Event::Policy;
        }
        if (nextCut < cuts.size() && cuts.at(nextCut) < pieceEnd) {
            pieceEnd = cuts.at(nextCut);
            event = Event::Cut;
        }
        pieceEnd = std::max(pieceEnd, pieceStart);
        // Summed in place: most ticks nothing runs out, and the segments are not copied.
        const Meter::OpenTotals owed = m_meter.openTotalsOf(userId, pieceEnd);
        if (owed.segments == 0 || runOut(userId, owed, pieceStart, pieceEnd, out)
            || event == Event::End)
            break;
        if (event == Event::Policy) {
            const Due &stop = due.at(nextDue++);
            if (stopFor(stop.instanceId, stop.atMs, stop.reason)) {
                if (stop.reason == u"max_duration"_s)
                    m_stops.clearStopAt(stop.instanceId); // done; a later start runs on
                if (stop.reason == Interruptions::kReason)
                    m_interruptions->noteStopped(stop.instanceId);
                m_storage.open(stop.instanceId, userId, stop.atMs); // the kept disk, as at a stop
                out.changed.append(stop.instanceId);
            }
        } else {
            m_meter.checkpointUser(userId, cuts.at(nextCut++)); // each period its own postings
        }
        pieceStart = pieceEnd;
    }
    warnAhead(userId, nowMs, policies, out);
}

void BillingTick::warnAhead(const QString &userId, qint64 nowMs,
                            const QHash<QString, StopPolicy> &policies, Settlement &out)
{
    if (!policies.isEmpty()) {
        const QHash<QString, Meter::Costs> posted = m_meter.postedByInstance(userId);
        for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId)) {
            const auto policy = policies.constFind(s.instanceId);
            if (!s.snapshotId.isEmpty() || s.kind != Meter::Kind::Compute
                || policy == policies.cend())
                continue;
            const qint64 cost =
                posted.value(s.instanceId).computeMicros + Meter::unposted(s, nowMs);
            const std::optional<PlannedStop> stop =
                StopPolicies::timedStop(*policy, s, cost, nowMs);
            if (stop && stop->atMs > nowMs
                && nowMs >= stop->atMs - qint64(policy->warningSeconds()) * 1000
                && m_stops.warnOnce(s.instanceId, stop->reason, stop->atMs))
                out.warnings.append(QJsonObject{{u"user_id"_s, userId},
                                                {u"instance_id"_s, s.instanceId},
                                                {u"reason"_s, stop->reason},
                                                {u"stop_at"_s, json::isoTime(stop->atMs)}});
        }
    }
    if (m_limits) {
        qint64 unposted = 0;
        for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId))
            unposted += Meter::unposted(s, nowMs);
        if (m_limits->noteAlerts(userId, nowMs, unposted))
            out.limitUsers.insert(userId);
    }
}

void BillingTick::announce(const Settlement &settled)
{
    for (const QString &instanceId : std::as_const(settled.changed))
        m_views.notify(instanceId);
    for (QJsonObject warning : settled.warnings) {
        const QString userId = warning.take(u"user_id"_s).toString();
        m_events.publish(userId, u"instance.stop_warning"_s, warning);
        m_views.notify(warning.value(u"instance_id"_s).toString()); // its planned_stop now warns
    }
    for (const QString &userId : settled.limitUsers)
        m_guard.publishSpendingLimits(userId);
}

} // namespace cardhour::sim
