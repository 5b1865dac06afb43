// The hardware check and the terminate reconciler with real containers: the check reads the
// box's own cgroup, nvidia-smi and /workspace over `podman exec`; a box podman was told to give
// less (fewer cards, CPUs, memory) fails its launch unbilled, the difference named from what
// the box itself reported; a container and volume a failed teardown left are destroyed.
#include "PodmanApiTest.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiHwcheckPodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void boxReadFromInside();
    void shortBoxFailsUnbilled();
    void reconcilerDestroysLeftContainerAndVolume();
};

void TestApiHwcheckPodman::boxReadFromInside()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"hw-inside@example.com"_s);
    const QString id = create(*sim, token, {}, {{u"gpu_count"_s, 2}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(running[u"state"_s].toString(), u"running"_s);
    const QJsonObject check = running[u"hardware_check"_s].toObject();
    QCOMPARE(check[u"status"_s].toString(), u"passed"_s);
    const QJsonObject found = check[u"found"_s].toObject();
    // As the box's nvidia-smi and cgroup say, equal to the order.
    QCOMPARE(found[u"gpu_count"_s].toInt(), 2);
    QCOMPARE(found[u"gpus"_s][1][u"name"_s].toString(), u"NVIDIA GeForce RTX 4090"_s);
    QCOMPARE(found[u"gpus"_s][1][u"vram_mib"_s].toInteger(), 24564);
    QCOMPARE(found[u"cpus"_s].toDouble(), check[u"ordered"_s][u"cpus"_s].toDouble());
    QCOMPARE(found[u"memory_mib"_s].toInteger(), check[u"ordered"_s][u"memory_mib"_s].toInteger());
    QVERIFY(found[u"workspace_bytes"_s].toInteger() > 0);
}

void TestApiHwcheckPodman::shortBoxFailsUnbilled()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"hw-short@example.com"_s);
    QCOMPARE(sim->post(u"/v1/_test/runtime/shortchange-next"_s,
                       {{u"gpu_count"_s, 1}, {u"cpus"_s, 0.5}, {u"memory_mib"_s, 512}})
                 .status,
             204);
    const QString id = create(*sim, token, {}, {{u"gpu_count"_s, 2}});
    QVERIFY(!id.isEmpty());
    const QJsonObject failed = waitFor(*sim, token, id, u"failed"_s);
    QCOMPARE(failed[u"state"_s].toString(), u"failed"_s);
    const QJsonObject check = failed[u"hardware_check"_s].toObject();
    QCOMPARE(check[u"status"_s].toString(), u"failed"_s);
    const QStringList differences = check[u"differences"_s].toVariant().toStringList();
    const QString all = differences.join(u" | "_s);
    QVERIFY2(differences.contains(u"ordered 2 × NVIDIA GeForce RTX 4090 24 GiB, the box has 1"_s),
             qPrintable(all));
    QVERIFY2(differences.filter(u"CPUs, the box has 0.50"_s).size() == 1, qPrintable(all));
    QVERIFY2(differences.filter(u"of memory, the box has 0.5 GiB"_s).size() == 1, qPrintable(all));
    // What podman really gave the box, read back from the engine: the same shortfall.
    const Cmd limits =
        podman({u"inspect"_s, u"--format"_s, u"{{.HostConfig.NanoCpus}} {{.HostConfig.Memory}}"_s,
                instanceContainer(id)});
    QVERIFY2(limits.ok(), qPrintable(limits.describe()));
    QCOMPARE(QString::fromUtf8(limits.out.trimmed()), u"500000000 536870912"_s);
    QVERIFY(failed[u"running_since"_s].isNull());
    QCOMPARE(failed[u"cost_micros"_s].toInteger(), 0);
    // Not left running while failed.
    QTRY_COMPARE_WITH_TIMEOUT(containerRunning(instanceContainer(id)), u"false"_s, 60'000);
}

void TestApiHwcheckPodman::reconcilerDestroysLeftContainerAndVolume()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"hw-left@example.com"_s);
    const QString id = create(*sim, token, {});
    QVERIFY(!id.isEmpty());
    QCOMPARE(waitFor(*sim, token, id, u"running"_s)[u"state"_s].toString(), u"running"_s);
    QCOMPARE(sim->post(u"/v1/_test/runtime/fail-next-removal"_s, {}).status, 204);
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
    QVERIFY(containerExists(instanceContainer(id)));
    QVERIFY(volumeExists(instanceVolume(id)));

    const Reply run = sim->post(u"/v1/_test/reconciler/run"_s, {});
    QCOMPARE(run.status, 202);
    const int wanted = run.value(u"pass"_s).toInt(); // after a periodic pass under way
    QJsonObject report;
    QTRY_VERIFY_WITH_TIMEOUT(
        (report = sim->authedGet(token, u"/v1/reconciler"_s).object())[u"pass"_s].toInt() >= wanted,
        30'000);
    const QJsonArray findings = report[u"findings"_s].toArray();
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings[0][u"instance_id"_s].toString(), id);
    const QStringList leftovers = findings[0][u"leftovers"_s].toVariant().toStringList();
    QVERIFY2(leftovers.contains(u"volume "_s + instanceVolume(id)),
             qPrintable(leftovers.join(u',')));
    QVERIFY2(leftovers.filter(u"container"_s).size() == 1, qPrintable(leftovers.join(u',')));
    QTRY_VERIFY_WITH_TIMEOUT(!containerExists(instanceContainer(id)), 60'000);
    QTRY_VERIFY_WITH_TIMEOUT(!volumeExists(instanceVolume(id)), 60'000);
}

QTEST_GUILESS_MAIN(TestApiHwcheckPodman)
#include "tst_api_hwcheck_podman.moc"
