// SshdReadiness: a container that exits (or vanishes) before its sshd answers fails the launch
// at once, with its log, at the watchdog's tick or when the engine's events say so; a probe
// that never gets an answer fails at its deadline. (A ready sshd: tst_podmanruntime.)
#include "LaunchFixture.h"
#include "runtime/AppWatcher.h"
#include "runtime/SshdReadiness.h"

#include <QElapsedTimer>
#include <QTcpServer>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;
using test::LaunchFixture;

class TestSshdReadiness : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exitedContainerFailsAtTheWatchdogsTick();
    void eventChecksAtOnce();
    void deadlineFailsAndStopsTheContainer();
    void stopCancelsTheWait();
};

namespace {

// A loopback port nothing listens on.
int closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

std::shared_ptr<Launch> launchFor(LaunchFixture &f, const QString &id)
{
    auto launch = f.begin(id);
    launch->containerId = u"c-"_s + id;
    launch->sshPort = closedPort();
    launch->spec.hostKeySha256 = u"SHA256:AAAA"_s;
    f.cache.remember(container(launch->containerId, id, true, launch->sshPort));
    return launch;
}

} // namespace

void TestSshdReadiness::exitedContainerFailsAtTheWatchdogsTick()
{
    LaunchFixture f;
    f.engine.answer(u"inspect"_s, FakeEngine::ok("false 3\n"));
    f.engine.answer(u"logs"_s, FakeEngine::ok("sshd: no hostkeys available\n"));
    AppWatcher apps(f.engine, f.cache);
    SshdReadiness readiness(f.steps, apps, 60000);
    QSignalSpy stages(&readiness, &SshdReadiness::stageReached);
    auto launch = launchFor(f, u"i-1"_s);
    QElapsedTimer clock;
    clock.start();
    readiness.waitFor(launch);
    QCOMPARE(stages.size(), 1);
    QCOMPARE(stages.at(0).at(1).toString(), u"sshd"_s);
    QTRY_COMPARE_WITH_TIMEOUT(f.failed.size(), 1, 5000);
    QVERIFY(clock.elapsed() < 10000); // not at the probe's deadline
    QCOMPARE(f.failed.at(0).at(1).toString(),
             u"the container exited (code 3) before sshd was ready; container log: sshd: no "
             "hostkeys available"_s);
    QCOMPARE(f.engine.first(u"inspect"_s).args.last(), u"c-i-1"_s);
    QVERIFY(!f.cache.isRunning(u"i-1"_s));
    QCOMPARE(f.engine.count(u"stop"_s), 0); // it has ended already
    QVERIFY(!f.queue.hasPendingWork(u"i-1"_s));
}

void TestSshdReadiness::eventChecksAtOnce()
{
    LaunchFixture f;
    f.engine.answer(u"inspect"_s, FakeEngine::failed("Error: no such container c-i-1"));
    AppWatcher apps(f.engine, f.cache);
    SshdReadiness readiness(f.steps, apps, 60000);
    auto launch = launchFor(f, u"i-1"_s);
    readiness.waitFor(launch);
    readiness.checkNow(u"i-1"_s); // the engine said it ended
    readiness.checkNow(u"i-9"_s); // not awaited: nothing
    QCOMPARE(f.engine.count(u"inspect"_s), 1);
    QTRY_COMPARE_WITH_TIMEOUT(f.failed.size(), 1, 800); // before the first tick
    QVERIFY(f.failed.at(0).at(1).toString().startsWith(
        u"the container disappeared before sshd was ready"_s));
}

void TestSshdReadiness::deadlineFailsAndStopsTheContainer()
{
    LaunchFixture f;
    AppWatcher apps(f.engine, f.cache);
    SshdReadiness readiness(f.steps, apps, 300);
    QSignalSpy ready(&readiness, &SshdReadiness::ready);
    auto launch = launchFor(f, u"i-1"_s);
    readiness.waitFor(launch);
    QTRY_COMPARE_WITH_TIMEOUT(f.failed.size(), 1, 5000);
    QVERIFY(f.failed.at(0).at(1).toString().startsWith(u"sshd did not become ready: "_s));
    QCOMPARE(f.engine.lines().last(), u"stop -t 2 c-i-1"_s);
    QCOMPARE(ready.size(), 0);
}

void TestSshdReadiness::stopCancelsTheWait()
{
    LaunchFixture f;
    AppWatcher apps(f.engine, f.cache);
    SshdReadiness readiness(f.steps, apps, 60000);
    auto launch = launchFor(f, u"i-1"_s);
    readiness.waitFor(launch);
    bool stopRan = false;
    f.queue.enqueue(u"i-1"_s, InstanceOpQueue::Kind::Stop, [&](quint64) { stopRan = true; });
    QTRY_VERIFY(stopRan); // the probe was cancelled and the wait ended at once
    QTest::qWait(1200); // the watchdog's tick sees the launch superseded and stops
    QCOMPARE(f.failed.size(), 0);
    QCOMPARE(f.engine.count(u"inspect"_s), 0);
}

QTEST_GUILESS_MAIN(TestSshdReadiness)
#include "tst_sshdreadiness.moc"
