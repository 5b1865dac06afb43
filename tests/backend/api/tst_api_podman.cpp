// End-to-end tests of cardhour-sim with the podman runtime: real containers with sshd, reached
// with the real ssh client (strict host key checking against the key the API reports), plus
// billing and reconciliation against what podman really does. Every container and volume a
// test makes is removed at cleanup, also when the test fails; images are never touched.
#include "PodmanApiTest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcessEnvironment>
#include <QUuid>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiPodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void lifecycleOverSsh();
    void keysSeparateUsersAndApplyAtOnce();
    void balanceExhaustionStopsTheContainer();
    void oneClickJupyterAnswersHttp();
    void reconcileQuarantinesUnknownContainer();
    void reconcileNoticesRemovedContainer();
    void killDuringCreateLeavesNothingRunning_data();
    void killDuringCreateLeavesNothingRunning();
};

void TestApiPodman::lifecycleOverSsh()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"alice@example.com"_s);
    QVERIFY2(!token.isEmpty(), qPrintable(sim->lastError()));
    const KeyPair key = makeKey(u"alice"_s);
    QVERIFY(!key.publicLine.isEmpty());
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());

    const QString id = create(*sim, token, {keyId});
    QVERIFY(!id.isEmpty());
    QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    // Before any stop, the API says what a stop keeps and what a terminate deletes.
    const QJsonObject retention = inst.value(u"retention"_s).toObject();
    QVERIFY(retention.value(u"stop_keeps"_s).toArray().contains(u"workspace_volume"_s));
    QVERIFY(retention.value(u"stop_keeps"_s).toArray().contains(u"container_disk"_s));
    QVERIFY(retention.value(u"terminate_deletes"_s).toArray().contains(u"workspace_volume"_s));
    QCOMPARE(retention.value(u"billed_while_stopped"_s).toArray(),
             QJsonArray{u"storage"_s}); // its 50 GiB
    // The container runs with the CPU and memory limits the API states.
    const QJsonObject resources = inst.value(u"resources"_s).toObject();
    QVERIFY(resources.value(u"cpus"_s).toDouble() > 0);
    const Cmd limits =
        podman({u"inspect"_s, u"--format"_s, u"{{.HostConfig.NanoCpus}} {{.HostConfig.Memory}}"_s,
                instanceContainer(id)});
    QVERIFY2(limits.ok(), limits.err.constData());
    const QList<QByteArray> limitFields = limits.out.trimmed().split(' ');
    QCOMPARE(limitFields.size(), 2);
    QCOMPARE(limitFields.at(0).toLongLong(), qRound64(resources.value(u"cpus"_s).toDouble() * 1e9));
    QCOMPARE(limitFields.at(1).toLongLong(),
             resources.value(u"memory_mib"_s).toInteger() * 1024 * 1024);

    // Launch stages, in order, and a measured time to ready.
    const QJsonObject launch = inst.value(u"launch"_s).toObject();
    QStringList stages;
    for (const QJsonValue &s : launch.value(u"stages"_s).toArray())
        stages.append(s.toObject().value(u"name"_s).toString());
    QCOMPARE(stages,
             (QStringList{u"image"_s, u"container"_s, u"sshd"_s, u"ready"_s, u"hardware_check"_s}));
    const qint64 readyMs = launch.value(u"ready_ms"_s).toInteger(-1);
    QVERIFY2(readyMs > 0, QJsonDocument(launch).toJson(QJsonDocument::Compact).constData());
    qInfo("podman create: ready_ms = %lld", static_cast<long long>(readyMs));

    // The host key the API reports is the one sshd presents, and its fingerprint matches.
    const QJsonObject sshInfo = inst.value(u"ssh"_s).toObject();
    const int port = sshInfo.value(u"port"_s).toInt();
    const QString hostKey = sshInfo.value(u"host_key"_s).toString();
    QVERIFY(port > 0);
    QVERIFY(hostKey.startsWith(u"ssh-"_s));
    const QString knownHosts = knownHostsFor(inst);
    const Cmd fp = run(u"ssh-keygen"_s, {u"-l"_s, u"-E"_s, u"sha256"_s, u"-f"_s, knownHosts});
    QVERIFY2(fp.ok(), qPrintable(fp.describe()));
    const QStringList fpFields = QString::fromUtf8(fp.out).split(u' ', Qt::SkipEmptyParts);
    QVERIFY2(fpFields.size() >= 2, fp.out.constData());
    QCOMPARE(fpFields.at(1), sshInfo.value(u"host_key_sha256"_s).toString());

    Cmd c = ssh(inst, knownHosts, key, u"echo hi > /workspace/f; echo d > /root/d"_s);
    QVERIFY2(c.ok(), qPrintable(c.describe()));

    // Stop: the container stops and billing with it.
    QCOMPARE(sim->authedPost(token, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);
    inst = waitFor(*sim, token, id, u"stopped"_s, 60'000);
    QCOMPARE(inst.value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(containerRunning(instanceContainer(id)), u"false"_s);
    const qint64 cost1 = instance(*sim, token, id).value(u"cost_micros"_s).toInteger(-1);
    QVERIFY(cost1 > 0);
    QTest::qWait(2'000);
    QCOMPARE(instance(*sim, token, id).value(u"cost_micros"_s).toInteger(-1), cost1);

    // Start: same port, same host key (the same known_hosts passes strict checking), data kept.
    QCOMPARE(sim->authedPost(token, u"/v1/instances/%1/start"_s.arg(id)).status, 202);
    inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    qInfo("podman start: ready_ms = %lld",
          static_cast<long long>(
              inst.value(u"launch"_s).toObject().value(u"ready_ms"_s).toInteger(-1)));
    QCOMPARE(inst.value(u"ssh"_s).toObject().value(u"port"_s).toInt(), port);
    QCOMPARE(inst.value(u"ssh"_s).toObject().value(u"host_key"_s).toString(), hostKey);
    c = ssh(inst, knownHosts, key, u"cat /workspace/f /root/d"_s);
    QVERIFY2(c.ok(), qPrintable(c.describe()));
    QCOMPARE(c.out, "hi\nd\n"_ba);

    // Terminate: container and volume are gone.
    const Reply del = sim->authedDelete(token, u"/v1/instances/"_s + id);
    QVERIFY2(del.status == 200, del.describe().constData());
    QTRY_VERIFY_WITH_TIMEOUT(!containerExists(instanceContainer(id)), 60'000);
    QTRY_VERIFY_WITH_TIMEOUT(!volumeExists(instanceVolume(id)), 30'000);
}

// ---- 2. keys: per user, and changes apply at once
// ------------------------------------------------

void TestApiPodman::keysSeparateUsersAndApplyAtOnce()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString tokenA = sim->signUp(u"a@example.com"_s);
    const QString tokenB = sim->signUp(u"b@example.com"_s);
    QVERIFY(!tokenA.isEmpty() && !tokenB.isEmpty());
    const KeyPair keyA = makeKey(u"a"_s);
    const KeyPair keyA2 = makeKey(u"a2"_s);
    const KeyPair keyB = makeKey(u"b"_s);
    const QString keyIdA = addKey(*sim, tokenA, keyA);
    const QString keyIdA2 = addKey(*sim, tokenA, keyA2);
    const QString keyIdB = addKey(*sim, tokenB, keyB);
    QVERIFY(!keyIdA.isEmpty() && !keyIdA2.isEmpty() && !keyIdB.isEmpty());

    const QString idA = create(*sim, tokenA, {keyIdA});
    const QString idB = create(*sim, tokenB, {keyIdB});
    QVERIFY(!idA.isEmpty() && !idB.isEmpty());
    const QJsonObject instA = waitFor(*sim, tokenA, idA, u"running"_s);
    const QJsonObject instB = waitFor(*sim, tokenB, idB, u"running"_s);
    QVERIFY2(instA.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(instA).toJson(QJsonDocument::Compact).constData());
    QVERIFY2(instB.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(instB).toJson(QJsonDocument::Compact).constData());
    QVERIFY(instA.value(u"ssh"_s).toObject().value(u"port"_s).toInt()
            != instB.value(u"ssh"_s).toObject().value(u"port"_s).toInt());
    const QString hostsA = knownHostsFor(instA);
    const QString hostsB = knownHostsFor(instB);

    Cmd c = ssh(instA, hostsA, keyA, u"true"_s);
    QVERIFY2(c.ok(), qPrintable(c.describe()));
    c = ssh(instB, hostsB, keyB, u"true"_s);
    QVERIFY2(c.ok(), qPrintable(c.describe()));
    c = ssh(instB, hostsB, keyA, u"true"_s);
    QVERIFY2(!c.ok(), "A's key opened B's instance");
    c = ssh(instA, hostsA, keyB, u"true"_s);
    QVERIFY2(!c.ok(), "B's key opened A's instance");
    c = ssh(instA, hostsA, keyA2, u"true"_s);
    QVERIFY2(!c.ok(), "A's second key opened A's instance before it was added");

    // B cannot install its key on A's instance.
    const Reply foreign = sim->authedPost(tokenB, u"/v1/instances/%1/ssh-keys"_s.arg(idA),
                                          QJsonObject{{u"key_id"_s, keyIdB}});
    QCOMPARE(foreign.status, 404);

    // Add A's second key: it works at once on the running host.
    const Reply added = sim->authedPost(tokenA, u"/v1/instances/%1/ssh-keys"_s.arg(idA),
                                        QJsonObject{{u"key_id"_s, keyIdA2}});
    QVERIFY2(added.status == 200, added.describe().constData());
    QVERIFY(added.value(u"ssh_key_ids"_s).toArray().contains(keyIdA2));
    c = ssh(instA, hostsA, keyA2, u"echo second"_s);
    QVERIFY2(c.ok(), qPrintable(c.describe()));
    QCOMPARE(c.out, "second\n"_ba);
    // ...and only there.
    c = ssh(instB, hostsB, keyA2, u"true"_s);
    QVERIFY(!c.ok());

    // Withdraw it: refused at once; the first key still works.
    const Reply removed =
        sim->authedDelete(tokenA, u"/v1/instances/%1/ssh-keys/%2"_s.arg(idA, keyIdA2));
    QVERIFY2(removed.status == 200, removed.describe().constData());
    QVERIFY(!removed.value(u"ssh_key_ids"_s).toArray().contains(keyIdA2));
    c = ssh(instA, hostsA, keyA2, u"true"_s);
    QVERIFY2(!c.ok(), "a withdrawn key still opens the instance");
    c = ssh(instA, hostsA, keyA, u"true"_s);
    QVERIFY2(c.ok(), qPrintable(c.describe()));
}

// ---- 3. running out of money stops the real container
// --------------------------------------------

void TestApiPodman::oneClickJupyterAnswersHttp()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"notebook@example.com"_s);
    QVERIFY(!token.isEmpty());
    const Reply r =
        sim->authedPost(token, u"/v1/instances"_s,
                        QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"jupyter"_s}});
    QVERIFY2(r.status == 202, r.describe().constData());
    const QString id = r.value(u"id"_s).toString();
    m_instanceIds.append(id);
    const QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    const QJsonArray apps = inst.value(u"apps"_s).toArray();
    QCOMPARE(apps.size(), 1);
    const QJsonObject app = apps.at(0).toObject();
    QCOMPARE(app.value(u"port"_s).toInt(), 8888);
    const QString url = app.value(u"url"_s).toString();
    QVERIFY2(url.startsWith(u"http://127.0.0.1:"_s) && url.contains(u"token="_s), qPrintable(url));

    // The notebook server starts next to sshd, on the box's own loopback (the URL is the
    // address inside the box); give it time, then it answers with the token and refuses
    // without it.
    const QString box = instanceContainer(id);
    Cmd withToken;
    QTRY_VERIFY_WITH_TIMEOUT(
        (withToken = podman({u"exec"_s, box, u"curl"_s, u"-s"_s, u"-o"_s, u"/dev/null"_s, u"-w"_s,
                             u"%{http_code}"_s,
                             url.section(u'?', 0, 0) + u"api/status?"_s + url.section(u'?', 1)},
                            10'000))
                .out.trimmed()
            == "200",
        60'000);
    const Cmd withoutToken =
        podman({u"exec"_s, box, u"curl"_s, u"-s"_s, u"-o"_s, u"/dev/null"_s, u"-w"_s,
                u"%{http_code}"_s, url.section(u'?', 0, 0) + u"api/status"_s},
               10'000);
    QCOMPARE(withoutToken.out.trimmed(), "403"_ba);

    // Its readiness is a stage of its own, after SSH's `ready` (billing began at `ready`).
    QJsonObject answered;
    QTRY_VERIFY_WITH_TIMEOUT(
        (answered = instance(*sim, token, id)).value(u"apps"_s)[0][u"ready"_s].toBool(), 30'000);
    const QJsonObject readyApp = answered.value(u"apps"_s)[0].toObject();
    QStringList stageNames;
    QString sshReadyAt;
    QString appAt;
    for (const QJsonValue &stage : answered.value(u"launch"_s)[u"stages"_s].toArray()) {
        const QString name = stage[u"name"_s].toString();
        stageNames.append(name);
        if (name == u"ready"_s)
            sshReadyAt = stage[u"at"_s].toString();
        if (name == u"app:"_s + readyApp[u"name"_s].toString())
            appAt = stage[u"at"_s].toString();
    }
    QCOMPARE(stageNames.constLast(), u"app:"_s + readyApp[u"name"_s].toString());
    QCOMPARE(readyApp[u"ready_at"_s].toString(), appAt);
    QVERIFY2(!sshReadyAt.isEmpty() && appAt >= sshReadyAt, qPrintable(stageNames.join(u' ')));
    QVERIFY(answered.value(u"running_since"_s).toString() <= appAt);
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
}

void TestApiPodman::balanceExhaustionStopsTheContainer()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"poor@example.com"_s);
    QVERIFY(!token.isEmpty());
    const QString id = create(*sim, token, {});
    QVERIFY(!id.isEmpty());
    QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(containerRunning(instanceContainer(id)), u"true"_s);

    QVERIFY(sim->advance(10 * 3600));
    inst = instance(*sim, token, id);
    QCOMPARE(inst.value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
    const QString state = inst.value(u"state"_s).toString();
    QVERIFY2(state == u"stopping"_s || state == u"stopped"_s, qPrintable(state));
    const Reply me = sim->authedGet(token, u"/v1/me"_s);
    QCOMPARE(me.status, 200);
    QCOMPARE(me.value(u"balance_micros"_s).toInteger(-1), 0);

    QTRY_COMPARE_WITH_TIMEOUT(containerRunning(instanceContainer(id)), u"false"_s, 30'000);
    inst = waitFor(*sim, token, id, u"stopped"_s, 30'000);
    QCOMPARE(inst.value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(inst.value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
    QCOMPARE(sim->verifyLedger(), QString());
}

// ---- 4. reconciliation against podman ----------------------------------------------------------

void TestApiPodman::reconcileQuarantinesUnknownContainer()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString provider = providerIdOf(*sim);
    const QString stray = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString name = u"cardhour-test-stray-"_s + stray.left(8);
    m_extraContainers.append(name);
    const Cmd made = podman(
        {u"run"_s, u"-d"_s, u"--name"_s, name, u"--label"_s, u"cardhour.managed=true"_s,
         u"--label"_s, u"cardhour.instance="_s + stray, u"--label"_s,
         u"cardhour.provider="_s + provider, u"--entrypoint"_s, u"/bin/sleep"_s, kImage, u"600"_s},
        120'000);
    QVERIFY2(made.ok(), qPrintable(made.describe())); // started: `run -d` waits for that
    QElapsedTimer timer;
    timer.start();
    // Its start event makes the provider list its boxes, and the reconcile stops it and keeps it
    // (its instance may be one an older database, restored, does not know): quarantined, never
    // deleted. Not the periodic listing's next turn: that is a minute away while events flow.
    QTRY_COMPARE_WITH_TIMEOUT(containerRunning(name), u"false"_s, 40'000);
    QVERIFY2(timer.elapsed() < 40'000, "noticed only by the periodic listing");
    qInfo("stray container stopped after %lld ms", static_cast<long long>(timer.elapsed()));
    QVERIFY(containerExists(name));

    // And one found at start-up goes at once.
    const QString stray2 = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString name2 = u"cardhour-test-stray-"_s + stray2.left(8);
    m_extraContainers.append(name2);
    QVERIFY(sim->terminate());
    const Cmd made2 = podman(
        {u"run"_s, u"-d"_s, u"--name"_s, name2, u"--label"_s, u"cardhour.managed=true"_s,
         u"--label"_s, u"cardhour.instance="_s + stray2, u"--label"_s,
         u"cardhour.provider="_s + provider, u"--entrypoint"_s, u"/bin/sleep"_s, kImage, u"600"_s},
        120'000);
    QVERIFY2(made2.ok(), qPrintable(made2.describe()));
    QVERIFY2(sim->restart(60'000), qPrintable(sim->lastError()));
    QTRY_COMPARE_WITH_TIMEOUT(containerRunning(name2), u"false"_s, 20'000);
    QVERIFY(containerExists(name) && containerExists(name2));

    // A container labelled for another provider is not this provider's business.
    const QString other = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString name3 = u"cardhour-test-other-"_s + other.left(8);
    m_extraContainers.append(name3);
    const Cmd made3 =
        podman({u"run"_s, u"-d"_s, u"--name"_s, name3, u"--label"_s, u"cardhour.managed=true"_s,
                u"--label"_s, u"cardhour.instance="_s + other, u"--label"_s,
                u"cardhour.provider=cardhour-test-someone-else"_s, u"--entrypoint"_s,
                u"/bin/sleep"_s, kImage, u"600"_s},
               120'000);
    QVERIFY2(made3.ok(), qPrintable(made3.describe()));
    QVERIFY(sim->terminate());
    QVERIFY2(sim->restart(60'000), qPrintable(sim->lastError()));
    QTest::qWait(1'000);
    QCOMPARE(containerRunning(name3), u"true"_s);
}

void TestApiPodman::reconcileNoticesRemovedContainer()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"gone@example.com"_s);
    QVERIFY(!token.isEmpty());
    const QString id = create(*sim, token, {});
    QVERIFY(!id.isEmpty());
    QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());

    // What it has cost up to now, as the provider shows it live; once the provider notices the
    // container is gone, billing ends at the last listing that saw it running, before this.
    const qint64 costAtRemoval = instance(*sim, token, id).value(u"cost_micros"_s).toInteger(-1);
    const Cmd rm = podman({u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s, instanceContainer(id)});
    QVERIFY2(rm.ok(), qPrintable(rm.describe()));
    QElapsedTimer timer;
    timer.start();
    inst = waitFor(*sim, token, id, u"failed"_s, 40'000);
    QVERIFY2(inst.value(u"state"_s).toString() == u"failed"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(inst.value(u"state_reason"_s).toString(), u"container_gone"_s);
    qInfo("container_gone noticed after %lld ms", static_cast<long long>(timer.elapsed()));
    const qint64 cost = inst.value(u"cost_micros"_s).toInteger(-1);
    QVERIFY(cost >= 0);
    QVERIFY2(cost <= costAtRemoval,
             qPrintable(u"billed %1 after the container vanished, %2 before"_s.arg(cost).arg(
                 costAtRemoval)));
    QTest::qWait(2'000);
    QCOMPARE(instance(*sim, token, id).value(u"cost_micros"_s).toInteger(-1), cost);
}

void TestApiPodman::killDuringCreateLeavesNothingRunning_data()
{
    QTest::addColumn<bool>("waitForContainer");
    QTest::newRow("right after POST") << false;
    QTest::newRow("once the container stage is reached") << true;
}

void TestApiPodman::killDuringCreateLeavesNothingRunning()
{
    QFETCH(bool, waitForContainer);
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"crash@example.com"_s);
    QVERIFY(!token.isEmpty());
    const qint64 balanceBefore =
        sim->authedGet(token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(-1);
    const QString id = create(*sim, token, {});
    QVERIFY(!id.isEmpty());
    if (waitForContainer) {
        // Kill mid-launch (creating, or starting once the container exists), with the
        // container already made.
        const QDeadlineTimer deadline(60'000);
        bool seen = false;
        while (!seen && !deadline.hasExpired()) {
            const QJsonObject now = instance(*sim, token, id);
            const QString launching = now.value(u"state"_s).toString();
            QVERIFY2(launching == u"creating"_s || launching == u"starting"_s,
                     QJsonDocument(now).toJson(QJsonDocument::Compact).constData());
            for (const QJsonValue &stage :
                 now.value(u"launch"_s).toObject().value(u"stages"_s).toArray())
                seen = seen || stage.toObject().value(u"name"_s).toString() == u"container"_s;
            if (!seen)
                QTest::qWait(10);
        }
        QVERIFY(seen);
    }
    const qint64 service = engineServiceOf(sim->processId());
    QVERIFY2(service > 0, "the provider runs no podman service of its own");
    sim->kill();
    qInfo("killed with %lld container(s) labelled for the instance",
          static_cast<long long>(containersWithLabel(u"cardhour.instance="_s + id).size()));
    // Its podman service ends with it (SIGTERM on its parent's death): a provider killed again
    // and again must not leave a service running for each time.
    QTRY_VERIFY_WITH_TIMEOUT(!processAlive(service), 20'000);

    QVERIFY2(sim->restart(60'000), qPrintable(sim->lastError()));
    const QString label = u"cardhour.instance="_s + id;
    // A podman command the dead provider had started may still finish after the restart; give
    // it, and a periodic reconcile, the time to settle.
    QTest::qWait(3'000);
    QTRY_VERIFY_WITH_TIMEOUT(containersWithLabel(label, true).isEmpty(), 40'000);
    const QJsonObject inst = instance(*sim, token, id);
    const QString state = inst.value(u"state"_s).toString();
    QVERIFY2(state == u"failed"_s, QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    QCOMPARE(inst.value(u"state_reason"_s).toString(), u"provider_restarted"_s);
    QTRY_VERIFY_WITH_TIMEOUT(containersWithLabel(label).isEmpty(), 40'000);
    QCOMPARE(inst.value(u"cost_micros"_s).toInteger(-1), 0);
    QCOMPARE(sim->authedGet(token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(-1),
             balanceBefore);
}

QTEST_GUILESS_MAIN(TestApiPodman)
#include "tst_api_podman.moc"
