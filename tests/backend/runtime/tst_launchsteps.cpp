// LaunchSteps: how a launch's step knows it was superseded, and how a launch fails (with its
// container stopped, or with the container's log).
#include "LaunchFixture.h"

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::FakeEngine;
using test::LaunchFixture;

class TestLaunchSteps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failEndsTheOp();
    void failStopsTheContainer();
    void failWithContainerLog();
    void supersededLaunchFailsSilently();
};

void TestLaunchSteps::failEndsTheOp()
{
    LaunchFixture f;
    auto launch = f.begin(u"i-1"_s);
    QVERIFY(f.steps.current(*launch));
    QVERIFY(!f.steps.abandoned(*launch));
    f.steps.fail(launch, u"broken"_s, true); // no container yet: nothing to stop
    QCOMPARE(f.failed.size(), 1);
    QCOMPARE(f.failed.at(0).at(0).toString(), u"i-1"_s);
    QCOMPARE(f.failed.at(0).at(1).toString(), u"broken"_s);
    QVERIFY(!f.queue.hasPendingWork(u"i-1"_s));
    QVERIFY(f.engine.calls.isEmpty());
}

void TestLaunchSteps::failStopsTheContainer()
{
    LaunchFixture f;
    auto launch = f.begin(u"i-1"_s);
    launch->containerId = u"c1"_s;
    f.cache.remember(test::container(u"c1"_s, u"i-1"_s, true));
    f.steps.fail(launch, u"sshd never answered"_s, true);
    QCOMPARE(f.failed.size(), 0); // after the stop
    QTRY_COMPARE(f.failed.size(), 1);
    QCOMPARE(f.engine.lines(), QStringList{u"stop -t 2 c1"_s});
    QVERIFY(!f.cache.isRunning(u"i-1"_s));
    QVERIFY(!f.queue.hasPendingWork(u"i-1"_s));
}

void TestLaunchSteps::failWithContainerLog()
{
    LaunchFixture f;
    f.engine.answer(u"logs"_s, FakeEngine::ok("sshd: no hostkeys available -- exiting.\n"));
    auto launch = f.begin(u"i-1"_s);
    launch->containerId = u"c1"_s;
    f.steps.failWithContainerLog(launch, u"the container exited (code 1)"_s, false);
    QTRY_COMPARE(f.failed.size(), 1);
    QCOMPARE(f.failed.at(0).at(1).toString(),
             u"the container exited (code 1); container log: sshd: no hostkeys available -- "
             "exiting."_s);
    QCOMPARE(f.engine.lines(), QStringList{u"logs --tail 15 c1"_s});
}

void TestLaunchSteps::supersededLaunchFailsSilently()
{
    LaunchFixture f;
    auto launch = f.begin(u"i-1"_s);
    bool removeRan = false;
    f.queue.enqueue(u"i-1"_s, InstanceOpQueue::Kind::Remove, [&](quint64) { removeRan = true; });
    QVERIFY(!f.steps.current(*launch));
    f.steps.fail(launch, u"too late"_s, false);
    QCOMPARE(f.failed.size(), 0);
    QTRY_VERIFY(removeRan); // the op ended: the remove runs
    auto second = f.begin(u"i-2"_s);
    f.queue.enqueue(u"i-2"_s, InstanceOpQueue::Kind::Stop, [](quint64) {});
    QVERIFY(f.steps.abandoned(*second));
}

QTEST_GUILESS_MAIN(TestLaunchSteps)
#include "tst_launchsteps.moc"
