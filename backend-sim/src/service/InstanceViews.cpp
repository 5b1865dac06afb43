// InstanceService's read side: the JSON an API client sees for instances, the GPU catalog and
// the bill. Nothing here changes state; InstanceService.cpp has the transitions.
#include "Catalog.h"
#include "InstanceService.h"
#include "PrivateModels.h"
#include "billing/Bookkeeper.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QHash>
#include <QJsonDocument>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
const QString kInstanceColumns =
    u"i.id, i.user_id, i.name, i.state, i.state_reason, i.gpu_type, i.gpu_count, i.image, "
    u"i.price_per_hour_micros,"
    " i.created_at, i.updated_at, i.terminated_at, i.ssh_host, i.ssh_port, i.ssh_user, "
    "i.ssh_host_key_sha256,"
    " i.launch_seq, i.launch_requested_at, i.ssh_host_key, i.app_token, i.disk_gib, i.snapshot_id"_s;

// The instances a view shows: one user's, or just one of them (an empty or null id: all),
// with or without the terminated ones. Every query of a view binds {userId, instanceId,
// instanceId, includeTerminated} to it, so a list costs the same few queries however long.
const QString kViewFilter =
    u" i.user_id = ? AND (COALESCE(?, '') = '' OR i.id = ?) AND (? OR i.state != 'terminated')"_s;

QJsonValue nullableText(const QVariant &value)
{
    return value.isNull() ? QJsonValue() : QJsonValue(value.toString());
}

// The states in which an instance holds its cards (as CardLending counts them).
bool holdsCards(const QString &state)
{
    return state == u"creating"_s || state == u"starting"_s || state == u"running"_s
        || state == u"stopping"_s;
}
} // namespace

qint64 InstanceService::diskGibOf(const QString &gpuType, const QVariant &recorded) const
{
    if (!recorded.isNull())
        return recorded.toLongLong();
    // Made before disk sizes were recorded (schema 4): the catalog's size for its type.
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    return gpu ? gpu->diskGib : 0;
}

QJsonObject InstanceService::instanceJson(const QString &instanceId, qint64 nowMs)
{
    const QString userId =
        m_db.scalar(u"SELECT user_id FROM instances WHERE id = ?"_s, {instanceId}).toString();
    if (userId.isEmpty())
        return {};
    const QJsonArray one = instancesJson(userId, instanceId, true, nowMs);
    return one.isEmpty() ? QJsonObject() : one.first().toObject();
}

QJsonArray InstanceService::list(const QString &userId, bool includeTerminated)
{
    return instancesJson(userId, {}, includeTerminated, m_clock.nowMs());
}

// A list serialised with a placeholder number for each instance's two costs: the bytes
// between placeholders are kept, the costs written in at each read from what was posted when
// it was made (unchanged while the database is) plus what the open segments owe by then.
struct InstanceService::SerialisedList
{
    struct Costs
    {
        Meter::Costs posted;
        QList<Meter::OpenSegment> open; // the instance's own
    };
    QList<QByteArray> pieces; // pieces.size() == 2 * costs.size() + 1
    QList<Costs> costs; // in the list's order
    qsizetype piecesSize = 0; // the pieces' bytes together
};

namespace {
// Above any amount or time the API shows (balances are capped at 10^12 micro-yuan), below
// 2^53, so JSON writes it as a plain integer.
constexpr qint64 kPlaceholderBase = 8'000'000'000'000'000;
} // namespace

QByteArray InstanceService::listJson(const QString &userId, bool includeTerminated)
{
    if (m_serialisedAt != m_db.writeVersion()) {
        m_serialisedLists.clear();
        m_serialisedAt = m_db.writeVersion();
    }
    const QString key = (includeTerminated ? u"1:"_s : u"0:"_s) + userId;
    std::shared_ptr<const SerialisedList> list = m_serialisedLists.value(key);
    const qint64 now = m_clock.nowMs();
    if (!list) {
        QJsonArray array = instancesJson(userId, {}, includeTerminated, now);
        auto made = std::make_shared<SerialisedList>();
        const QHash<QString, Meter::Costs> posted = m_meter.postedByInstance(userId);
        QHash<QString, QList<Meter::OpenSegment>> open;
        for (const Meter::OpenSegment &s : m_meter.openSegmentsOf(userId)) {
            if (s.snapshotId.isEmpty())
                open[s.instanceId].append(s);
        }
        for (qsizetype i = 0; i < array.size(); ++i) {
            QJsonObject instance = array.at(i).toObject();
            const QString id = instance.value(u"id"_s).toString();
            made->costs.append({posted.value(id), open.value(id)});
            instance.insert(u"cost_micros"_s, kPlaceholderBase + 2 * i);
            instance.insert(u"storage_cost_micros"_s, kPlaceholderBase + 2 * i + 1);
            array.replace(i, instance);
        }
        const QByteArray bytes = QJsonDocument(array).toJson(QJsonDocument::Compact);
        // Cut at each placeholder, checking they come in order (cost, then storage cost).
        qsizetype from = 0;
        for (qsizetype n = 0; n < 2 * array.size(); ++n) {
            const QByteArray placeholder = QByteArray::number(kPlaceholderBase + n);
            const qsizetype at = bytes.indexOf(placeholder, from);
            if (at < 0)
                return QJsonDocument(instancesJson(userId, {}, includeTerminated, now))
                    .toJson(QJsonDocument::Compact);
            made->pieces.append(bytes.sliced(from, at - from));
            from = at + placeholder.size();
        }
        made->pieces.append(bytes.sliced(from));
        for (const QByteArray &piece : std::as_const(made->pieces))
            made->piecesSize += piece.size();
        list = made;
        m_serialisedLists.insert(key, list);
    }
    QByteArray out;
    // Each amount at most 20 digits: one allocation, no growing copies of a 100 KB body.
    constexpr qsizetype kMaxAmountDigits = 20;
    out.reserve(list->piecesSize + 2 * kMaxAmountDigits * list->costs.size());
    for (qsizetype i = 0; i < list->costs.size(); ++i) {
        // As Meter::addUnposted counts them, for one instance.
        Meter::Costs live = list->costs.at(i).posted;
        for (const Meter::OpenSegment &s : list->costs.at(i).open)
            (s.kind == Meter::Kind::Storage ? live.storageMicros : live.computeMicros) +=
                Meter::unposted(s, now);
        out += list->pieces.at(2 * i);
        out += QByteArray::number(live.computeMicros);
        out += list->pieces.at(2 * i + 1);
        out += QByteArray::number(live.storageMicros);
    }
    out += list->pieces.constLast();
    return out;
}

QJsonObject InstanceService::get(const QString &userId, const QString &instanceId)
{
    requireState(userId, instanceId);
    return instanceJson(instanceId, m_clock.nowMs());
}

QJsonArray InstanceService::instancesJson(const QString &userId, const QString &instanceId,
                                          bool includeTerminated, qint64 nowMs)
{
    const auto select = [&](const QString &sql) {
        return m_db.exec(sql, {userId, instanceId, instanceId, includeTerminated});
    };
    // Each kind of detail in one query for all the instances shown: `column` of `table`'s rows,
    // as a JSON array per instance, in the column's order.
    const auto perInstance = [&](const QString &table, const QString &column) {
        QHash<QString, QJsonArray> lists;
        QSqlQuery rows =
            select(u"SELECT t.instance_id, t.%2 FROM %1 t JOIN instances i ON i.id = t.instance_id"
                   " WHERE"_s.arg(table, column)
                   + kViewFilter + u" ORDER BY t.instance_id, t.%1"_s.arg(column));
        while (rows.next())
            lists[rows.value(0).toString()].append(QJsonValue::fromVariant(rows.value(1)));
        return lists;
    };
    const QHash<QString, QJsonArray> keyIds = perInstance(u"instance_ssh_keys"_s, u"key_id"_s);
    const QHash<QString, QJsonArray> datasets = perInstance(u"instance_datasets"_s, u"name"_s);
    const QHash<QString, QJsonArray> models = perInstance(u"instance_models"_s, u"name"_s);
    const QHash<QString, QJsonArray> cards = perInstance(u"instance_cards"_s, u"card"_s);

    // The stages of each instance's latest launch, in the order reached.
    QHash<QString, QJsonArray> stages;
    QHash<QString, qint64> readyAt;
    QHash<QString, QHash<QString, qint64>> appReadyAt; // instance → app name → when it answered
    QSqlQuery stageRows =
        select(u"SELECT s.instance_id, s.stage, s.at FROM instance_stages s"
               " JOIN instances i ON i.id = s.instance_id AND s.launch_seq = i.launch_seq WHERE"_s
               + kViewFilter + u" ORDER BY s.instance_id, s.at, s.rowid"_s);
    while (stageRows.next()) {
        const QString id = stageRows.value(0).toString();
        stages[id].append(QJsonObject{{u"name"_s, stageRows.value(1).toString()},
                                      {u"at"_s, json::isoTime(stageRows.value(2).toLongLong())}});
        const QString stage = stageRows.value(1).toString();
        if (stage == u"ready"_s)
            readyAt.insert(id, stageRows.value(2).toLongLong());
        else if (stage.startsWith(u"app:"_s))
            appReadyAt[id].insert(stage.mid(4), stageRows.value(2).toLongLong());
    }

    QHash<QString, Meter::Costs> costs = m_meter.postedByInstance(userId, instanceId);
    const QList<Meter::OpenSegment> openList = instanceId.isEmpty()
        ? m_meter.openSegmentsOf(userId)
        : m_meter.openSegmentsOfInstance(instanceId);
    Meter::addUnposted(costs, openList, nowMs);
    QHash<QString, Meter::OpenSegment> open;
    for (const Meter::OpenSegment &s : openList) {
        if (s.snapshotId.isEmpty()) // a snapshot's fee is its own, not its source instance's
            open.insert(s.instanceId, s);
    }

    const QHash<QString, StopPolicy> policies = m_stops.ofUser(userId);

    QJsonArray result;
    QSqlQuery q = select(u"SELECT "_s + kInstanceColumns + u" FROM instances i WHERE"_s
                         + kViewFilter + u" ORDER BY i.created_at, i.rowid"_s);
    while (q.next()) {
        const QString id = q.value(0).toString();
        const QString gpuType = q.value(5).toString();
        const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
        const QString state = q.value(3).toString();
        const auto openIt = open.constFind(id);
        const Meter::OpenSegment *segment = openIt != open.cend() ? &openIt.value() : nullptr;
        const bool computing = segment && segment->kind == Meter::Kind::Compute;
        const bool storing = segment && segment->kind == Meter::Kind::Storage;
        const qint64 requestedAt = q.value(17).toLongLong();
        const auto readyIt = readyAt.constFind(id);
        const QJsonValue readyMs =
            readyIt != readyAt.cend() ? QJsonValue(readyIt.value() - requestedAt) : QJsonValue();
        const Resources resources = resourcesFor(gpuType, q.value(6).toInt());

        QJsonValue ssh;
        if (!q.value(13).isNull()) {
            ssh = QJsonObject{{u"host"_s, q.value(12).toString()},
                              {u"port"_s, q.value(13).toInt()},
                              {u"user"_s, q.value(14).toString()},
                              {u"host_key_sha256"_s, q.value(15).toString()},
                              {u"host_key"_s, nullableText(q.value(18))}};
        }
        result.append(QJsonObject{
            {u"id"_s, id},
            {u"name"_s, q.value(2).toString()},
            {u"state"_s, state},
            {u"state_reason"_s, nullableText(q.value(4))},
            {u"gpu_type"_s, gpuType},
            {u"gpu_name"_s, gpu ? gpu->name : gpuType},
            {u"gpu_count"_s, q.value(6).toInt()},
            // Real cards are the host's nvidia-smi indexes; simulated ones are numbered per type.
            {u"gpu_simulated"_s, !gpu || gpu->simulated},
            // Only while it holds them: a stop releases them (a real card's instance asks for
            // the same ones again at start, which InstanceService remembers).
            {u"gpu_cards"_s, holdsCards(state) ? cards.value(id) : QJsonArray{}},
            {u"image"_s, q.value(7).toString()},
            {u"snapshot_id"_s, nullableText(q.value(21))}, // restored from this snapshot
            {u"ssh_key_ids"_s, keyIds.value(id)},
            {u"datasets"_s, datasets.value(id)}, // mounted read-only at /datasets/NAME
            {u"models"_s, models.value(id)}, // mounted read-only at /models/NAME
            {u"price_per_hour_micros"_s, q.value(8).toLongLong()},
            // Compute only: it does not move while the instance is stopped.
            {u"cost_micros"_s, costs.value(id).computeMicros},
            {u"storage_cost_micros"_s, costs.value(id).storageMicros},
            {u"storage_rate_micros_per_hour"_s, storing ? segment->ratePerHourMicros : 0},
            {u"running_since"_s,
             computing ? QJsonValue(json::isoTime(segment->startedAtMs)) : QJsonValue()},
            {u"created_at"_s, json::isoTime(q.value(9).toLongLong())},
            {u"updated_at"_s, json::isoTime(q.value(10).toLongLong())},
            {u"terminated_at"_s, json::nullableTime(q.value(11))},
            {u"ssh"_s, ssh},
            {u"runtime"_s, m_runtime.name()},
            {u"apps"_s,
             appsJson(q.value(7).toString(), appTokenOf(id, q.value(19)), state == u"running"_s,
                      appReadyAt.value(id))},
            {u"retention"_s, retentionJson(diskGibOf(gpuType, q.value(20)))},
            {u"resources"_s,
             QJsonObject{{u"cpus"_s, resources.cpus},
                         {u"memory_mib"_s, resources.memoryMib},
                         // The catalog's figures before scaling to this machine, for the why.
                         {u"catalog_cpus"_s, gpu ? gpu->cpusPerCard * q.value(6).toInt() : 0.0},
                         {u"catalog_memory_mib"_s,
                          gpu ? gpu->memoryMibPerCard * q.value(6).toInt() : qint64(0)},
                         {u"pids_limit"_s, resources.pidsLimit},
                         {u"disk_gib"_s, diskGibOf(gpuType, q.value(20))},
                         {u"disk_quota"_s, m_runtime.diskQuota().mechanism}}},
            {u"stop_policy"_s, policies.value(id).toJson()},
            {u"planned_stop"_s,
             plannedStopJson(id, state, policies.value(id), computing ? segment : nullptr,
                             costs.value(id).computeMicros, nowMs)},
            {u"launch"_s,
             QJsonObject{{u"requested_at"_s, json::isoTime(requestedAt)},
                         {u"stages"_s, stages.value(id)},
                         {u"ready_ms"_s, readyMs}}},
        });
    }
    return result;
}

QJsonArray InstanceService::appsJson(const QString &imageId, const QString &token, bool running,
                                     const QHash<QString, qint64> &answeredAt) const
{
    // The image's one-click apps, each with its port inside the box and its URL (token
    // included) while the instance runs in a container; the URL is the owner's secret, like the
    // host. Apps listen on the box's own 127.0.0.1 and nothing is published on the host: the
    // URL is the address inside the box, reached through an SSH forward of `port`.
    QJsonArray apps;
    const std::optional<ImageEntry> image = m_catalog.image(imageId);
    if (!image)
        return apps;
    for (const QJsonValue &value : image->apps) {
        const QJsonObject app = value.toObject();
        const int port = app.value(u"port"_s).toInt();
        QJsonValue url;
        if (running && m_runtime.outlivesProvider() && !token.isEmpty())
            url = u"%1://127.0.0.1:%2/?token=%3"_s.arg(app.value(u"protocol"_s).toString(u"http"_s))
                      .arg(port)
                      .arg(token);
        // Answering is the latest launch's `app:<name>` stage, and only while it runs.
        const QString name = app.value(u"name"_s).toString();
        const auto answered = answeredAt.constFind(name);
        const bool ready = running && answered != answeredAt.cend();
        apps.append(QJsonObject{
            {u"name"_s, name},
            {u"port"_s, port},
            {u"url"_s, url},
            {u"ready"_s, ready},
            {u"ready_at"_s, ready ? QJsonValue(json::isoTime(answered.value())) : QJsonValue()}});
    }
    return apps;
}

QJsonObject InstanceService::retentionJson(qint64 diskGib) const
{
    // What stop and terminate do to the instance's data and bill, stated up front so that a
    // client can show it before the user confirms. Runtimes without containers keep no files,
    // but bill the disk the catalog gives as a provider would (it is simulated, like the GPUs).
    const bool containers = m_runtime.outlivesProvider();
    const QJsonArray kept = containers
        ? QJsonArray{u"workspace_volume"_s, u"container_disk"_s, u"host_key"_s, u"ssh_port"_s}
        : QJsonArray{};
    const qint64 storageRate = m_catalog.storageRatePerHourMicros(diskGib);
    return {{u"stop_keeps"_s, kept},
            {u"stop_releases"_s, QJsonArray{u"gpu_cards"_s}},
            {u"terminate_deletes"_s, kept},
            {u"billed_while_running"_s, QJsonArray{u"compute"_s}},
            // From the stop request until a start request or terminate.
            {u"billed_while_stopped"_s, storageRate > 0 ? QJsonArray{u"storage"_s} : QJsonArray{}},
            // A failed launch is the provider's or the image's fault: nothing is billed.
            {u"billed_while_failed"_s, QJsonArray{}},
            {u"storage_gib"_s, diskGib},
            {u"storage_price_per_gib_hour_micros"_s, m_catalog.storagePricePerGibHourMicros()},
            {u"storage_rate_micros_per_hour_when_stopped"_s, storageRate},
            // An empty balance pauses the storage fee (never a debt); nothing is deleted.
            {u"deleted_when_balance_runs_out"_s, false}};
}

QJsonArray InstanceService::gpuCatalog()
{
    QHash<QString, int> held;
    QSqlQuery q = m_db.exec(u"SELECT gpu_type, SUM(gpu_count) FROM instances WHERE state IN "_s
                            + holdingStatesSql() + u" GROUP BY gpu_type"_s);
    while (q.next())
        held.insert(q.value(0).toString(), q.value(1).toInt());
    QJsonArray gpus;
    for (const GpuType &gpu : m_catalog.gpus()) {
        gpus.append(QJsonObject{
            {u"id"_s, gpu.id},
            {u"name"_s, gpu.name},
            {u"description"_s, gpu.description},
            {u"vram_mib"_s, gpu.vramMib},
            {u"price_per_hour_micros"_s, gpu.pricePerHourMicros},
            {u"capacity"_s, gpu.capacity},
            {u"available"_s, std::max(0, gpu.capacity - held.value(gpu.id))},
            {u"cpus_per_card"_s, gpu.cpusPerCard},
            {u"memory_mib_per_card"_s, gpu.memoryMibPerCard},
            {u"disk_gib"_s, gpu.diskGib},
            {u"storage_price_per_gib_hour_micros"_s, m_catalog.storagePricePerGibHourMicros()},
            {u"storage_rate_micros_per_hour_when_stopped"_s,
             m_catalog.storageRatePerHourMicros(gpu.diskGib)},
            {u"power_limit_w"_s, gpu.powerLimitW},
            {u"simulated"_s, gpu.simulated}});
    }
    return gpus;
}

QList<Meter::OpenSegment> InstanceService::modelFeesOf(const QString &userId)
{
    return m_models ? m_models->openFeesOf(userId) : QList<Meter::OpenSegment>();
}

qint64 InstanceService::liveBalance(const QString &userId)
{
    return liveAccount(userId, m_books.balance(userId)).balanceMicros;
}

InstanceService::LiveAccount InstanceService::liveAccount(const QString &userId,
                                                          qint64 postedBalanceMicros)
{
    const qint64 now = m_clock.nowMs();
    const Meter::OpenTotals open = m_meter.openTotalsOf(userId, now);
    qint64 owed = open.unpostedMicros;
    qint64 rate = open.ratePerHourMicros;
    for (const Meter::OpenSegment &fee : modelFeesOf(userId)) {
        owed += Meter::unposted(fee, now);
        rate += fee.ratePerHourMicros;
    }
    return {std::max<qint64>(0, postedBalanceMicros - owed), rate};
}

qint64 InstanceService::spendRate(const QString &userId)
{
    qint64 rate = m_meter.openTotalsOf(userId, m_clock.nowMs()).ratePerHourMicros;
    for (const Meter::OpenSegment &fee : modelFeesOf(userId))
        rate += fee.ratePerHourMicros;
    return rate;
}

QJsonObject InstanceService::billingSummary(const QString &userId)
{
    const qint64 now = m_clock.nowMs();
    const QList<Meter::OpenSegment> open = m_meter.openSegmentsOf(userId);
    const qint64 posted = m_books.balance(userId);
    qint64 owed = 0;
    qint64 computeRate = 0;
    qint64 storageRate = 0;
    qint64 snapshotRate = 0;
    QHash<QString, qint64> storageRates;
    for (const Meter::OpenSegment &s : open) {
        owed += Meter::unposted(s, now);
        if (!s.snapshotId.isEmpty()) {
            snapshotRate += s.ratePerHourMicros;
        } else if (s.kind == Meter::Kind::Storage) {
            storageRate += s.ratePerHourMicros;
            storageRates.insert(s.instanceId, s.ratePerHourMicros);
        } else {
            computeRate += s.ratePerHourMicros;
        }
    }
    // Private models' storage fees are billed apart from the meter, but spend the same balance.
    const QList<Meter::OpenSegment> modelFees = modelFeesOf(userId);
    qint64 modelRate = 0;
    for (const Meter::OpenSegment &fee : modelFees) {
        owed += Meter::unposted(fee, now);
        modelRate += fee.ratePerHourMicros;
    }
    // Storage segments and model fees count like runs: the balance runs out at their rate too.
    const std::optional<qint64> runsOut = Meter::runsOutAt(open + modelFees, posted, now);
    QHash<QString, Meter::Costs> costs = m_meter.postedByInstance(userId);
    Meter::addUnposted(costs, open, now);
    qint64 computeTotal = 0;
    qint64 storageTotal = 0;
    for (const Meter::Costs &c : std::as_const(costs)) {
        computeTotal += c.computeMicros;
        storageTotal += c.storageMicros;
    }
    // Kept snapshots are storage too: in the totals, and shown apart.
    qint64 snapshotTotal = 0;
    const QHash<QString, qint64> snapshotCosts = m_meter.snapshotCosts(userId, now);
    for (const qint64 cost : snapshotCosts)
        snapshotTotal += cost;
    storageTotal += snapshotTotal;
    QJsonArray perInstance;
    QSqlQuery q =
        m_db.exec(u"SELECT id, name, state, price_per_hour_micros FROM instances WHERE user_id = ?"
                  " ORDER BY created_at, rowid"_s,
                  {userId});
    while (q.next()) {
        const QString id = q.value(0).toString();
        const bool running = q.value(2).toString() == u"running"_s;
        if (!costs.contains(id) && !running)
            continue;
        const qint64 computeNow = running ? q.value(3).toLongLong() : 0;
        perInstance.append(
            QJsonObject{{u"instance_id"_s, id},
                        {u"name"_s, q.value(1).toString()},
                        {u"state"_s, q.value(2).toString()},
                        {u"price_per_hour_micros"_s, q.value(3).toLongLong()},
                        {u"spend_rate_micros_per_hour"_s, computeNow + storageRates.value(id)},
                        {u"storage_rate_micros_per_hour"_s, storageRates.value(id)},
                        {u"cost_micros"_s, costs.value(id).computeMicros},
                        {u"storage_cost_micros"_s, costs.value(id).storageMicros}});
    }
    return {{u"balance_micros"_s, std::max<qint64>(0, posted - owed)},
            {u"ledger_balance_micros"_s, posted},
            {u"accrued_micros"_s, std::min(owed, posted)},
            {u"spend_rate_micros_per_hour"_s, computeRate + storageRate + snapshotRate + modelRate},
            {u"compute_spend_rate_micros_per_hour"_s, computeRate},
            {u"storage_spend_rate_micros_per_hour"_s, storageRate + snapshotRate + modelRate},
            {u"snapshot_storage_spend_rate_micros_per_hour"_s, snapshotRate},
            {u"model_storage_spend_rate_micros_per_hour"_s, modelRate},
            {u"compute_cost_micros"_s, computeTotal},
            {u"storage_cost_micros"_s, storageTotal},
            {u"snapshot_storage_cost_micros"_s, snapshotTotal},
            {u"runs_out_at"_s, json::isoTimeOrNull(runsOut)},
            {u"as_of"_s, json::isoTime(now)},
            {u"instances"_s, perInstance}};
}

} // namespace cardhour::sim
