// The hardware check's reading of a box over a fake engine: where the box's root cannot be
// read from this host (no local process: a remote engine, an engine's VM), the report is waited
// for and read with one `exec`, and only a report naming this start is taken.
#include "FakeEngine.h"
#include "runtime/BoxInspector.h"
#include "runtime/ContainerCache.h"
#include "runtime/InstanceFiles.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using cardhour::sim::test::FakeEngine;

class TestBoxInspector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void readsThisStartsReportByExec();
    void refusesAnotherStartsReport();
    void noProcessIsNotALocalRead();

private:
    BoxHardware inspectWith(const QByteArray &execOutput);

    QTemporaryDir m_dir;
    QString m_startId;
    QStringList m_execArgs;
};

void TestBoxInspector::init()
{
    QVERIFY(m_dir.isValid());
    InstanceFiles::writeBootFilesTo(m_dir.path(), u"token"_s);
    m_startId = InstanceFiles::startIdIn(m_dir.path());
    QVERIFY(!m_startId.isEmpty());
    m_execArgs.clear();
}

BoxHardware TestBoxInspector::inspectWith(const QByteArray &execOutput)
{
    FakeEngine engine;
    ContainerCache cache;
    cli::ContainerInfo info;
    info.instanceId = u"i-1"_s;
    info.containerId = u"c0ffee"_s;
    info.running = true;
    cache.remember(info);
    cache.setSshDir(u"i-1"_s, m_dir.path());
    // The engine knows no process of the container on this host.
    engine.answer(u"inspect --type container --format json c0ffee"_s,
                  FakeEngine::ok(R"([{"Id":"c0ffee","State":{"Running":true,"Pid":0}}])"));
    engine.answer(u"exec c0ffee"_s, [this, execOutput](const QStringList &args) {
        m_execArgs = args;
        return FakeEngine::ok(execOutput);
    });
    BoxInspector inspector(engine, cache, true);
    QSignalSpy spy(&inspector, &BoxInspector::inspected);
    inspector.inspect(u"i-1"_s);
    if (!spy.wait(5000))
        return {};
    return spy.first().at(1).value<BoxHardware>();
}

void TestBoxInspector::readsThisStartsReportByExec()
{
    const BoxHardware hw = inspectWith("start=" + m_startId.toLatin1()
                                       + "\ncpu_max=200000 100000\ngpu=NVIDIA A100 80GB, "
                                         "81920\ngpus_listed=yes\nend\n");
    QVERIFY2(hw.error.isEmpty(), qPrintable(hw.error));
    QCOMPARE(hw.cpus, 2.0);
    QCOMPARE(hw.gpuCount, 1);
    QVERIFY(hw.workspaceBounded);
    // The box waits for this start's report, not any report.
    QCOMPARE(m_execArgs.mid(0, 4), (QStringList{u"exec"_s, u"c0ffee"_s, u"sh"_s, u"-c"_s}));
    QVERIFY(m_execArgs.value(4).contains(u"start="_s + m_startId));
}

void TestBoxInspector::refusesAnotherStartsReport()
{
    const BoxHardware hw = inspectWith("start=0123\ncpu_max=200000 100000\ngpus_listed=yes\nend\n");
    QVERIFY(!hw.error.isEmpty());
}

void TestBoxInspector::noProcessIsNotALocalRead()
{
    // Pid 0 (or a pid whose root does not hold this start's id) takes the exec route.
    inspectWith("start=" + m_startId.toLatin1() + "\nend\n");
    QVERIFY(!m_execArgs.isEmpty());
}

QTEST_GUILESS_MAIN(TestBoxInspector)
#include "tst_boxinspector.moc"
