// EventStream against a real cardhour-sim: events after a create, resuming with Last-Event-ID,
// and reconnecting after the provider was killed and came back on the same port.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;
using cardhour::test::awaitState;
using cardhour::test::SimProcess;

namespace {

// Records what a stream delivered.
struct Recorder
{
    QList<Instance> instances;
    QList<BillingSummary> billing;
    QStringList hellos;

    explicit Recorder(EventStream &stream, QObject *context)
    {
        QObject::connect(&stream, &EventStream::instanceChanged, context,
                         [this](const Instance &i) { instances.append(i); });
        QObject::connect(&stream, &EventStream::billingChanged, context,
                         [this](const BillingSummary &s) { billing.append(s); });
        QObject::connect(&stream, &EventStream::hello, context,
                         [this](const QString &id) { hellos.append(id); });
    }

    bool saw(const QString &id, InstanceState state) const
    {
        for (const Instance &i : instances) {
            if (i.id == id && i.state == state)
                return true;
        }
        return false;
    }
};

} // namespace

class TestEventStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void instanceEventsAfterCreate();
    void billingEvents();
    void snapshotEvents();
    void resumesWithLastEventId();
    void reconnectsAfterProviderRestart();
    void unauthorizedStops();
    void retriesWhileProviderIsDown();

private:
    void prepare(EventStream &stream);
    QString createInstance(const QString &name);

    std::unique_ptr<SimProcess> m_sim;
    std::unique_ptr<ProviderClient> m_client;
    QString m_userId;
};

void TestEventStream::init()
{
    m_sim = std::make_unique<SimProcess>();
    QVERIFY2(m_sim->start({u"--test-clock"_s}), qPrintable(m_sim->lastError()));
    m_client = std::make_unique<ProviderClient>();
    m_client->setBaseUrl(m_sim->baseUrl());
    const auto session =
        await(m_client->signUp(u"stream@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, session.why());
    m_client->setToken(session.value->token);
    m_userId = session.value->user.id;
}

void TestEventStream::cleanup()
{
    m_client.reset();
    m_sim.reset();
}

void TestEventStream::prepare(EventStream &stream)
{
    stream.setBaseUrl(m_sim->baseUrl());
    stream.setToken(m_client->token());
    stream.setReconnectDelays(20, 200); // tests need not wait for the real backoff
}

QString TestEventStream::createInstance(const QString &name)
{
    const auto created =
        await(m_client->createInstance({name, u"rtx4090"_s, 1, u"base"_s, {}, {}}));
    if (!created.ok)
        qWarning("create failed: %s", created.why());
    return created.ok ? created.value->id : QString();
}

void TestEventStream::instanceEventsAfterCreate()
{
    EventStream stream;
    prepare(stream);
    Recorder seen(stream, this);
    QSignalSpy connected(&stream, &EventStream::connected);
    stream.start();
    QTRY_COMPARE(stream.state(), EventStream::State::Connected);
    QCOMPARE(connected.count(), 1);
    QTRY_COMPARE(seen.hellos, QStringList{m_userId});
    QCOMPARE(stream.lastEventId(), -1); // hello carries no id

    const QString id = createInstance(u"events"_s);
    QVERIFY(!id.isEmpty());
    QTRY_VERIFY(seen.saw(id, InstanceState::Creating));
    QTRY_VERIFY(seen.saw(id, InstanceState::Running));
    QVERIFY(stream.lastEventId() > 0);
    const Instance &last = seen.instances.last();
    QCOMPARE(last.name, u"events"_s);
    QVERIFY(last.launch.reached(u"ready"_s));

    QSignalSpy disconnected(&stream, &EventStream::disconnected);
    stream.stop();
    QCOMPARE(stream.state(), EventStream::State::Idle);
    QCOMPARE(disconnected.count(), 1);
}

void TestEventStream::billingEvents()
{
    EventStream stream;
    prepare(stream);
    Recorder seen(stream, this);
    stream.start();
    QTRY_VERIFY(stream.isConnected());
    const QString id = createInstance(u"billed"_s);
    QTRY_VERIFY(seen.saw(id, InstanceState::Running));
    QVERIFY(m_sim->advance(3600));
    QTRY_VERIFY(!seen.billing.isEmpty() && seen.billing.last().spendRateMicrosPerHour == 1'900'000
                && seen.billing.last().balanceMicros == 10'000'000 - 1'900'000);
    QVERIFY(seen.billing.last().runsOutAt.isValid());
    QVERIFY(seen.billing.last().asOf.isValid());
}

void TestEventStream::snapshotEvents()
{
    // Snapshots of the in-process runtime are copies of folders: ready at once.
    SimProcess sim;
    QVERIFY2(sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(sim.lastError()));
    ProviderClient client;
    client.setBaseUrl(sim.baseUrl());
    const auto session = await(client.signUp(u"snap@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, session.why());
    client.setToken(session.value->token);
    EventStream stream;
    stream.setBaseUrl(sim.baseUrl());
    stream.setToken(client.token());
    QList<Snapshot> snapshots;
    connect(&stream, &EventStream::snapshotChanged, this,
            [&snapshots](const Snapshot &s) { snapshots.append(s); });
    stream.start();
    QTRY_VERIFY(stream.isConnected());
    const auto created =
        await(client.createInstance({u"src"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}}));
    QVERIFY2(created.ok, created.why());
    QVERIFY(awaitState(client, created.value->id, InstanceState::Running));
    const auto taken = await(client.createSnapshot(created.value->id, u"snap"_s));
    QVERIFY2(taken.ok, taken.why());
    QTRY_VERIFY(!snapshots.isEmpty() && snapshots.last().isReady());
    const Snapshot &ready = snapshots.last();
    QCOMPARE(ready.id, taken.value->id);
    QCOMPARE(ready.name, u"snap"_s);
    QCOMPARE(ready.retention.keeps, (QStringList{u"container_disk"_s, u"workspace_volume"_s}));
    QVERIFY(ready.retention.doesNotKeep.contains(u"host_key"_s));
    QVERIFY(ready.retention.survivesInstanceTerminate);
    QCOMPARE(ready.retention.billedWhileKept, QStringList{u"storage"_s});
    QVERIFY(ready.retention.storageGib >= 1);
    QVERIFY(ready.retention.storagePricePerGibHourMicros > 0);
    QCOMPARE(ready.retention.storageRateMicrosPerHour,
             ready.retention.storageGib * ready.retention.storagePricePerGibHourMicros);
    QCOMPARE(ready.storageRateMicrosPerHour, ready.retention.storageRateMicrosPerHour);
    QVERIFY(await(client.deleteSnapshot(ready.id)).ok);
    QTRY_COMPARE(snapshots.last().state, u"deleted"_s);
}

void TestEventStream::resumesWithLastEventId()
{
    EventStream stream;
    prepare(stream);
    Recorder seen(stream, this);
    stream.start();
    QTRY_VERIFY(stream.isConnected());
    const QString first = createInstance(u"first"_s);
    QTRY_VERIFY(seen.saw(first, InstanceState::Running));
    const qint64 lastSeen = stream.lastEventId();
    QVERIFY(lastSeen > 0);

    // While the stream is closed, a second instance comes and goes through its states.
    stream.stop();
    const QString second = createInstance(u"second"_s);
    QVERIFY(cardhour::test::awaitState(*m_client, second, InstanceState::Running));
    QVERIFY(!seen.saw(second, InstanceState::Creating));

    // Back again: the provider replays what came after Last-Event-ID.
    stream.start();
    QTRY_VERIFY(stream.isConnected());
    QCOMPARE(stream.lastSentEventId(), lastSeen);
    QTRY_VERIFY(seen.saw(second, InstanceState::Creating));
    QTRY_VERIFY(seen.saw(second, InstanceState::Running));
    QVERIFY(stream.lastEventId() > lastSeen);
}

void TestEventStream::reconnectsAfterProviderRestart()
{
    EventStream stream;
    prepare(stream);
    Recorder seen(stream, this);
    QSignalSpy disconnected(&stream, &EventStream::disconnected);
    stream.start();
    QTRY_VERIFY(stream.isConnected());
    const QString before = createInstance(u"before"_s);
    QTRY_VERIFY(seen.saw(before, InstanceState::Running));
    const qint64 lastSeen = stream.lastEventId();
    QVERIFY(lastSeen > 0);

    const quint16 port = m_sim->port();
    const QString dataDir = m_sim->dataDir();
    m_sim->kill();
    QTRY_VERIFY(!stream.isConnected());
    QVERIFY(disconnected.count() >= 1);
    // It keeps trying while the provider is away (connection refused each time).
    QTRY_VERIFY(disconnected.count() >= 3);

    // The same provider (same data, same port) comes back.
    QVERIFY2(m_sim->start({u"--test-clock"_s, u"--listen"_s, u"127.0.0.1:%1"_s.arg(port)}, dataDir),
             qPrintable(m_sim->lastError()));
    QCOMPARE(m_sim->port(), port);
    QTRY_VERIFY_WITH_TIMEOUT(stream.isConnected(), 15000);
    QCOMPARE(stream.connectionCount(), 2);
    QCOMPARE(stream.lastSentEventId(), lastSeen);
    QTRY_COMPARE(seen.hellos.size(), 2);

    // Events of the restarted provider arrive on the new connection.
    m_client->setBaseUrl(m_sim->baseUrl());
    const QString after = createInstance(u"after"_s);
    QVERIFY(!after.isEmpty());
    QTRY_VERIFY(seen.saw(after, InstanceState::Running));
}

void TestEventStream::unauthorizedStops()
{
    EventStream stream;
    prepare(stream);
    stream.setToken(u"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"_s);
    QSignalSpy expired(&stream, &EventStream::sessionExpired);
    stream.start();
    QTRY_COMPARE(expired.count(), 1);
    QCOMPARE(stream.state(), EventStream::State::Idle);
    QCOMPARE(stream.connectionCount(), 0);
}

void TestEventStream::retriesWhileProviderIsDown()
{
    m_sim->kill();
    EventStream stream;
    prepare(stream);
    QSignalSpy disconnected(&stream, &EventStream::disconnected);
    stream.start();
    QTRY_VERIFY(disconnected.count() >= 2);
    QVERIFY(!disconnected.first().first().toString().isEmpty()); // a reason for the banner
    QVERIFY(stream.state() == EventStream::State::Waiting
            || stream.state() == EventStream::State::Connecting);
    stream.stop();
    QCOMPARE(stream.state(), EventStream::State::Idle);
}

QTEST_GUILESS_MAIN(TestEventStream)
#include "tst_eventstream.moc"
