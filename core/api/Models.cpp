#include "api/Models.h"

#include <limits>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

// Readers that accept what they can and fall back to a default otherwise: a provider that
// sends a number as a string, or null for a value we consider required, costs that one field,
// not the whole response.
QString str(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toInteger());
    return {};
}

qint64 int64(const QJsonObject &o, QLatin1StringView key, qint64 fallback = 0)
{
    const QJsonValue v = o.value(key);
    if (v.isDouble())
        return v.toInteger(fallback);
    if (v.isString()) {
        bool ok = false;
        const qint64 n = v.toString().toLongLong(&ok);
        return ok ? n : fallback;
    }
    return fallback;
}

int int32(const QJsonObject &o, QLatin1StringView key, int fallback = 0)
{
    const qint64 n = int64(o, key, fallback);
    return n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max() ? fallback
                                                                                      : int(n);
}

std::optional<qint64> optInt64(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble() && !v.isString())
        return std::nullopt;
    return int64(o, key);
}

double number(const QJsonObject &o, QLatin1StringView key, double fallback = 0)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? v.toDouble() : fallback;
}

std::optional<double> optNumber(const QJsonObject &o, QLatin1StringView key)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    const QJsonArray array = value.toArray();
    for (const QJsonValue &v : array) {
        if (v.isString())
            out.append(v.toString());
    }
    return out;
}

template<typename T>
QList<T> listOf(const QJsonValue &value)
{
    QList<T> out;
    const QJsonArray array = value.toArray();
    out.reserve(array.size());
    for (const QJsonValue &v : array) {
        if (v.isObject())
            out.append(T::fromJson(v.toObject()));
    }
    return out;
}

} // namespace

QDateTime parseTime(const QJsonValue &value)
{
    if (!value.isString())
        return {};
    QDateTime t = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    if (!t.isValid())
        return {};
    return t.toUTC();
}

SandboxProofAnswer SandboxProofAnswer::fromJson(const QJsonObject &o)
{
    return SandboxProofAnswer{str(o, "proof"_L1).toLatin1()};
}

Health Health::fromJson(const QJsonObject &o)
{
    Health h;
    h.status = str(o, "status"_L1);
    h.service = str(o, "service"_L1);
    h.version = str(o, "version"_L1);
    h.testClock = o.value("test_clock"_L1).toBool();
    h.runtime = str(o, "runtime"_L1);
    h.runtimeNote = str(o, "runtime_note"_L1);
    h.trialCreditMicros = o.value("trial_credit_micros"_L1).toInteger(-1);
    h.time = parseTime(o.value("time"_L1));
    h.timeZone = str(o, "time_zone"_L1);
    return h;
}

SessionUser SessionUser::fromJson(const QJsonObject &o)
{
    return {str(o, "id"_L1), str(o, "email"_L1)};
}

AuthSession AuthSession::fromJson(const QJsonObject &o)
{
    AuthSession s;
    s.token = str(o, "token"_L1);
    s.tokenType = str(o, "token_type"_L1);
    s.user = SessionUser::fromJson(o.value("user"_L1).toObject());
    s.balanceMicros = int64(o, "balance_micros"_L1);
    s.deviceToken = str(o, "device_token"_L1);
    return s;
}

Account Account::fromJson(const QJsonObject &o)
{
    Account a;
    a.id = str(o, "id"_L1);
    a.email = str(o, "email"_L1);
    a.createdAt = parseTime(o.value("created_at"_L1));
    a.balanceMicros = int64(o, "balance_micros"_L1);
    a.spendRateMicrosPerHour = int64(o, "spend_rate_micros_per_hour"_L1);
    return a;
}

GpuType GpuType::fromJson(const QJsonObject &o)
{
    GpuType g;
    g.id = str(o, "id"_L1);
    g.name = str(o, "name"_L1);
    g.description = str(o, "description"_L1);
    g.vramMib = int32(o, "vram_mib"_L1);
    g.pricePerHourMicros = int64(o, "price_per_hour_micros"_L1);
    g.interruptiblePricePerHourMicros = int64(o, "interruptible_price_per_hour_micros"_L1);
    g.interruptionNoticeSeconds = int32(o, "interruption_notice_seconds"_L1);
    g.capacity = int32(o, "capacity"_L1);
    g.available = int32(o, "available"_L1);
    g.simulated = o.value("simulated"_L1).toBool();
    g.cpusPerCard = o.value("cpus_per_card"_L1).toDouble();
    g.memoryMibPerCard = int32(o, "memory_mib_per_card"_L1);
    g.diskGib = int64(o, "disk_gib"_L1);
    g.storagePricePerGibHourMicros = int64(o, "storage_price_per_gib_hour_micros"_L1);
    g.storageRateMicrosPerHourWhenStopped =
        int64(o, "storage_rate_micros_per_hour_when_stopped"_L1);
    const QJsonObject slice = o.value("slice"_L1).toObject();
    g.sliceOf = str(slice, "of"_L1);
    g.migProfile = str(slice, "profile"_L1);
    g.computeSlices = int32(slice, "compute_slices"_L1);
    g.memorySlices = int32(slice, "memory_slices"_L1);
    g.cardComputeSlices = int32(slice, "card_compute_slices"_L1);
    g.cardMemorySlices = int32(slice, "card_memory_slices"_L1);
    return g;
}

ImageApp ImageApp::fromJson(const QJsonObject &o)
{
    ImageApp a;
    a.name = str(o, "name"_L1);
    a.port = int32(o, "port"_L1);
    a.protocol = str(o, "protocol"_L1);
    a.path = str(o, "path"_L1);
    a.models = strings(o.value("models"_L1));
    a.sampleData = str(o, "sample_data"_L1);
    a.gpuCount = qMax(1, int32(o, "gpu_count"_L1, 1));
    return a;
}

Image Image::fromJson(const QJsonObject &o)
{
    Image i;
    i.id = str(o, "id"_L1);
    i.name = str(o, "name"_L1);
    i.description = str(o, "description"_L1);
    i.os = str(o, "os"_L1);
    i.sshUser = str(o, "ssh_user"_L1);
    i.apps = listOf<ImageApp>(o.value("apps"_L1));
    return i;
}

Dataset Dataset::fromJson(const QJsonObject &o)
{
    Dataset d;
    d.name = str(o, "name"_L1);
    d.mountPath = str(o, "mount_path"_L1);
    d.sizeBytes = int64(o, "size_bytes"_L1);
    d.files = int64(o, "files"_L1);
    d.available = o.value("available"_L1).toBool();
    d.addedAt = parseTime(o.value("added_at"_L1));
    return d;
}

SshKey SshKey::fromJson(const QJsonObject &o)
{
    SshKey k;
    k.id = str(o, "id"_L1);
    k.name = str(o, "name"_L1);
    k.publicKey = str(o, "public_key"_L1);
    k.type = str(o, "type"_L1);
    k.bits = int32(o, "bits"_L1);
    k.fingerprintSha256 = str(o, "fingerprint_sha256"_L1);
    k.createdAt = parseTime(o.value("created_at"_L1));
    return k;
}

namespace {
struct StateName
{
    InstanceState state;
    QLatin1StringView name;
};
constexpr StateName kStateNames[] = {
    {InstanceState::Creating, "creating"_L1}, {InstanceState::Starting, "starting"_L1},
    {InstanceState::Running, "running"_L1},   {InstanceState::Stopping, "stopping"_L1},
    {InstanceState::Stopped, "stopped"_L1},   {InstanceState::Terminated, "terminated"_L1},
    {InstanceState::Failed, "failed"_L1},
};
} // namespace

InstanceState instanceStateFromString(const QString &text)
{
    for (const StateName &entry : kStateNames) {
        if (text == entry.name)
            return entry.state;
    }
    return InstanceState::Unknown;
}

QString instanceStateToString(InstanceState state)
{
    for (const StateName &entry : kStateNames) {
        if (entry.state == state)
            return QString(entry.name);
    }
    return {};
}

Launch Launch::fromJson(const QJsonObject &o)
{
    Launch l;
    l.requestedAt = parseTime(o.value("requested_at"_L1));
    const QJsonArray stages = o.value("stages"_L1).toArray();
    for (const QJsonValue &v : stages) {
        const QJsonObject s = v.toObject();
        l.stages.append({str(s, "name"_L1), parseTime(s.value("at"_L1))});
    }
    l.readyMs = optInt64(o, "ready_ms"_L1);
    return l;
}

bool Launch::reached(const QString &stage) const
{
    for (const LaunchStage &s : stages) {
        if (s.name == stage)
            return true;
    }
    return false;
}

SshEndpoint SshEndpoint::fromJson(const QJsonObject &o)
{
    SshEndpoint e;
    e.host = str(o, "host"_L1);
    e.port = int32(o, "port"_L1);
    e.user = str(o, "user"_L1);
    e.hostKeySha256 = str(o, "host_key_sha256"_L1);
    e.hostKey = str(o, "host_key"_L1);
    return e;
}

Retention Retention::fromJson(const QJsonObject &o)
{
    Retention r;
    r.stopKeeps = strings(o.value("stop_keeps"_L1));
    r.stopReleases = strings(o.value("stop_releases"_L1));
    r.terminateDeletes = strings(o.value("terminate_deletes"_L1));
    r.billedWhileRunning = strings(o.value("billed_while_running"_L1));
    r.billedWhileStopped = strings(o.value("billed_while_stopped"_L1));
    r.storagePricePerGibHourMicros = int64(o, "storage_price_per_gib_hour_micros"_L1);
    r.storageGib = int64(o, "storage_gib"_L1);
    r.storageRateMicrosPerHourWhenStopped =
        int64(o, "storage_rate_micros_per_hour_when_stopped"_L1);
    return r;
}

InstanceApp InstanceApp::fromJson(const QJsonObject &o)
{
    InstanceApp a;
    a.name = str(o, "name"_L1);
    a.port = int32(o, "port"_L1);
    if (const std::optional<qint64> hostPort = optInt64(o, "host_port"_L1))
        a.hostPort = int(*hostPort);
    a.url = str(o, "url"_L1);
    a.ready = o.value("ready"_L1).toBool();
    a.readyAt = parseTime(o.value("ready_at"_L1));
    return a;
}

InterruptionNotice InterruptionNotice::fromJson(const QJsonObject &o)
{
    InterruptionNotice n;
    n.instanceId = str(o, "instance_id"_L1);
    n.interruptionAt = parseTime(o.value("interruption_at"_L1));
    n.noticeSeconds = int32(o, "notice_seconds"_L1);
    n.reason = str(o, "reason"_L1);
    return n;
}

Instance Instance::fromJson(const QJsonObject &o)
{
    Instance i;
    i.id = str(o, "id"_L1);
    i.name = str(o, "name"_L1);
    i.stateText = str(o, "state"_L1);
    i.state = instanceStateFromString(i.stateText);
    i.stateReason = str(o, "state_reason"_L1);
    i.stopPolicy = StopPolicy::fromJson(o.value("stop_policy"_L1).toObject());
    i.plannedStop = PlannedStop::fromJson(o.value("planned_stop"_L1));
    i.gpuType = str(o, "gpu_type"_L1);
    i.gpuName = str(o, "gpu_name"_L1);
    i.gpuCount = int32(o, "gpu_count"_L1);
    for (const QJsonValue &card : o.value("gpu_cards"_L1).toArray())
        i.gpuCards.append(card.toInt());
    i.image = str(o, "image"_L1);
    i.sshKeyIds = strings(o.value("ssh_key_ids"_L1));
    i.pricePerHourMicros = int64(o, "price_per_hour_micros"_L1);
    i.costMicros = int64(o, "cost_micros"_L1);
    i.runningSince = parseTime(o.value("running_since"_L1));
    i.createdAt = parseTime(o.value("created_at"_L1));
    i.updatedAt = parseTime(o.value("updated_at"_L1));
    i.terminatedAt = parseTime(o.value("terminated_at"_L1));
    if (const QJsonValue ssh = o.value("ssh"_L1); ssh.isObject())
        i.ssh = SshEndpoint::fromJson(ssh.toObject());
    i.runtime = str(o, "runtime"_L1);
    i.launch = Launch::fromJson(o.value("launch"_L1).toObject());
    i.hardwareCheck = HardwareCheck::fromJson(o.value("hardware_check"_L1));
    i.retention = Retention::fromJson(o.value("retention"_L1).toObject());
    i.apps = listOf<InstanceApp>(o.value("apps"_L1));
    const QJsonObject resources = o.value("resources"_L1).toObject();
    i.cpus = resources.value("cpus"_L1).toDouble();
    i.memoryMib = int64(resources, "memory_mib"_L1);
    i.snapshotId = str(o, "snapshot_id"_L1);
    i.datasets = strings(o.value("datasets"_L1));
    i.models = strings(o.value("models"_L1));
    i.interruptible = str(o, "price_class"_L1) == "interruptible"_L1;
    i.interruptionAt = parseTime(o.value("interruption_at"_L1));
    i.restartWhenAvailable = o.value("restart_when_available"_L1).toBool();
    return i;
}

Snapshot Snapshot::fromJson(const QJsonObject &o)
{
    Snapshot s;
    s.id = str(o, "id"_L1);
    s.name = str(o, "name"_L1);
    s.state = str(o, "state"_L1);
    s.stateReason = str(o, "state_reason"_L1);
    s.instanceId = str(o, "instance_id"_L1);
    s.image = str(o, "image"_L1);
    s.gpuType = str(o, "gpu_type"_L1);
    s.gpuCount = int32(o, "gpu_count"_L1);
    s.sizeBytes = optInt64(o, "size_bytes"_L1);
    s.diskBytes = optInt64(o, "disk_bytes"_L1);
    s.workspaceBytes = optInt64(o, "workspace_bytes"_L1);
    s.storageRateMicrosPerHour = int64(o, "storage_rate_micros_per_hour"_L1);
    s.storageCostMicros = int64(o, "storage_cost_micros"_L1);
    s.createdAt = parseTime(o.value("created_at"_L1));
    s.readyAt = parseTime(o.value("ready_at"_L1));
    s.retention = SnapshotRetention::fromJson(o.value("retention"_L1).toObject());
    return s;
}

SnapshotRetention SnapshotRetention::fromJson(const QJsonObject &o)
{
    SnapshotRetention r;
    r.keeps = strings(o.value("keeps"_L1));
    r.doesNotKeep = strings(o.value("does_not_keep"_L1));
    r.survivesInstanceTerminate = o.value("survives_instance_terminate"_L1).toBool();
    r.billedWhileKept = strings(o.value("billed_while_kept"_L1));
    r.storageGib = int64(o, "storage_gib"_L1);
    r.storagePricePerGibHourMicros = int64(o, "storage_price_per_gib_hour_micros"_L1);
    r.storageRateMicrosPerHour = int64(o, "storage_rate_micros_per_hour"_L1);
    r.deletedWhenBalanceRunsOut = o.value("deleted_when_balance_runs_out"_L1).toBool();
    return r;
}

QJsonObject SnapshotRestore::toJson() const
{
    QJsonObject o{{u"snapshot_id"_s, snapshotId},
                  {u"ssh_key_ids"_s, QJsonArray::fromStringList(sshKeyIds)}};
    if (!name.isEmpty())
        o.insert(u"name"_s, name);
    if (!gpuType.isEmpty())
        o.insert(u"gpu_type"_s, gpuType);
    if (gpuCount > 0)
        o.insert(u"gpu_count"_s, gpuCount);
    return o;
}

BillingInstance BillingInstance::fromJson(const QJsonObject &o)
{
    BillingInstance b;
    b.instanceId = str(o, "instance_id"_L1);
    b.name = str(o, "name"_L1);
    b.state = instanceStateFromString(str(o, "state"_L1));
    b.pricePerHourMicros = int64(o, "price_per_hour_micros"_L1);
    b.spendRateMicrosPerHour = int64(o, "spend_rate_micros_per_hour"_L1);
    b.costMicros = int64(o, "cost_micros"_L1);
    return b;
}

BillingSummary BillingSummary::fromJson(const QJsonObject &o)
{
    BillingSummary s;
    s.balanceMicros = int64(o, "balance_micros"_L1);
    s.ledgerBalanceMicros = int64(o, "ledger_balance_micros"_L1);
    s.accruedMicros = int64(o, "accrued_micros"_L1);
    s.spendRateMicrosPerHour = int64(o, "spend_rate_micros_per_hour"_L1);
    s.runsOutAt = parseTime(o.value("runs_out_at"_L1));
    s.asOf = parseTime(o.value("as_of"_L1));
    s.instances = listOf<BillingInstance>(o.value("instances"_L1));
    return s;
}

LedgerEntry LedgerEntry::fromJson(const QJsonObject &o)
{
    return {str(o, "account"_L1), int64(o, "amount_micros"_L1)};
}

Posting Posting::fromJson(const QJsonObject &o)
{
    Posting p;
    p.seq = int64(o, "seq"_L1);
    p.id = str(o, "id"_L1);
    p.kind = str(o, "kind"_L1);
    p.amountMicros = int64(o, "amount_micros"_L1);
    p.balanceAfterMicros = int64(o, "balance_after_micros"_L1);
    p.instanceId = str(o, "instance_id"_L1);
    p.snapshotId = str(o, "snapshot_id"_L1);
    p.snapshotName = str(o, "snapshot_name"_L1);
    p.periodStart = parseTime(o.value("period_start"_L1));
    p.periodEnd = parseTime(o.value("period_end"_L1));
    p.rateMicrosPerHour = optInt64(o, "rate_micros_per_hour"_L1);
    p.description = str(o, "description"_L1);
    p.createdAt = parseTime(o.value("created_at"_L1));
    p.entries = listOf<LedgerEntry>(o.value("entries"_L1));
    return p;
}

LedgerPage LedgerPage::fromJson(const QJsonObject &o)
{
    LedgerPage page;
    page.postings = listOf<Posting>(o.value("postings"_L1));
    page.nextBefore = optInt64(o, "next_before"_L1);
    page.balanceMicros = int64(o, "balance_micros"_L1);
    return page;
}

TopupResult TopupResult::fromJson(const QJsonObject &o)
{
    return {Posting::fromJson(o.value("posting"_L1).toObject()), int64(o, "balance_micros"_L1)};
}

QJsonObject NewInstance::toJson() const
{
    QJsonObject o{{u"gpu_type"_s, gpuType}, {u"gpu_count"_s, gpuCount}, {u"image"_s, image}};
    if (!name.isEmpty())
        o.insert(u"name"_s, name);
    o.insert(u"ssh_key_ids"_s, QJsonArray::fromStringList(sshKeyIds));
    if (!datasets.isEmpty())
        o.insert(u"datasets"_s, QJsonArray::fromStringList(datasets));
    if (!models.isEmpty())
        o.insert(u"models"_s, QJsonArray::fromStringList(models));
    if (!stopPolicy.isEmpty())
        o.insert(u"stop_policy"_s, stopPolicy.toJson());
    if (interruptible)
        o.insert(u"price_class"_s, u"interruptible"_s);
    if (restartWhenAvailable)
        o.insert(u"restart_when_available"_s, true);
    return o;
}

GpuSample GpuSample::fromJson(const QJsonObject &o)
{
    GpuSample g;
    g.index = int32(o, "index"_L1);
    g.utilizationPct = number(o, "utilization_pct"_L1);
    g.memoryUsedMib = number(o, "memory_used_mib"_L1);
    g.memoryTotalMib = int64(o, "memory_total_mib"_L1);
    g.temperatureC = number(o, "temperature_c"_L1);
    g.powerW = number(o, "power_w"_L1);
    return g;
}

MetricsSample MetricsSample::fromJson(const QJsonObject &o)
{
    MetricsSample m;
    m.instanceId = str(o, "instance_id"_L1);
    m.at = parseTime(o.value("at"_L1));
    m.cpuPercent = optNumber(o, "cpu_percent"_L1);
    m.memoryMib = optNumber(o, "memory_mib"_L1);
    const QJsonArray gpus = o.value("gpus"_L1).toArray();
    for (const QJsonValue &v : gpus)
        m.gpus.append(GpuSample::fromJson(v.toObject()));
    return m;
}

InstanceMetrics InstanceMetrics::fromJson(const QJsonObject &o)
{
    InstanceMetrics m;
    m.instanceId = str(o, "instance_id"_L1);
    m.stepSeconds = qMax(1, int32(o, "step_seconds"_L1, 1));
    m.simulated = o.value("simulated"_L1).toBool();
    const QJsonArray samples = o.value("samples"_L1).toArray();
    for (const QJsonValue &v : samples)
        m.samples.append(MetricsSample::fromJson(v.toObject()));
    return m;
}

} // namespace cardhour::core
