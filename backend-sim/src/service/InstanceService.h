#pragma once

#include "AccountBill.h"
#include "InstanceLifecycle.h"
#include "InstanceRecords.h"
#include "SpendingGuard.h"
#include "runtime/ContainerRuntime.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <array>
#include <memory>
#include <optional>

namespace cardhour::sim {

class BillingTick;
class Bookkeeper;
class Catalog;
class Clock;
class Database;
class Datasets;
class EventBus;
class HardwareCheck;
class IdleWatch;
class InstanceViews;
class Interruptions;
class Meter;
class PrivateModels;
class RuntimeReports;
class SpendingLimits;
class SshKeys;
class StopPolicies;
class StorageFees;

// The instance state machine, as the API and the server see it: one object over the parts that
// do the work, each a class of its own. InstanceLifecycle (what a user asks: launch, stop,
// start, terminate, keys) and RuntimeReports (what the runtime reports, and reconcile) are the
// only places that move an instance between states, always with a compare-and-swap on the
// current state and together with the billing change (open or close a segment) in the same
// transaction; runtime work starts after the commit.
//
//   creating → starting → running → stopping → stopped → starting → …
//   creating/starting → failed;  any but terminated → terminated
//
// Billing: a compute segment while `running`; a storage segment (the catalog's disk size ×
// storage price) from a stop request until a start request or terminate, paused while the
// owner's balance is zero (StorageFees). Creating, starting and failed instances cost nothing.
// BillingTick brings it up to the clock; SpendingGuard and IdleWatch hold the caps and stop
// policies; InstanceViews and AccountBill are the read side.
class InstanceService : public QObject
{
    Q_OBJECT
public:
    using CreateRequest = InstanceLifecycle::CreateRequest;
    using LimitChange = SpendingGuard::LimitChange;
    using LiveAccount = AccountBill::LiveAccount;
    using Resources = InstanceRecords::Resources;

    InstanceService(Database &db, Bookkeeper &books, Meter &meter, const Catalog &catalog,
                    SshKeys &keys, ContainerRuntime &runtime, EventBus &events, const Clock &clock,
                    QObject *parent = nullptr);
    ~InstanceService() override;

    // Where create() looks datasets up; without one, asking for a dataset is refused.
    void setDatasets(const Datasets *datasets);
    // Where create() looks models up, and whose storage fees the bill counts.
    void setModels(PrivateModels *models);
    // The account's spending limits (the same the Meter caps its postings at); without them,
    // only the balance stops hosts.
    void setSpendingLimits(SpendingLimits *limits);
    // See InstanceRecords::setAppTokenKey.
    void setAppTokenKey(const QByteArray &key) { m_records->setAppTokenKey(key); }
    // This provider process's id (its data directory's). On a database other provider
    // processes share (PostgreSQL), each runs its own instances and serves every account:
    // what the others change is followed here (runtime actions, the event stream).
    void shareStore(const QString &hostId);

    QJsonObject create(const QString &userId, const CreateRequest &request);
    QJsonArray list(const QString &userId, bool includeTerminated);
    QByteArray listJson(const QString &userId, bool includeTerminated);
    QJsonObject get(const QString &userId, const QString &instanceId);
    QJsonObject stop(const QString &userId, const QString &instanceId);
    QJsonObject start(const QString &userId, const QString &instanceId);
    QJsonObject terminate(const QString &userId, const QString &instanceId);
    QJsonObject addKey(const QString &userId, const QString &instanceId, const QString &keyId);
    QJsonObject removeKey(const QString &userId, const QString &instanceId, const QString &keyId);
    // The provider interrupts a running interruptible host (any user's): the notice now (the
    // SSE event instance.interruption_notice, /run/cardhour/notices/interruption in the box),
    // the stop `noticeSeconds` later (the catalog's interruptible.notice_seconds when not
    // given; 0: at once), billed to that millisecond. ApiError 404 (no such instance), 409 (not
    // a running interruptible host), 400 (notice outside [0, 3600]). `reason` is what the
    // notice names ("operator" for an operator's or a test's, "capacity").
    QJsonObject interrupt(const QString &instanceId, std::optional<int> noticeSeconds = {},
                          const QString &reason = QStringLiteral("operator"));

    // GET /v1/spending-limits; PUT: billed under the old limits up to now, a maximum already
    // passed stops the hosts at once.
    QJsonObject spendingLimitsJson(const QString &userId);
    QJsonObject changeSpendingLimits(const QString &userId,
                                     const std::array<std::optional<LimitChange>, 3> &changes);
    // A maximum cost already reached stops the instance at once.
    QJsonObject setStopPolicy(const QString &userId, const QString &instanceId,
                              const StopPolicy &policy);
    QJsonObject keepRunning(const QString &userId, const QString &instanceId);
    void noteUtilisation(const QString &instanceId, qint64 atMs, double busiestCardPercent);

    QJsonArray gpuCatalog();
    QJsonObject billingSummary(const QString &userId) { return m_bill->billingSummary(userId); }
    qint64 liveBalance(const QString &userId) { return m_bill->liveBalance(userId); }
    qint64 spendRate(const QString &userId) { return m_bill->spendRate(userId); }
    LiveAccount liveAccount(const QString &userId, qint64 postedBalanceMicros)
    {
        return m_bill->liveAccount(userId, postedBalanceMicros);
    }
    QJsonObject topUp(const QString &userId, qint64 amountMicros)
    {
        return m_bill->topUp(userId, amountMicros);
    }

    void tick();
    void resumeStorageBilling(const QString &userId = {});
    void reconcile(bool atStartup = true);

    QJsonObject instanceJson(const QString &instanceId, qint64 nowMs);
    Resources resourcesFor(const QString &gpuType, int gpuCount) const
    {
        return m_records->resourcesFor(gpuType, gpuCount);
    }
    // How the runtime bounds each instance's disk (GET /v1/limits, the instance's resources).
    DiskQuota diskQuota() const { return m_runtime.diskQuota(); }
    QString requireState(const QString &userId, const QString &instanceId)
    {
        return m_records->requireState(userId, instanceId);
    }

    // The parts, for their own tests.
    InstanceRecords &records() { return *m_records; }
    InstanceViews &views() { return *m_views; }
    StorageFees &storageFees() { return *m_storage; }
    AccountBill &bill() { return *m_bill; }
    SpendingGuard &guard() { return *m_guard; }
    BillingTick &billingTick() { return *m_tick; }
    IdleWatch &idleWatch() { return *m_idle; }
    RuntimeReports &runtimeReports() { return *m_reports; }
    InstanceLifecycle &lifecycle() { return *m_lifecycle; }
    StopPolicies &stopPolicies() { return *m_stops; }
    Interruptions &interruptions() { return *m_interruptions; }

private:
    // Starts interrupted hosts that asked for it once their type's cards are free again.
    void restartInterrupted();
    void followOtherProvidersSoon();

    Database &m_db;
    ContainerRuntime &m_runtime;
    bool m_followPending = false;
    const Clock &m_clock;
    // In the order they are made: each is given those above it.
    std::unique_ptr<InstanceRecords> m_records;
    std::unique_ptr<StopPolicies> m_stops;
    std::unique_ptr<InstanceViews> m_views;
    std::unique_ptr<StorageFees> m_storage;
    std::unique_ptr<AccountBill> m_bill;
    std::unique_ptr<SpendingGuard> m_guard;
    std::unique_ptr<BillingTick> m_tick;
    std::unique_ptr<IdleWatch> m_idle;
    std::unique_ptr<HardwareCheck> m_check;
    std::unique_ptr<RuntimeReports> m_reports;
    std::unique_ptr<Interruptions> m_interruptions;
    std::unique_ptr<InstanceLifecycle> m_lifecycle;
};

} // namespace cardhour::sim
