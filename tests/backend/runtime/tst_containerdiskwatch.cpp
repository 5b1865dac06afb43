// ContainerDiskWatch: a running box whose own disk holds more than its instance's disk is
// reported once per growth; one started again after such a stop may keep what it held; the
// engine measures (`ps --size`) where the layers' folders are not on this host; where nothing
// else bounds /workspace, its volume counts with the layer. The same for podman's listing and
// docker's (one object a line, short ids, labels as text, no start time, sizes as text).
#include "FakeEngine.h"
#include "runtime/ContainerDiskWatch.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestContainerDiskWatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overItsDiskIsFull();
    void startedAgainMayKeepWhatItHeld();
    void eachEngineOverOrUnderItsDisk_data();
    void eachEngineOverOrUnderItsDisk();
    void dockerBoxStartedAgainMayKeepWhatItHeld();
    void measuredByTheEngineWhenFoldersAreElsewhere_data();
    void measuredByTheEngineWhenFoldersAreElsewhere();
    void nothingRunningNothingAsked();
    void workspaceCountsWhereNothingElseBoundsIt_data();
    void workspaceCountsWhereNothingElseBoundsIt();
};

namespace {

constexpr qint64 kGib = 1024LL * 1024 * 1024;
// docker prints sizes in decimal units to 3 digits: this one is exact there.
constexpr qint64 kThreeGb = 3'000'000'000LL;
const QString kFullId = u"c1c1c1c1c1c1d2d2d2d2d2d2e3e3e3e3e3e3f4f4f4f4f4f4a5a5a5a5a5a5b6b6"_s;

// The id `ps` prints for box c1: podman the whole one, docker its first 12 characters.
QString listedId(cli::Engine engine)
{
    return engine == cli::Engine::Docker ? kFullId.first(12) : kFullId;
}

// `ps --format json` of the running box of instance i-1 (1 GiB disk) as `engine` prints it,
// with its writable layer's size (`ps --size`) where rwSize >= 0.
QByteArray runningBoxes(cli::Engine engine, qint64 startedAt, const QString &provider = u"prov"_s,
                        qint64 rwSize = -1)
{
    if (engine == cli::Engine::Docker) {
        const QString size = rwSize >= 0
            ? u"\"%1 (virtual 3.4GB)\""_s.arg(rwSize == kThreeGb ? u"3GB"_s : u"0B"_s)
            : u"\"0B\""_s;
        return uR"({"Command":"\"/usr/local/sbin/cardhour-entrypoint\"","ID":"%1","Labels":"cardhour.disk-gib=1,cardhour.instance=i-1,cardhour.managed=true,cardhour.owner=u-1,cardhour.provider=%2","Names":"cardhour-i-1","Ports":"127.0.0.1:40022-\u003e22/tcp","RunningFor":"2 minutes ago","Size":%3,"State":"running","Status":"Up 2 minutes"})"_s
                   .arg(listedId(engine), provider, size)
                   .toUtf8()
            + '\n';
    }
    const QString size = rwSize >= 0 ? u",\"Size\":{\"rwSize\":%1}"_s.arg(rwSize) : QString();
    return u"[{\"Id\":\"%1\",\"StartedAt\":%2,\"State\":\"running\",\"Labels\":{"
           "\"cardhour.instance\":\"i-1\",\"cardhour.managed\":\"true\","
           "\"cardhour.provider\":\"%3\",\"cardhour.disk-gib\":\"1\"}%4}]"_s.arg(kFullId)
               .arg(startedAt)
               .arg(provider, size)
               .toUtf8();
}

QList<cli::ContainerInfo> boxes(qint64 startedAt, const QString &provider = u"prov"_s)
{
    return cli::parseContainerList(runningBoxes(cli::Engine::Podman, startedAt, provider),
                                   u"prov"_s);
}

// What `inspect` prints for box c1 with the watch's template: id, layer, /workspace, start.
QByteArray inspectLine(const QString &layer, const QString &workspace = {},
                       const QString &startedAt = u"2026-12-06T06:00:00.123456789Z"_s)
{
    return (QStringList{kFullId, layer, workspace, startedAt}.join(u'\t') + u'\n').toUtf8();
}

// A sparse file of `bytes` in `dir` (its size is what counts).
bool fill(const QTemporaryDir &dir, qint64 bytes)
{
    QFile file(dir.filePath(u"data"_s));
    return file.open(QIODevice::WriteOnly) && file.resize(bytes);
}

// Runs checks until n have ended: one starts only once the one before it has, so the (n+1)th
// `ps` says so. That one is then under way, its listing and measuring still to come.
void waitForChecks(ContainerDiskWatch &watch, const FakeEngine &engine, int n)
{
    QTRY_VERIFY_WITH_TIMEOUT((watch.check(), engine.count(u"ps --filter"_s) > n), 10000);
}

} // namespace

void TestContainerDiskWatch::overItsDiskIsFull()
{
    FakeEngine engine;
    ContainerCache cache;
    ContainerDiskWatch watch(engine, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.apply(boxes(100), {{kFullId, kGib / 2}});
    QCOMPARE(full.size(), 0);
    watch.apply(boxes(100), {{kFullId, 2 * kGib}});
    QCOMPARE(full.size(), 1);
    QCOMPARE(full.at(0).at(0).toString(), u"i-1"_s);
    QCOMPARE(full.at(0).at(1).toLongLong(), 2 * kGib);
    QCOMPARE(full.at(0).at(2).toLongLong(), kGib);
    // Another provider's box, or one not measured, is left alone.
    watch.apply(boxes(100, u"other"_s), {{kFullId, 5 * kGib}});
    watch.apply(boxes(100), {});
    QCOMPARE(full.size(), 1);
}

void TestContainerDiskWatch::startedAgainMayKeepWhatItHeld()
{
    FakeEngine engine;
    ContainerCache cache;
    ContainerDiskWatch watch(engine, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.apply(boxes(100), {{kFullId, 2 * kGib}});
    QCOMPARE(full.size(), 1);
    // Stopped for it and started again (a new start time): it may clean up, or write a little.
    watch.apply(boxes(200), {{kFullId, 2 * kGib}});
    watch.apply(boxes(200), {{kFullId, 2 * kGib + 1024 * 1024}});
    QCOMPARE(full.size(), 1);
    // Growing beyond the slack is full again.
    watch.apply(boxes(200), {{kFullId, 3 * kGib}});
    QCOMPARE(full.size(), 2);
}

void TestContainerDiskWatch::eachEngineOverOrUnderItsDisk_data()
{
    QTest::addColumn<cli::Engine>("engine");
    QTest::addColumn<qint64>("layerBytes");
    QTest::addColumn<int>("reports");
    QTest::newRow("podman, over") << cli::Engine::Podman << 2 * kGib << 1;
    QTest::newRow("podman, under") << cli::Engine::Podman << kGib / 2 << 0;
    QTest::newRow("docker, over") << cli::Engine::Docker << 2 * kGib << 1;
    QTest::newRow("docker, under") << cli::Engine::Docker << kGib / 2 << 0;
}

void TestContainerDiskWatch::eachEngineOverOrUnderItsDisk()
{
    QFETCH(cli::Engine, engine);
    QFETCH(qint64, layerBytes);
    QFETCH(int, reports);
    QTemporaryDir layer;
    QVERIFY(fill(layer, layerBytes));
    FakeEngine fake(engine);
    fake.answer(u"ps"_s, FakeEngine::ok(runningBoxes(engine, 100)));
    fake.answer(u"inspect"_s, FakeEngine::ok(inspectLine(layer.path())));
    ContainerCache cache;
    cache.remember(container(listedId(engine), u"i-1"_s, true));
    ContainerDiskWatch watch(fake, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    waitForChecks(watch, fake, 1);
    QCOMPARE(full.size(), reports);
    if (reports) {
        QCOMPARE(full.at(0).at(0).toString(), u"i-1"_s);
        QCOMPARE(full.at(0).at(1).toLongLong(), layerBytes);
        QCOMPARE(full.at(0).at(2).toLongLong(), kGib);
    }
    // The box as listed was inspected, and its layer's folder measured here, not by the engine.
    QVERIFY(fake.first(u"inspect"_s).line().endsWith(u' ' + listedId(engine)));
    QCOMPARE(fake.count(u"ps --size"_s), 0);
    // docker's CLI would measure every layer for a JSON listing unless told not to.
    QCOMPARE(fake.first(u"ps --filter"_s).line().contains(u"--size=false"_s),
             engine == cli::Engine::Docker);
}

// docker lists no start time: a box stopped for a full disk is inspected again when it runs,
// and its new start lets it keep what it held (and clean up) rather than be stopped at once.
void TestContainerDiskWatch::dockerBoxStartedAgainMayKeepWhatItHeld()
{
    QTemporaryDir layer;
    QVERIFY(fill(layer, 2 * kGib));
    QString startedAt = u"2026-12-06T06:00:00Z"_s;
    FakeEngine engine(cli::Engine::Docker);
    engine.answer(u"ps"_s, FakeEngine::ok(runningBoxes(cli::Engine::Docker, 0)));
    engine.answer(u"inspect"_s, [&](const QStringList &) {
        return FakeEngine::ok(inspectLine(layer.path(), {}, startedAt));
    });
    ContainerCache cache;
    cache.remember(container(listedId(cli::Engine::Docker), u"i-1"_s, true));
    ContainerDiskWatch watch(engine, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    waitForChecks(watch, engine, 1);
    QCOMPARE(full.size(), 1);
    // Stopped for it and started again: it holds the same, then a little more.
    startedAt = u"2026-12-06T07:00:00Z"_s;
    waitForChecks(watch, engine, 2);
    QVERIFY(fill(layer, 2 * kGib + 1024 * 1024));
    waitForChecks(watch, engine, 3);
    QCOMPARE(full.size(), 1);
    QCOMPARE(engine.count(u"inspect"_s), 2); // again only after the stop
    // Growing beyond the slack is full again.
    QVERIFY(fill(layer, 3 * kGib));
    waitForChecks(watch, engine, 4);
    QCOMPARE(full.size(), 2);
}

void TestContainerDiskWatch::measuredByTheEngineWhenFoldersAreElsewhere_data()
{
    QTest::addColumn<cli::Engine>("engine");
    QTest::addColumn<int>("inspectsAfterFull");
    QTest::newRow("podman: {\"rwSize\": N}") << cli::Engine::Podman << 1;
    // Its listing has no start time: inspected again to learn its next one.
    QTest::newRow("docker: \"3GB (virtual 3.4GB)\"") << cli::Engine::Docker << 2;
}

void TestContainerDiskWatch::measuredByTheEngineWhenFoldersAreElsewhere()
{
    QFETCH(cli::Engine, engine);
    QFETCH(int, inspectsAfterFull);
    FakeEngine fake(engine);
    fake.answer(u"ps --size"_s, FakeEngine::ok(runningBoxes(engine, 100, u"prov"_s, kThreeGb)));
    fake.answer(u"ps"_s, FakeEngine::ok(runningBoxes(engine, 100)));
    fake.answer(u"inspect"_s, FakeEngine::ok(inspectLine(u"/nowhere/on/this/host/diff"_s)));
    ContainerCache cache;
    cache.remember(container(listedId(engine), u"i-1"_s, true));
    ContainerDiskWatch watch(fake, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.check();
    watch.check(); // one check at a time
    QTRY_COMPARE_WITH_TIMEOUT(full.size(), 1, 5000);
    QCOMPARE(full.at(0).at(1).toLongLong(), kThreeGb);
    QCOMPARE(fake.count(u"ps --filter"_s), 1);
    QCOMPARE(fake.count(u"inspect"_s), 1);
    QCOMPARE(fake.count(u"ps --size"_s), 1);
    const QString ps = fake.first(u"ps --filter"_s).line();
    QVERIFY2(ps.contains(u"status=running"_s), qPrintable(ps));
    QVERIFY2(!fake.first(u"ps --size"_s).line().contains(u"--size=false"_s),
             qPrintable(fake.first(u"ps --size"_s).line()));
    // The next check inspects nothing where the listing has the start time: the layer's
    // folder is known.
    watch.check();
    QTRY_COMPARE_WITH_TIMEOUT(fake.count(u"ps --size"_s), 2, 5000);
    QCOMPARE(fake.count(u"inspect"_s), inspectsAfterFull);
}

void TestContainerDiskWatch::nothingRunningNothingAsked()
{
    FakeEngine engine;
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, false));
    ContainerDiskWatch watch(engine, cache, 0, false);
    watch.check();
    QTest::qWait(20);
    QVERIFY(engine.calls.isEmpty());
}

void TestContainerDiskWatch::workspaceCountsWhereNothingElseBoundsIt_data()
{
    QTest::addColumn<bool>("withWorkspace");
    QTest::addColumn<int>("reports");
    QTest::newRow("loop-ext4 bounds /workspace: the layer alone") << false << 0;
    QTest::newRow("stop-when-full: layer and /workspace together") << true << 1;
}

void TestContainerDiskWatch::workspaceCountsWhereNothingElseBoundsIt()
{
    QFETCH(bool, withWorkspace);
    QFETCH(int, reports);
    // 600 MiB in the layer and 600 MiB in /workspace (sparse: their sizes are what counts),
    // against a 1 GiB disk.
    QTemporaryDir layer;
    QTemporaryDir workspace;
    for (const QTemporaryDir *dir : {&layer, &workspace})
        QVERIFY(fill(*dir, 600LL * 1024 * 1024));
    FakeEngine engine;
    engine.answer(u"ps"_s, FakeEngine::ok(runningBoxes(cli::Engine::Podman, 100)));
    engine.answer(u"inspect"_s, FakeEngine::ok(inspectLine(layer.path(), workspace.path())));
    ContainerCache cache;
    cache.remember(container(kFullId, u"i-1"_s, true));
    ContainerDiskWatch watch(engine, cache, 0, withWorkspace);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.check();
    QTRY_COMPARE_WITH_TIMEOUT(engine.count(u"inspect"_s), 1, 5000);
    QTest::qWait(200); // the measurement runs on a worker
    QTRY_COMPARE_WITH_TIMEOUT(full.size(), reports, 5000);
    if (reports)
        QCOMPARE(full.at(0).at(1).toLongLong(), 1200LL * 1024 * 1024);
    // The inspect asked for the /workspace mount's folder.
    QVERIFY(engine.first(u"inspect"_s).line().contains(u"/workspace"_s));
}

QTEST_GUILESS_MAIN(TestContainerDiskWatch)
#include "tst_containerdiskwatch.moc"
