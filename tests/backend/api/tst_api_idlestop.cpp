// Idle stop end to end with real containers: a box whose cards stay idle is stopped (`idle`)
// after its window, with the warning first; a box running a CPU loop is never stopped, since
// its simulated cards follow that real load; a box that stops only with no connection open
// keeps running while an SSH session is open, and stops once it is closed.
#include "PodmanApiTest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiIdleStop : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void idleBoxStopsLoadedBoxRuns();
    void openSessionKeepsIdleBoxRunning();

private:
    // An interactive SSH session held open (a remote `sleep`) until the process is killed.
    std::unique_ptr<QProcess> openSession(const QJsonObject &inst, const QString &knownHosts,
                                          const KeyPair &key)
    {
        auto session = std::make_unique<QProcess>();
        session->setProgram(u"ssh"_s);
        session->setArguments(sshArguments(inst, knownHosts, key, u"echo open; exec sleep 600"_s));
        session->setStandardInputFile(QProcess::nullDevice());
        session->start();
        return session;
    }

    double utilisation(SimProcess &sim, const QString &token, const QString &id)
    {
        const Reply r =
            sim.authedGet(token, u"/v1/instances/%1/metrics?since=2000-01-01T00:00:00Z"_s.arg(id));
        const QJsonArray samples = r.value(u"samples"_s).toArray();
        if (samples.isEmpty())
            return -1;
        double busiest = 0;
        for (const QJsonValue &gpu : samples.last()[u"gpus"_s].toArray())
            busiest = std::max(busiest, gpu[u"utilization_pct"_s].toDouble());
        return busiest;
    }
};

void TestApiIdleStop::idleBoxStopsLoadedBoxRuns()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"idle@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"idle"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    const QJsonObject policy{{u"idle"_s,
                              QJsonObject{{u"threshold_percent"_s, 10},
                                          {u"window_seconds"_s, 120},
                                          {u"warning_seconds"_s, 60}}}};
    const QString loaded = create(*sim, token, {keyId}, QJsonObject{{u"stop_policy"_s, policy}});
    const QString idle = create(*sim, token, {keyId}, QJsonObject{{u"stop_policy"_s, policy}});
    QVERIFY(!loaded.isEmpty() && !idle.isEmpty());
    const QJsonObject running = waitFor(*sim, token, loaded, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(waitFor(*sim, token, idle, u"running"_s).value(u"state"_s).toString(), u"running"_s);

    // A training loop stand-in: busy loops on every CPU of the box, for at most five minutes.
    const Cmd burn = ssh(running, knownHostsFor(running), key,
                         u"for i in $(seq $(( $(nproc) * 2 ))); do setsid timeout 300 sh -c "
                         "'while :; do :; done' </dev/null >/dev/null 2>&1 & done; echo started"_s);
    QVERIFY2(burn.ok(), qPrintable(burn.describe()));
    QTRY_VERIFY_WITH_TIMEOUT(utilisation(*sim, token, loaded) >= 20, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(
        instance(*sim, token, idle)[u"planned_stop"_s][u"reason"_s] == u"idle"_s, 15000);

    // The window runs on the provider's clock: move it on in steps, with real samples between.
    bool warned = false;
    for (int step = 0; step < 4; ++step) {
        QVERIFY(sim->advance(40));
        QTest::qWait(3000);
        const QJsonObject view = instance(*sim, token, idle);
        if (view[u"state"_s] == u"running"_s)
            warned = warned || view[u"planned_stop"_s][u"warning"_s].toBool();
        QCOMPARE(instance(*sim, token, loaded)[u"state"_s].toString(), u"running"_s);
        QVERIFY(utilisation(*sim, token, loaded) >= 10);
    }
    QVERIFY(warned);
    const QJsonObject stopped = waitFor(*sim, token, idle, u"stopped"_s, 30000);
    QCOMPARE(stopped[u"state_reason"_s].toString(), u"idle"_s);
    const QJsonObject still = instance(*sim, token, loaded);
    QCOMPARE(still[u"state"_s].toString(), u"running"_s);
    QVERIFY(still[u"planned_stop"_s].isNull());
    (void)ssh(running, knownHostsFor(running), key, u"pkill -x timeout; echo stopped"_s);
}

void TestApiIdleStop::openSessionKeepsIdleBoxRunning()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"connected@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"connected"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    const QJsonObject policy{{u"idle"_s,
                              QJsonObject{{u"threshold_percent"_s, 10},
                                          {u"window_seconds"_s, 120},
                                          {u"require_no_connections"_s, true},
                                          {u"warning_seconds"_s, 60}}}};
    const QString id = create(*sim, token, {keyId}, QJsonObject{{u"stop_policy"_s, policy}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    QVERIFY(running[u"stop_policy"_s][u"idle"_s][u"require_no_connections"_s].toBool());

    std::unique_ptr<QProcess> session = openSession(running, knownHostsFor(running), key);
    QVERIFY(session->waitForStarted(10'000));
    QByteArray said; // what the session printed so far (read once, kept: QTRY asks again)
    QTRY_VERIFY2_WITH_TIMEOUT((said += session->readAllStandardOutput()).contains("open"),
                              session->readAllStandardError().constData(), 30'000);
    // Counted a few seconds apart: let a count see the session before the clock moves.
    QTest::qWait(6000);
    QVERIFY(instance(*sim, token, id)[u"planned_stop"_s].isNull());

    // Idle cards, but a session open: twice the window passes and no idle stop is planned.
    for (int step = 0; step < 6; ++step) {
        QVERIFY(sim->advance(40));
        QTest::qWait(2500);
        const QJsonObject view = instance(*sim, token, id);
        QCOMPARE(view[u"state"_s].toString(), u"running"_s);
        QVERIFY2(view[u"planned_stop"_s].isNull(),
                 QJsonDocument(view[u"planned_stop"_s].toObject()).toJson().constData());
    }

    // Closed: the idle window begins, the warning comes, then the stop.
    session->kill();
    QVERIFY(session->waitForFinished(10'000));
    QTRY_VERIFY_WITH_TIMEOUT(instance(*sim, token, id)[u"planned_stop"_s][u"reason"_s] == u"idle"_s,
                             20'000);
    bool warned = false;
    for (int step = 0; step < 4; ++step) {
        QVERIFY(sim->advance(40));
        QTest::qWait(3000);
        const QJsonObject view = instance(*sim, token, id);
        if (view[u"state"_s] == u"running"_s)
            warned = warned || view[u"planned_stop"_s][u"warning"_s].toBool();
    }
    QVERIFY(warned);
    const QJsonObject stopped = waitFor(*sim, token, id, u"stopped"_s, 30000);
    QCOMPARE(stopped[u"state_reason"_s].toString(), u"idle"_s);
}

QTEST_GUILESS_MAIN(TestApiIdleStop)
#include "tst_api_idlestop.moc"
