#include "IdleWatch.h"

#include "BillingTick.h"
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

using namespace Qt::StringLiterals;

namespace cardhour::sim {

IdleWatch::IdleWatch(Database &db, Meter &meter, ContainerRuntime &runtime,
                     InstanceRecords &records, StopPolicies &stops, StorageFees &storage,
                     InstanceViews &views, BillingTick &tick, EventBus &events, const Clock &clock,
                     QObject *parent)
    : QObject(parent), m_db(db), m_meter(meter), m_runtime(runtime), m_records(records),
      m_stops(stops), m_storage(storage), m_views(views), m_tick(tick), m_events(events),
      m_clock(clock)
{
    connect(&m_runtime, &ContainerRuntime::connectionsCounted, this,
            &IdleWatch::onConnectionsCounted);
}

QJsonObject IdleWatch::keepRunning(const QString &userId, const QString &instanceId)
{
    const qint64 now = m_clock.nowMs();
    if (m_records.requireState(userId, instanceId) != u"running"_s
        || !m_stops.postpone(instanceId, now))
        throw ApiError(409, ErrorCode::InvalidState,
                       u"No idle stop is pending for this instance."_s);
    m_views.notify(instanceId);
    return m_views.instanceJson(instanceId, now);
}

void IdleWatch::noteUtilisation(const QString &instanceId, qint64 atMs, double busiestCardPercent)
{
    const StopPolicy policy = m_stops.of(instanceId);
    const std::optional<Meter::OpenSegment> run =
        policy.idle ? m_meter.openSegmentOf(instanceId) : std::nullopt;
    if (!run || !policy.idle->requireNoConnections) {
        m_connectionWatch.remove(instanceId);
        m_connections.remove(instanceId);
    }
    if (!policy.idle)
        return;
    if (!run) {
        m_stops.forget(instanceId);
        return;
    }
    bool connected = false;
    if (policy.idle->requireNoConnections) {
        m_connectionWatch.insert(instanceId);
        countConnectionsSoon();
        // Not counted yet (or the count failed): connected, so that it keeps running.
        connected = m_connections.value(instanceId, -1) != 0;
    }
    const bool busy = busiestCardPercent >= policy.idle->thresholdPercent || connected;
    const bool planned = m_stops.idleStopAt(instanceId, policy).has_value();
    const StopPolicies::IdleVerdict verdict =
        m_stops.noteSample(instanceId, *policy.idle, run->startedAtMs, atMs, busy);
    if (verdict == StopPolicies::IdleVerdict::Warn) {
        const std::optional<qint64> stopAt = m_stops.idleStopAt(instanceId, policy);
        m_events.publish(run->userId, u"instance.stop_warning"_s,
                         QJsonObject{{u"instance_id"_s, instanceId},
                                     {u"reason"_s, u"idle"_s},
                                     {u"stop_at"_s, json::isoTime(stopAt.value_or(atMs))}});
        m_views.notify(instanceId);
    } else if (verdict == StopPolicies::IdleVerdict::Stop) {
        stopIdle(instanceId, run->userId);
    } else if (planned != m_stops.idleStopAt(instanceId, policy).has_value()) {
        m_views.notify(instanceId); // an idle window began or ended: planned_stop changed
    }
}

void IdleWatch::stopIdle(const QString &instanceId, const QString &userId)
{
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    if (m_tick.stopFor(instanceId, now, u"idle"_s))
        m_storage.open(instanceId, userId, now);
    tx.commit(); // its bill moved with the closed run: announced by the Bookkeeper
    m_views.notify(instanceId);
}

void IdleWatch::countConnectionsSoon()
{
    constexpr qint64 kCountEveryMs = 2000; // each count is an `exec` per box
    if (!m_counting.isEmpty() || m_connectionWatch.isEmpty()
        || (m_countedAgo.isValid() && !m_countedAgo.hasExpired(kCountEveryMs)))
        return;
    m_counting = QStringList(m_connectionWatch.cbegin(), m_connectionWatch.cend());
    m_countedAgo.start();
    m_runtime.countConnections(m_counting);
}

void IdleWatch::onConnectionsCounted(const QHash<QString, int> &byInstance)
{
    for (const QString &instanceId : std::as_const(m_counting)) {
        if (m_connectionWatch.contains(instanceId))
            m_connections.insert(instanceId, byInstance.value(instanceId, -1));
    }
    m_counting.clear();
}

} // namespace cardhour::sim
