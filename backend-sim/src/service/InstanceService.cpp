#include "InstanceService.h"

#include "CardLending.h"
#include "Catalog.h"
#include "Datasets.h"
#include "EventBus.h"
#include "Limits.h"
#include "PrivateModels.h"
#include "SnapshotRules.h"
#include "SshKeys.h"
#include "auth/Tokens.h"
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "billing/Pricing.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QDebug>
#include <QHash>
#include <QMessageAuthenticationCode>
#include <QSqlQuery>
#include <QThread>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
qint64 hostMemoryMib()
{
#ifdef Q_OS_UNIX
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return static_cast<qint64>(pages) * pageSize / (1024 * 1024);
#endif
    return 0;
}

// No account may hold more than a million yuan: far above any real use, far below overflow.
constexpr qint64 kMaxBalanceMicros = 1'000'000LL * 1'000'000;

ApiError instanceNotFound()
{
    return ApiError(404, ErrorCode::NotFound, u"No instance with this id."_s);
}
} // namespace

InstanceService::InstanceService(Database &db, Bookkeeper &books, Meter &meter,
                                 const Catalog &catalog, SshKeys &keys, ContainerRuntime &runtime,
                                 EventBus &events, const Clock &clock, QObject *parent)
    : QObject(parent), m_db(db), m_books(books), m_meter(meter), m_catalog(catalog), m_keys(keys),
      m_runtime(runtime), m_events(events), m_clock(clock), m_lastTickMs(clock.nowMs()), m_stops(db)
{
    connect(&m_runtime, &ContainerRuntime::stageReached, this, &InstanceService::onStage);
    connect(&m_runtime, &ContainerRuntime::ready, this, &InstanceService::onReady);
    connect(&m_runtime, &ContainerRuntime::failed, this, &InstanceService::onFailed);
    connect(&m_runtime, &ContainerRuntime::stopped, this, &InstanceService::onStopped);
    connect(&m_runtime, &ContainerRuntime::diskFull, this, &InstanceService::onDiskFull);
    connect(&m_runtime, &ContainerRuntime::connectionsCounted, this,
            &InstanceService::onConnectionsCounted);
    connect(&m_books, &Bookkeeper::billMoved, this, &InstanceService::publishBilling);
    m_appTokenKey = tokens::randomBytes(32);
}

QString InstanceService::appTokenOf(const QString &instanceId, const QVariant &stored) const
{
    if (!stored.isNull() && !stored.toString().isEmpty())
        return stored.toString();
    // 24 bytes, hex: what the images' apps accept (cardhour-app checks for hex).
    return QString::fromLatin1(
        QMessageAuthenticationCode::hash("cardhour-app-token:"_ba + instanceId.toUtf8(),
                                         m_appTokenKey, QCryptographicHash::Sha256)
            .left(24)
            .toHex());
}

// ---- reading (the JSON views are in InstanceViews.cpp) --------------------------------------

const QString &InstanceService::holdingStatesSql()
{
    // States in which an instance holds its GPU cards.
    static const QString states = u"('creating','starting','running','stopping')"_s;
    return states;
}

QString InstanceService::requireState(const QString &userId, const QString &instanceId)
{
    const QVariant state = m_db.scalar(
        u"SELECT state FROM instances WHERE id = ? AND user_id = ?"_s, {instanceId, userId});
    if (!state.isValid())
        throw instanceNotFound(); // another user's instance is "not found", never "forbidden"
    return state.toString();
}

int InstanceService::cardsHeld(const QString &gpuType)
{
    return m_db
        .scalar(
            u"SELECT COALESCE(SUM(gpu_count), 0) FROM instances WHERE gpu_type = ? AND state IN "_s
                + holdingStatesSql(),
            {gpuType})
        .toInt();
}

// ---- transitions ----------------------------------------------------------------------------

bool InstanceService::compareAndSwap(const QString &instanceId, const QStringList &from,
                                     const QString &to, const QString &reason, qint64 nowMs)
{
    QStringList quoted;
    for (const QString &state : from)
        quoted.append(u'\'' + state + u'\'');
    // updated_at grows at every change, also within one millisecond: a client keeps the view
    // with the later updated_at, and two changes in one millisecond (the in-process runtime's
    // launch) must not leave it an older view that looks as new.
    QSqlQuery q = m_db.exec(
        u"UPDATE instances SET state = ?, state_reason = ?, updated_at = MAX(?, updated_at + 1)"
        " WHERE id = ? AND state IN ("_s
            + quoted.join(u',') + u")"_s,
        {to, reason.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(reason), nowMs,
         instanceId});
    return q.numRowsAffected() == 1;
}

QJsonObject InstanceService::create(const QString &userId, const CreateRequest &given)
{
    CreateRequest request = given;
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
    requireFutureStop(request.stopPolicy, m_clock.nowMs());
    const std::optional<GpuType> gpu = m_catalog.gpu(request.gpuType);
    if (!gpu)
        throw ApiError(400, ErrorCode::UnknownGpuType,
                       u"Unknown GPU type \"%1\"."_s.arg(request.gpuType.left(64)));
    if (!m_catalog.image(request.image))
        throw ApiError(400, ErrorCode::UnknownImage,
                       u"Unknown image \"%1\"."_s.arg(request.image.left(64)));
    if (request.gpuCount != 1 && request.gpuCount != 2 && request.gpuCount != 4
        && request.gpuCount != 8)
        throw ApiError(400, ErrorCode::InvalidGpuCount, u"gpu_count must be 1, 2, 4 or 8."_s);
    const QStringList keyLines = m_keys.publicKeysFor(userId, request.sshKeyIds);
    // An app's sample datasets (the catalog's apps[].datasets) come with it where registered.
    for (const QJsonValue &app : m_catalog.image(request.image)->apps)
        for (const QJsonValue &name : app[u"datasets"_s].toArray())
            if (m_datasets && m_datasets->find(name.toString())
                && !request.datasets.contains(name.toString()))
                request.datasets.append(name.toString());
    QStringList datasetPaths;
    for (const QString &name : request.datasets) {
        const std::optional<Datasets::Dataset> dataset =
            m_datasets ? m_datasets->find(name) : std::nullopt;
        if (!dataset)
            throw ApiError(400, ErrorCode::UnknownDataset,
                           u"Unknown dataset \"%1\"."_s.arg(name.left(64)));
        datasetPaths.append(dataset->path);
    }
    // An app's own models (the catalog's apps[].models) come with it where the library has them.
    for (const QJsonValue &app : m_catalog.image(request.image)->apps)
        for (const QJsonValue &name : app[u"models"_s].toArray())
            if (m_models && m_models->isPublic(name.toString())
                && !request.models.contains(name.toString()))
                request.models.append(name.toString());
    if (!request.models.isEmpty() && !m_models)
        throw ApiError(404, ErrorCode::UnknownModel, u"This provider has no model library."_s);
    const QList<QPair<QString, QString>> modelMounts =
        m_models ? m_models->mountsFor(userId, request.models) : QList<QPair<QString, QString>>();

    tick();
    const qint64 now = m_clock.nowMs();
    const qint64 price = gpu->pricePerHourMicros * request.gpuCount;
    Transaction tx(m_db);
    Limits(m_db, m_catalog.userLimits()).requireInstanceRoom(userId);
    const qint64 balance = liveBalance(userId);
    const qint64 minute = pricing::oneMinuteCost(price + spendRate(userId));
    if (balance < minute)
        throw ApiError(
            402, ErrorCode::InsufficientBalance,
            u"The balance (%1 micro-yuan) cannot pay one minute of this instance together with "
            "the ones already running (%2 micro-yuan). Top up first."_s.arg(balance)
                .arg(minute));
    requireSpendingRoom(userId, price);
    const int free = gpu->capacity - cardsHeld(gpu->id);
    if (free < request.gpuCount)
        throw ApiError(409, ErrorCode::NotEnoughGpus,
                       u"Only %1 %2 card(s) are free; %3 requested."_s.arg(std::max(0, free))
                           .arg(gpu->name)
                           .arg(request.gpuCount));

    const QString id = ids::newUuid();
    // One-click apps (a notebook server, say) are reached with a token derived from the id
    // (appTokenOf): it is the owner's, and the database does not hold it (app_token NULL).
    m_db.exec(u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image,"
              " price_per_hour_micros, created_at, updated_at, launch_seq, launch_requested_at, "
              "app_token, disk_gib,"
              " snapshot_id) VALUES (?,?,?,'creating',?,?,?,?,?,?,1,?,?,?,?)"_s,
              {id, userId, request.name, gpu->id, request.gpuCount, request.image, price, now, now,
               now, QVariant(QMetaType(QMetaType::QString)), gpu->diskGib,
               request.snapshotId.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                            : QVariant(request.snapshotId)});
    const CardLending::Result lent = CardLending(m_db).lend(id, *gpu, request.gpuCount, false);
    if (lent.outcome != CardLending::Outcome::Lent)
        throw ApiError(409, ErrorCode::NotEnoughGpus,
                       u"Only %1 %2 card(s) are free; %3 requested."_s.arg(lent.cards.size())
                           .arg(gpu->name)
                           .arg(request.gpuCount));
    for (int i = 0; i < request.sshKeyIds.size(); ++i) {
        m_db.exec(
            u"INSERT OR IGNORE INTO instance_ssh_keys(instance_id, key_id, public_key) VALUES (?,?,?)"_s,
            {id, request.sshKeyIds.at(i), keyLines.at(i)});
    }
    for (int i = 0; i < request.datasets.size(); ++i)
        m_db.exec(u"INSERT INTO instance_datasets(instance_id, name, path) VALUES (?,?,?)"_s,
                  {id, request.datasets.at(i), datasetPaths.at(i)});
    for (const auto &[name, path] : modelMounts)
        m_db.exec(u"INSERT INTO instance_models(instance_id, name, path) VALUES (?,?,?)"_s,
                  {id, name, path});
    m_stops.set(id, request.stopPolicy);
    QJsonObject result = instanceJson(id, now);
    tx.commit();

    // After the (outermost) commit: if the caller's transaction rolled back, there is no
    // `creating` row and nothing happens.
    QTimer::singleShot(0, this, [this, id] {
        if (m_db.scalar(u"SELECT state FROM instances WHERE id = ?"_s, {id}).toString()
            == u"creating"_s) {
            m_runtime.create(specFor(id));
            notify(id);
        }
    });
    return result;
}

QJsonObject InstanceService::stop(const QString &userId, const QString &instanceId)
{
    tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = requireState(userId, instanceId);
    if (!compareAndSwap(instanceId, {u"running"_s}, u"stopping"_s, u"stopped_by_user"_s, now))
        throw ApiError(409, ErrorCode::IllegalTransition,
                       u"Only a running instance can be stopped; this one is %1."_s.arg(state));
    // compute stops the moment stop is asked for
    m_meter.closeSegment(instanceId, now, Meter::Kind::Compute, u"stopped_by_user"_s);
    m_stops.forget(instanceId);
    openStorage(instanceId, userId, now); // and the kept disk is billed from then on
    QJsonObject result = instanceJson(instanceId, now);
    tx.commit();
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.stop(instanceId); });
    notify(instanceId);
    return result;
}

QJsonObject InstanceService::start(const QString &userId, const QString &instanceId)
{
    tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = requireState(userId, instanceId);
    if (state != u"stopped"_s && state != u"failed"_s)
        throw ApiError(
            409, ErrorCode::IllegalTransition,
            u"Only a stopped or failed instance can be started; this one is %1."_s.arg(state));
    QSqlQuery q =
        m_db.exec(u"SELECT gpu_type, gpu_count FROM instances WHERE id = ?"_s, {instanceId});
    q.next();
    const std::optional<GpuType> gpu = m_catalog.gpu(q.value(0).toString());
    const int count = q.value(1).toInt();
    if (!gpu)
        throw ApiError(409, ErrorCode::GpuTypeRetired,
                       u"This instance's GPU type is no longer offered."_s);
    // Storage billing ends at the start request (a refused start rolls this back), so the
    // balance below is what is left once the disk is paid for.
    m_meter.closeSegment(instanceId, now, Meter::Kind::Storage);
    // The rate of the new run is today's catalog price, fixed for the whole run.
    const qint64 price = gpu->pricePerHourMicros * count;
    const qint64 minute = pricing::oneMinuteCost(price + spendRate(userId));
    if (liveBalance(userId) < minute)
        throw ApiError(
            402, ErrorCode::InsufficientBalance,
            u"The balance cannot pay one minute of this instance (%1 micro-yuan). Top up first."_s
                .arg(minute));
    requireSpendingRoom(userId, price, instanceId);
    const int free = gpu->capacity - cardsHeld(gpu->id);
    if (free < count)
        throw ApiError(
            409, ErrorCode::NotEnoughGpus,
            u"Only %1 %2 card(s) are free; this instance needs %3."_s.arg(std::max(0, free))
                .arg(gpu->name)
                .arg(count));
    // A kept container made with real cards runs only with those devices; a simulated card or a
    // container made anew (after a failure) can take any free ones.
    const CardLending::Result lent =
        CardLending(m_db).lend(instanceId, *gpu, count, !gpu->simulated && state == u"stopped"_s);
    if (lent.outcome == CardLending::Outcome::PreviousCardsBusy)
        throw ApiError(409, ErrorCode::CardsBusy,
                       u"This instance's container was made with its own %1 card(s), now lent to "
                       u"another instance."
                       " Start it once they are free, or launch a new instance."_s.arg(gpu->name));
    if (lent.outcome != CardLending::Outcome::Lent)
        throw ApiError(
            409, ErrorCode::NotEnoughGpus,
            u"Only %1 %2 card(s) are free; this instance needs %3."_s.arg(lent.cards.size())
                .arg(gpu->name)
                .arg(count));
    if (!compareAndSwap(instanceId, {state}, u"starting"_s, {}, now))
        throw ApiError(409, ErrorCode::IllegalTransition,
                       u"The instance changed state meanwhile; try again."_s);
    m_db.exec(u"UPDATE instances SET price_per_hour_micros = ?, launch_seq = launch_seq + 1,"
              " launch_requested_at = ? WHERE id = ?"_s,
              {price, now, instanceId});
    QJsonObject result = instanceJson(instanceId, now);
    tx.commit();
    // A failed launch may have left no container: it is created anew (its /workspace volume,
    // if any, is reused); a stopped instance's kept container is started.
    const bool fresh = state == u"failed"_s;
    QTimer::singleShot(0, this, [this, instanceId, fresh] {
        if (m_db.scalar(u"SELECT state FROM instances WHERE id = ?"_s, {instanceId}).toString()
            != u"starting"_s)
            return;
        if (fresh)
            m_runtime.create(specFor(instanceId));
        else
            m_runtime.start(specFor(instanceId));
    });
    notify(instanceId);
    return result;
}

QJsonObject InstanceService::terminate(const QString &userId, const QString &instanceId)
{
    tick();
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const QString state = requireState(userId, instanceId);
    if (state == u"terminated"_s
        || !compareAndSwap(
            instanceId,
            {u"creating"_s, u"starting"_s, u"running"_s, u"stopping"_s, u"stopped"_s, u"failed"_s},
            u"terminated"_s, u"terminated_by_user"_s, now))
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is already terminated."_s);
    m_db.exec(u"UPDATE instances SET terminated_at = ? WHERE id = ?"_s, {now, instanceId});
    m_meter.closeSegment(instanceId, now); // a run,
    m_meter.closeSegment(instanceId, now, Meter::Kind::Storage); // or a stopped instance's disk
    QJsonObject result = instanceJson(instanceId, now);
    tx.commit();
    QTimer::singleShot(0, this, [this, instanceId] { m_runtime.remove(instanceId); });
    notify(instanceId);
    return result;
}

QJsonObject InstanceService::addKey(const QString &userId, const QString &instanceId,
                                    const QString &keyId)
{
    const QStringList lines = m_keys.publicKeysFor(userId, {keyId}); // 400 unless the caller's key
    Transaction tx(m_db);
    if (requireState(userId, instanceId) == u"terminated"_s)
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is terminated."_s);
    m_db.exec(
        u"INSERT OR IGNORE INTO instance_ssh_keys(instance_id, key_id, public_key) VALUES (?,?,?)"_s,
        {instanceId, keyId, lines.first()});
    QJsonObject result = instanceJson(instanceId, m_clock.nowMs());
    tx.commit();
    m_runtime.setAuthorizedKeys(instanceId, specFor(instanceId).authorizedKeys);
    notify(instanceId);
    return result;
}

QJsonObject InstanceService::removeKey(const QString &userId, const QString &instanceId,
                                       const QString &keyId)
{
    Transaction tx(m_db);
    if (requireState(userId, instanceId) == u"terminated"_s)
        throw ApiError(409, ErrorCode::IllegalTransition, u"The instance is terminated."_s);
    QSqlQuery q = m_db.exec(u"DELETE FROM instance_ssh_keys WHERE instance_id = ? AND key_id = ?"_s,
                            {instanceId, keyId});
    if (q.numRowsAffected() != 1)
        throw ApiError(404, ErrorCode::NotFound, u"This key is not installed on the instance."_s);
    QJsonObject result = instanceJson(instanceId, m_clock.nowMs());
    tx.commit();
    m_runtime.setAuthorizedKeys(instanceId, specFor(instanceId).authorizedKeys);
    notify(instanceId);
    return result;
}

InstanceService::Resources InstanceService::resourcesFor(const QString &gpuType, int gpuCount) const
{
    // The catalog's host spec per card, scaled to this machine: never more CPUs than it has,
    // never more than three quarters of its memory.
    Resources resources;
    resources.pidsLimit = m_catalog.pidsLimitPerInstance();
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    if (!gpu)
        return resources;
    resources.cpus = gpu->cpusPerCard * gpuCount;
    resources.memoryMib = gpu->memoryMibPerCard * gpuCount;
    const int cores = QThread::idealThreadCount();
    if (cores > 0)
        resources.cpus = std::min(resources.cpus, static_cast<double>(cores));
    const qint64 hostMib = hostMemoryMib();
    if (hostMib > 0)
        resources.memoryMib = std::min(resources.memoryMib, hostMib * 3 / 4);
    return resources;
}

InstanceSpec InstanceService::specFor(const QString &instanceId)
{
    InstanceSpec spec;
    QSqlQuery q = m_db.exec(
        u"SELECT user_id, image, gpu_type, gpu_count, disk_gib FROM instances WHERE id = ?"_s,
        {instanceId});
    if (!q.next())
        return spec;
    spec.instanceId = instanceId;
    spec.ownerId = q.value(0).toString();
    spec.image = q.value(1).toString();
    spec.gpuType = q.value(2).toString();
    spec.gpuCount = q.value(3).toInt();
    spec.diskGib = diskGibOf(spec.gpuType, q.value(4));
    const std::optional<GpuType> gpu = m_catalog.gpu(spec.gpuType);
    spec.realGpus = gpu && !gpu->simulated;
    spec.gpuCards = CardLending(m_db).cardsOf(instanceId);
    if (const std::optional<ImageEntry> image = m_catalog.image(spec.image)) {
        spec.sshUser = image->sshUser;
        for (const QJsonValue &app : image->apps)
            spec.apps.append({app[u"name"_s].toString(), app[u"port"_s].toInt()});
    }
    spec.appToken = appTokenOf(
        instanceId, m_db.scalar(u"SELECT app_token FROM instances WHERE id = ?"_s, {instanceId}));
    spec.snapshotId =
        m_db.scalar(u"SELECT snapshot_id FROM instances WHERE id = ?"_s, {instanceId}).toString();
    const Resources resources = resourcesFor(spec.gpuType, spec.gpuCount);
    spec.cpus = resources.cpus;
    spec.memoryMib = resources.memoryMib;
    spec.pidsLimit = resources.pidsLimit;
    QSqlQuery keys = m_db.exec(
        u"SELECT public_key FROM instance_ssh_keys WHERE instance_id = ? ORDER BY key_id"_s,
        {instanceId});
    while (keys.next())
        spec.authorizedKeys.append(keys.value(0).toString());
    QSqlQuery datasets =
        m_db.exec(u"SELECT name, path FROM instance_datasets WHERE instance_id = ? ORDER BY name"_s,
                  {instanceId});
    while (datasets.next())
        spec.datasets.append({datasets.value(0).toString(), datasets.value(1).toString()});
    QSqlQuery models =
        m_db.exec(u"SELECT name, path FROM instance_models WHERE instance_id = ? ORDER BY name"_s,
                  {instanceId});
    while (models.next())
        spec.models.append({models.value(0).toString(), models.value(1).toString()});
    return spec;
}

QJsonObject InstanceService::topUp(const QString &userId, qint64 amountMicros)
{
    Transaction tx(m_db);
    Limits(m_db, m_catalog.userLimits()).requireTopupRoom(userId, amountMicros);
    if (m_books.balance(userId) + amountMicros > kMaxBalanceMicros)
        throw ApiError(400, ErrorCode::BalanceLimit,
                       u"A sandbox balance is limited to 1 000 000 yuan."_s);
    Ledger::Posting posting;
    posting.kind = Ledger::Kind::Topup;
    posting.userId = userId;
    posting.amountMicros = amountMicros;
    posting.description = u"Sandbox top-up (simulated payment)"_s;
    m_books.post(posting, m_clock.nowMs());
    // A stopped instance whose storage fee the empty balance paused is billed again from now.
    resumeStorageBilling(userId);
    const QJsonObject newest = m_books.ledger().page(userId, 0, 1).at(0).toObject();
    tx.commit();
    return newest;
}

// ---- events ---------------------------------------------------------------------------------

void InstanceService::notify(const QString &instanceId)
{
    const QJsonObject instance = instanceJson(instanceId, m_clock.nowMs());
    if (instance.isEmpty())
        return;
    const QString userId =
        m_db.scalar(u"SELECT user_id FROM instances WHERE id = ?"_s, {instanceId}).toString();
    m_events.publish(userId, u"instance"_s, instance);
}

void InstanceService::publishBilling(const QString &userId)
{
    if (!m_events.hasSubscribers(userId))
        return;
    QJsonObject summary = billingSummary(userId);
    summary.remove(u"instances"_s);
    m_events.publish(userId, u"billing"_s, summary);
}

} // namespace cardhour::sim
