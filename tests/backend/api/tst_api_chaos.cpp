// HTTP integration tests of the chaos API (/v1/chaos/faults) against the real cardhour-sim with
// the in-process runtime: off without --allow-chaos; a failed launch that reaches the client as
// a failed instance with the named error, for the caller only; a slow API that holds only the
// caller's answers, bounded; host faults scoped to the caller's own hosts; each change sent as a
// chaos.fault event. Dropping SSH and filling a disk need boxes: tst_api_chaos_podman.
#include "SimProcess.h"

#include <QElapsedTimer>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

const QJsonObject kLaunch{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}};

QJsonObject fault(const QString &kind, const QJsonObject &more = {})
{
    QJsonObject o = more;
    o.insert(u"kind"_s, kind);
    return o;
}

} // namespace

class TestApiChaos : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void offWithoutAllowChaos();
    void failLaunchFailsTheCallersNextLaunchOnly();
    void clearedFailLaunchIsDisarmed();
    void slowApiHoldsTheCallersAnswersOnly();
    void slowApiIsBounded_data();
    void slowApiIsBounded();
    void hostFaultsActOnOwnRunningHostsOnly();
    void faultsAreSentAsEvents();

private:
    bool startSim(bool allowChaos = true);

    std::unique_ptr<QTemporaryDir> m_data;
    SimProcess m_sim;
    QString m_alice;
    QString m_bob;
};

bool TestApiChaos::startSim(bool allowChaos)
{
    QStringList args{u"--runtime"_s, u"inprocess"_s, u"--scrypt-cost-log2"_s, u"10"_s};
    if (allowChaos)
        args.append(u"--allow-chaos"_s);
    m_data = std::make_unique<QTemporaryDir>(); // fresh accounts each time
    if (!m_sim.start(args, m_data->path()))
        return false;
    m_alice = m_sim.signUp(u"alice@example.com"_s);
    m_bob = m_sim.signUp(u"bob@example.com"_s);
    return !m_alice.isEmpty() && !m_bob.isEmpty();
}

void TestApiChaos::init()
{
    QVERIFY2(startSim(), qPrintable(m_sim.lastError()));
}

void TestApiChaos::cleanup()
{
    m_sim.terminate();
}

void TestApiChaos::offWithoutAllowChaos()
{
    m_sim.terminate();
    QVERIFY2(startSim(false), qPrintable(m_sim.lastError()));
    for (const Reply &r :
         {m_sim.authedPost(m_alice, u"/v1/chaos/faults"_s, fault(u"fail_launch"_s)),
          m_sim.authedGet(m_alice, u"/v1/chaos/faults"_s)}) {
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorCode(), u"chaos_disabled"_s);
    }
    // And nothing was armed: a launch runs.
    QVERIFY(!m_sim.createRunning(m_alice, kLaunch).isEmpty());
}

void TestApiChaos::failLaunchFailsTheCallersNextLaunchOnly()
{
    const Reply armed =
        m_sim.authedPost(m_alice, u"/v1/chaos/faults"_s,
                         fault(u"fail_launch"_s, {{u"reason"_s, u"no capacity in zone b"_s}}));
    QCOMPARE(armed.status, 201);
    QCOMPARE(armed.value(u"state"_s).toString(), u"armed"_s);
    const QString faultId = armed.value(u"id"_s).toString();

    // Bob's launch is not Alice's: it runs.
    QVERIFY(!m_sim.createRunning(m_bob, kLaunch).isEmpty());

    const Reply created = m_sim.authedPost(m_alice, u"/v1/instances"_s, kLaunch);
    QCOMPARE(created.status, 202);
    const QString id = created.value(u"id"_s).toString();
    const QJsonObject failed = m_sim.waitForState(m_alice, id, u"failed"_s);
    QCOMPARE(failed.value(u"state"_s).toString(), u"failed"_s);
    const QString reason = failed.value(u"state_reason"_s).toString();
    QVERIFY2(reason.contains(u"no capacity in zone b"_s) && reason.contains(faultId),
             qPrintable(reason));

    const QJsonArray faults = m_sim.authedGet(m_alice, u"/v1/chaos/faults"_s).array();
    QCOMPARE(faults.size(), 1);
    QCOMPARE(faults[0][u"state"_s].toString(), u"done"_s);
    QCOMPARE(faults[0][u"failed_instance_id"_s].toString(), id);
    QVERIFY(!faults[0][u"fired_at"_s].isNull());
    QVERIFY(m_sim.authedGet(m_bob, u"/v1/chaos/faults"_s).array().isEmpty());

    // It fired once: the next launch runs.
    QVERIFY(!m_sim.createRunning(m_alice, kLaunch).isEmpty());
}

void TestApiChaos::clearedFailLaunchIsDisarmed()
{
    const QString id = m_sim.authedPost(m_alice, u"/v1/chaos/faults"_s, fault(u"fail_launch"_s))
                           .value(u"id"_s)
                           .toString();
    QCOMPARE(m_sim.authedDelete(m_bob, u"/v1/chaos/faults/"_s + id).status, 404);
    const Reply cleared = m_sim.authedDelete(m_alice, u"/v1/chaos/faults/"_s + id);
    QCOMPARE(cleared.status, 200);
    QCOMPARE(cleared.value(u"state"_s).toString(), u"cleared"_s);
    QVERIFY(!m_sim.createRunning(m_alice, kLaunch).isEmpty());
}

void TestApiChaos::slowApiHoldsTheCallersAnswersOnly()
{
    constexpr int kDelayMs = 3000;
    // Held at least the delay; 20 ms below it for the clocks' rounding, far above an answer's
    // usual milliseconds.
    constexpr int kHeldMs = kDelayMs - 20;
    const Reply slow =
        m_sim.authedPost(m_bob, u"/v1/chaos/faults"_s,
                         fault(u"slow_api"_s, {{u"delay_ms"_s, kDelayMs}, {u"duration_s"_s, 600}}));
    QCOMPARE(slow.status, 201);
    QCOMPARE(slow.value(u"state"_s).toString(), u"active"_s);
    QVERIFY(!slow.value(u"expires_at"_s).toString().isEmpty());

    QElapsedTimer held;
    held.start();
    const Reply me = m_sim.authedGet(m_bob, u"/v1/me"_s);
    QCOMPARE(me.status, 200);
    QVERIFY2(held.elapsed() >= kHeldMs, qPrintable(QString::number(held.elapsed())));
    // Alice's answers are not Bob's to slow (held, hers would take the whole delay too).
    held.restart();
    QCOMPARE(m_sim.authedGet(m_alice, u"/v1/me"_s).status, 200);
    QVERIFY2(held.elapsed() < kHeldMs, qPrintable(QString::number(held.elapsed())));
    // Errors too.
    held.restart();
    QCOMPARE(m_sim.authedGet(m_bob, u"/v1/instances/nope"_s).status, 404);
    QVERIFY(held.elapsed() >= kHeldMs);

    // Clearing it ends it at once (its own answer included).
    const Reply cleared =
        m_sim.authedDelete(m_bob, u"/v1/chaos/faults/"_s + slow.value(u"id"_s).toString());
    QCOMPARE(cleared.value(u"state"_s).toString(), u"cleared"_s);
    QCOMPARE(m_sim.authedGet(m_bob, u"/v1/me"_s).status, 200);
}

void TestApiChaos::slowApiIsBounded_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::newRow("delay over 10 s") << QJsonObject{{u"delay_ms"_s, 10001}, {u"duration_s"_s, 1}};
    QTest::newRow("no delay") << QJsonObject{{u"delay_ms"_s, 0}, {u"duration_s"_s, 1}};
    QTest::newRow("over 10 minutes") << QJsonObject{{u"delay_ms"_s, 1}, {u"duration_s"_s, 601}};
    QTest::newRow("no duration") << QJsonObject{{u"delay_ms"_s, 1}};
    QTest::newRow("a host") << QJsonObject{
        {u"delay_ms"_s, 1}, {u"duration_s"_s, 1}, {u"instance_id"_s, u"x"_s}};
}

void TestApiChaos::slowApiIsBounded()
{
    QFETCH(QJsonObject, body);
    const Reply r = m_sim.authedPost(m_alice, u"/v1/chaos/faults"_s, fault(u"slow_api"_s, body));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), u"invalid_field"_s);
    QVERIFY(m_sim.authedGet(m_alice, u"/v1/chaos/faults"_s).array().isEmpty());
}

void TestApiChaos::hostFaultsActOnOwnRunningHostsOnly()
{
    const QString bobs = m_sim.createRunning(m_bob, kLaunch);
    QVERIFY(!bobs.isEmpty());
    for (const QString &kind : {u"drop_ssh"_s, u"fill_disk"_s, u"interrupt"_s}) {
        const Reply r = m_sim.authedPost(m_alice, u"/v1/chaos/faults"_s,
                                         fault(kind, {{u"instance_id"_s, bobs}}));
        QCOMPARE(r.status, 404); // another user's host is not found, never touched
    }
    QCOMPARE(m_sim.authedPost(m_bob, u"/v1/chaos/faults"_s, fault(u"drop_ssh"_s)).status, 400);
    // The in-process runtime has no boxes to act in.
    Reply r = m_sim.authedPost(m_bob, u"/v1/chaos/faults"_s,
                               fault(u"drop_ssh"_s, {{u"instance_id"_s, bobs}}));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.errorCode(), u"chaos_unsupported"_s);
    // An on-demand host is not interrupted; an interruptible one gets the provider's notice.
    r = m_sim.authedPost(m_bob, u"/v1/chaos/faults"_s,
                         fault(u"interrupt"_s, {{u"instance_id"_s, bobs}}));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.errorCode(), u"illegal_transition"_s);
    QJsonObject spotLaunch = kLaunch;
    spotLaunch.insert(u"price_class"_s, u"interruptible"_s);
    const QString spot = m_sim.createRunning(m_bob, spotLaunch);
    QVERIFY(!spot.isEmpty());
    r = m_sim.authedPost(m_bob, u"/v1/chaos/faults"_s,
                         fault(u"interrupt"_s, {{u"instance_id"_s, spot}}));
    QCOMPARE(r.status, 201);
    QCOMPARE(r.value(u"state"_s).toString(), u"done"_s);
    const QJsonObject noticed = m_sim.authedGet(m_bob, u"/v1/instances/"_s + spot).object();
    QVERIFY2(!noticed.value(u"interruption_at"_s).toString().isEmpty(),
             QJsonDocument(noticed).toJson().constData());
    QVERIFY(
        r.value(u"detail"_s).toString().contains(noticed.value(u"interruption_at"_s).toString()));
}

void TestApiChaos::faultsAreSentAsEvents()
{
    QNetworkReply *stream = m_sim.send("GET", u"/v1/events"_s, {}, SimProcess::bearer(m_alice));
    QByteArray seen;
    connect(stream, &QIODevice::readyRead, stream, [&] { seen += stream->readAll(); });
    QTRY_VERIFY(seen.contains("event: hello"));
    const QString id = m_sim.authedPost(m_alice, u"/v1/chaos/faults"_s, fault(u"fail_launch"_s))
                           .value(u"id"_s)
                           .toString();
    QTRY_VERIFY(seen.contains("event: chaos.fault"));
    QVERIFY(seen.contains(id.toUtf8()));
    QVERIFY(seen.contains("\"state\":\"armed\""));
    m_sim.authedPost(m_alice, u"/v1/instances"_s, kLaunch);
    QTRY_VERIFY(seen.contains("\"state\":\"done\""));
    stream->abort();
}

QTEST_GUILESS_MAIN(TestApiChaos)
#include "tst_api_chaos.moc"
