// The JSON model structs: the provider's documented shape, and leniency towards what a newer
// (or broken) provider might send.
#include "api/ApiError.h"
#include "api/Models.h"

#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

// Declared before the JSON below: moc cannot read past raw string literals with braces.
class TestModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void instanceFull();
    void instanceLenient();
    void states_data();
    void states();
    void times_data();
    void times();
    void billingSummary();
    void ledgerPage();
    void metrics();
    void newInstanceJson();
    void dataset();
    void storageBeforeAndAfterLaunch();
    void errorMessages_data();
    void errorMessages();
};

namespace {

QJsonObject object(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// An instance as the provider sends it under podman (every member present).
const QByteArray kInstance = R"({
  "id": "6961199f-4009-4f7b-b261-70af3bb737f6", "name": "train-1", "state": "running",
  "state_reason": null, "gpu_type": "rtx4090", "gpu_name": "NVIDIA GeForce RTX 4090",
  "gpu_count": 2, "image": "jupyter", "ssh_key_ids": ["k1", "k2"],
  "price_per_hour_micros": 3800000, "cost_micros": 123456,
  "running_since": "2026-11-30T12:00:00.000Z", "created_at": "2026-11-30T11:59:50.000Z",
  "updated_at": "2026-11-30T12:00:00.000Z", "terminated_at": null,
  "ssh": {"host": "127.0.0.1", "port": 40022, "user": "root",
          "host_key_sha256": "SHA256:abc", "host_key": "ssh-ed25519 AAAA"},
  "runtime": "podman",
  "launch": {"requested_at": "2026-11-30T11:59:50.000Z",
             "stages": [{"name": "image", "at": "2026-11-30T11:59:51.000Z"},
                        {"name": "container", "at": "2026-11-30T11:59:55.000Z"},
                        {"name": "sshd", "at": "2026-11-30T11:59:58.000Z"},
                        {"name": "ready", "at": "2026-11-30T12:00:00.000Z"},
                        {"name": "app:jupyter", "at": "2026-11-30T12:00:04.000Z"}],
             "ready_ms": 10000},
  "retention": {"stop_keeps": ["workspace_volume", "host_key"], "stop_releases": ["gpu_cards"],
                "terminate_deletes": ["workspace_volume"], "billed_while_running": ["compute"],
                "billed_while_stopped": ["storage"], "storage_price_per_gib_hour_micros": 200,
                "storage_gib": 50, "storage_rate_micros_per_hour_when_stopped": 10000},
  "gpu_cards": [0, 3],
  "apps": [{"name": "jupyter", "port": 8888, "host_port": 41000, "url": "http://127.0.0.1:41000/?token=t",
            "ready": true, "ready_at": "2026-11-30T12:00:04.000Z"}],
  "resources": {"cpus": 8.5, "memory_mib": 65536}
})";

} // namespace

void TestModels::instanceFull()
{
    const Instance i = Instance::fromJson(object(kInstance));
    QCOMPARE(i.id, u"6961199f-4009-4f7b-b261-70af3bb737f6"_s);
    QCOMPARE(i.state, InstanceState::Running);
    QVERIFY(i.isBilled());
    QVERIFY(i.stateReason.isEmpty());
    QCOMPARE(i.gpuCount, 2);
    QCOMPARE(i.sshKeyIds, (QStringList{u"k1"_s, u"k2"_s}));
    QCOMPARE(i.pricePerHourMicros, 3'800'000);
    QCOMPARE(i.costMicros, 123'456);
    QCOMPARE(i.runningSince, QDateTime(QDate(2026, 11, 30), QTime(12, 0), QTimeZone::utc()));
    QVERIFY(!i.terminatedAt.isValid());
    QVERIFY(i.ssh.has_value());
    QCOMPARE(i.ssh->port, 40022);
    QCOMPARE(i.ssh->hostKeySha256, u"SHA256:abc"_s);
    QCOMPARE(i.launch.stages.size(), 5);
    QCOMPARE(i.launch.stages.at(4).name, u"app:jupyter"_s);
    QCOMPARE(i.launch.stages.at(2).name, u"sshd"_s);
    QVERIFY(i.launch.reached(u"ready"_s));
    QCOMPARE(i.launch.readyMs.value_or(-1), 10000);
    QVERIFY(i.retention.stopKeeps.contains(u"host_key"_s));
    QCOMPARE(i.retention.stopReleases, QStringList{u"gpu_cards"_s});
    QCOMPARE(i.apps.size(), 1);
    QCOMPARE(i.apps.first().hostPort.value_or(-1), 41000);
    QVERIFY(i.apps.first().ready);
    QCOMPARE(i.apps.first().readyAt,
             QDateTime(QDate(2026, 11, 30), QTime(12, 0, 4), QTimeZone::utc()));
    QCOMPARE(i.retention.storageGib, 50);
    QCOMPARE(i.retention.storageRateMicrosPerHourWhenStopped, 10'000);
    QCOMPARE(i.gpuCards, (QList<int>{0, 3}));
    QCOMPARE(i.cpus, 8.5);
    QCOMPARE(i.memoryMib, 65536);
}

void TestModels::instanceLenient()
{
    // Unknown members, nulls where values were expected, numbers as strings, a missing launch:
    // each costs only its own field.
    const Instance i = Instance::fromJson(object(R"({
        "id": "x", "state": "hibernating", "future_field": {"a": 1}, "gpu_count": null,
        "cost_micros": "42", "ssh": null, "launch": null,
        "apps": [{"name": "web", "port": 80, "host_port": null, "url": null}, 7]
    })"_ba));
    QCOMPARE(i.id, u"x"_s);
    QCOMPARE(i.state, InstanceState::Unknown);
    QCOMPARE(i.stateText, u"hibernating"_s);
    QCOMPARE(i.gpuCount, 0);
    QCOMPARE(i.costMicros, 42);
    QVERIFY(!i.ssh.has_value());
    QVERIFY(i.launch.stages.isEmpty());
    QVERIFY(!i.launch.readyMs.has_value());
    QCOMPARE(i.apps.size(), 1);
    QVERIFY(!i.apps.first().hostPort.has_value());
    QVERIFY(i.apps.first().url.isEmpty());
    QVERIFY(!i.apps.first().ready); // missing: not answering
    QVERIFY(!i.apps.first().readyAt.isValid());
}

void TestModels::states_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<InstanceState>("state");
    QTest::newRow("creating") << u"creating"_s << InstanceState::Creating;
    QTest::newRow("starting") << u"starting"_s << InstanceState::Starting;
    QTest::newRow("running") << u"running"_s << InstanceState::Running;
    QTest::newRow("stopping") << u"stopping"_s << InstanceState::Stopping;
    QTest::newRow("stopped") << u"stopped"_s << InstanceState::Stopped;
    QTest::newRow("terminated") << u"terminated"_s << InstanceState::Terminated;
    QTest::newRow("failed") << u"failed"_s << InstanceState::Failed;
}

void TestModels::states()
{
    QFETCH(QString, text);
    QFETCH(InstanceState, state);
    QCOMPARE(instanceStateFromString(text), state);
    QCOMPARE(instanceStateToString(state), text);
}

void TestModels::times_data()
{
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<qint64>("ms"); // -1: invalid
    QTest::newRow("provider form") << QJsonValue(u"1970-01-01T00:00:01.500Z"_s) << qint64(1500);
    QTest::newRow("offset") << QJsonValue(u"1970-01-01T01:00:00.000+01:00"_s) << qint64(0);
    QTest::newRow("null") << QJsonValue(QJsonValue::Null) << qint64(-1);
    QTest::newRow("garbage") << QJsonValue(u"yesterday"_s) << qint64(-1);
    QTest::newRow("number") << QJsonValue(12) << qint64(-1);
}

void TestModels::times()
{
    QFETCH(QJsonValue, value);
    QFETCH(qint64, ms);
    const QDateTime t = parseTime(value);
    QCOMPARE(t.isValid() ? t.toMSecsSinceEpoch() : -1, ms);
    if (t.isValid())
        QCOMPARE(t.timeSpec(), Qt::UTC);
}

void TestModels::billingSummary()
{
    const BillingSummary s = BillingSummary::fromJson(object(R"({
        "balance_micros": 9050000, "ledger_balance_micros": 10000000, "accrued_micros": 950000,
        "spend_rate_micros_per_hour": 1900000, "runs_out_at": "2026-11-30T17:45:47.368Z",
        "as_of": "2026-11-30T13:00:00.000Z",
        "instances": [{"instance_id": "i", "name": "n", "state": "running", "price_per_hour_micros": 1900000,
                       "spend_rate_micros_per_hour": 1900000, "cost_micros": 950000}]
    })"_ba));
    QCOMPARE(s.balanceMicros, 9'050'000);
    QCOMPARE(s.ledgerBalanceMicros, 10'000'000);
    QCOMPARE(s.accruedMicros, 950'000);
    QCOMPARE(s.spendRateMicrosPerHour, 1'900'000);
    QVERIFY(s.runsOutAt.isValid());
    QVERIFY(s.asOf < s.runsOutAt);
    QCOMPARE(s.instances.size(), 1);
    QCOMPARE(s.instances.first().state, InstanceState::Running);

    // The SSE `billing` event: the same without instances, runs_out_at null when idle.
    const BillingSummary idle =
        BillingSummary::fromJson(object(R"({"balance_micros": 5, "runs_out_at": null})"_ba));
    QCOMPARE(idle.balanceMicros, 5);
    QVERIFY(!idle.runsOutAt.isValid());
    QVERIFY(idle.instances.isEmpty());
}

void TestModels::metrics()
{
    // GET /v1/instances/{id}/metrics
    const InstanceMetrics m = InstanceMetrics::fromJson(object(R"({
        "instance_id": "i", "step_seconds": 5, "simulated": true,
        "samples": [{"at": "2026-11-30T12:00:00.000Z", "cpu_percent": null, "memory_mib": null, "gpus": []},
                    {"at": "2026-11-30T12:00:05.000Z", "cpu_percent": 150.5, "memory_mib": 2048,
                     "gpus": [{"index": 0, "utilization_pct": 75.2, "memory_used_mib": 1024.5,
                               "memory_total_mib": 24564, "temperature_c": 61.5, "power_w": 310}]}]
    })"_ba));
    QCOMPARE(m.instanceId, u"i"_s);
    QCOMPARE(m.stepSeconds, 5);
    QVERIFY(m.simulated);
    QCOMPARE(m.samples.size(), 2);
    QVERIFY(!m.samples.first().cpuPercent.has_value()); // null until two readings exist
    const MetricsSample &s = m.samples.last();
    QCOMPARE(s.at.toMSecsSinceEpoch() - m.samples.first().at.toMSecsSinceEpoch(), 5000);
    QCOMPARE(s.cpuPercent.value_or(-1), 150.5);
    QCOMPARE(s.memoryMib.value_or(-1), 2048.0);
    QCOMPARE(s.gpus.size(), 1);
    QCOMPARE(s.gpus.first().utilizationPct, 75.2);
    QCOMPARE(s.gpus.first().memoryTotalMib, 24564);
    QCOMPARE(s.gpus.first().powerW, 310.0);

    // The SSE `metrics` event: one sample with the instance's id.
    const MetricsSample live =
        MetricsSample::fromJson(object(R"({"instance_id": "j", "at": "2026-11-30T12:00:06.000Z",
        "cpu_percent": 12, "memory_mib": 100, "gpus": [{"index": 1, "utilization_pct": 3}]})"_ba));
    QCOMPARE(live.instanceId, u"j"_s);
    QCOMPARE(live.gpus.first().index, 1);
    QCOMPARE(live.gpus.first().temperatureC, 0.0); // missing: the default
}

void TestModels::ledgerPage()
{
    const LedgerPage page = LedgerPage::fromJson(object(R"({
        "postings": [{"seq": 7, "id": "p", "kind": "compute", "amount_micros": -950000,
                      "balance_after_micros": 9050000, "instance_id": "i",
                      "period_start": "2026-11-30T12:00:00.000Z", "period_end": "2026-11-30T12:30:00.000Z",
                      "rate_micros_per_hour": 1900000, "description": "d", "created_at": "2026-11-30T12:30:00.000Z",
                      "entries": [{"account": "user", "amount_micros": -950000},
                                  {"account": "revenue:compute", "amount_micros": 950000}]},
                     {"seq": 1, "kind": "trial_credit", "amount_micros": 10000000, "rate_micros_per_hour": null,
                      "instance_id": null, "period_start": null, "entries": []}],
        "next_before": null, "balance_micros": 9050000
    })"_ba));
    QCOMPARE(page.postings.size(), 2);
    const Posting &compute = page.postings.first();
    QCOMPARE(compute.amountMicros, -950'000);
    QCOMPARE(compute.rateMicrosPerHour.value_or(-1), 1'900'000);
    QCOMPARE(compute.periodStart.msecsTo(compute.periodEnd), 1'800'000);
    QCOMPARE(compute.entries.size(), 2);
    QCOMPARE(compute.entries.at(1).account, u"revenue:compute"_s);
    const Posting &trial = page.postings.at(1);
    QVERIFY(!trial.rateMicrosPerHour.has_value());
    QVERIFY(trial.instanceId.isEmpty());
    QVERIFY(!page.nextBefore.has_value());
    QCOMPARE(page.balanceMicros, 9'050'000);
}

void TestModels::newInstanceJson()
{
    NewInstance request;
    request.gpuType = u"rtx4090"_s;
    request.image = u"base"_s;
    QJsonObject json = request.toJson();
    QVERIFY(!json.contains(u"name"_s)); // empty name: let the provider choose one
    QCOMPARE(json.value(u"gpu_count"_s).toInt(), 1);
    QCOMPARE(json.value(u"ssh_key_ids"_s).toArray().size(), 0);
    request.name = u"train"_s;
    request.sshKeyIds = {u"k"_s};
    json = request.toJson();
    QCOMPARE(json.value(u"name"_s).toString(), u"train"_s);
    QCOMPARE(json.value(u"ssh_key_ids"_s).toArray().first().toString(), u"k"_s);
    QVERIFY(!json.contains(u"datasets"_s)); // none asked for: the field is not sent
    request.datasets = {u"imagenet"_s};
    QCOMPARE(request.toJson().value(u"datasets"_s).toArray(), QJsonArray({u"imagenet"_s}));
}

void TestModels::dataset()
{
    const Dataset d =
        Dataset::fromJson(QJsonObject{{u"name"_s, u"imagenet"_s},
                                      {u"mount_path"_s, u"/datasets/imagenet"_s},
                                      {u"size_bytes"_s, 5'000'000'000.0},
                                      {u"files"_s, 1200},
                                      {u"available"_s, true},
                                      {u"added_at"_s, u"2026-11-30T12:00:00.000Z"_s}});
    QCOMPARE(d.name, u"imagenet"_s);
    QCOMPARE(d.mountPath, u"/datasets/imagenet"_s);
    QCOMPARE(d.sizeBytes, 5'000'000'000);
    QCOMPARE(d.files, 1200);
    QVERIFY(d.available);
    QCOMPARE(d.addedAt, QDateTime(QDate(2026, 11, 30), QTime(12, 0), QTimeZone::utc()));
    const Instance i = Instance::fromJson(
        QJsonObject{{u"id"_s, u"i"_s}, {u"datasets"_s, QJsonArray{u"imagenet"_s}}});
    QCOMPARE(i.datasets, QStringList{u"imagenet"_s});
}

void TestModels::storageBeforeAndAfterLaunch()
{
    // Before launch the catalog states a type's disk and its storage price; after, retention.
    const GpuType g = GpuType::fromJson(object(R"({
        "id": "rtx4090", "disk_gib": 50, "storage_price_per_gib_hour_micros": 200,
        "storage_rate_micros_per_hour_when_stopped": 10000})"_ba));
    QCOMPARE(g.diskGib, 50);
    QCOMPARE(g.storagePricePerGibHourMicros, 200);
    QCOMPARE(g.storageRateMicrosPerHourWhenStopped, 10'000);
    const Retention r = Retention::fromJson(object(R"({
        "billed_while_stopped": ["storage"], "storage_gib": 200,
        "storage_price_per_gib_hour_micros": 200,
        "storage_rate_micros_per_hour_when_stopped": 40000})"_ba));
    QCOMPARE(r.storageGib, 200);
    QCOMPARE(r.storageRateMicrosPerHourWhenStopped, 40'000);
}

void TestModels::errorMessages_data()
{
    QTest::addColumn<ApiError>("error");
    QTest::addColumn<QString>("contains");
    QTest::newRow("known code") << ApiError::http(401, u"invalid_credentials"_s, u"nope"_s)
                                << u"password"_s;
    QTest::newRow("unknown code: provider text")
        << ApiError::http(418, u"teapot"_s, u"I am a teapot"_s) << u"I am a teapot"_s;
    QTest::newRow("no body") << ApiError::http(502, {}, {}) << u"502"_s;
    QTest::newRow("network") << ApiError::network(u"Connection refused"_s)
                             << u"Connection refused"_s;
}

void TestModels::errorMessages()
{
    QFETCH(ApiError, error);
    QFETCH(QString, contains);
    QVERIFY2(error.userMessage().contains(contains), qPrintable(error.userMessage()));
    QVERIFY(!error.describe().isEmpty());
}

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
