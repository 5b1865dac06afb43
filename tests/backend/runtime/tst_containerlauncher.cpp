// ContainerLauncher with every part of a launch over a fake engine: the quick path of a create
// (volume create, run) up to the sshd wait, a run retried when its name is taken, an image that
// is not built, and a start of a known or a gone container. No sshd answers here: readiness
// fails at its short deadline, with the container's log, and the container is stopped.
#include "LaunchFixture.h"
#include "runtime/AppWatcher.h"
#include "runtime/ContainerLauncher.h"
#include "runtime/ContainerSnapshots.h"
#include "runtime/EgressFilter.h"
#include "runtime/ImageWait.h"
#include "runtime/InstanceNetworks.h"
#include "runtime/SshdReadiness.h"
#include "runtime/WorkspaceVolumes.h"

#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestContainerLauncher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_data.isValid()); }
    void refusesWhatCannotRun();
    void createUpToSshd();
    void runAgainWhenTheNameIsTaken();
    void imageNotBuilt();
    void startOfAKnownContainer();
    void startOfAGoneContainer();

private:
    QTemporaryDir m_data;
};

namespace {

struct Launcher
{
    Launcher(const QString &dataDir, const QString &network = u"slirp4netns"_s)
        : networks(f.steps, network), volumes(f.steps, DiskQuota{}, dataDir, 1000),
          snapshots(f.steps, volumes, dataDir, u"localhost/cardhour/"_s),
          imageWait(f.steps, dataDir, u"localhost/cardhour/"_s), apps(f.engine, f.cache),
          readiness(f.steps, apps, 300), egress(f.engine, unfiltered()),
          launcher({f.steps, networks, volumes, snapshots, imageWait, readiness, egress},
                   settings(dataDir))
    {
        QObject::connect(&readiness, &SshdReadiness::stageReached, &launcher,
                         &ContainerLauncher::stageReached);
    }

    // The fake engine's boxes have no network namespace to filter (tst_egressfilter and the
    // podman tests do).
    static EgressFilter::Settings unfiltered()
    {
        EgressFilter::Settings s;
        s.enabled = false;
        return s;
    }

    static ContainerLauncher::Settings settings(const QString &dataDir)
    {
        ContainerLauncher::Settings s;
        s.run.providerId = u"prov"_s;
        s.run.imagePrefix = u"localhost/cardhour/"_s;
        s.run.dataDir = dataDir;
        s.dataDir = dataDir;
        return s;
    }

    QStringList stages() const
    {
        QStringList all;
        for (const QList<QVariant> &args : stageSpy)
            all.append(args.at(1).toString());
        return all;
    }

    test::LaunchFixture f;
    InstanceNetworks networks;
    WorkspaceVolumes volumes;
    ContainerSnapshots snapshots;
    ImageWait imageWait;
    AppWatcher apps;
    SshdReadiness readiness;
    EgressFilter egress;
    ContainerLauncher launcher;
    QSignalSpy stageSpy{&launcher, &ContainerLauncher::stageReached};
};

InstanceSpec specFor(const QString &id)
{
    InstanceSpec spec;
    spec.instanceId = id;
    spec.ownerId = u"u-1"_s;
    spec.image = u"base"_s;
    return spec;
}

} // namespace

void TestContainerLauncher::refusesWhatCannotRun()
{
    Launcher l(m_data.path());
    l.launcher.create(specFor(u"../bad"_s));
    QTRY_COMPARE(l.f.failed.size(), 1);
    QCOMPARE(l.f.failed.at(0).at(1).toString(), u"invalid instance id"_s);
    QCOMPARE(l.stages(), QStringList{u"image"_s});
    Launcher noData(QString{});
    noData.launcher.create(specFor(u"i-1"_s));
    QTRY_COMPARE(noData.f.failed.size(), 1);
    QCOMPARE(noData.f.failed.at(0).at(1).toString(),
             u"no SSH directory for the instance (InstanceSpec::sshDir)"_s);
    InstanceSpec restore = specFor(u"i-2"_s);
    restore.snapshotId = u"gone"_s;
    l.launcher.create(restore);
    QTRY_COMPARE(l.f.failed.size(), 2);
    QCOMPARE(l.f.failed.at(1).at(1).toString(), u"the snapshot's /workspace archive is gone"_s);
    QVERIFY(l.f.engine.calls.isEmpty());
}

void TestContainerLauncher::createUpToSshd()
{
    Launcher l(m_data.path());
    l.f.engine.answer(u"run -d"_s, FakeEngine::ok("Trying to pull...\nc0ffee\n"));
    l.f.engine.answer(u"logs"_s, FakeEngine::ok("sshd: starting\n"));
    l.launcher.create(specFor(u"i-1"_s));
    QTRY_COMPARE_WITH_TIMEOUT(l.f.failed.size(), 1, 5000);
    QCOMPARE(l.stages(), (QStringList{u"image"_s, u"container"_s, u"sshd"_s}));
    const QString reason = l.f.failed.at(0).at(1).toString();
    QVERIFY2(reason.startsWith(u"sshd did not become ready: "_s), qPrintable(reason));
    QVERIFY2(reason.endsWith(u"; container log: sshd: starting"_s), qPrintable(reason));
    const QStringList lines = l.f.engine.lines();
    QVERIFY2(lines.at(0).startsWith(u"volume create"_s), qPrintable(lines.join(u'\n')));
    QVERIFY(lines.at(1).startsWith(u"run -d --name cardhour-i-1"_s));
    QVERIFY(lines.contains(u"logs --tail 15 c0ffee"_s));
    QCOMPARE(lines.last(), u"stop -t 2 c0ffee"_s); // not left running while `failed`
    const cli::ContainerInfo info = l.f.cache.info(u"i-1"_s);
    QCOMPARE(info.containerId, u"c0ffee"_s);
    QVERIFY(info.sshPort > 0);
    QCOMPARE(info.ports.value(22), info.sshPort);
    QVERIFY(!info.running);
    QVERIFY(l.f.engine.first(u"run"_s).line().contains(u"127.0.0.1:%1:22"_s.arg(info.sshPort)));
    QVERIFY(!l.f.cache.sshDir(u"i-1"_s).isEmpty());
    QVERIFY(!l.f.queue.hasPendingWork(u"i-1"_s));
}

void TestContainerLauncher::runAgainWhenTheNameIsTaken()
{
    Launcher l(m_data.path());
    l.f.engine.once(u"run -d"_s,
                    FakeEngine::failed("Error: creating container storage: the container name "
                                       "\"cardhour-i-2\" is already in use by 5357. You have to "
                                       "remove that container to be able to reuse that name: that "
                                       "name is already in use"));
    l.f.engine.answer(u"run -d"_s, FakeEngine::ok("c2\n"));
    l.f.engine.answer(u"ps -a"_s,
                      FakeEngine::ok(test::podmanPs({container(u"old"_s, u"i-2"_s, false)})));
    l.launcher.create(specFor(u"i-2"_s));
    QTRY_VERIFY_WITH_TIMEOUT(l.stages().contains(u"sshd"_s), 5000);
    QCOMPARE(l.f.engine.count(u"run -d"_s), 2);
    QCOMPARE(l.f.engine.count(cli::forceRemoveArgs(cli::Engine::Podman, {u"old"_s}).join(u' ')), 1);
    QTRY_COMPARE_WITH_TIMEOUT(l.f.failed.size(), 1, 5000); // no sshd here
    // A name taken by a container that is not ours by label stays, and the launch fails.
    Launcher other(m_data.path());
    other.f.engine.answer(u"run -d"_s,
                          FakeEngine::failed("the container name \"cardhour-i-3\" "
                                             "is already in use"));
    other.f.engine.answer(u"ps -a"_s, FakeEngine::ok("[]"));
    other.launcher.create(specFor(u"i-3"_s));
    QTRY_COMPARE(other.f.failed.size(), 1);
    QCOMPARE(other.f.failed.at(0).at(1).toString(),
             u"the container name cardhour-i-3 is taken by a container that is not this "
             "instance's"_s);
}

void TestContainerLauncher::imageNotBuilt()
{
    Launcher l(m_data.path());
    l.f.engine.answer(u"run -d"_s,
                      FakeEngine::failed("Error: localhost/cardhour/base:latest: image not known"));
    l.launcher.create(specFor(u"i-4"_s));
    QTRY_COMPARE(l.f.failed.size(), 1);
    QCOMPARE(l.f.failed.at(0).at(1).toString(), ImageWait::missingReason(u"base"_s));
    QCOMPARE(l.f.engine.lines().last(), u"volume rm cardhour-ws-i-4"_s); // nothing left behind
    QCOMPARE(l.stages(), QStringList{u"image"_s});
}

void TestContainerLauncher::startOfAKnownContainer()
{
    Launcher l(m_data.path(), u"per-instance"_s);
    l.f.cache.remember(container(u"c5"_s, u"i-5"_s, false, 40555));
    l.launcher.start(specFor(u"i-5"_s));
    QTRY_VERIFY_WITH_TIMEOUT(l.stages().contains(u"sshd"_s), 5000);
    QCOMPARE(l.stages().mid(0, 2), (QStringList{u"container"_s, u"sshd"_s}));
    QCOMPARE(l.f.engine.lines().at(0), u"start c5"_s); // known: no listing first
    QVERIFY(l.f.cache.isRunning(u"i-5"_s));
    QTRY_COMPARE_WITH_TIMEOUT(l.f.failed.size(), 1, 5000);
}

void TestContainerLauncher::startOfAGoneContainer()
{
    Launcher l(m_data.path());
    l.f.engine.answer(u"ps -a"_s, FakeEngine::ok("[]"));
    l.launcher.start(specFor(u"i-6"_s));
    QTRY_COMPARE(l.f.failed.size(), 1);
    QCOMPARE(l.f.failed.at(0).at(1).toString(), u"container is gone"_s);
    // Known, but gone since: `start` says so.
    l.f.cache.remember(container(u"c7"_s, u"i-7"_s, false));
    l.f.engine.answer(u"start"_s,
                      FakeEngine::failed("Error: no container with name or ID "
                                         "\"c7\" found: no such container"));
    l.launcher.start(specFor(u"i-7"_s));
    QTRY_COMPARE(l.f.failed.size(), 2);
    QCOMPARE(l.f.failed.at(1).at(1).toString(), u"container is gone"_s);
    QVERIFY(!l.f.cache.contains(u"i-7"_s));
}

QTEST_GUILESS_MAIN(TestContainerLauncher)
#include "tst_containerlauncher.moc"
