#include "ModelJson.h"

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

QJsonValue ModelJson::time(const QDateTime &t)
{
    if (!t.isValid())
        return QJsonValue::Null;
    return t.toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject ModelJson::toJson(const GpuType &gpu)
{
    return {{u"id"_s, gpu.id},
            {u"name"_s, gpu.name},
            {u"description"_s, gpu.description},
            {u"vram_mib"_s, gpu.vramMib},
            {u"price_per_hour_micros"_s, gpu.pricePerHourMicros},
            {u"interruptible_price_per_hour_micros"_s, gpu.interruptiblePricePerHourMicros},
            {u"interruption_notice_seconds"_s, gpu.interruptionNoticeSeconds},
            {u"capacity"_s, gpu.capacity},
            {u"available"_s, gpu.available},
            {u"simulated"_s, gpu.simulated},
            {u"cpus_per_card"_s, gpu.cpusPerCard},
            {u"memory_mib_per_card"_s, gpu.memoryMibPerCard},
            {u"slice"_s,
             gpu.isSlice()
                 ? QJsonValue(QJsonObject{{u"of"_s, gpu.sliceOf},
                                          {u"profile"_s, gpu.migProfile},
                                          {u"compute_slices"_s, gpu.computeSlices},
                                          {u"memory_slices"_s, gpu.memorySlices},
                                          {u"card_compute_slices"_s, gpu.cardComputeSlices},
                                          {u"card_memory_slices"_s, gpu.cardMemorySlices}})
                 : QJsonValue()}};
}

QJsonObject ModelJson::toJson(const Image &image)
{
    QJsonArray apps;
    for (const ImageApp &app : image.apps)
        apps.append(QJsonObject{
            {u"name"_s, app.name}, {u"port"_s, app.port}, {u"protocol"_s, app.protocol}});
    return {
        {u"id"_s, image.id}, {u"name"_s, image.name},        {u"description"_s, image.description},
        {u"os"_s, image.os}, {u"ssh_user"_s, image.sshUser}, {u"apps"_s, apps}};
}

QJsonObject ModelJson::toJson(const Dataset &dataset)
{
    return {{u"name"_s, dataset.name},
            {u"mount_path"_s, dataset.mountPath},
            {u"size_bytes"_s, dataset.sizeBytes},
            {u"files"_s, dataset.files},
            {u"available"_s, dataset.available},
            {u"added_at"_s, time(dataset.addedAt)}};
}

QJsonObject ModelJson::toJson(const SshKey &key)
{
    return {{u"id"_s, key.id},
            {u"name"_s, key.name},
            {u"public_key"_s, key.publicKey},
            {u"type"_s, key.type},
            {u"bits"_s, key.bits},
            {u"fingerprint_sha256"_s, key.fingerprintSha256},
            {u"created_at"_s, time(key.createdAt)}};
}

QJsonObject ModelJson::toJson(const Account &account)
{
    return {{u"id"_s, account.id},
            {u"email"_s, account.email},
            {u"created_at"_s, time(account.createdAt)},
            {u"balance_micros"_s, account.balanceMicros},
            {u"spend_rate_micros_per_hour"_s, account.spendRateMicrosPerHour}};
}

QJsonObject ModelJson::toJson(const Retention &retention)
{
    return {{u"stop_keeps"_s, QJsonArray::fromStringList(retention.stopKeeps)},
            {u"stop_releases"_s, QJsonArray::fromStringList(retention.stopReleases)},
            {u"terminate_deletes"_s, QJsonArray::fromStringList(retention.terminateDeletes)},
            {u"billed_while_running"_s, QJsonArray::fromStringList(retention.billedWhileRunning)},
            {u"billed_while_stopped"_s, QJsonArray::fromStringList(retention.billedWhileStopped)},
            {u"storage_price_per_gib_hour_micros"_s, retention.storagePricePerGibHourMicros}};
}

QJsonObject ModelJson::toJson(const Instance &instance)
{
    QJsonObject o{{u"id"_s, instance.id},
                  {u"name"_s, instance.name},
                  {u"state"_s, instance.stateText},
                  {u"state_reason"_s,
                   instance.stateReason.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                  : QJsonValue(instance.stateReason)},
                  {u"gpu_type"_s, instance.gpuType},
                  {u"gpu_name"_s, instance.gpuName},
                  {u"gpu_count"_s, instance.gpuCount},
                  {u"image"_s, instance.image},
                  {u"ssh_key_ids"_s, QJsonArray::fromStringList(instance.sshKeyIds)},
                  {u"datasets"_s, QJsonArray::fromStringList(instance.datasets)},
                  {u"models"_s, QJsonArray::fromStringList(instance.models)},
                  {u"price_per_hour_micros"_s, instance.pricePerHourMicros},
                  {u"price_class"_s, instance.interruptible ? u"interruptible"_s : u"on_demand"_s},
                  {u"interruption_at"_s, time(instance.interruptionAt)},
                  {u"restart_when_available"_s, instance.restartWhenAvailable},
                  {u"cost_micros"_s, instance.costMicros},
                  {u"running_since"_s, time(instance.runningSince)},
                  {u"created_at"_s, time(instance.createdAt)},
                  {u"updated_at"_s, time(instance.updatedAt)},
                  {u"terminated_at"_s, time(instance.terminatedAt)},
                  {u"runtime"_s, instance.runtime},
                  {u"retention"_s, toJson(instance.retention)},
                  {u"resources"_s,
                   QJsonObject{{u"cpus"_s, instance.cpus}, {u"memory_mib"_s, instance.memoryMib}}}};
    if (instance.ssh) {
        o.insert(u"ssh"_s,
                 QJsonObject{{u"host"_s, instance.ssh->host},
                             {u"port"_s, instance.ssh->port},
                             {u"user"_s, instance.ssh->user},
                             {u"host_key_sha256"_s, instance.ssh->hostKeySha256},
                             {u"host_key"_s, instance.ssh->hostKey}});
    } else {
        o.insert(u"ssh"_s, QJsonValue::Null);
    }
    QJsonArray stages;
    for (const LaunchStage &stage : instance.launch.stages)
        stages.append(QJsonObject{{u"name"_s, stage.name}, {u"at"_s, time(stage.at)}});
    o.insert(u"launch"_s,
             QJsonObject{{u"requested_at"_s, time(instance.launch.requestedAt)},
                         {u"stages"_s, stages},
                         {u"ready_ms"_s,
                          instance.launch.readyMs ? QJsonValue(*instance.launch.readyMs)
                                                  : QJsonValue(QJsonValue::Null)}});
    if (const std::optional<HardwareCheck> &check = instance.hardwareCheck) {
        const auto optional = [](const auto &value) {
            return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
        };
        QJsonArray cards;
        for (const HardwareCheck::Card &card : check->foundCards)
            cards.append(QJsonObject{{u"name"_s, card.name}, {u"vram_mib"_s, card.vramMib}});
        o.insert(
            u"hardware_check"_s,
            QJsonObject{{u"status"_s, check->passed ? u"passed"_s : u"failed"_s},
                        {u"checked_at"_s, time(check->checkedAt)},
                        {u"differences"_s, QJsonArray::fromStringList(check->differences)},
                        {u"ordered"_s,
                         QJsonObject{{u"gpu_count"_s, check->orderedGpuCount},
                                     {u"gpu_name"_s, check->orderedGpuName},
                                     {u"vram_mib"_s, check->orderedVramMib},
                                     {u"cpus"_s, check->orderedCpus},
                                     {u"memory_mib"_s, check->orderedMemoryMib},
                                     {u"disk_gib"_s, check->orderedDiskGib}}},
                        {u"found"_s,
                         QJsonObject{{u"gpu_count"_s, optional(check->foundGpuCount)},
                                     {u"gpus"_s, cards},
                                     {u"cpus"_s, optional(check->foundCpus)},
                                     {u"memory_mib"_s, optional(check->foundMemoryMib)},
                                     {u"memory_limited"_s, check->foundMemoryMib.has_value()},
                                     {u"workspace_bytes"_s, optional(check->foundWorkspaceBytes)},
                                     {u"workspace_bounded"_s, check->workspaceBounded}}}});
    } else {
        o.insert(u"hardware_check"_s, QJsonValue::Null);
    }
    QJsonArray apps;
    for (const InstanceApp &app : instance.apps) {
        apps.append(QJsonObject{{u"name"_s, app.name},
                                {u"port"_s, app.port},
                                {u"url"_s, app.url.isEmpty() ? QJsonValue() : QJsonValue(app.url)},
                                {u"ready"_s, app.ready},
                                {u"ready_at"_s, time(app.readyAt)}});
    }
    o.insert(u"apps"_s, apps);
    o.insert(u"snapshot_id"_s,
             instance.snapshotId.isEmpty() ? QJsonValue(QJsonValue::Null)
                                           : QJsonValue(instance.snapshotId));
    return o;
}

QJsonObject ModelJson::toJson(const BillingSummary &summary)
{
    QJsonArray instances;
    for (const BillingInstance &i : summary.instances) {
        instances.append(QJsonObject{{u"instance_id"_s, i.instanceId},
                                     {u"name"_s, i.name},
                                     {u"state"_s, instanceStateToString(i.state)},
                                     {u"price_per_hour_micros"_s, i.pricePerHourMicros},
                                     {u"spend_rate_micros_per_hour"_s, i.spendRateMicrosPerHour},
                                     {u"cost_micros"_s, i.costMicros}});
    }
    return {{u"balance_micros"_s, summary.balanceMicros},
            {u"ledger_balance_micros"_s, summary.ledgerBalanceMicros},
            {u"accrued_micros"_s, summary.accruedMicros},
            {u"spend_rate_micros_per_hour"_s, summary.spendRateMicrosPerHour},
            {u"runs_out_at"_s, time(summary.runsOutAt)},
            {u"as_of"_s, time(summary.asOf)},
            {u"instances"_s, instances}};
}

QJsonObject ModelJson::toJson(const Posting &posting)
{
    QJsonArray entries;
    for (const LedgerEntry &entry : posting.entries)
        entries.append(
            QJsonObject{{u"account"_s, entry.account}, {u"amount_micros"_s, entry.amountMicros}});
    const auto orNull = [](const QString &text) {
        return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
    };
    return {{u"seq"_s, posting.seq},
            {u"id"_s, posting.id},
            {u"kind"_s, posting.kind},
            {u"amount_micros"_s, posting.amountMicros},
            {u"balance_after_micros"_s, posting.balanceAfterMicros},
            {u"instance_id"_s, orNull(posting.instanceId)},
            {u"period_start"_s, time(posting.periodStart)},
            {u"period_end"_s, time(posting.periodEnd)},
            {u"rate_micros_per_hour"_s,
             posting.rateMicrosPerHour ? QJsonValue(*posting.rateMicrosPerHour)
                                       : QJsonValue(QJsonValue::Null)},
            {u"description"_s, posting.description},
            {u"created_at"_s, time(posting.createdAt)},
            {u"entries"_s, entries}};
}

QJsonObject ModelJson::toJson(const TopupResult &result)
{
    return {{u"posting"_s, toJson(result.posting)}, {u"balance_micros"_s, result.balanceMicros}};
}

namespace {

QJsonValue optionalBytes(const std::optional<qint64> &bytes)
{
    return bytes ? QJsonValue(*bytes) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject ModelJson::toJson(const SnapshotRetention &retention)
{
    return {{u"keeps"_s, QJsonArray::fromStringList(retention.keeps)},
            {u"does_not_keep"_s, QJsonArray::fromStringList(retention.doesNotKeep)},
            {u"survives_instance_terminate"_s, retention.survivesInstanceTerminate},
            {u"billed_while_kept"_s, QJsonArray::fromStringList(retention.billedWhileKept)},
            {u"storage_gib"_s, retention.storageGib},
            {u"storage_price_per_gib_hour_micros"_s, retention.storagePricePerGibHourMicros},
            {u"storage_rate_micros_per_hour"_s, retention.storageRateMicrosPerHour},
            {u"deleted_when_balance_runs_out"_s, retention.deletedWhenBalanceRunsOut}};
}

QJsonObject ModelJson::toJson(const Snapshot &snapshot)
{
    return {{u"id"_s, snapshot.id},
            {u"name"_s, snapshot.name},
            {u"state"_s, snapshot.state},
            {u"state_reason"_s,
             snapshot.stateReason.isEmpty() ? QJsonValue() : QJsonValue(snapshot.stateReason)},
            {u"instance_id"_s, snapshot.instanceId},
            {u"image"_s, snapshot.image},
            {u"gpu_type"_s, snapshot.gpuType},
            {u"gpu_count"_s, snapshot.gpuCount},
            {u"size_bytes"_s, optionalBytes(snapshot.sizeBytes)},
            {u"disk_bytes"_s, optionalBytes(snapshot.diskBytes)},
            {u"workspace_bytes"_s, optionalBytes(snapshot.workspaceBytes)},
            {u"storage_rate_micros_per_hour"_s, snapshot.storageRateMicrosPerHour},
            {u"storage_cost_micros"_s, snapshot.storageCostMicros},
            {u"created_at"_s, time(snapshot.createdAt)},
            {u"ready_at"_s, time(snapshot.readyAt)},
            {u"retention"_s, toJson(snapshot.retention)}};
}

QJsonObject ModelJson::toJson(const ChaosFault &fault)
{
    const auto orNull = [](const QString &text) {
        return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
    };
    const bool failLaunch = fault.kind == u"fail_launch"_s;
    const bool slow = fault.kind == u"slow_api"_s;
    return {{u"id"_s, fault.id},
            {u"kind"_s, fault.kind},
            {u"state"_s, fault.state},
            {u"instance_id"_s, orNull(fault.instanceId)},
            {u"created_at"_s, time(fault.createdAt)},
            {u"fired_at"_s, time(fault.firedAt)},
            {u"detail"_s, fault.detail},
            {u"reason"_s, failLaunch ? QJsonValue(fault.reason) : QJsonValue()},
            {u"failed_instance_id"_s, orNull(fault.failedInstanceId)},
            {u"delay_ms"_s, slow ? QJsonValue(fault.delayMs) : QJsonValue()},
            {u"duration_s"_s, slow ? QJsonValue(fault.durationS) : QJsonValue()},
            {u"expires_at"_s, slow ? time(fault.expiresAt) : QJsonValue()}};
}

QJsonObject ModelJson::toJson(const LibraryModel &model)
{
    const auto orNull = [](const QString &text) {
        return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
    };
    return {{u"id"_s, model.id},
            {u"name"_s, model.name},
            {u"visibility"_s, model.isPrivate ? u"private"_s : u"public"_s},
            {u"task"_s, model.task},
            {u"languages"_s, QJsonArray::fromStringList(model.languages)},
            {u"licence"_s, orNull(model.licence)},
            {u"source_package"_s, orNull(model.sourcePackage)},
            {u"description"_s, model.description},
            {u"file_name"_s, orNull(model.fileName)},
            {u"mount_path"_s, model.mountPath},
            {u"size_bytes"_s, model.sizeBytes},
            {u"files"_s, model.files},
            {u"sha256"_s, model.sha256},
            {u"available"_s, model.available},
            {u"added_at"_s, time(model.addedAt)},
            {u"storage_rate_micros_per_hour"_s, optionalBytes(model.storageRatePerHourMicros)},
            {u"storage_cost_micros"_s, optionalBytes(model.storageCostMicros)}};
}

} // namespace cardhour::ctl
