// ContainerDiskWatch: a running box whose own disk holds more than its instance's disk is
// reported once per growth; one started again after such a stop may keep what it held; the
// engine measures (`ps --size`) where the layers' folders are not on this host; where nothing
// else bounds /workspace, its volume counts with the layer.
#include "FakeEngine.h"
#include "runtime/ContainerDiskWatch.h"

#include <QJsonArray>
#include <QJsonDocument>
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
    void measuredByTheEngineWhenFoldersAreElsewhere();
    void nothingRunningNothingAsked();
    void workspaceCountsWhereNothingElseBoundsIt_data();
    void workspaceCountsWhereNothingElseBoundsIt();
};

namespace {

constexpr qint64 kGib = 1024LL * 1024 * 1024;

QByteArray runningBoxes(qint64 startedAt, const QString &provider = u"prov"_s, qint64 rwSize = -1)
{
    QString size = rwSize >= 0 ? u",\"Size\":{\"rwSize\":%1}"_s.arg(rwSize) : QString();
    return u"[{\"Id\":\"c1\",\"StartedAt\":%1,\"Labels\":{\"cardhour.instance\":\"i-1\","
           "\"cardhour.provider\":\"%2\",\"cardhour.disk-gib\":\"1\"}%3}]"_s.arg(startedAt)
               .arg(provider, size)
               .toUtf8();
}

QJsonArray boxes(qint64 startedAt, const QString &provider = u"prov"_s)
{
    return QJsonDocument::fromJson(runningBoxes(startedAt, provider)).array();
}

} // namespace

void TestContainerDiskWatch::overItsDiskIsFull()
{
    FakeEngine engine;
    ContainerCache cache;
    ContainerDiskWatch watch(engine, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.apply(boxes(100), {{u"c1"_s, kGib / 2}});
    QCOMPARE(full.size(), 0);
    watch.apply(boxes(100), {{u"c1"_s, 2 * kGib}});
    QCOMPARE(full.size(), 1);
    QCOMPARE(full.at(0).at(0).toString(), u"i-1"_s);
    QCOMPARE(full.at(0).at(1).toLongLong(), 2 * kGib);
    QCOMPARE(full.at(0).at(2).toLongLong(), kGib);
    // Another provider's box, or one not measured, is left alone.
    watch.apply(boxes(100, u"other"_s), {{u"c1"_s, 5 * kGib}});
    watch.apply(boxes(100), {});
    QCOMPARE(full.size(), 1);
}

void TestContainerDiskWatch::startedAgainMayKeepWhatItHeld()
{
    FakeEngine engine;
    ContainerCache cache;
    ContainerDiskWatch watch(engine, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.apply(boxes(100), {{u"c1"_s, 2 * kGib}});
    QCOMPARE(full.size(), 1);
    // Stopped for it and started again (a new start time): it may clean up, or write a little.
    watch.apply(boxes(200), {{u"c1"_s, 2 * kGib}});
    watch.apply(boxes(200), {{u"c1"_s, 2 * kGib + 1024 * 1024}});
    QCOMPARE(full.size(), 1);
    // Growing beyond the slack is full again.
    watch.apply(boxes(200), {{u"c1"_s, 3 * kGib}});
    QCOMPARE(full.size(), 2);
}

void TestContainerDiskWatch::measuredByTheEngineWhenFoldersAreElsewhere()
{
    FakeEngine engine;
    engine.answer(u"ps --size"_s, FakeEngine::ok(runningBoxes(100, u"prov"_s, 3 * kGib)));
    engine.answer(u"ps"_s, FakeEngine::ok(runningBoxes(100)));
    engine.answer(u"inspect"_s, FakeEngine::ok("c1\t/nowhere/on/this/host/diff\n"));
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    ContainerDiskWatch watch(engine, cache, 0, false);
    QSignalSpy full(&watch, &ContainerDiskWatch::diskFull);
    watch.check();
    watch.check(); // one check at a time
    QTRY_COMPARE_WITH_TIMEOUT(full.size(), 1, 5000);
    QCOMPARE(full.at(0).at(1).toLongLong(), 3 * kGib);
    QCOMPARE(engine.count(u"ps --filter"_s), 1);
    QCOMPARE(engine.count(u"inspect"_s), 1);
    QCOMPARE(engine.count(u"ps --size"_s), 1);
    const QString ps = engine.first(u"ps --filter"_s).line();
    QVERIFY2(ps.contains(u"status=running"_s), qPrintable(ps));
    // The next check inspects nothing: the layer's folder is known.
    watch.check();
    QTRY_COMPARE_WITH_TIMEOUT(engine.count(u"ps --size"_s), 2, 5000);
    QCOMPARE(engine.count(u"inspect"_s), 1);
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
    for (const QTemporaryDir *dir : {&layer, &workspace}) {
        QFile file(dir->filePath(u"data"_s));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(600LL * 1024 * 1024));
    }
    FakeEngine engine;
    engine.answer(u"ps"_s, FakeEngine::ok(runningBoxes(100)));
    engine.answer(
        u"inspect"_s,
        FakeEngine::ok("c1\t" + layer.path().toUtf8() + "\t" + workspace.path().toUtf8()));
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
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
