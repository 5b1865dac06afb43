#include "InstanceLifecycle.h"

#include "AccountBill.h"
#include "BillingTick.h"
#include "CardLending.h"
#include "Datasets.h"
#include "InstanceRecords.h"
#include "InstanceViews.h"
#include "Interruptions.h"
#include "Limits.h"
#include "PrivateModels.h"
#include "SnapshotRules.h"
#include "SpendingGuard.h"
#include "SshKeys.h"
#include "StorageFees.h"
#include "billing/Meter.h"
#include "billing/Pricing.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "runtime/ContainerRuntime.h"
#include "store/Database.h"

#include <QSqlQuery>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
ApiError notEnoughCards(qsizetype free, const GpuType &gpu, int asked, bool requested)
{
    return ApiError(409, ErrorCode::NotEnoughGpus,
                    (requested ? u"Only %1 %2 card(s) are free; %3 requested."_s
                               : u"Only %1 %2 card(s) are free; this instance needs %3."_s)
                        .arg(std::max<qsizetype>(0, free))
                        .arg(gpu.name)
                        .arg(asked));
}
} // namespace

InstanceLifecycle::InstanceLifecycle(Database &db, Meter &meter, const Catalog &catalog,
                                     SshKeys &keys, ContainerRuntime &runtime,
                                     InstanceRecords &records, InstanceViews &views,
                                     AccountBill &bill, SpendingGuard &guard, BillingTick &tick,
                                     StorageFees &storage, StopPolicies &stops,
                                     Interruptions &interruptions, const Clock &clock,
                                     QObject *parent)
    : QObject(parent), m_db(db), m_meter(meter), m_catalog(catalog), m_keys(keys),
      m_runtime(runtime), m_records(records), m_views(views), m_bill(bill), m_guard(guard),
      m_tick(tick), m_storage(storage), m_stops(stops), m_interruptions(interruptions),
      m_clock(clock)
{}

// ---- launch ---------------------------------------------------------------------------------

InstanceLifecycle::Launch InstanceLifecycle::prepare(const QString &userId,
                                                     const CreateRequest &given)
{
    Launch launch;
    CreateRequest &request = launch.request;
    request = given;
    if (!request.snapshotId.isEmpty()) {
        const snapshots::RestoreSource source =
            snapshots::restoreSource(m_db, m_runtime, userId, request.snapshotId, request.image);
        request.image = source.image;
        if (request.gpuType.isEmpty())
            request.gpuType = source.gpuType;
        if (request.gpuCount == 0)
            request.gpuCount = source.gpuCount;
        if (request.name.isEmpty())
            request.name = u"%1-restored"_s.arg(request.gpuType);
    }
    SpendingGuard::requireFutureStop(request.stopPolicy, m_clock.nowMs());
    const std::optional<GpuType> gpu = m_catalog.gpu(request.gpuType);
    if (!gpu)
        throw ApiError(400, ErrorCode::UnknownGpuType,
                       u"Unknown GPU type \"%1\"."_s.arg(request.gpuType.left(64)));
    launch.gpu = *gpu;
    if (!m_catalog.image(request.image))
        throw ApiError(400, ErrorCode::UnknownImage,
                       u"Unknown image \"%1\"."_s.arg(request.image.left(64)));
    if (request.gpuCount != 1 && request.gpuCount != 2 && request.gpuCount != 4
        && request.gpuCount != 8)
        throw ApiError(400, ErrorCode::InvalidGpuCount, u"gpu_count must be 1, 2, 4 or 8."_s);
    if (gpu->isSlice() && request.gpuCount != 1)
        throw ApiError(
            400, ErrorCode::InvalidGpuCount,
            u"A MIG slice (%1) is lent one per instance: gpu_count must be 1."_s.arg(gpu->id));
    launch.keyLines = m_keys.publicKeysFor(userId, request.sshKeyIds);
    addMounts(userId, launch);
    return launch;
}

void InstanceLifecycle::addMounts(const QString &userId, Launch &launch)
{
    CreateRequest &request = launch.request;
    // An app's sample datasets (the catalog's apps[].datasets) come with it where registered.
    for (const QJsonValue &app : m_catalog.image(request.image)->apps)
        for (const QJsonValue &name : app[u"datasets"_s].toArray())
            if (m_datasets && m_datasets->find(name.toString())
                && !request.datasets.contains(name.toString()))
                request.datasets.append(name.toString());
    for (const QString &name : request.datasets) {
        const std::optional<Datasets::Dataset> dataset =
            m_datasets ? m_datasets->find(name) : std::nullopt;
        if (!dataset)
            throw ApiError(400, ErrorCode::UnknownDataset,
                           u"Unknown dataset \"%1\"."_s.arg(name.left(64)));
        launch.datasetPaths.append(dataset->path);
    }
    // An app's own models (the catalog's apps[].models) come with it where the library has them.
    for (const QJsonValue &app : m_catalog.image(request.image)->apps)
        for (const QJsonValue &name : app[u"models"_s].toArray())
            if (m_models && m_models->isPublic(name.toString())
                && !request.models.contains(name.toString()))
                request.models.append(name.toString());
    if (!request.models.isEmpty() && !m_models)
        throw ApiError(404, ErrorCode::UnknownModel, u"This provider has no model library."_s);
    if (m_models)
        launch.modelMounts = m_models->mountsFor(userId, request.models);
}

QJsonObject InstanceLifecycle::create(const QString &userId, const CreateRequest &given)
{
    const Launch launch = prepare(userId, given);
    const CreateRequest &request = launch.request;
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    const qint64 price = launch.gpu.pricePerHour(request.interruptible) * request.gpuCount;
    Transaction tx(m_db);
    Limits(m_db, m_catalog.userLimits()).requireInstanceRoom(userId);
    const qint64 balance = m_bill.liveBalance(userId);
    const qint64 minute = pricing::oneMinuteCost(price + m_bill.spendRate(userId));
    if (balance < minute)
        throw ApiError(
            402, ErrorCode::InsufficientBalance,
            u"The balance (%1 micro-yuan) cannot pay one minute of this instance together with "
            "the ones already running (%2 micro-yuan). Top up first."_s.arg(balance)
                .arg(minute));
    m_guard.requireSpendingRoom(userId, price);
    const int free = CardLending(m_db).available(launch.gpu);
    // An on-demand launch takes its cards from interruptible hosts when it must.
    if (free < request.gpuCount
        && (request.interruptible
            || m_interruptions.preemptFor(launch.gpu, request.gpuCount, free, now).isEmpty()))
        throw notEnoughCards(free, launch.gpu, request.gpuCount, true);
    const QString id = insert(userId, launch, now);
    QJsonObject result = m_views.instanceJson(id, now);
    tx.commit();

    // After the (outermost) commit: if the caller's transaction rolled back, there is no
    // `creating` row and nothing happens.
    QTimer::singleShot(0, this, [this, id] {
        if (m_records.stateOf(id) == u"creating"_s) {
            m_runtime.create(m_records.specFor(id));
            m_views.notify(id);
        }
    });
    return result;
}

QString InstanceLifecycle::insert(const QString &userId, const Launch &launch, qint64 nowMs)
{
    const CreateRequest &request = launch.request;
    const QString id = ids::newUuid();
    // One-click apps (a notebook server, say) are reached with a token derived from the id and
    // the launch number (appTokenOf): the database does not hold it (app_token stays NULL).
    m_db.exec(u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image,"
              " price_per_hour_micros, created_at, updated_at, launch_seq, launch_requested_at, "
              "app_token, disk_gib,"
              " snapshot_id, price_class, restart_when_available)"
              " VALUES (?,?,?,'creating',?,?,?,?,?,?,1,?,?,?,?,?,?)"_s,
              {id, userId, request.name, launch.gpu.id, request.gpuCount, request.image,
               launch.gpu.pricePerHour(request.interruptible) * request.gpuCount, nowMs, nowMs,
               nowMs, QVariant(QMetaType(QMetaType::QString)), launch.gpu.diskGib,
               request.snapshotId.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                            : QVariant(request.snapshotId),
               request.interruptible ? u"interruptible"_s : u"on_demand"_s,
               request.restartWhenAvailable ? 1 : 0});
    const CardLending::Result lent =
        CardLending(m_db).lend(id, launch.gpu, request.gpuCount, false);
    if (lent.outcome != CardLending::Outcome::Lent)
        throw notEnoughCards(lent.cards.size(), launch.gpu, request.gpuCount, true);
    m_records.claimHost(id);
    for (int i = 0; i < request.sshKeyIds.size(); ++i) {
        m_db.exec(u"INSERT INTO instance_ssh_keys(instance_id, key_id, public_key) VALUES (?,?,?)"
                  " ON CONFLICT DO NOTHING"_s,
                  {id, request.sshKeyIds.at(i), launch.keyLines.at(i)});
    }
    for (int i = 0; i < request.datasets.size(); ++i)
        m_db.exec(u"INSERT INTO instance_datasets(instance_id, name, path) VALUES (?,?,?)"_s,
                  {id, request.datasets.at(i), launch.datasetPaths.at(i)});
    for (const auto &[name, path] : launch.modelMounts)
        m_db.exec(u"INSERT INTO instance_models(instance_id, name, path) VALUES (?,?,?)"_s,
                  {id, name, path});
    m_stops.set(id, request.stopPolicy);
    return id;
}

// ---- stop, start, terminate -----------------------------------------------------------------

QJsonObject InstanceLifecycle::stop(const QString &userId, const QString &instanceId)
{
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = m_records.requireState(userId, instanceId);
    if (!m_records.compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, u"stopped_by_user"_s,
                                  now))
        throw ApiError(409, ErrorCode::IllegalTransition,
                       u"Only a running instance can be stopped; this one is %1."_s.arg(state));
    // compute stops the moment stop is asked for
    m_meter.closeSegment(instanceId, now, Meter::Kind::Compute, u"stopped_by_user"_s);
    m_stops.forget(instanceId);
    m_storage.open(instanceId, userId, now); // and the kept disk is billed from then on
    QJsonObject result = m_views.instanceJson(instanceId, now);
    tx.commit();
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
    m_views.notify(instanceId);
    return result;
}

void InstanceLifecycle::lendForStart(const QString &instanceId, const QString &state,
                                     const GpuType &gpu, int count)
{
    const int free = CardLending(m_db).available(gpu);
    if (free < count)
        throw notEnoughCards(free, gpu, count, false);
    // A kept container made with real cards runs only with those devices; a simulated card or a
    // container made anew (after a failure) can take any free ones.
    const CardLending::Result lent =
        CardLending(m_db).lend(instanceId, gpu, count, !gpu.simulated && state == u"stopped"_s);
    if (lent.outcome == CardLending::Outcome::PreviousCardsBusy)
        throw ApiError(409, ErrorCode::CardsBusy,
                       u"This instance's container was made with its own %1 card(s), now lent to "
                       u"another instance."
                       " Start it once they are free, or launch a new instance."_s.arg(gpu.name));
    if (lent.outcome != CardLending::Outcome::Lent)
        throw notEnoughCards(lent.cards.size(), gpu, count, false);
}

QJsonObject InstanceLifecycle::start(const QString &userId, const QString &instanceId)
{
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = m_records.requireState(userId, instanceId);
    if (state != u"stopped"_s && state != u"failed"_s)
        throw ApiError(
            409, ErrorCode::IllegalTransition,
            u"Only a stopped or failed instance can be started; this one is %1."_s.arg(state));
    QSqlQuery q = m_db.exec(
        u"SELECT gpu_type, gpu_count, price_class FROM instances WHERE id = ?"_s, {instanceId});
    q.next();
    const std::optional<GpuType> gpu = m_catalog.gpu(q.value(0).toString());
    const int count = q.value(1).toInt();
    const bool interruptible = q.value(2).toString() == u"interruptible"_s;
    if (!gpu)
        throw ApiError(409, ErrorCode::GpuTypeRetired,
                       u"This instance's GPU type is no longer offered."_s);
    // Storage billing ends at the start request (a refused start rolls this back), so the
    // balance below is what is left once the disk is paid for.
    m_meter.closeSegment(instanceId, now, Meter::Kind::Storage);
    // The rate of the new run is today's catalog price, fixed for the whole run.
    const qint64 price = gpu->pricePerHour(interruptible) * count;
    const qint64 minute = pricing::oneMinuteCost(price + m_bill.spendRate(userId));
    if (m_bill.liveBalance(userId) < minute)
        throw ApiError(
            402, ErrorCode::InsufficientBalance,
            u"The balance cannot pay one minute of this instance (%1 micro-yuan). Top up first."_s
                .arg(minute));
    m_guard.requireSpendingRoom(userId, price, instanceId);
    lendForStart(instanceId, state, *gpu, count);
    if (!m_records.compareAndSwap(instanceId, {state}, u"starting"_s, {}, now))
        throw ApiError(409, ErrorCode::IllegalTransition,
                       u"The instance changed state meanwhile; try again."_s);
    // A new run: an interruption notice of an earlier one is spent.
    m_db.exec(u"UPDATE instances SET price_per_hour_micros = ?, launch_seq = launch_seq + 1,"
              " launch_requested_at = ?, interruption_at = NULL WHERE id = ?"_s,
              {price, now, instanceId});
    m_records.claimHost(instanceId); // started here, it runs here

    QJsonObject result = m_views.instanceJson(instanceId, now);
    tx.commit();
    // A failed launch may have left no container: it is created anew (its /workspace volume,
    // if any, is reused); a stopped instance's kept container is started.
    const bool fresh = state == u"failed"_s;
    QTimer::singleShot(0, this, [this, instanceId, fresh] {
        if (m_records.stateOf(instanceId) != u"starting"_s)
            return;
        m_runtime.writeNotice(instanceId, u"interruption"_s, {}); // a new run, no notice yet
        if (fresh)
            m_runtime.create(m_records.specFor(instanceId));
        else
            m_runtime.start(m_records.specFor(instanceId));
    });
    m_views.notify(instanceId);
    return result;
}

QJsonObject InstanceLifecycle::terminate(const QString &userId, const QString &instanceId)
{
    m_tick.tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = m_records.requireState(userId, instanceId);
    if (state == u"terminated"_s
        || !m_records.compareAndSwap(
            instanceId,
            {u"creating"_s, u"starting"_s, u"running"_s, u"stopping"_s, u"stopped"_s, u"failed"_s},
            u"terminated"_s, u"terminated_by_user"_s, now))
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is already terminated."_s);
    m_db.exec(u"UPDATE instances SET terminated_at = ? WHERE id = ?"_s, {now, instanceId});
    m_meter.closeSegment(instanceId, now); // a run,
    m_meter.closeSegment(instanceId, now, Meter::Kind::Storage); // or a stopped instance's disk
    QJsonObject result = m_views.instanceJson(instanceId, now);
    tx.commit();
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.remove(instanceId); });
    m_views.notify(instanceId);
    return result;
}

// ---- keys -----------------------------------------------------------------------------------

QJsonObject InstanceLifecycle::addKey(const QString &userId, const QString &instanceId,
                                      const QString &keyId)
{
    const QStringList lines = m_keys.publicKeysFor(userId, {keyId}); // 400 unless the caller's key
    Transaction tx(m_db);
    if (m_records.requireState(userId, instanceId) == u"terminated"_s)
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is terminated."_s);
    m_db.exec(u"INSERT INTO instance_ssh_keys(instance_id, key_id, public_key) VALUES (?,?,?)"
              " ON CONFLICT DO NOTHING"_s,
              {instanceId, keyId, lines.first()});
    QJsonObject result = m_views.instanceJson(instanceId, m_clock.nowMs());
    tx.commit();
    m_runtime.setAuthorizedKeys(instanceId, m_records.specFor(instanceId).authorizedKeys);
    m_views.notify(instanceId);
    return result;
}

QJsonObject InstanceLifecycle::removeKey(const QString &userId, const QString &instanceId,
                                         const QString &keyId)
{
    Transaction tx(m_db);
    if (m_records.requireState(userId, instanceId) == u"terminated"_s)
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is terminated."_s);
    QSqlQuery q = m_db.exec(u"DELETE FROM instance_ssh_keys WHERE instance_id = ? AND key_id = ?"_s,
                            {instanceId, keyId});
    if (q.numRowsAffected() != 1)
        throw ApiError(404, ErrorCode::NotFound, u"This key is not installed on the instance."_s);
    QJsonObject result = m_views.instanceJson(instanceId, m_clock.nowMs());
    tx.commit();
    m_runtime.setAuthorizedKeys(instanceId, m_records.specFor(instanceId).authorizedKeys);
    m_views.notify(instanceId);
    return result;
}

} // namespace cardhour::sim
