// Simulated GPUs and shared datasets end to end, with real containers: a 2-card instance's
// nvidia-smi prints two cards of its type, real CPU work in the box raises the reported
// utilisation and it falls when the work stops, the metrics endpoint and the event stream carry
// the same numbers; a dataset is seen read-only by two instances at once.
#include "PodmanApiTest.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiGpus : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void simulatedCardsFollowRealLoad();
    void datasetSharedReadOnly();

private:
    // The newest sample of the instance's metrics (empty when none yet).
    QJsonObject latestSample(SimProcess &sim, const QString &token, const QString &id);
};

QJsonObject TestApiGpus::latestSample(SimProcess &sim, const QString &token, const QString &id)
{
    const Reply r =
        sim.authedGet(token, u"/v1/instances/%1/metrics?since=2000-01-01T00:00:00Z"_s.arg(id));
    const QJsonArray samples = r.value(u"samples"_s).toArray();
    return samples.isEmpty() ? QJsonObject() : samples.last().toObject();
}

namespace {
double meanUtilization(const QJsonObject &sample)
{
    const QJsonArray gpus = sample.value(u"gpus"_s).toArray();
    double sum = 0;
    for (const QJsonValue &gpu : gpus)
        sum += gpu.toObject().value(u"utilization_pct"_s).toDouble();
    return gpus.isEmpty() ? -1 : sum / gpus.size();
}
} // namespace

void TestApiGpus::simulatedCardsFollowRealLoad()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"gpus@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"gpus"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    SseClient events;
    QVERIFY(events.open(sim->port(), token));
    const QString id = create(*sim, token, {keyId}, QJsonObject{{u"gpu_count"_s, 2}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    const QString knownHosts = knownHostsFor(running);

    // ---- nvidia-smi inside: two cards of the type rented, marked simulated
    Cmd list = ssh(running, knownHosts, key, u"nvidia-smi -L"_s);
    QVERIFY2(list.ok(), qPrintable(list.describe()));
    const QStringList lines = QString::fromUtf8(list.out).trimmed().split(u'\n');
    QCOMPARE(lines.size(), 2);
    for (int i = 0; i < 2; ++i) {
        QVERIFY2(
            lines.at(i).startsWith(u"GPU %1: NVIDIA GeForce RTX 4090 (UUID: GPU-sim-"_s.arg(i)),
            qPrintable(lines.at(i)));
    }
    const Cmd table = ssh(running, knownHosts, key, u"nvidia-smi"_s);
    QVERIFY2(table.ok(), qPrintable(table.describe()));
    QVERIFY2(table.out.contains("SIMULATED") && table.out.contains("24564MiB"),
             table.out.constData());

    // ---- idle first: two readings are needed for CPU %, and nothing runs
    QTRY_VERIFY_WITH_TIMEOUT(latestSample(*sim, token, id).value(u"cpu_percent"_s).isDouble(),
                             15000);
    QTRY_VERIFY_WITH_TIMEOUT(meanUtilization(latestSample(*sim, token, id)) < 20, 15000);

    // ---- real work in the box: busy loops on every CPU it has, for at most a minute
    const Cmd burn = ssh(
        running, knownHosts, key,
        u"for i in $(seq $(( $(nproc) * 2 ))); do setsid timeout 60 sh -c 'while :; do :; done' "
        "</dev/null >/dev/null 2>&1 & done; echo started"_s);
    QVERIFY2(burn.ok(), qPrintable(burn.describe()));
    // The box may share the machine with other work, so "busy" is judged against what the box
    // itself used: utilisation = CPU used / the box's CPU limit, and clearly above idle.
    const double cpus = running.value(u"resources"_s).toObject().value(u"cpus"_s).toDouble();
    QVERIFY(cpus > 0);
    const double idle = meanUtilization(latestSample(*sim, token, id));
    QTRY_VERIFY_WITH_TIMEOUT(meanUtilization(latestSample(*sim, token, id)) >= idle + 15, 20000);
    const QJsonObject busy = latestSample(*sim, token, id);
    QCOMPARE(busy.value(u"gpus"_s).toArray().size(), 2);
    const double expected = std::min(100.0, busy.value(u"cpu_percent"_s).toDouble() / cpus);
    QVERIFY2(std::abs(meanUtilization(busy) - expected) <= 2,
             qPrintable(u"utilisation %1 for %2 % CPU of %3 cores"_s.arg(meanUtilization(busy))
                            .arg(busy.value(u"cpu_percent"_s).toDouble())
                            .arg(cpus)));
    const Cmd query = ssh(
        running, knownHosts, key,
        u"nvidia-smi --query-gpu=index,utilization.gpu,memory.total --format=csv,noheader,nounits"_s);
    QVERIFY2(query.ok(), qPrintable(query.describe()));
    const QStringList rows = QString::fromUtf8(query.out).trimmed().split(u'\n');
    QCOMPARE(rows.size(), 2);
    QVERIFY2(rows.first().split(u',').value(1).trimmed().toInt() >= idle + 10,
             qPrintable(rows.first()));
    QCOMPARE(rows.first().split(u',').value(2).trimmed(), u"24564"_s);

    // ---- the event stream carries the very samples the endpoint serves
    QTRY_VERIFY_WITH_TIMEOUT(!events.eventsOfType("metrics").isEmpty(), 10000);
    const QJsonObject pushed = events.eventsOfType("metrics").last().json();
    QCOMPARE(pushed.value(u"instance_id"_s).toString(), id);
    const QJsonArray served =
        sim->authedGet(token, u"/v1/instances/%1/metrics?since=2000-01-01T00:00:00Z"_s.arg(id))
            .value(u"samples"_s)
            .toArray();
    bool found = false;
    for (const QJsonValue &v : served) {
        const QJsonObject s = v.toObject();
        if (s.value(u"at"_s) == pushed.value(u"at"_s)) {
            found = true;
            QCOMPARE(s.value(u"gpus"_s), pushed.value(u"gpus"_s));
            QCOMPARE(s.value(u"cpu_percent"_s), pushed.value(u"cpu_percent"_s));
        }
    }
    QVERIFY2(found, "the pushed sample is in the endpoint's history");

    // ---- the work stops: utilisation falls
    const Cmd stop = ssh(running, knownHosts, key, u"pkill -x timeout; echo stopped"_s);
    QVERIFY2(stop.ok(), qPrintable(stop.describe()));
    QTRY_VERIFY_WITH_TIMEOUT(meanUtilization(latestSample(*sim, token, id)) <= idle + 5, 20000);

    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
    QCOMPARE(waitFor(*sim, token, id, u"terminated"_s).value(u"state"_s).toString(),
             u"terminated"_s);
}

void TestApiGpus::datasetSharedReadOnly()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    // The operator registers a folder while the provider runs.
    const QString folder = m_dir->filePath(u"dataset-demo"_s);
    QVERIFY(QDir().mkpath(folder));
    QFile data(folder + u"/train.csv"_s);
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write("x,y\n1,2\n3,4\n");
    data.close();
    const Cmd added =
        run(SimProcess::binaryPath(),
            {u"datasets"_s, u"add"_s, u"demo"_s, folder, u"--data"_s, sim->dataDir()});
    QVERIFY2(added.ok(), qPrintable(added.describe()));

    const QString token = sim->signUp(u"datasets@example.com"_s);
    const KeyPair key = makeKey(u"datasets"_s);
    const QString keyId = addKey(*sim, token, key);
    // Beside the apps' sample datasets the provider made at start.
    QJsonObject demo;
    for (const QJsonValue &d : sim->authedGet(token, u"/v1/datasets"_s).array())
        if (d[u"name"_s].toString() == u"demo"_s)
            demo = d.toObject();
    QCOMPARE(demo.value(u"size_bytes"_s).toInteger(), 12);

    const QJsonObject withDataset{{u"datasets"_s, QJsonArray{u"demo"_s}}};
    const QString a = create(*sim, token, {keyId}, withDataset);
    const QString b = create(*sim, token, {keyId}, withDataset);
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    for (const QString &id : {a, b}) {
        const QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
        QCOMPARE(inst.value(u"state"_s).toString(), u"running"_s);
        QCOMPARE(inst.value(u"datasets"_s).toArray(), QJsonArray{u"demo"_s});
        const QString knownHosts = knownHostsFor(inst);
        const Cmd read = ssh(inst, knownHosts, key, u"cat /datasets/demo/train.csv"_s);
        QVERIFY2(read.ok(), qPrintable(read.describe()));
        QCOMPARE(read.out, "x,y\n1,2\n3,4\n"_ba);
        const Cmd write =
            ssh(inst, knownHosts, key, u"touch /datasets/demo/mine 2>&1; echo rc=$?"_s);
        QVERIFY2(write.out.contains("Read-only file system") && !write.out.contains("rc=0"),
                 write.out.constData());
    }
    QVERIFY(!QFile::exists(folder + u"/mine"_s));
    // Unknown datasets are refused before anything is made.
    const Reply refused = sim->authedPost(token, u"/v1/instances"_s,
                                          QJsonObject{{u"gpu_type"_s, u"rtx4090"_s},
                                                      {u"image"_s, u"base"_s},
                                                      {u"datasets"_s, QJsonArray{u"nope"_s}}});
    QCOMPARE(refused.status, 400);
    QCOMPARE(refused.errorCode(), u"unknown_dataset"_s);
}

QTEST_GUILESS_MAIN(TestApiGpus)
#include "tst_api_gpus.moc"
