#include "InstanceService.h"

#include "BillingTick.h"
#include "HardwareCheck.h"
#include "IdleWatch.h"
#include "InstanceViews.h"
#include "Interruptions.h"
#include "RuntimeReports.h"
#include "StopPolicies.h"
#include "StorageFees.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "store/Database.h"

#include <QDebug>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

InstanceService::InstanceService(Database &db, Bookkeeper &books, Meter &meter,
                                 const Catalog &catalog, SshKeys &keys, ContainerRuntime &runtime,
                                 EventBus &events, const Clock &clock, QObject *parent)
    : QObject(parent), m_db(db), m_runtime(runtime), m_clock(clock),
      m_records(std::make_unique<InstanceRecords>(db, catalog)),
      m_stops(std::make_unique<StopPolicies>(db)),
      m_views(std::make_unique<InstanceViews>(db, meter, catalog, runtime, *m_records, *m_stops,
                                              events, clock)),
      m_storage(std::make_unique<StorageFees>(db, books, meter, catalog, *m_records, clock)),
      m_bill(std::make_unique<AccountBill>(db, books, meter, catalog, *m_storage, events, clock)),
      m_guard(
          std::make_unique<SpendingGuard>(db, meter, *m_stops, *m_bill, *m_records, events, clock)),
      m_tick(std::make_unique<BillingTick>(db, books, meter, runtime, *m_records, *m_stops,
                                           *m_storage, *m_views, *m_guard, events, clock)),
      m_idle(std::make_unique<IdleWatch>(db, meter, runtime, *m_records, *m_stops, *m_storage,
                                         *m_views, *m_tick, events, clock)),
      m_check(std::make_unique<HardwareCheck>(db, *m_records)),
      m_reports(std::make_unique<RuntimeReports>(db, meter, runtime, *m_records, *m_storage,
                                                 *m_views, *m_tick, clock)),
      m_interruptions(std::make_unique<Interruptions>(
          db, meter, catalog, runtime, *m_records, *m_views, *m_storage, *m_stops,
          [this] { m_tick->tick(); }, events, clock)),
      m_lifecycle(std::make_unique<InstanceLifecycle>(
          db, meter, catalog, keys, runtime, *m_records, *m_views, *m_bill, *m_guard, *m_tick,
          *m_storage, *m_stops, *m_interruptions, clock))
{
    m_tick->setInterruptions(m_interruptions.get());
    m_reports->setHardwareCheck(m_check.get());
}

InstanceService::~InstanceService() = default;

void InstanceService::shareStore(const QString &hostId)
{
    m_records->setHostId(hostId);
    m_db.onAnnounced([this](const QString &channel, const QString &payload) {
        if (channel == u"store"_s)
            followOtherProvidersSoon();
        else if (channel == u"instance"_s)
            m_views->notifyHere(payload);
    });
}

void InstanceService::followOtherProvidersSoon()
{
    // Many commits elsewhere in a burst (a thousand launches) are followed once.
    if (m_followPending)
        return;
    m_followPending = true;
    QTimer::singleShot(50, this, [this] {
        m_followPending = false;
        m_reports->followOtherProviders();
    });
}

void InstanceService::setDatasets(const Datasets *datasets)
{
    m_lifecycle->setDatasets(datasets);
}

void InstanceService::setModels(PrivateModels *models)
{
    m_lifecycle->setModels(models);
    m_bill->setModels(models);
}

void InstanceService::setSpendingLimits(SpendingLimits *limits)
{
    m_storage->setSpendingLimits(limits);
    m_guard->setSpendingLimits(limits);
    m_tick->setSpendingLimits(limits);
}

QJsonObject InstanceService::create(const QString &userId, const CreateRequest &request)
{
    return m_lifecycle->create(userId, request);
}

QJsonArray InstanceService::list(const QString &userId, bool includeTerminated)
{
    return m_views->list(userId, includeTerminated);
}

QByteArray InstanceService::listJson(const QString &userId, bool includeTerminated)
{
    return m_views->listJson(userId, includeTerminated);
}

QJsonObject InstanceService::get(const QString &userId, const QString &instanceId)
{
    return m_views->get(userId, instanceId);
}

QJsonObject InstanceService::stop(const QString &userId, const QString &instanceId)
{
    return m_lifecycle->stop(userId, instanceId);
}

QJsonObject InstanceService::start(const QString &userId, const QString &instanceId)
{
    return m_lifecycle->start(userId, instanceId);
}

QJsonObject InstanceService::terminate(const QString &userId, const QString &instanceId)
{
    return m_lifecycle->terminate(userId, instanceId);
}

QJsonObject InstanceService::addKey(const QString &userId, const QString &instanceId,
                                    const QString &keyId)
{
    return m_lifecycle->addKey(userId, instanceId, keyId);
}

QJsonObject InstanceService::removeKey(const QString &userId, const QString &instanceId,
                                       const QString &keyId)
{
    return m_lifecycle->removeKey(userId, instanceId, keyId);
}

QJsonObject InstanceService::spendingLimitsJson(const QString &userId)
{
    return m_guard->spendingLimitsJson(userId);
}

QJsonObject
InstanceService::changeSpendingLimits(const QString &userId,
                                      const std::array<std::optional<LimitChange>, 3> &changes)
{
    if (!m_guard->spendingLimits()) // refused before anything moves
        return m_guard->spendingLimitsJson(userId);
    m_tick->tick(); // billed under the old limits up to now
    m_guard->changeLimits(userId, changes);
    m_tick->tick(); // from now on: a maximum already passed stops the hosts at once
    m_guard->publishSpendingLimits(userId); // the tick above announced the bill
    return m_guard->spendingLimitsJson(userId);
}

QJsonObject InstanceService::setStopPolicy(const QString &userId, const QString &instanceId,
                                           const StopPolicy &policy)
{
    m_tick->tick();
    m_guard->setStopPolicy(userId, instanceId, policy);
    m_tick->tick(); // a maximum cost already reached stops it now
    m_views->notify(instanceId);
    return m_views->instanceJson(instanceId, m_clock.nowMs());
}

QJsonObject InstanceService::keepRunning(const QString &userId, const QString &instanceId)
{
    return m_idle->keepRunning(userId, instanceId);
}

void InstanceService::noteUtilisation(const QString &instanceId, qint64 atMs,
                                      double busiestCardPercent)
{
    m_idle->noteUtilisation(instanceId, atMs, busiestCardPercent);
}

QJsonArray InstanceService::gpuCatalog()
{
    return m_views->gpuCatalog();
}

QJsonObject InstanceService::interrupt(const QString &instanceId, std::optional<int> noticeSeconds,
                                       const QString &reason)
{
    return m_interruptions->interrupt(instanceId, noticeSeconds, reason);
}

void InstanceService::tick()
{
    m_tick->tick();
    restartInterrupted();
}

void InstanceService::restartInterrupted()
{
    for (const auto &[userId, instanceId] : m_interruptions->restartCandidates()) {
        try {
            m_lifecycle->start(userId, instanceId);
            m_interruptions->announceRestart(userId, instanceId);
        } catch (const ApiError &error) {
            // No money or room under a cap: it stays stopped; the next tick asks again.
            qDebug().noquote() << "cardhour-sim: no automatic restart of" << instanceId << ':'
                               << error.message();
        }
    }
}

void InstanceService::resumeStorageBilling(const QString &userId)
{
    m_storage->resume(userId);
}

void InstanceService::reconcile(bool atStartup)
{
    m_reports->reconcile(atStartup);
}

QJsonObject InstanceService::instanceJson(const QString &instanceId, qint64 nowMs)
{
    return m_views->instanceJson(instanceId, nowMs);
}

} // namespace cardhour::sim
