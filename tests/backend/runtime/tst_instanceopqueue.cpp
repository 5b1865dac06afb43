// InstanceOpQueue: one request per instance at a time, tokens that tell a stale step, and a
// stop that makes a create in progress stale.
#include "runtime/InstanceOpQueue.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using Kind = InstanceOpQueue::Kind;

class TestInstanceOpQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsOneAfterAnother();
    void instancesRunSideBySide();
    void stopMakesACreateStale();
    void snapshotIsNotMadeStale();
};

void TestInstanceOpQueue::runsOneAfterAnother()
{
    InstanceOpQueue queue;
    QStringList ran;
    quint64 firstToken = 0;
    queue.enqueue(u"i-1"_s, Kind::Create, [&](quint64 token) {
        firstToken = token;
        ran << u"create"_s;
    });
    queue.enqueue(u"i-1"_s, Kind::Stop, [&](quint64) { ran << u"stop"_s; });
    QVERIFY(ran.isEmpty()); // on the event loop, not at once
    QVERIFY(queue.hasPendingWork(u"i-1"_s));
    QTRY_COMPARE(ran, QStringList{u"create"_s});
    QTest::qWait(20);
    QCOMPARE(ran, QStringList{u"create"_s}); // the stop waits for the create's end
    queue.end(u"i-1"_s);
    QTRY_COMPARE(ran, (QStringList{u"create"_s, u"stop"_s}));
    QVERIFY(!queue.current(u"i-1"_s, firstToken));
    queue.end(u"i-1"_s);
    QVERIFY(!queue.hasPendingWork(u"i-1"_s));
    QVERIFY(!queue.hasPendingWork());
    QVERIFY(!queue.contains(u"i-1"_s));
}

void TestInstanceOpQueue::instancesRunSideBySide()
{
    InstanceOpQueue queue;
    QStringList ran;
    queue.enqueue(u"i-1"_s, Kind::Create, [&](quint64) { ran << u"i-1"_s; });
    queue.enqueue(u"i-2"_s, Kind::Create, [&](quint64) { ran << u"i-2"_s; });
    QTRY_COMPARE(ran.size(), 2);
    QVERIFY(queue.hasPendingWork());
}

void TestInstanceOpQueue::stopMakesACreateStale()
{
    InstanceOpQueue queue;
    quint64 createToken = 0;
    bool stopRan = false;
    queue.enqueue(u"i-1"_s, Kind::Create, [&](quint64 token) { createToken = token; });
    QTRY_VERIFY(createToken != 0);
    QVERIFY(queue.current(u"i-1"_s, createToken));
    queue.enqueue(u"i-1"_s, Kind::Stop, [&](quint64) { stopRan = true; });
    QVERIFY(!queue.current(u"i-1"_s, createToken)); // its next step ends it
    QTest::qWait(20);
    QVERIFY(!stopRan);
    queue.end(u"i-1"_s); // what the stale step does
    QTRY_VERIFY(stopRan);
}

void TestInstanceOpQueue::snapshotIsNotMadeStale()
{
    InstanceOpQueue queue;
    quint64 snapshotToken = 0;
    queue.enqueue(u"i-1"_s, Kind::Snapshot, [&](quint64 token) { snapshotToken = token; });
    QTRY_VERIFY(snapshotToken != 0);
    queue.enqueue(u"i-1"_s, Kind::Remove, [](quint64) {});
    // A terminate asked for after a snapshot waits until the copies are made.
    QVERIFY(queue.current(u"i-1"_s, snapshotToken));
    queue.cancelProbe(u"i-1"_s); // no probe: nothing happens
    QVERIFY(queue.current(u"i-1"_s, snapshotToken));
}

QTEST_GUILESS_MAIN(TestInstanceOpQueue)
#include "tst_instanceopqueue.moc"
