#pragma once

#include "billing/Meter.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <memory>

class QSqlQuery;

namespace cardhour::sim {

class Catalog;
class Clock;
class ContainerRuntime;
class Database;
class EventBus;
class InstanceRecords;
class StopPolicies;
struct StopPolicy;

// The read side of instances: the JSON an API client sees for them (costs brought to the
// clock, the planned stop, the launch's stages, the apps and what stop and terminate keep),
// the GPU catalog with what is free, and the SSE `instance` event. Nothing here changes state.
class InstanceViews
{
public:
    InstanceViews(Database &db, Meter &meter, const Catalog &catalog, ContainerRuntime &runtime,
                  InstanceRecords &records, const StopPolicies &stops, EventBus &events,
                  const Clock &clock);
    ~InstanceViews();
    InstanceViews(const InstanceViews &) = delete;
    InstanceViews &operator=(const InstanceViews &) = delete;

    QJsonObject instanceJson(const QString &instanceId, qint64 nowMs);
    QJsonArray list(const QString &userId, bool includeTerminated);
    // list() as compact JSON, the same bytes: serialised once while the database is unchanged,
    // for every reader, with each instance's costs brought to the clock at each call.
    QByteArray listJson(const QString &userId, bool includeTerminated);
    // The user's instance; ApiError 404 unless it is theirs.
    QJsonObject get(const QString &userId, const QString &instanceId);
    QJsonArray gpuCatalog();
    // What stop and terminate keep and delete, and what is billed in which state, for an
    // instance given `diskGib` of disk.
    QJsonObject retentionJson(qint64 diskGib) const;
    // `answeredAt`: app name → when its `app:<name>` stage was reached in the latest launch.
    QJsonArray appsJson(const QString &imageId, const QString &token, bool running,
                        const QHash<QString, qint64> &answeredAt = {}) const;

    // Sends the instance as it is now to its owner's clients (SSE `instance`).
    void notify(const QString &instanceId);
    // The same, on this process's event stream only (what another process announced).
    void notifyHere(const QString &instanceId);

private:
    // What a view shows besides the instances' own rows, each kind read once for all of them.
    struct Details;
    Details detailsOf(const QString &userId, const QString &instanceId, bool includeTerminated,
                      qint64 nowMs);
    QJsonObject rowJson(const QSqlQuery &row, const Details &details, qint64 nowMs);
    // An instance's CPU, memory and disk as given here, and as the catalog has them.
    QJsonObject resourcesJson(const QString &gpuType, int gpuCount, qint64 diskGib) const;
    // The instances of `userId` (or only `instanceId` of them) as the API shows them, with a
    // fixed handful of queries whatever their number.
    QJsonArray instancesJson(const QString &userId, const QString &instanceId,
                             bool includeTerminated, qint64 nowMs);
    QJsonValue plannedStopJson(const QString &instanceId, const QString &state,
                               const StopPolicy &policy, const Meter::OpenSegment *computeSegment,
                               qint64 computeCostMicros, qint64 nowMs) const;
    struct SerialisedList;
    std::shared_ptr<const SerialisedList> serialise(const QString &userId, bool includeTerminated,
                                                    qint64 nowMs);

    Database &m_db;
    Meter &m_meter;
    const Catalog &m_catalog;
    ContainerRuntime &m_runtime;
    InstanceRecords &m_records;
    const StopPolicies &m_stops;
    EventBus &m_events;
    const Clock &m_clock;
    QHash<QString, std::shared_ptr<const SerialisedList>> m_serialisedLists;
    // The last body made of each list and the amounts in it: while they have not moved, the
    // same bytes are the answer (shared, not copied again).
    struct MadeAt
    {
        QList<qint64> amounts;
        QByteArray body;
    };
    QHash<QString, MadeAt> m_lastMade;
    quint64 m_serialisedAt = 0; // Database::writeVersion() they were made at
};

} // namespace cardhour::sim
