// The chaos API's faults inside real boxes (podman): drop_ssh cuts an open SSH session (the
// client sees the connection closed) and a new one gets in at once; fill_disk fills /workspace
// to its bound so that a write in the box fails with ENOSPC, and clearing it frees the space.
#include "PodmanApiTest.h"

#include <QProcess>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiChaosPodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void dropSshCutsSessionsAndReconnectWorks();
    void fillDiskFillsWorkspaceUntilCleared();

private:
    // The fault once it left `from` (pending, clearing), as GET /v1/chaos/faults shows it.
    QJsonObject settled(SimProcess &sim, const QString &token, const QString &faultId,
                        const QString &from)
    {
        QJsonObject found;
        const auto look = [&] {
            for (const QJsonValue &f : sim.authedGet(token, u"/v1/chaos/faults"_s).array())
                if (f[u"id"_s].toString() == faultId)
                    found = f.toObject();
            return found[u"state"_s].toString() != from;
        };
        QDeadlineTimer deadline(60'000);
        while (!look() && !deadline.hasExpired())
            QTest::qWait(200);
        return found;
    }
};

void TestApiChaosPodman::dropSshCutsSessionsAndReconnectWorks()
{
    SimProcess *sim = startSim({u"--allow-chaos"_s});
    QVERIFY(sim);
    const RunningBox box = launchRunning(*sim, u"dropped"_s);
    QVERIFY2(box.ok(), qPrintable(box.failure));
    const QString knownHosts = knownHostsFor(box.instance);

    QProcess session;
    session.setProgram(u"ssh"_s);
    session.setArguments(
        sshArguments(box.instance, knownHosts, box.key, u"echo open; exec sleep 600"_s));
    session.setStandardInputFile(QProcess::nullDevice());
    session.start();
    QVERIFY(session.waitForStarted(10'000));
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += session.readAllStandardOutput()).contains("open"), 30'000);

    const Reply added =
        sim->authedPost(box.token, u"/v1/chaos/faults"_s,
                        QJsonObject{{u"kind"_s, u"drop_ssh"_s}, {u"instance_id"_s, box.id}});
    QCOMPARE(added.status, 201);
    QCOMPARE(added.value(u"state"_s).toString(), u"pending"_s);

    // The client sees its connection end (not the remote command's own exit).
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), QProcess::NotRunning, 60'000);
    QCOMPARE(session.exitCode(), 255);
    const QJsonObject done =
        settled(*sim, box.token, added.value(u"id"_s).toString(), u"pending"_s);
    QCOMPARE(done[u"state"_s].toString(), u"done"_s);
    QVERIFY2(!done[u"detail"_s].toString().startsWith(u"0 "_s),
             qPrintable(done[u"detail"_s].toString()));

    // sshd still listens: a new connection gets in.
    const Cmd again = ssh(box.instance, knownHosts, box.key, u"echo back"_s);
    QVERIFY2(again.ok() && again.out.contains("back"), qPrintable(again.describe()));
    QCOMPARE(instance(*sim, box.token, box.id)[u"state"_s].toString(), u"running"_s);
}

void TestApiChaosPodman::fillDiskFillsWorkspaceUntilCleared()
{
    SimProcess *sim = startSim({u"--allow-chaos"_s});
    QVERIFY(sim);
    const RunningBox box = launchRunning(*sim, u"filled"_s);
    QVERIFY2(box.ok(), qPrintable(box.failure));
    const QJsonObject disk = sim->authedGet(box.token, u"/v1/limits"_s).value(u"disk"_s).toObject();
    const QJsonObject body{{u"kind"_s, u"fill_disk"_s}, {u"instance_id"_s, box.id}};
    if (!disk[u"workspace_bounded"_s].toBool()) {
        const Reply refused = sim->authedPost(box.token, u"/v1/chaos/faults"_s, body);
        QCOMPARE(refused.status, 409);
        QCOMPARE(refused.errorCode(), u"chaos_unsupported"_s);
        QSKIP("/workspace is not bounded on this host (no loop devices): refused, as it must be");
    }
    const QString knownHosts = knownHostsFor(box.instance);
    const QString write = u"dd if=/dev/zero of=/workspace/after bs=64k count=4 2>&1 && sync"_s;

    const Reply added = sim->authedPost(box.token, u"/v1/chaos/faults"_s, body);
    QCOMPARE(added.status, 201);
    const QString faultId = added.value(u"id"_s).toString();
    const QJsonObject full = settled(*sim, box.token, faultId, u"pending"_s);
    QCOMPARE(full[u"state"_s].toString(), u"active"_s);
    QVERIFY2(full[u"detail"_s].toString().contains(u"ENOSPC"_s),
             qPrintable(full[u"detail"_s].toString()));
    // A second fill of the same disk is refused while this one holds it.
    QCOMPARE(sim->authedPost(box.token, u"/v1/chaos/faults"_s, body).status, 409);

    const Cmd refused = ssh(box.instance, knownHosts, box.key, write);
    QVERIFY2(!refused.ok() && refused.out.contains("No space left on device"),
             qPrintable(refused.describe()));

    const Reply clearing = sim->authedDelete(box.token, u"/v1/chaos/faults/"_s + faultId);
    QCOMPARE(clearing.status, 200);
    QCOMPARE(settled(*sim, box.token, faultId, u"clearing"_s)[u"state"_s].toString(), u"cleared"_s);
    const Cmd written = ssh(box.instance, knownHosts, box.key, write);
    QVERIFY2(written.ok(), qPrintable(written.describe()));
}

QTEST_GUILESS_MAIN(TestApiChaosPodman)
#include "tst_api_chaos_podman.moc"
