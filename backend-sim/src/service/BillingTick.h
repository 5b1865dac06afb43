#pragma once

#include "StopPolicies.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class Bookkeeper;
class Clock;
class ContainerRuntime;
class Database;
class EventBus;
class InstanceRecords;
class InstanceViews;
class Interruptions;
class Meter;
class SpendingGuard;
class SpendingLimits;
class StorageFees;

// Brings billing up to the clock: stops runs where their owner's balance or a spending cap
// runs out (at the exact millisecond it does) and pauses their kept disks' and snapshots' fees
// there, makes each stop policy's timed stop at its own millisecond and warns before it, posts a
// checkpoint at every limit period's boundary and every posting interval, resumes storage fees
// where a balance is positive again. Every watched bill moves with it (the Bookkeeper tells).
class BillingTick : public QObject
{
    Q_OBJECT
public:
    BillingTick(Database &db, Bookkeeper &books, Meter &meter, ContainerRuntime &runtime,
                InstanceRecords &records, StopPolicies &stops, StorageFees &storage,
                InstanceViews &views, SpendingGuard &guard, EventBus &events, const Clock &clock,
                QObject *parent = nullptr);
    void setSpendingLimits(SpendingLimits *limits) { m_limits = limits; }
    // Whose deadlines stop interruptible hosts, each at its own millisecond.
    void setInterruptions(Interruptions *interruptions) { m_interruptions = interruptions; }

    // Does nothing inside a caller's transaction: a rollback would undo the tick's stops but
    // not its queued runtime calls (the API layer ticks before it opens one).
    void tick();
    // Stops a running instance at `atMs` for `reason` (its compute billed up to then); the
    // runtime is asked to stop it once the caller's transaction is over. False if not running.
    bool stopFor(const QString &instanceId, qint64 atMs, const QString &reason);

private:
    // What one tick decided for the spending limits and stop policies.
    struct Settlement
    {
        QStringList changed; // instances stopped
        QSet<QString> limitUsers; // users whose limits' state changed
        QList<QJsonObject> warnings; // instance.stop_warning payloads, with "user_id"
    };
    struct Due
    {
        qint64 atMs;
        QString instanceId;
        QString reason;
    };
    // An interruption's deadline (instance, at) of one user.
    using Deadlines = QList<QPair<QString, qint64>>;
    // Bills `userId` from `fromMs` to `nowMs`: each stop policy's, interruption's and cap's
    // stop at its own millisecond, the balance's as before, a checkpoint at every period
    // boundary. `policies`: the user's stop policies (StopPolicies::byUser, read once per tick).
    void settle(const QString &userId, qint64 fromMs, qint64 nowMs,
                const QHash<QString, StopPolicy> &policies, const Deadlines &interruptions,
                Settlement &out);
    // The policies' and interruptions' stops due by `nowMs`, in time order.
    QList<Due> dueStops(const QString &userId, qint64 fromMs, qint64 nowMs,
                        const QHash<QString, StopPolicy> &policies, const Deadlines &interruptions);
    // Ends what the balance or a cap can no longer pay within [pieceStart, pieceEnd]; true if
    // something ran out (the settling of the user is over).
    bool runOut(const QString &userId, const Meter::OpenTotals &owed, qint64 pieceStart,
                qint64 pieceEnd, Settlement &out);
    // Warnings before the timed stops still to come, once each; the limits' alerts.
    void warnAhead(const QString &userId, qint64 nowMs, const QHash<QString, StopPolicy> &policies,
                   Settlement &out);
    void announce(const Settlement &settled);

    Database &m_db;
    Bookkeeper &m_books;
    Meter &m_meter;
    ContainerRuntime &m_runtime;
    InstanceRecords &m_records;
    StopPolicies &m_stops;
    StorageFees &m_storage;
    InstanceViews &m_views;
    SpendingGuard &m_guard;
    EventBus &m_events;
    const Clock &m_clock;
    SpendingLimits *m_limits = nullptr;
    Interruptions *m_interruptions = nullptr;
    qint64 m_lastTickMs;
};

} // namespace cardhour::sim
