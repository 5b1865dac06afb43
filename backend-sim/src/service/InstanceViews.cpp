#include "InstanceViews.h"

#include "CardLending.h"
#include "Catalog.h"
#include "EventBus.h"
#include "InstanceRecords.h"
#include "StopPolicies.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"
#include "store/Database.h"

#include <QJsonDocument>
#include <QSqlQuery>

#include <charconv>
#include <cstring>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
const QString kInstanceColumns =
    u"i.id, i.user_id, i.name, i.state, i.state_reason, i.gpu_type, i.gpu_count, i.image, "
    u"i.price_per_hour_micros,"
    " i.created_at, i.updated_at, i.terminated_at, i.ssh_host, i.ssh_port, i.ssh_user, "
    "i.ssh_host_key_sha256,"
    " i.launch_seq, i.launch_requested_at, i.ssh_host_key, i.app_token, i.disk_gib, i.snapshot_id,"
    " i.price_class, i.interruption_at, i.restart_when_available"_s;

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

// Above any amount or time the API shows (balances are capped at 10^12 micro-yuan), below
// 2^53, so JSON writes it as a plain integer.
constexpr qint64 kPlaceholderBase = 8'000'000'000'000'000;
} // namespace

InstanceViews::InstanceViews(Database &db, Meter &meter, const Catalog &catalog,
                             ContainerRuntime &runtime, InstanceRecords &records,
                             const StopPolicies &stops, EventBus &events, const Clock &clock)
    : m_db(db), m_meter(meter), m_catalog(catalog), m_runtime(runtime), m_records(records),
      m_stops(stops), m_events(events), m_clock(clock)
{}

InstanceViews::~InstanceViews() = default;

QJsonObject InstanceViews::instanceJson(const QString &instanceId, qint64 nowMs)
{
    const QString userId = m_records.ownerOf(instanceId);
    if (userId.isEmpty())
        return {};
    const QJsonArray one = instancesJson(userId, instanceId, true, nowMs);
    return one.isEmpty() ? QJsonObject() : one.first().toObject();
}

QJsonArray InstanceViews::list(const QString &userId, bool includeTerminated)
{
    return instancesJson(userId, {}, includeTerminated, m_clock.nowMs());
}

QJsonObject InstanceViews::get(const QString &userId, const QString &instanceId)
{
    m_records.requireState(userId, instanceId);
    return instanceJson(instanceId, m_clock.nowMs());
}

void InstanceViews::notify(const QString &instanceId)
{
    // The other provider processes on a shared database tell their streams too.
    m_db.announce(u"instance"_s, instanceId);
    notifyHere(instanceId);
}

void InstanceViews::notifyHere(const QString &instanceId)
{
    const QJsonObject instance = instanceJson(instanceId, m_clock.nowMs());
    if (instance.isEmpty())
        return;
    m_events.publish(m_records.ownerOf(instanceId), u"instance"_s, instance);
}

// ---- the list, serialised once --------------------------------------------------------------

// A list serialised with a placeholder number for each instance's two costs: the bytes
// between placeholders are kept, the costs written in at each read from what was posted when
// it was made (unchanged while the database is) plus what the open segments owe by then.
struct InstanceViews::SerialisedList
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

std::shared_ptr<const InstanceViews::SerialisedList>
InstanceViews::serialise(const QString &userId, bool includeTerminated, qint64 nowMs)
{
    QJsonArray array = instancesJson(userId, {}, includeTerminated, nowMs);
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
            return nullptr;
        made->pieces.append(bytes.sliced(from, at - from));
        from = at + placeholder.size();
    }
    made->pieces.append(bytes.sliced(from));
    for (const QByteArray &piece : std::as_const(made->pieces))
        made->piecesSize += piece.size();
    return made;
}

QByteArray InstanceViews::listJson(const QString &userId, bool includeTerminated)
{
    if (m_serialisedAt != m_db.writeVersion()) {
        m_serialisedLists.clear();
        m_lastMade.clear();
        m_serialisedAt = m_db.writeVersion();
    }
    const QString key = (includeTerminated ? u"1:"_s : u"0:"_s) + userId;
    const qint64 now = m_clock.nowMs();
    std::shared_ptr<const SerialisedList> list = m_serialisedLists.value(key);
    if (!list) {
        list = serialise(userId, includeTerminated, now);
        if (!list)
            return QJsonDocument(instancesJson(userId, {}, includeTerminated, now))
                .toJson(QJsonDocument::Compact);
        m_serialisedLists.insert(key, list);
    }
    // The amounts first (compute, storage per instance, as Meter::addUnposted counts them):
    // when none moved since the last answer (a cent's millionth takes a while at most
    // prices), that answer's bytes are this one's too, shared rather than written again.
    MadeAt &made = m_lastMade[key];
    QList<qint64> amounts(2 * list->costs.size());
    for (qsizetype i = 0; i < list->costs.size(); ++i) {
        Meter::Costs live = list->costs.at(i).posted;
        for (const Meter::OpenSegment &s : list->costs.at(i).open)
            (s.kind == Meter::Kind::Storage ? live.storageMicros : live.computeMicros) +=
                Meter::unposted(s, now);
        amounts[2 * i] = live.computeMicros;
        amounts[2 * i + 1] = live.storageMicros;
    }
    if (!made.body.isEmpty() && made.amounts == amounts)
        return made.body;
    // Each amount at most 20 digits: one allocation, no growing copies of a 100 KB body. The
    // pieces and digits are written straight into it (QByteArray::append and ::number were
    // two thirds of a request's instructions between rebuilds).
    constexpr qsizetype kMaxAmountDigits = 20;
    QByteArray out(list->piecesSize + kMaxAmountDigits * amounts.size(), Qt::Uninitialized);
    char *at = out.data();
    for (qsizetype i = 0; i < list->pieces.size(); ++i) {
        const QByteArray &piece = list->pieces.at(i);
        std::memcpy(at, piece.constData(), size_t(piece.size()));
        at += piece.size();
        if (i < amounts.size())
            at = std::to_chars(at, at + kMaxAmountDigits, amounts.at(i)).ptr;
    }
    out.truncate(at - out.constData());
    made = {std::move(amounts), out};
    return out;
}

// ---- one view of many instances -------------------------------------------------------------

struct InstanceViews::Details
{
    QHash<QString, QJsonArray> keyIds, datasets, models, cards;
    QHash<QString, QJsonArray> stages; // of each instance's latest launch, in the order reached
    QHash<QString, qint64> readyAt;
    QHash<QString, QHash<QString, qint64>> appReadyAt; // instance → app name → when it answered
    QHash<QString, QJsonObject> hardwareChecks; // of each instance's latest launch
    QHash<QString, Meter::Costs> costs; // posted and unposted
    QHash<QString, Meter::OpenSegment> open; // each instance's own open segment
    QHash<QString, StopPolicy> policies;
};

InstanceViews::Details InstanceViews::detailsOf(const QString &userId, const QString &instanceId,
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
    Details d;
    d.keyIds = perInstance(u"instance_ssh_keys"_s, u"key_id"_s);
    d.datasets = perInstance(u"instance_datasets"_s, u"name"_s);
    d.models = perInstance(u"instance_models"_s, u"name"_s);
    d.cards = perInstance(u"instance_cards"_s, u"card"_s);
    QSqlQuery stageRows =
        select(u"SELECT s.instance_id, s.stage, s.at FROM instance_stages s"
               " JOIN instances i ON i.id = s.instance_id AND s.launch_seq = i.launch_seq WHERE"_s
               + kViewFilter + u" ORDER BY s.instance_id, s.at, s.rowid"_s);
    while (stageRows.next()) {
        const QString id = stageRows.value(0).toString();
        d.stages[id].append(QJsonObject{{u"name"_s, stageRows.value(1).toString()},
                                        {u"at"_s, json::isoTime(stageRows.value(2).toLongLong())}});
        const QString stage = stageRows.value(1).toString();
        if (stage == u"ready"_s)
            d.readyAt.insert(id, stageRows.value(2).toLongLong());
        else if (stage.startsWith(u"app:"_s))
            d.appReadyAt[id].insert(stage.mid(4), stageRows.value(2).toLongLong());
    }
    QSqlQuery checkRows =
        select(u"SELECT c.instance_id, c.result FROM instance_hardware_checks c"
               " JOIN instances i ON i.id = c.instance_id AND c.launch_seq = i.launch_seq WHERE"_s
               + kViewFilter);
    while (checkRows.next())
        d.hardwareChecks.insert(
            checkRows.value(0).toString(),
            QJsonDocument::fromJson(checkRows.value(1).toString().toUtf8()).object());
    d.costs = m_meter.postedByInstance(userId, instanceId);
    const QList<Meter::OpenSegment> openList = instanceId.isEmpty()
        ? m_meter.openSegmentsOf(userId)
        : m_meter.openSegmentsOfInstance(instanceId);
    Meter::addUnposted(d.costs, openList, nowMs);
    for (const Meter::OpenSegment &s : openList) {
        if (s.snapshotId.isEmpty()) // a snapshot's fee is its own, not its source instance's
            d.open.insert(s.instanceId, s);
    }
    d.policies = m_stops.ofUser(userId);
    return d;
}

QJsonArray InstanceViews::instancesJson(const QString &userId, const QString &instanceId,
                                        bool includeTerminated, qint64 nowMs)
{
    const Details details = detailsOf(userId, instanceId, includeTerminated, nowMs);
    QJsonArray result;
    QSqlQuery q = m_db.exec(u"SELECT "_s + kInstanceColumns + u" FROM instances i WHERE"_s
                                + kViewFilter + u" ORDER BY i.created_at, i.rowid"_s,
                            {userId, instanceId, instanceId, includeTerminated});
    while (q.next())
        result.append(rowJson(q, details, nowMs));
    return result;
}

QJsonObject InstanceViews::rowJson(const QSqlQuery &q, const Details &d, qint64 nowMs)
{
    const QString id = q.value(0).toString();
    const QString gpuType = q.value(5).toString();
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    const QString state = q.value(3).toString();
    const auto openIt = d.open.constFind(id);
    const Meter::OpenSegment *segment = openIt != d.open.cend() ? &openIt.value() : nullptr;
    const bool computing = segment && segment->kind == Meter::Kind::Compute;
    const bool storing = segment && segment->kind == Meter::Kind::Storage;
    const qint64 requestedAt = q.value(17).toLongLong();
    const auto readyIt = d.readyAt.constFind(id);
    const QJsonValue readyMs =
        readyIt != d.readyAt.cend() ? QJsonValue(readyIt.value() - requestedAt) : QJsonValue();
    const qint64 diskGib = m_records.diskGibOf(gpuType, q.value(20));
    const Meter::Costs costs = d.costs.value(id);

    QJsonValue ssh;
    if (!q.value(13).isNull()) {
        ssh = QJsonObject{{u"host"_s, q.value(12).toString()},
                          {u"port"_s, q.value(13).toInt()},
                          {u"user"_s, q.value(14).toString()},
                          {u"host_key_sha256"_s, q.value(15).toString()},
                          {u"host_key"_s, nullableText(q.value(18))}};
    }
    return QJsonObject{
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
        {u"gpu_cards"_s, holdsCards(state) ? d.cards.value(id) : QJsonArray{}},
        {u"image"_s, q.value(7).toString()},
        {u"snapshot_id"_s, nullableText(q.value(21))}, // restored from this snapshot
        {u"ssh_key_ids"_s, d.keyIds.value(id)},
        {u"datasets"_s, d.datasets.value(id)}, // mounted read-only at /datasets/NAME
        {u"models"_s, d.models.value(id)}, // mounted read-only at /models/NAME
        {u"price_per_hour_micros"_s, q.value(8).toLongLong()},
        {u"price_class"_s, q.value(22).toString()},
        // The deadline of an interruption notice, while the run it was given to goes on.
        {u"interruption_at"_s,
         state == u"running"_s ? json::nullableTime(q.value(23)) : QJsonValue()},
        {u"restart_when_available"_s, q.value(24).toBool()},
        // Compute only: it does not move while the instance is stopped.
        {u"cost_micros"_s, costs.computeMicros},
        {u"storage_cost_micros"_s, costs.storageMicros},
        {u"storage_rate_micros_per_hour"_s, storing ? segment->ratePerHourMicros : 0},
        {u"running_since"_s,
         computing ? QJsonValue(json::isoTime(segment->startedAtMs)) : QJsonValue()},
        {u"created_at"_s, json::isoTime(q.value(9).toLongLong())},
        {u"updated_at"_s, json::isoTime(q.value(10).toLongLong())},
        {u"terminated_at"_s, json::nullableTime(q.value(11))},
        {u"ssh"_s, ssh},
        {u"runtime"_s, m_runtime.name()},
        {u"apps"_s,
         appsJson(q.value(7).toString(), m_records.appTokenOf(id, q.value(16).toLongLong()),
                  state == u"running"_s, d.appReadyAt.value(id))},
        {u"retention"_s, retentionJson(diskGib)},
        {u"resources"_s, resourcesJson(gpuType, q.value(6).toInt(), diskGib)},
        {u"stop_policy"_s, d.policies.value(id).toJson()},
        {u"planned_stop"_s,
         plannedStopJson(id, state, d.policies.value(id), computing ? segment : nullptr,
                         costs.computeMicros, nowMs)},
        {u"launch"_s,
         QJsonObject{{u"requested_at"_s, json::isoTime(requestedAt)},
                     {u"stages"_s, d.stages.value(id)},
                     {u"ready_ms"_s, readyMs}}},
        // What the box got against the order, read inside it before billing; null while the
        // launch has not come that far (or on a runtime that cannot look inside its boxes).
        {u"hardware_check"_s,
         d.hardwareChecks.contains(id) ? QJsonValue(d.hardwareChecks.value(id)) : QJsonValue()},
    };
}

QJsonObject InstanceViews::resourcesJson(const QString &gpuType, int gpuCount, qint64 diskGib) const
{
    const std::optional<GpuType> gpu = m_catalog.gpu(gpuType);
    const InstanceRecords::Resources resources = m_records.resourcesFor(gpuType, gpuCount);
    return {{u"cpus"_s, resources.cpus},
            {u"memory_mib"_s, resources.memoryMib},
            // The catalog's figures before scaling to this machine, for the why.
            {u"catalog_cpus"_s, gpu ? gpu->cpusPerCard * gpuCount : 0.0},
            {u"catalog_memory_mib"_s, gpu ? gpu->memoryMibPerCard * gpuCount : qint64(0)},
            {u"pids_limit"_s, resources.pidsLimit},
            {u"disk_gib"_s, diskGib},
            {u"disk_quota"_s, m_runtime.diskQuota().mechanism}};
}

QJsonValue InstanceViews::plannedStopJson(const QString &instanceId, const QString &state,
                                          const StopPolicy &policy,
                                          const Meter::OpenSegment *computeSegment,
                                          qint64 computeCostMicros, qint64 nowMs) const
{
    if (state != u"running"_s)
        return QJsonValue::Null;
    const std::optional<PlannedStop> stop =
        m_stops.plannedStop(instanceId, policy, computeSegment, computeCostMicros, nowMs);
    if (!stop)
        return QJsonValue::Null;
    return QJsonObject{{u"at"_s, json::isoTime(stop->atMs)},
                       {u"reason"_s, stop->reason},
                       {u"warning"_s, stop->warning}};
}

QJsonArray InstanceViews::appsJson(const QString &imageId, const QString &token, bool running,
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

QJsonObject InstanceViews::retentionJson(qint64 diskGib) const
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

QJsonArray InstanceViews::gpuCatalog()
{
    const CardLending lending(m_db);
    QJsonArray gpus;
    for (const GpuType &gpu : m_catalog.gpus()) {
        gpus.append(QJsonObject{
            {u"id"_s, gpu.id},
            {u"name"_s, gpu.name},
            {u"description"_s, gpu.description},
            {u"vram_mib"_s, gpu.vramMib},
            {u"price_per_hour_micros"_s, gpu.pricePerHourMicros},
            // The cheaper class the provider may interrupt (with a notice) to free cards.
            {u"interruptible_price_per_hour_micros"_s, gpu.pricePerHour(true)},
            {u"interruption_notice_seconds"_s, m_catalog.interruptionNoticeSeconds()},
            {u"capacity"_s, gpu.capacity},
            // Whole cards and slices of one card share it: what is free counts both.
            {u"available"_s, lending.available(gpu)},
            {u"cpus_per_card"_s, gpu.cpusPerCard},
            {u"memory_mib_per_card"_s, gpu.memoryMibPerCard},
            {u"disk_gib"_s, gpu.diskGib},
            {u"storage_price_per_gib_hour_micros"_s, m_catalog.storagePricePerGibHourMicros()},
            {u"storage_rate_micros_per_hour_when_stopped"_s,
             m_catalog.storageRatePerHourMicros(gpu.diskGib)},
            {u"power_limit_w"_s, gpu.powerLimitW},
            {u"simulated"_s, gpu.simulated},
            {u"slice"_s, gpu.isSlice() ? QJsonValue(Catalog::sliceJson(gpu)) : QJsonValue()}});
    }
    return gpus;
}

} // namespace cardhour::sim
