// InstanceTeardown: stop and remove by label, queued with the instance's other requests; a stop
// that fails because the container is gone is a stop; a remove takes the volumes, network and
// files with it.
#include "FakeEngine.h"
#include "runtime/InstanceFiles.h"
#include "runtime/InstanceNetworks.h"
#include "runtime/InstanceTeardown.h"
#include "runtime/LaunchSteps.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestInstanceTeardown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stopsRunningContainers();
    void stopOfNothingRunning();
    void failedStopOfAGoneContainer();
    void failedStopOfARunningContainer();
    void removeTakesEverything();
    void removeFailure();
    void removeLooksUpWhatTheCacheDoesNotKnow();
    void removeOfAContainerGoneMeanwhile();
};

namespace {

struct Teardown
{
    explicit Teardown(const QString &dataDir = {}, cli::Engine kind = cli::Engine::Podman)
        : engine(kind)
    {
        InstanceTeardown::Settings settings;
        settings.stopTimeoutS = 5;
        settings.dataDir = dataDir;
        teardown = std::make_unique<InstanceTeardown>(engine, queue, cache, networks, settings);
    }

    FakeEngine engine;
    InstanceOpQueue queue;
    ContainerCache cache;
    LaunchSteps steps{engine, queue, cache};
    InstanceNetworks networks{steps, u"per-instance"_s};
    std::unique_ptr<InstanceTeardown> teardown;
};

QByteArray volumesOf(const QString &instanceId, const QString &provider)
{
    return QStringLiteral(
               R"([{"Name":"cardhour-ws-%1","Labels":{"cardhour.instance":"%1","cardhour.provider":"%2"}}])")
        .arg(instanceId, provider)
        .toUtf8();
}

} // namespace

void TestInstanceTeardown::stopsRunningContainers()
{
    Teardown t;
    t.engine.answer(u"ps -a"_s,
                    FakeEngine::ok(test::podmanPs(
                        {container(u"c1"_s, u"i-1"_s, true), container(u"c9"_s, u"i-9"_s, true)})));
    t.cache.remember(container(u"c1"_s, u"i-1"_s, true));
    QSignalSpy stopped(t.teardown.get(), &InstanceTeardown::stopped);
    t.teardown->stop(u"i-1"_s);
    QTRY_COMPARE(stopped.size(), 1);
    QCOMPARE(t.engine.first(u"stop"_s).args, (QStringList{u"stop"_s, u"-t"_s, u"5"_s, u"c1"_s}));
    QCOMPARE(t.engine.first(u"stop"_s).timeoutMs, 65000);
    QVERIFY(!t.cache.isRunning(u"i-1"_s));
    QVERIFY(!t.queue.hasPendingWork(u"i-1"_s));
}

void TestInstanceTeardown::stopOfNothingRunning()
{
    Teardown t;
    t.engine.answer(u"ps -a"_s,
                    FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, false)})));
    QSignalSpy stopped(t.teardown.get(), &InstanceTeardown::stopped);
    t.teardown->stop(u"i-1"_s);
    QTRY_COMPARE(stopped.size(), 1);
    QCOMPARE(t.engine.count(u"stop"_s), 0);
}

void TestInstanceTeardown::failedStopOfAGoneContainer()
{
    Teardown t;
    t.engine.once(u"ps -a"_s, FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, true)})));
    t.engine.answer(u"ps -a"_s, FakeEngine::ok("[]"));
    t.engine.answer(u"stop"_s, FakeEngine::failed("no such container"));
    QSignalSpy stopped(t.teardown.get(), &InstanceTeardown::stopped);
    QSignalSpy failed(t.teardown.get(), &InstanceTeardown::failed);
    t.teardown->stop(u"i-1"_s);
    QTRY_COMPARE(stopped.size(), 1);
    QCOMPARE(failed.size(), 0);
}

void TestInstanceTeardown::failedStopOfARunningContainer()
{
    Teardown t;
    t.engine.answer(u"ps -a"_s,
                    FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, true)})));
    t.engine.answer(u"stop"_s, FakeEngine::failed("timed out", 125));
    QSignalSpy stopped(t.teardown.get(), &InstanceTeardown::stopped);
    QSignalSpy failed(t.teardown.get(), &InstanceTeardown::failed);
    t.teardown->stop(u"i-1"_s);
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(1).toString(), u"podman stop failed (exit 125): timed out"_s);
    QCOMPARE(stopped.size(), 0);
    QVERIFY(!t.queue.hasPendingWork(u"i-1"_s));
    // A listing that fails is a stop that failed, too.
    t.engine.once(u"ps -a"_s, FakeEngine::failed("cannot connect"));
    t.teardown->stop(u"i-1"_s);
    QTRY_COMPARE(failed.size(), 2);
    QVERIFY(failed.at(1).at(1).toString().startsWith(u"cannot stop: podman ps failed"_s));
}

void TestInstanceTeardown::removeTakesEverything()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    QVERIFY(QDir().mkpath(InstanceFiles::instanceDirFor(data.path(), u"i-1"_s)));
    Teardown t(data.path());
    t.engine.answer(u"ps -a"_s,
                    FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, true)})));
    // Volume label filters are ORed by podman: a volume of another provider stays.
    t.engine.answer(u"volume ls"_s,
                    FakeEngine::ok(volumesOf(u"i-1"_s, u"prov"_s).chopped(1) + ","
                                   + volumesOf(u"i-1"_s, u"other"_s).mid(1)));
    t.cache.remember(container(u"c1"_s, u"i-1"_s, true));
    t.cache.setSshDir(u"i-1"_s, u"/somewhere"_s);
    QSignalSpy removed(t.teardown.get(), &InstanceTeardown::removed);
    t.teardown->remove(u"i-1"_s);
    QTRY_COMPARE(removed.size(), 1);
    // The container the cache knows is removed by its id: no `ps` of every container first.
    const QStringList lines = t.engine.lines();
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines.at(0), cli::forceRemoveArgs(cli::Engine::Podman, {u"c1"_s}).join(u' '));
    QCOMPARE(lines.at(1), u"volume ls --filter label=cardhour.instance=i-1 --format json"_s);
    QCOMPARE(lines.at(2), u"volume rm -f cardhour-ws-i-1"_s);
    QCOMPARE(lines.at(3), u"network rm cardhour-net-i-1"_s);
    QVERIFY(!t.cache.contains(u"i-1"_s));
    QVERIFY(t.cache.sshDir(u"i-1"_s).isEmpty());
    QVERIFY(!QDir(InstanceFiles::instanceDirFor(data.path(), u"i-1"_s)).exists());
}

void TestInstanceTeardown::removeFailure()
{
    Teardown t;
    t.engine.answer(u"ps -a"_s, FakeEngine::ok("[]"));
    t.engine.answer(u"volume ls"_s, FakeEngine::ok(volumesOf(u"i-1"_s, u"prov"_s)));
    t.engine.answer(u"volume rm"_s, FakeEngine::failed("volume is being used"));
    QSignalSpy removed(t.teardown.get(), &InstanceTeardown::removed);
    QSignalSpy failed(t.teardown.get(), &InstanceTeardown::failed);
    t.teardown->remove(u"i-1"_s);
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(1).toString(),
             u"cannot remove: podman volume rm failed (exit 1): volume is being used"_s);
    QCOMPARE(removed.size(), 0);
    QCOMPARE(t.engine.count(u"rm"_s), 0); // no container: none removed
}

void TestInstanceTeardown::removeLooksUpWhatTheCacheDoesNotKnow()
{
    Teardown t;
    t.engine.answer(u"ps -a"_s,
                    FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, false),
                                                   container(u"c2"_s, u"i-1"_s, false)})));
    t.engine.answer(u"volume ls"_s, FakeEngine::ok("[]"));
    QSignalSpy removed(t.teardown.get(), &InstanceTeardown::removed);
    t.teardown->remove(u"i-1"_s);
    QTRY_COMPARE(removed.size(), 1);
    const QStringList lines = t.engine.lines();
    QVERIFY(lines.at(0).startsWith(u"ps -a"_s));
    QCOMPARE(lines.at(1), cli::forceRemoveArgs(cli::Engine::Podman, {u"c1"_s, u"c2"_s}).join(u' '));
}

void TestInstanceTeardown::removeOfAContainerGoneMeanwhile()
{
    Teardown t;
    t.engine.answer(u"rm"_s,
                    FakeEngine::failed("Error: no container with name or ID \"c1\" "
                                       "found: no such container"));
    t.engine.answer(u"volume ls"_s, FakeEngine::ok(volumesOf(u"i-1"_s, u"prov"_s)));
    t.cache.remember(container(u"c1"_s, u"i-1"_s, false));
    QSignalSpy removed(t.teardown.get(), &InstanceTeardown::removed);
    QSignalSpy failed(t.teardown.get(), &InstanceTeardown::failed);
    t.teardown->remove(u"i-1"_s);
    QTRY_COMPARE(removed.size(), 1);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(t.engine.count(u"volume rm"_s), 1); // its disk goes all the same
    QCOMPARE(t.engine.count(u"ps"_s), 0);
}

QTEST_GUILESS_MAIN(TestInstanceTeardown)
#include "tst_instanceteardown.moc"
