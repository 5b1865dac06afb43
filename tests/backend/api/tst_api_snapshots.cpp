// Snapshots end to end with real containers: a snapshot keeps the container disk and /workspace
// as they were when it was taken; what is written after it is not in an instance restored from
// it; it outlives its instance's termination; it is billed per GiB-hour while kept; deleting it
// removes its image and its archive; bad requests change nothing.
#include "PodmanApiTest.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {
QString snapshotImage(const QString &snapshotId)
{
    return u"localhost/cardhour-snapshot/"_s + snapshotId.toLower() + u":latest"_s;
}

bool imageExists(const QString &image)
{
    return podman({u"image"_s, u"exists"_s, image}).ok();
}
} // namespace

class TestApiSnapshots : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup()
    {
        cleanupPodmanTest();
        for (const QString &id : std::as_const(m_snapshotIds)) // after the containers using them
            if (imageExists(snapshotImage(id)))
                podman({u"rmi"_s, u"-f"_s, snapshotImage(id)});
        m_snapshotIds.clear();
    }
    void cleanupTestCase() { cleanup(); }

    void restoreGivesTheSnapshotsDiskAndWorkspace();
    void badRequestsChangeNothing();

private:
    // POST a snapshot and wait for it to be ready; the snapshot JSON (empty on failure).
    QJsonObject snapshotReady(SimProcess &sim, const QString &token, const QString &instanceId,
                              qint64 *elapsedMs);
    QJsonObject waitForSnapshot(SimProcess &sim, const QString &token, const QString &id,
                                const QString &state);

    QStringList m_snapshotIds;
};

QJsonObject TestApiSnapshots::waitForSnapshot(SimProcess &sim, const QString &token,
                                              const QString &id, const QString &state)
{
    QJsonObject last;
    const QDeadlineTimer deadline(kRunningTimeoutMs);
    while (!deadline.hasExpired()) {
        const Reply r = sim.authedGet(token, u"/v1/snapshots/"_s + id);
        last = r.object();
        if (r.status != 200 || last.value(u"state"_s).toString() == state
            || last.value(u"state"_s) == u"failed"_s)
            return last;
        QTest::qWait(50);
    }
    return last;
}

QJsonObject TestApiSnapshots::snapshotReady(SimProcess &sim, const QString &token,
                                            const QString &instanceId, qint64 *elapsedMs)
{
    QElapsedTimer timer;
    timer.start();
    const Reply r = sim.authedPost(token, u"/v1/instances/%1/snapshots"_s.arg(instanceId),
                                   QJsonObject{{u"name"_s, u"before-change"_s}});
    if (r.status != 202) {
        qWarning("snapshot: %s", r.describe().constData());
        return {};
    }
    const QString id = r.value(u"id"_s).toString();
    m_snapshotIds.append(id);
    if (r.value(u"state"_s).toString() != u"creating"_s)
        qWarning("a new snapshot is %s", qPrintable(r.value(u"state"_s).toString()));
    const QJsonObject ready = waitForSnapshot(sim, token, id, u"ready"_s);
    *elapsedMs = timer.elapsed();
    return ready;
}

void TestApiSnapshots::restoreGivesTheSnapshotsDiskAndWorkspace()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"snap@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"snap"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    SseClient events;
    QVERIFY(events.open(sim->port(), token));

    const QString sourceId = create(*sim, token, {keyId}, QJsonObject{{u"gpu_count"_s, 2}});
    QVERIFY(!sourceId.isEmpty());
    const QJsonObject source = waitFor(*sim, token, sourceId, u"running"_s);
    QCOMPARE(source.value(u"state"_s).toString(), u"running"_s);
    const QString sourceHosts = knownHostsFor(source);

    // ---- written before the snapshot: on the container disk (outside every mount) and in
    // /workspace
    Cmd write = ssh(
        source, sourceHosts, key,
        u"echo disk-v1 > /root/marker && mkdir -p /opt/app && echo app-v1 > /opt/app/config"
        " && echo ws-v1 > /workspace/data.txt && mkdir -p /workspace/sub && echo kept > /workspace/sub/f"_s);
    QVERIFY2(write.ok(), qPrintable(write.describe()));

    qint64 snapshotMs = 0;
    const QJsonObject snapshot = snapshotReady(*sim, token, sourceId, &snapshotMs);
    QCOMPARE(snapshot.value(u"state"_s).toString(), u"ready"_s);
    const QString snapshotId = snapshot.value(u"id"_s).toString();
    QCOMPARE(snapshot.value(u"instance_id"_s).toString(), sourceId);
    QCOMPARE(snapshot.value(u"name"_s).toString(), u"before-change"_s);
    QCOMPARE(snapshot.value(u"gpu_count"_s).toInt(), 2);
    QCOMPARE(snapshot.value(u"paused_while_taken"_s), QJsonValue(true)); // it was running
    const qint64 sizeBytes = snapshot.value(u"size_bytes"_s).toInteger();
    QVERIFY(snapshot.value(u"disk_bytes"_s).toInteger() > 0);
    QVERIFY(snapshot.value(u"workspace_bytes"_s).toInteger() > 0);
    QCOMPARE(sizeBytes,
             snapshot.value(u"disk_bytes"_s).toInteger()
                 + snapshot.value(u"workspace_bytes"_s).toInteger());
    // Both parts are on the host: the committed image and the /workspace archive.
    QVERIFY(imageExists(snapshotImage(snapshotId)));
    const QString archive =
        QDir(sim->dataDir()).filePath(u"snapshots/%1/workspace.tar"_s.arg(snapshotId));
    QCOMPARE(QFileInfo(archive).size(), snapshot.value(u"workspace_bytes"_s).toInteger());
    // The source carries on running after its pause.
    QCOMPARE(instance(*sim, token, sourceId).value(u"state"_s).toString(), u"running"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!events.eventsOfType("snapshot").isEmpty()
                                 && events.eventsOfType("snapshot").last().json().value(u"state"_s)
                                     == u"ready"_s,
                             10'000);
    qInfo("snapshot of a running base instance: POST -> ready %lld ms, %lld bytes (disk %lld, "
          "workspace %lld)",
          snapshotMs, sizeBytes, snapshot.value(u"disk_bytes"_s).toInteger(),
          snapshot.value(u"workspace_bytes"_s).toInteger());

    // ---- written after it: changed, added and deleted, in both places
    write = ssh(
        source, sourceHosts, key,
        u"echo disk-v2 > /root/marker && echo later > /root/later && rm /opt/app/config"
        " && echo ws-v2 > /workspace/data.txt && echo later > /workspace/later.txt && rm -r /workspace/sub"_s);
    QVERIFY2(write.ok(), qPrintable(write.describe()));

    // ---- the snapshot outlives its instance
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + sourceId).status, 200);
    waitFor(*sim, token, sourceId, u"terminated"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!containerExists(instanceContainer(sourceId)), 30'000);
    QTRY_VERIFY_WITH_TIMEOUT(!volumeExists(instanceVolume(sourceId)), 30'000);
    QCOMPARE(sim->authedGet(token, u"/v1/snapshots/"_s + snapshotId).value(u"state"_s).toString(),
             u"ready"_s);

    // ---- restore: a new instance (another GPU count) from the snapshot
    QElapsedTimer restoreTimer;
    restoreTimer.start();
    const Reply restored = sim->authedPost(token, u"/v1/instances"_s,
                                           QJsonObject{{u"snapshot_id"_s, snapshotId},
                                                       {u"gpu_count"_s, 1},
                                                       {u"ssh_key_ids"_s, QJsonArray{keyId}}});
    QCOMPARE(restored.status, 202);
    const QString restoredId = restored.value(u"id"_s).toString();
    m_instanceIds.append(restoredId);
    QCOMPARE(restored.value(u"snapshot_id"_s).toString(), snapshotId);
    QCOMPARE(restored.value(u"gpu_type"_s).toString(), u"rtx4090"_s); // the snapshot's, by default
    QCOMPARE(restored.value(u"gpu_count"_s).toInt(), 1);
    QCOMPARE(restored.value(u"image"_s).toString(), u"base"_s);
    const QJsonObject running = waitFor(*sim, token, restoredId, u"running"_s);
    const qint64 restoreMs = restoreTimer.elapsed();
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    qInfo("restore from the snapshot: POST -> running %lld ms", restoreMs);
    const QString restoredHosts = knownHostsFor(running);
    const Cmd read =
        ssh(running, restoredHosts, key,
            u"cat /root/marker /opt/app/config /workspace/data.txt /workspace/sub/f;"
            " ls /root/later /workspace/later.txt 2>&1 | wc -l; nvidia-smi -L | wc -l"_s);
    QVERIFY2(read.ok(), qPrintable(read.describe()));
    const QStringList lines = QString::fromUtf8(read.out).trimmed().split(u'\n');
    // The snapshot's files in both places, none of the later writes (two "No such file" lines).
    QCOMPARE(lines,
             (QStringList{u"disk-v1"_s, u"app-v1"_s, u"ws-v1"_s, u"kept"_s, u"2"_s, u"1"_s}));
    const Cmd missing = ssh(running, restoredHosts, key,
                            u"test ! -e /root/later && test ! -e /workspace/later.txt"_s);
    QVERIFY2(missing.ok(), qPrintable(missing.describe()));
    // A new host, not a copy of the old one's identity.
    QVERIFY(running.value(u"ssh"_s).toObject().value(u"host_key_sha256"_s)
            != source.value(u"ssh"_s).toObject().value(u"host_key_sha256"_s));

    // ---- storage fee while kept: size rounded up to GiB × 200 micro-yuan per GiB-hour
    const qint64 gib = (sizeBytes + (1LL << 30) - 1) >> 30;
    const qint64 rate = std::max<qint64>(1, gib) * 200;
    QCOMPARE(snapshot.value(u"storage_rate_micros_per_hour"_s).toInteger(), rate);
    const qint64 costBefore = sim->authedGet(token, u"/v1/snapshots/"_s + snapshotId)
                                  .value(u"storage_cost_micros"_s)
                                  .toInteger();
    QVERIFY(sim->advance(3600));
    const qint64 costAfter = sim->authedGet(token, u"/v1/snapshots/"_s + snapshotId)
                                 .value(u"storage_cost_micros"_s)
                                 .toInteger();
    QVERIFY2(costAfter - costBefore >= rate - 1 && costAfter - costBefore <= rate + 1,
             qPrintable(u"%1 -> %2, rate %3"_s.arg(costBefore).arg(costAfter).arg(rate)));
    const QJsonObject bill = sim->authedGet(token, u"/v1/billing/summary"_s).object();
    QCOMPARE(bill.value(u"snapshot_storage_spend_rate_micros_per_hour"_s).toInteger(), rate);
    QVERIFY(bill.value(u"snapshot_storage_cost_micros"_s).toInteger() >= costAfter - 1);
    bool posted = false;
    for (const QJsonValue &p : sim->allPostings(token))
        posted = posted
            || p.toObject()
                   .value(u"description"_s)
                   .toString()
                   .startsWith(u"Snapshot storage: before-change"_s);
    QVERIFY2(posted, "no snapshot storage posting in the ledger");
    QCOMPARE(sim->verifyLedger(), QString());

    // ---- deleting: refused while an instance runs its image; then image and archive go
    Reply del = sim->authedDelete(token, u"/v1/snapshots/"_s + snapshotId);
    QCOMPARE(del.status, 409);
    QCOMPARE(del.errorCode(), u"snapshot_in_use"_s);
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + restoredId).status, 200);
    del = sim->authedDelete(token, u"/v1/snapshots/"_s + snapshotId);
    QCOMPARE(del.status, 200);
    QCOMPARE(del.value(u"state"_s).toString(), u"deleted"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!imageExists(snapshotImage(snapshotId)), 90'000);
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(archive), 10'000);
    QCOMPARE(sim->authedGet(token, u"/v1/snapshots/"_s + snapshotId).status, 404);
    QCOMPARE(sim->authedGet(token, u"/v1/snapshots"_s).array().size(), 0);
    // The fee stopped at the delete.
    const qint64 rateNow = sim->authedGet(token, u"/v1/billing/summary"_s)
                               .value(u"snapshot_storage_spend_rate_micros_per_hour"_s)
                               .toInteger();
    QCOMPARE(rateNow, 0);
}

void TestApiSnapshots::badRequestsChangeNothing()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString alice = sim->signUp(u"alice-snap@example.com"_s);
    const QString bob = sim->signUp(u"bob-snap@example.com"_s);
    const KeyPair key = makeKey(u"bad"_s);
    const QString keyId = addKey(*sim, alice, key);
    const QString id = create(*sim, alice, {keyId});
    QVERIFY(!id.isEmpty());
    QCOMPARE(waitFor(*sim, alice, id, u"running"_s).value(u"state"_s).toString(), u"running"_s);

    const auto snapshots = [&](const QString &token) {
        return sim->authedGet(token, u"/v1/snapshots"_s).array().size();
    };
    Reply r = sim->authedPost(alice, u"/v1/instances/no-such-instance/snapshots"_s);
    QCOMPARE(r.status, 404);
    r = sim->authedPost(bob, u"/v1/instances/%1/snapshots"_s.arg(id)); // someone else's
    QCOMPARE(r.status, 404);
    r = sim->authedPostRaw(alice, u"/v1/instances/%1/snapshots"_s.arg(id), "{not json");
    QCOMPARE(r.status, 400);
    r = sim->authedPost(alice, u"/v1/instances/%1/snapshots"_s.arg(id),
                        QJsonObject{{u"size"_s, 1}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), u"unknown_field"_s);
    QCOMPARE(snapshots(alice), 0);
    QCOMPARE(snapshots(bob), 0);

    // A stopped instance can be snapshotted (no pause needed); Idempotency-Key replays.
    QCOMPARE(sim->authedPost(alice, u"/v1/instances/%1/stop"_s.arg(id)).status, 202);
    QCOMPARE(waitFor(*sim, alice, id, u"stopped"_s).value(u"state"_s).toString(), u"stopped"_s);
    const Headers idem{{"Idempotency-Key", "snap-once-1"}};
    const Reply first = sim->authedPost(alice, u"/v1/instances/%1/snapshots"_s.arg(id), {}, idem);
    QCOMPARE(first.status, 202);
    const QString snapshotId = first.value(u"id"_s).toString();
    m_snapshotIds.append(snapshotId);
    const Reply again = sim->authedPost(alice, u"/v1/instances/%1/snapshots"_s.arg(id), {}, idem);
    QCOMPARE(again.status, 202);
    QCOMPARE(again.value(u"id"_s).toString(), snapshotId);
    QCOMPARE(snapshots(alice), 1);
    const QJsonObject ready = waitForSnapshot(*sim, alice, snapshotId, u"ready"_s);
    QCOMPARE(ready.value(u"state"_s).toString(), u"ready"_s);
    QCOMPARE(ready.value(u"paused_while_taken"_s), QJsonValue(false));

    // Someone else's snapshot: not found, not restorable, not deletable.
    QCOMPARE(sim->authedGet(bob, u"/v1/snapshots/"_s + snapshotId).status, 404);
    QCOMPARE(sim->authedDelete(bob, u"/v1/snapshots/"_s + snapshotId).status, 404);
    r = sim->authedPost(bob, u"/v1/instances"_s, QJsonObject{{u"snapshot_id"_s, snapshotId}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), u"unknown_snapshot"_s);
    // Another image than the snapshot's cannot be asked for.
    r = sim->authedPost(alice, u"/v1/instances"_s,
                        QJsonObject{{u"snapshot_id"_s, snapshotId}, {u"image"_s, u"pytorch"_s}});
    QCOMPARE(r.status, 400);
    QCOMPARE(sim->authedGet(alice, u"/v1/instances"_s).array().size(), 1);

    // A terminated instance has nothing left to snapshot.
    QCOMPARE(sim->authedDelete(alice, u"/v1/instances/"_s + id).status, 200);
    r = sim->authedPost(alice, u"/v1/instances/%1/snapshots"_s.arg(id));
    QCOMPARE(r.status, 409);
    QCOMPARE(snapshots(alice), 1);

    QCOMPARE(sim->authedDelete(alice, u"/v1/snapshots/"_s + snapshotId).status, 200);
    QCOMPARE(sim->authedDelete(alice, u"/v1/snapshots/"_s + snapshotId).status, 404); // once
    QTRY_VERIFY_WITH_TIMEOUT(!imageExists(snapshotImage(snapshotId)), 90'000);
}

QTEST_GUILESS_MAIN(TestApiSnapshots)
#include "tst_api_snapshots.moc"
