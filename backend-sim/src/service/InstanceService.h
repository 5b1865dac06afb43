#pragma once

#include "StopPolicies.h"
#include "billing/Meter.h"
#include "runtime/ContainerRuntime.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <array>
#include <memory>
#include <optional>

namespace cardhour::sim {

class Catalog;
class Datasets;
class Clock;
class Bookkeeper;
class Database;
class EventBus;
class Meter;
class PrivateModels;
class SpendingLimits;
class SshKeys;

// The instance state machine: the only place that moves an instance between states, always
// with a compare-and-swap on the current state, and always together with the billing change
// (open or close a segment) in the same transaction. Runtime work starts after the commit.
//
//   creating → starting → running → stopping → stopped → starting → …
//   creating/starting → failed;  any but terminated → terminated
//
// Billing: a compute segment while `running`; a storage segment (the catalog's disk size ×
// storage price) from a stop request until a start request or terminate, paused while the
// owner's balance is zero. Creating, starting and failed instances cost nothing.
// Transitions are in InstanceService.cpp, the JSON views in InstanceViews.cpp.
class InstanceService : public QObject
{
    Q_OBJECT
public:
    struct CreateRequest
    {
        QString name;
        QString gpuType;
        int gpuCount = 1;
        QString image;
        QStringList sshKeyIds;
        QStringList datasets; // names of shared datasets to mount read-only
        QStringList models; // names of public or the caller's own models to mount read-only
        // Restore from one of the caller's ready snapshots: its disk and /workspace. An empty
        // gpuType / image and a gpuCount of 0 take the snapshot's source's.
        QString snapshotId;
        StopPolicy stopPolicy; // when the provider stops it by itself
    };

    InstanceService(Database &db, Bookkeeper &books, Meter &meter, const Catalog &catalog,
                    SshKeys &keys, ContainerRuntime &runtime, EventBus &events, const Clock &clock,
                    QObject *parent = nullptr);

    // Where create() looks datasets up; without one, asking for a dataset is refused.
    void setDatasets(const Datasets *datasets) { m_datasets = datasets; }
    // Where create() looks models up; without one, asking for a model is refused.
    void setModels(PrivateModels *models) { m_models = models; }
    // The account's spending limits (the same the Meter caps its postings at); without them,
    // only the balance stops hosts. InstanceServiceStops.cpp has what they and stop policies do.
    void setSpendingLimits(SpendingLimits *limits) { m_limits = limits; }
    // The secret one-click app tokens are derived from (HMAC-SHA-256 of the instance id), so
    // that the database holds none: SimServer keeps it in a 0600 file of the data directory.
    // Without one, a random key for this process's life.
    void setAppTokenKey(const QByteArray &key) { m_appTokenKey = key; }
    // The instance's app token: the one derived from the key, or for a row made by an older
    // version (which stored tokens), the stored one: its container has that one.
    QString appTokenOf(const QString &instanceId, const QVariant &stored) const;

    // Validates and records a new instance (state `creating`) inside the caller's transaction
    // if there is one; the runtime is asked to create it once that commits.
    QJsonObject create(const QString &userId, const CreateRequest &request);
    QJsonArray list(const QString &userId, bool includeTerminated);
    // list() as compact JSON, the same bytes: serialised once while the database is unchanged,
    // for every reader, with each instance's costs brought to the clock at each call.
    QByteArray listJson(const QString &userId, bool includeTerminated);
    QJsonObject get(const QString &userId, const QString &instanceId);
    QJsonObject stop(const QString &userId, const QString &instanceId);
    QJsonObject start(const QString &userId, const QString &instanceId);
    QJsonObject terminate(const QString &userId, const QString &instanceId);
    // Installs or withdraws one of the caller's keys; a live instance accepts the change at once.
    QJsonObject addKey(const QString &userId, const QString &instanceId, const QString &keyId);
    QJsonObject removeKey(const QString &userId, const QString &instanceId, const QString &keyId);

    // GET /v1/spending-limits; PUT: an unset optional leaves the period as it is.
    QJsonObject spendingLimitsJson(const QString &userId);
    struct LimitChange
    {
        bool alertGiven = false, maxGiven = false;
        std::optional<qint64> alertMicros, maxMicros; // empty: cleared
    };
    QJsonObject changeSpendingLimits(const QString &userId,
                                     const std::array<std::optional<LimitChange>, 3> &changes);
    QJsonObject setStopPolicy(const QString &userId, const QString &instanceId,
                              const StopPolicy &policy);
    // Restarts a running idle window once; 409 invalid_state when no idle stop is pending.
    QJsonObject keepRunning(const QString &userId, const QString &instanceId);
    // A telemetry sample of a running instance: its busiest card's utilisation. A policy that
    // stops only with no connection open has the runtime count them (a few seconds apart); an
    // instance not counted yet counts as connected.
    void noteUtilisation(const QString &instanceId, qint64 atMs, double busiestCardPercent);

    QJsonArray gpuCatalog();
    QJsonObject billingSummary(const QString &userId);
    // Balance net of what running instances, kept disks and snapshots and private models owe
    // but is not posted yet; never below zero.
    qint64 liveBalance(const QString &userId);
    // What all of that costs per hour now.
    qint64 spendRate(const QString &userId);
    // POST /v1/billing/topup: credits `amountMicros` (within the account's and the balance's
    // limits) and resumes the storage fees an empty balance paused, inside the caller's
    // transaction if there is one. Returns the posting as the ledger shows it.
    QJsonObject topUp(const QString &userId, qint64 amountMicros);
    // Both from one pass over the open segments, with the posted balance the caller read
    // (GET /v1/me keeps it between writes).
    struct LiveAccount
    {
        qint64 balanceMicros = 0;
        qint64 spendRatePerHourMicros = 0;
    };
    LiveAccount liveAccount(const QString &userId, qint64 postedBalanceMicros);

    // Brings billing up to the clock: stops instances whose owner's balance ran out (at the
    // exact millisecond it did) and ends their stopped instances' storage fee there, posts
    // checkpoint charges, resumes storage billing where a balance is positive again,
    // publishes billing updates.
    void tick();
    // Opens storage segments, from now, for the stopped instances and kept snapshots (of
    // `userId`, or of everyone) whose storage is not billed because their owner's balance ran out.
    // Joins the caller's transaction: a top-up calls it so the fee resumes at the top-up's moment.
    void resumeStorageBilling(const QString &userId = {});
    // Brings the rows in line with what the runtime lists (after a restart, and periodically):
    // instances whose container stopped or vanished are billed up to the last second the
    // provider saw them running and marked stopped/failed; launches cut short by a restart
    // fail; containers of terminated instances are removed, ones without a row are stopped
    // and kept (quarantined: never a volume deleted without its row).
    void reconcile(bool atStartup = true);

    QJsonObject instanceJson(const QString &instanceId, qint64 nowMs);
    // What stop and terminate keep and delete, and what is billed in which state, for an
    // instance given `diskGib` of disk.
    QJsonObject retentionJson(qint64 diskGib) const;
    // `answeredAt`: app name → when its `app:<name>` stage was reached in the latest launch.
    QJsonArray appsJson(const QString &imageId, const QString &token, bool running,
                        const QHash<QString, qint64> &answeredAt = {}) const;

    struct Resources
    {
        double cpus = 0;
        qint64 memoryMib = 0;
        int pidsLimit = 0; // processes (the catalog's pids_limit_per_instance)
    };
    // CPU and memory limits of an instance: the GPU type's host spec, scaled to this machine.
    Resources resourcesFor(const QString &gpuType, int gpuCount) const;

    // How the runtime bounds each instance's disk (GET /v1/limits, the instance's resources).
    DiskQuota diskQuota() const { return m_runtime.diskQuota(); }

    // The instance's state, if it is the user's; ApiError 404 otherwise (never 403).
    QString requireState(const QString &userId, const QString &instanceId);

private:
    // The private models' storage fees of `userId` (none without a model library).
    QList<Meter::OpenSegment> modelFeesOf(const QString &userId);
    void onStage(const QString &instanceId, const QString &stage);
    void onReady(const QString &instanceId, const SshEndpoint &ssh);
    void onFailed(const QString &instanceId, const QString &reason);
    void onStopped(const QString &instanceId);
    // The container's own disk grew past the instance's: stopped (disk_full), data kept.
    void onDiskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes);
    // Asks the runtime to count the connections of the instances in m_connectionWatch, unless
    // it counted them a moment ago or is counting now.
    void countConnectionsSoon();
    void onConnectionsCounted(const QHash<QString, int> &byInstance);

    // UPDATE … SET state = `to` WHERE id AND state IN (`from`); true if this call won.
    bool compareAndSwap(const QString &instanceId, const QStringList &from, const QString &to,
                        const QString &reason, qint64 nowMs);
    static const QString &holdingStatesSql();
    // The instances of `userId` (or only `instanceId` of them) as the API shows them, with a
    // fixed handful of queries whatever their number.
    QJsonArray instancesJson(const QString &userId, const QString &instanceId,
                             bool includeTerminated, qint64 nowMs);
    // The disk an instance was given: `recorded` (instances.disk_gib), else its type's size.
    qint64 diskGibOf(const QString &gpuType, const QVariant &recorded) const;
    // Opens the storage segment of a stopped instance at `atMs`, unless its disk is free, the
    // balance is zero or a segment is open already.
    void openStorage(const QString &instanceId, const QString &userId, qint64 atMs);
    int cardsHeld(const QString &gpuType);
    InstanceSpec specFor(const QString &instanceId);
    void notify(const QString &instanceId);
    // The Bookkeeper's billMoved, after the commit: the user's clients get the new balance,
    // spend rate and runway (SSE `billing`).
    void publishBilling(const QString &userId);
    void stopForExhaustion(const QString &instanceId, qint64 atMs);

    // What one tick decided for the spending limits and stop policies (InstanceServiceStops.cpp).
    struct Settlement
    {
        QStringList changed; // instances stopped
        QSet<QString> limitUsers; // users whose limits' state changed
        QList<QJsonObject> warnings; // instance.stop_warning payloads, with "user_id"
    };
    // Bills `userId` from `fromMs` to `nowMs`: each stop policy's and cap's stop at its own
    // millisecond, the balance's as before, a checkpoint at every period boundary.
    // `policies`: the user's stop policies (StopPolicies::byUser, read once per tick).
    void settle(const QString &userId, qint64 fromMs, qint64 nowMs,
                const QHash<QString, StopPolicy> &policies, Settlement &out);
    void announce(const Settlement &settled);
    // Stops a running instance at `atMs` for `reason` (its compute billed up to then).
    bool stopFor(const QString &instanceId, qint64 atMs, const QString &reason);
    // 402 spending_limit_reached unless a minute of `extraRate` more fits under every cap; for
    // a start of `instanceId`, 409 invalid_state when its max cost is reached (a passed stop
    // time is dropped).
    void requireSpendingRoom(const QString &userId, qint64 extraRatePerHourMicros,
                             const QString &instanceId = {});
    std::optional<PlannedStop> plannedStop(const QString &instanceId, const StopPolicy &policy,
                                           const Meter::OpenSegment *computeSegment,
                                           qint64 computeCostMicros, qint64 nowMs) const;
    QJsonValue plannedStopJson(const QString &instanceId, const QString &state,
                               const StopPolicy &policy, const Meter::OpenSegment *computeSegment,
                               qint64 computeCostMicros, qint64 nowMs) const;
    void publishSpendingLimits(const QString &userId);
    // Snapshot fees resumed where a balance is positive and no cap is reached.
    void resumeSnapshotFees(const QString &userId, qint64 nowMs);
    // A reached cap pauses storage fees, as a zero balance does.
    bool storagePausedByLimit(const QString &userId, qint64 atMs) const;
    static void requireFutureStop(const StopPolicy &policy, qint64 nowMs);

    Database &m_db;
    Bookkeeper &m_books;
    Meter &m_meter;
    const Catalog &m_catalog;
    SshKeys &m_keys;
    ContainerRuntime &m_runtime;
    EventBus &m_events;
    const Clock &m_clock;
    qint64 m_lastTickMs;
    QByteArray m_appTokenKey; // see setAppTokenKey
    const Datasets *m_datasets = nullptr;
    PrivateModels *m_models = nullptr;
    struct SerialisedList; // see InstanceViews.cpp
    QHash<QString, std::shared_ptr<const SerialisedList>> m_serialisedLists;
    quint64 m_serialisedAt = 0; // Database::writeVersion() they were made at
    SpendingLimits *m_limits = nullptr;
    StopPolicies m_stops;
    QHash<QString, int> m_connections; // instance → connections open at the last count
    QSet<QString> m_connectionWatch; // instances whose idle stop waits for no connections
    QStringList m_counting; // asked of the runtime, its answer still to come
    QElapsedTimer m_countedAgo;
};

} // namespace cardhour::sim
