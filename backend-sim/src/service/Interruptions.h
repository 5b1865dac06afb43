#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace cardhour::sim {

class Catalog;
class Clock;
class ContainerRuntime;
class Database;
class EventBus;
class InstanceRecords;
class InstanceViews;
class Meter;
class StopPolicies;
class StorageFees;
struct GpuType;

// Interruptible hosts: the cheaper price class the provider may stop with a notice.
//
// - An interruption (an operator's or a test's, or the chaos API's) gives a running
//   interruptible host a deadline: the SSE event `instance.interruption_notice`, the file
//   /run/cardhour/interruption inside the box, `interruption_at` in the instance. BillingTick
//   stops it at that exact millisecond (reason `interrupted`), like a timed stop: its compute
//   segment ends there and its kept disk is billed as any stopped one's from then on.
// - An on-demand launch that finds too few free cards of its type takes them from running
//   interruptible hosts of that type, the most recently started first: each gets its notice
//   with the deadline now and is stopped at once, so the launch never waits.
// - A host launched with restart_when_available is started again once its type has the cards
//   free (InstanceService's tick asks restartCandidates(); `instance.auto_restart` follows).
class Interruptions : public QObject
{
    Q_OBJECT
public:
    // `billUpToNow`: BillingTick::tick (which, in turn, asks dueBy() for the deadlines).
    Interruptions(Database &db, Meter &meter, const Catalog &catalog, ContainerRuntime &runtime,
                  InstanceRecords &records, InstanceViews &views, StorageFees &storage,
                  StopPolicies &stops, std::function<void()> billUpToNow, EventBus &events,
                  const Clock &clock, QObject *parent = nullptr);

    // Gives a running interruptible host its notice: stopped `noticeSeconds` from now (the
    // catalog's notice when not given; 0: at once). 404 without such an instance, 409 unless it
    // is a running interruptible host; a notice already given keeps the earlier deadline.
    // `reason`: why, as the notice names it ("operator", "capacity").
    QJsonObject interrupt(const QString &instanceId, std::optional<int> noticeSeconds,
                          const QString &reason);

    // Inside the create's transaction: frees `needed` cards of `gpu` by interrupting running
    // interruptible hosts of that type, newest first (nothing when even all of them would not
    // do). Returns the hosts stopped; their notices go out once that transaction commits.
    QStringList preemptFor(const GpuType &gpu, int needed, int freeNow, qint64 nowMs);

    // Each user's interruptions due by `nowMs` (instance → deadline), for BillingTick.
    QHash<QString, QList<QPair<QString, qint64>>> dueBy(qint64 nowMs);
    // The stop at the deadline was made (inside the tick's transaction): the notice is spent.
    void noteStopped(const QString &instanceId);

    // Interrupted hosts that asked to be started again and whose type now has their cards
    // free, as (owner, instance), the longest waiting first.
    QList<QPair<QString, QString>> restartCandidates();
    // The host was started again: `instance.auto_restart`, and the box's notice file goes.
    void announceRestart(const QString &userId, const QString &instanceId);

    static constexpr QLatin1StringView kReason{"interrupted"};

private:
    // The event and the file inside the box, once the notice is committed.
    void announce(const QString &instanceId, qint64 deadlineMs, int noticeSeconds,
                  const QString &reason);

    Database &m_db;
    Meter &m_meter;
    const Catalog &m_catalog;
    ContainerRuntime &m_runtime;
    InstanceRecords &m_records;
    InstanceViews &m_views;
    StorageFees &m_storage;
    StopPolicies &m_stops;
    std::function<void()> m_billUpToNow;
    EventBus &m_events;
    const Clock &m_clock;
};

} // namespace cardhour::sim
