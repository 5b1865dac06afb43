#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class BillingTick;
class Clock;
class ContainerRuntime;
class Database;
class EventBus;
class InstanceRecords;
class InstanceViews;
class Meter;
class StopPolicies;
class StorageFees;

// Idle stops: each telemetry sample of a running instance with an idle policy moves its idle
// window (busy cards, or an open connection where the policy asks, restart it), warns before
// the stop and makes it; the runtime counts the connections into the boxes a few seconds apart.
class IdleWatch : public QObject
{
    Q_OBJECT
public:
    IdleWatch(Database &db, Meter &meter, ContainerRuntime &runtime, InstanceRecords &records,
              StopPolicies &stops, StorageFees &storage, InstanceViews &views, BillingTick &tick,
              EventBus &events, const Clock &clock, QObject *parent = nullptr);

    // A telemetry sample of a running instance: its busiest card's utilisation. A policy that
    // stops only with no connection open has the runtime count them (a few seconds apart); an
    // instance not counted yet counts as connected.
    void noteUtilisation(const QString &instanceId, qint64 atMs, double busiestCardPercent);
    // Restarts a running idle window once; 409 invalid_state when no idle stop is pending.
    QJsonObject keepRunning(const QString &userId, const QString &instanceId);

private:
    // Asks the runtime to count the connections of the instances in m_connectionWatch, unless
    // it counted them a moment ago or is counting now.
    void countConnectionsSoon();
    void onConnectionsCounted(const QHash<QString, int> &byInstance);
    // The idle stop has come: made now, the kept disk billed from then.
    void stopIdle(const QString &instanceId, const QString &userId);

    Database &m_db;
    Meter &m_meter;
    ContainerRuntime &m_runtime;
    InstanceRecords &m_records;
    StopPolicies &m_stops;
    StorageFees &m_storage;
    InstanceViews &m_views;
    BillingTick &m_tick;
    EventBus &m_events;
    const Clock &m_clock;
    QHash<QString, int> m_connections; // instance → connections open at the last count
    QSet<QString> m_connectionWatch; // instances whose idle stop waits for no connections
    QStringList m_counting; // asked of the runtime, its answer still to come
    QElapsedTimer m_countedAgo;
};

} // namespace cardhour::sim
