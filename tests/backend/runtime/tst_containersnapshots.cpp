// ContainerSnapshots: a snapshot commits the disk and exports /workspace with the container
// paused for both; a failure leaves nothing half made and the container unpaused; removal waits
// for an image still in use; a restore fills a new volume from the archive.
#include "LaunchFixture.h"
#include "runtime/BoxNames.h"
#include "runtime/ContainerSnapshots.h"
#include "runtime/WorkspaceVolumes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;
using test::LaunchFixture;

class TestContainerSnapshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unsupported();
    void snapshotOfARunningInstance();
    void failedCommitCleansUp();
    void removeWaitsForAnImageInUse();
    void restoreFillsTheVolume();
};

namespace {

struct Snapshots
{
    explicit Snapshots(const QString &dataDir, cli::Engine engine = cli::Engine::Podman)
        : f(engine), volumes(f.steps, DiskQuota{}, dataDir, 1000),
          snapshots(f.steps, volumes, dataDir, u"localhost/cardhour/"_s)
    {}

    LaunchFixture f;
    WorkspaceVolumes volumes;
    ContainerSnapshots snapshots;
    QSignalSpy taken{&snapshots, &ContainerSnapshots::taken};
    QSignalSpy failed{&snapshots, &ContainerSnapshots::failed};
    QSignalSpy removed{&snapshots, &ContainerSnapshots::removed};
};

SnapshotSpec specFor(const QString &snapshotId)
{
    return SnapshotSpec{snapshotId, u"i-1"_s, u"u-1"_s, u"base"_s};
}

// `volume export --output FILE`: the engine writes the archive.
ProcessResult writeExport(const QStringList &args)
{
    QFile out(args.last());
    if (!out.open(QIODevice::WriteOnly | QIODevice::Append) || out.write("tar bytes") != 9)
        return FakeEngine::failed("cannot write");
    return FakeEngine::ok();
}

} // namespace

void TestContainerSnapshots::unsupported()
{
    QTemporaryDir data;
    Snapshots podman(data.path());
    QVERIFY(podman.snapshots.unsupportedReason().isEmpty());
    Snapshots docker(data.path(), cli::Engine::Docker);
    QCOMPARE(docker.snapshots.unsupportedReason(),
             u"snapshots need the podman runtime (docker has no volume export)"_s);
    Snapshots noData(QString{});
    QCOMPARE(noData.snapshots.unsupportedReason(),
             u"snapshots need a data directory for their /workspace archives"_s);
    docker.snapshots.snapshot(specFor(u"s1"_s));
    QTRY_COMPARE(docker.failed.size(), 1);
    QVERIFY(!docker.f.queue.hasPendingWork(u"i-1"_s));
    noData.snapshots.snapshot(SnapshotSpec{u"../x"_s, u"i-1"_s, {}, {}});
    QTRY_COMPARE(noData.failed.size(), 1);
}

void TestContainerSnapshots::snapshotOfARunningInstance()
{
    QTemporaryDir data;
    Snapshots s(data.path());
    s.f.engine.answer(u"ps -a"_s,
                      FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, true)})));
    s.f.engine.answer(u"volume export"_s, writeExport);
    s.f.engine.answer(u"image inspect"_s, FakeEngine::ok("5000\n3000\n"));
    s.snapshots.snapshot(specFor(u"s1"_s));
    QTRY_COMPARE(s.taken.size(), 1);
    const auto sizes = s.taken.at(0).at(1).value<SnapshotSizes>();
    QCOMPARE(sizes.diskBytes, qint64(2000));
    QCOMPARE(sizes.workspaceBytes, qint64(9));
    QVERIFY(sizes.paused);
    const QStringList lines = s.f.engine.lines();
    QCOMPARE(lines.size(), 6);
    QCOMPARE(lines.at(1), u"pause c1"_s);
    QVERIFY2(lines.at(2).startsWith(u"commit -q --pause=false"_s), qPrintable(lines.at(2)));
    QVERIFY(lines.at(2).endsWith(u"c1 localhost/cardhour-snapshot/s1:latest"_s));
    QVERIFY(s.f.engine.calls.at(2).snapshotStep); // dies with the provider
    const QString archive = box::snapshotArchive(data.path(), u"s1"_s);
    QCOMPARE(lines.at(3), u"volume export cardhour-ws-i-1 --output "_s + archive + u".part"_s);
    QCOMPARE(lines.at(4), u"unpause c1"_s);
    QCOMPARE(lines.at(5),
             u"image inspect --format {{.Size}} localhost/cardhour-snapshot/s1:latest "
             "localhost/cardhour/base:latest"_s);
    QVERIFY(QFileInfo::exists(archive));
    QVERIFY(!QFileInfo::exists(archive + u".part"_s));
    QCOMPARE((QFile::permissions(archive) & 0x0077).toInt(), 0); // its owner's alone
    QVERIFY(!s.f.queue.hasPendingWork(u"i-1"_s));
}

void TestContainerSnapshots::failedCommitCleansUp()
{
    QTemporaryDir data;
    Snapshots s(data.path());
    s.f.engine.answer(u"ps -a"_s,
                      FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, true)})));
    s.f.engine.answer(u"commit"_s, FakeEngine::failed("no space left on device", 125));
    s.snapshots.snapshot(specFor(u"s2"_s));
    QTRY_COMPARE(s.failed.size(), 1);
    QCOMPARE(s.failed.at(0).at(1).toString(),
             u"podman commit failed (exit 125): no space left on device"_s);
    const QStringList lines = s.f.engine.lines();
    QCOMPARE(lines.mid(lines.size() - 2),
             (QStringList{u"unpause c1"_s, u"rmi localhost/cardhour-snapshot/s2:latest"_s}));
    QVERIFY(!QDir(QFileInfo(box::snapshotArchive(data.path(), u"s2"_s)).absolutePath()).exists());
    QCOMPARE(s.taken.size(), 0);
    // An instance without a container cannot be snapshotted; a stopped one is not paused.
    s.snapshots.snapshot(SnapshotSpec{u"s3"_s, u"i-2"_s, {}, u"base"_s});
    QTRY_COMPARE(s.failed.size(), 2);
    QCOMPARE(s.failed.at(1).at(1).toString(), u"the instance has no container"_s);
}

void TestContainerSnapshots::removeWaitsForAnImageInUse()
{
    QTemporaryDir data;
    Snapshots s(data.path());
    const QString folder = QFileInfo(box::snapshotArchive(data.path(), u"s1"_s)).absolutePath();
    QVERIFY(QDir().mkpath(folder));
    s.f.engine.once(u"rmi"_s, FakeEngine::failed("image is in use by a container"));
    s.f.engine.answer(u"rmi"_s,
                      FakeEngine::failed("Error: localhost/cardhour-snapshot/s1: image not known"));
    s.snapshots.remove(u"s1"_s);
    QTRY_COMPARE_WITH_TIMEOUT(s.removed.size(), 1, 6000); // tried again 3 s later: gone
    QCOMPARE(s.f.engine.count(u"rmi"_s), 2);
    QVERIFY(!QDir(folder).exists());
    s.snapshots.remove(u"../escape"_s);
    QTRY_COMPARE(s.failed.size(), 1);
    QCOMPARE(s.failed.at(0).at(1).toString(), u"invalid snapshot id"_s);
}

void TestContainerSnapshots::restoreFillsTheVolume()
{
    QTemporaryDir data;
    Snapshots s(data.path());
    auto launch = s.f.begin(u"i-1"_s);
    launch->spec.snapshotId = u"s1"_s;
    bool filled = false;
    s.snapshots.restoreWorkspace(launch, [&] { filled = true; });
    QTRY_VERIFY(filled);
    QCOMPARE(s.f.engine.lines(),
             QStringList{u"volume import cardhour-ws-i-1 "_s
                         + box::snapshotArchive(data.path(), u"s1"_s)});
    // A failed import removes the half-filled volume and fails the launch.
    s.f.engine.answer(u"volume import"_s, FakeEngine::failed("bad archive"));
    filled = false;
    s.snapshots.restoreWorkspace(launch, [&] { filled = true; });
    QTRY_COMPARE(s.f.failed.size(), 1);
    QVERIFY(!filled);
    QCOMPARE(s.f.engine.lines().last(), u"volume rm cardhour-ws-i-1"_s);
    QVERIFY(s.f.failed.at(0).at(1).toString().startsWith(
        u"podman volume import (the snapshot's /workspace) failed"_s));
}

QTEST_GUILESS_MAIN(TestContainerSnapshots)
#include "tst_containersnapshots.moc"
