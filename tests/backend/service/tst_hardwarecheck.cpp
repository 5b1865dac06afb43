// The hardware check's two halves on their own: reading what the box printed (cgroup v2 and v1,
// no limits, nvidia-smi's failure, a script cut short, a report of another start), the box's
// own report script run on this host, and naming each difference from the order.
#include "runtime/BoxHardware.h"
#include "runtime/ContainerRuntime.h"
#include "runtime/InstanceFiles.h"
#include "service/HardwareCheck.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {
InstanceSpec order()
{
    InstanceSpec spec;
    spec.instanceId = u"i"_s;
    spec.gpuType = u"rtx4090"_s;
    spec.gpuCount = 2;
    spec.gpuCards = {0, 1};
    spec.gpuName = u"NVIDIA GeForce RTX 4090"_s;
    spec.gpuVramMib = 24564;
    spec.cpus = 4;
    spec.memoryMib = 8192;
    spec.diskGib = 50;
    return spec;
}

BoxHardware asOrdered()
{
    BoxHardware hw;
    hw.gpuCount = 2;
    hw.gpuNames = {u"NVIDIA GeForce RTX 4090"_s, u"NVIDIA GeForce RTX 4090"_s};
    hw.gpuVramMib = {24564, 24564};
    hw.cpus = 4;
    hw.cpusOnline = 16;
    hw.memoryMib = 8192;
    hw.workspaceBytes = qint64(49) << 30; // ext4's own share
    hw.workspaceBounded = true;
    return hw;
}
} // namespace

class TestHardwareCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesCgroupV2();
    void parsesCgroupV1AndNoLimits();
    void nvidiaSmiFailureListsNoCards();
    void cutShortIsAnError();
    void anotherStartsReportIsAnError();
    void bootScriptReportsThisStart();
    void asOrderedPasses();
    void eachDifferenceNamed();
    void unboundedWorkspaceIsNotCompared();
    void shortfallAppliesOnlyWhatIsLess();
};

void TestHardwareCheck::parsesCgroupV2()
{
    const BoxHardware hw = boxhardware::parse("cpu_max=400000 100000\ncpus_online=16\n"
                                              "memory_max=8589934592\nworkspace_bytes=52610203648\n"
                                              "gpu=NVIDIA GeForce RTX 4090, 24564\n"
                                              "gpu=NVIDIA GeForce RTX 4090, 24564\n"
                                              "gpus_listed=yes\nend\n");
    QVERIFY(hw.error.isEmpty());
    QCOMPARE(hw.cpus, 4.0);
    QCOMPARE(hw.cpusOnline, 16);
    QCOMPARE(hw.memoryMib, 8192);
    QCOMPARE(hw.workspaceBytes, 52610203648);
    QCOMPARE(hw.gpuCount, 2);
    QCOMPARE(hw.gpuNames.first(), u"NVIDIA GeForce RTX 4090"_s);
    QCOMPARE(hw.gpuVramMib.last(), 24564);
}

void TestHardwareCheck::parsesCgroupV1AndNoLimits()
{
    BoxHardware hw = boxhardware::parse("cpu_max=-1 100000\ncpus_online=8\n"
                                        "memory_max=9223372036854771712\ngpus_listed=yes\nend\n");
    QCOMPARE(hw.cpus, 0.0); // no quota
    QCOMPARE(hw.memoryMib, 0); // no limit
    QCOMPARE(hw.gpuCount, 0);
    hw = boxhardware::parse("cpu_max=max 100000\nmemory_max=max\ngpus_listed=yes\nend\n");
    QCOMPARE(hw.cpus, 0.0);
    QCOMPARE(hw.memoryMib, 0);
    hw = boxhardware::parse("cpu_max=150000 100000\nend\n");
    QCOMPARE(hw.cpus, 1.5);
    QCOMPARE(hw.gpuCount, -1); // nvidia-smi said nothing at all: not known
}

void TestHardwareCheck::nvidiaSmiFailureListsNoCards()
{
    const BoxHardware hw = boxhardware::parse(
        "gpu_error=NVIDIA-SMI has failed because it couldn't communicate\nend\n");
    QCOMPARE(hw.gpuCount, 0);
    QVERIFY(hw.gpuError.startsWith(u"NVIDIA-SMI has failed"_s));
}

void TestHardwareCheck::cutShortIsAnError()
{
    QVERIFY(!boxhardware::parse("cpu_max=400000 100000\n").error.isEmpty());
    QVERIFY(!HardwareCheck::differences(order(), boxhardware::parse("")).isEmpty());
}

void TestHardwareCheck::anotherStartsReportIsAnError()
{
    const QByteArray report = "start=1f\ncpu_max=400000 100000\ngpus_listed=yes\nend\n";
    QVERIFY(boxhardware::parse(report, u"1f"_s).error.isEmpty());
    // A report kept in the box's layer from its last start (or forged there) is not this one's.
    QVERIFY(!boxhardware::parse(report, u"2e"_s).error.isEmpty());
    QVERIFY(!boxhardware::parse("cpu_max=400000 100000\nend\n", u"2e"_s).error.isEmpty());
}

void TestHardwareCheck::bootScriptReportsThisStart()
{
    // The script PID 1 runs, as the provider writes it, run on this host with a stand-in
    // nvidia-smi that lists one card: a whole report naming the start just prepared.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    InstanceFiles::writeBootFilesTo(dir.path(), u"token"_s);
    const QString startId = InstanceFiles::startIdIn(dir.path());
    QVERIFY(!startId.isEmpty());
    InstanceFiles::writeBootFilesTo(dir.path(), u"token"_s);
    QVERIFY(InstanceFiles::startIdIn(dir.path()) != startId); // new for every start
    QFile smi(dir.filePath(u"nvidia-smi"_s));
    QVERIFY(smi.open(QIODevice::WriteOnly));
    smi.write("#!/bin/sh\necho 'NVIDIA GeForce RTX 4090, 24564'\n");
    smi.close();
    smi.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner);
    // The script reads the start id from where the box sees it: point it at this folder.
    QFile script(dir.filePath(u"cardhour-hardware-report"_s));
    QVERIFY(script.open(QIODevice::ReadOnly));
    const QByteArray text =
        script.readAll().replace("/etc/cardhour/ssh/", dir.path().toUtf8() + '/');
    QProcess sh;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PATH"_s, dir.path() + u':' + env.value(u"PATH"_s));
    sh.setProcessEnvironment(env);
    const QString out = dir.filePath(u"hardware"_s);
    sh.start(u"sh"_s, {u"-c"_s, QString::fromUtf8(text), u"report"_s, out});
    QVERIFY(sh.waitForFinished(30'000));
    QCOMPARE(sh.exitCode(), 0);
    QFile report(out);
    QVERIFY(report.open(QIODevice::ReadOnly));
    const BoxHardware hw =
        boxhardware::parse(report.readAll(), InstanceFiles::startIdIn(dir.path()));
    QVERIFY2(hw.error.isEmpty(), qPrintable(hw.error));
    QVERIFY(hw.cpusOnline > 0);
    QCOMPARE(hw.gpuCount, 1);
    QCOMPARE(hw.gpuVramMib.value(0), 24564);
    QVERIFY(!QFile::exists(out + u".part"_s));
}

void TestHardwareCheck::asOrderedPasses()
{
    QCOMPARE(HardwareCheck::differences(order(), asOrdered()), QStringList());
    // More than ordered is not a difference.
    BoxHardware more = asOrdered();
    more.cpus = 0; // no quota: the host's 16
    more.memoryMib = 0; // no limit
    more.workspaceBytes = qint64(900) << 30;
    QCOMPARE(HardwareCheck::differences(order(), more), QStringList());
}

void TestHardwareCheck::eachDifferenceNamed()
{
    BoxHardware less = asOrdered();
    less.gpuCount = 1;
    less.gpuNames = {u"NVIDIA GeForce RTX 4090"_s};
    less.gpuVramMib = {12282};
    less.cpus = 2;
    less.memoryMib = 1024;
    less.workspaceBytes = qint64(20) << 30;
    QCOMPARE(HardwareCheck::differences(order(), less),
             QStringList({u"ordered 2 × NVIDIA GeForce RTX 4090 24 GiB, the box has 1"_s,
                          u"ordered 24 GiB per card, card 0 of the box has 12 GiB"_s,
                          u"ordered 4 CPUs, the box has 2"_s,
                          u"ordered 8 GiB of memory, the box has 1 GiB"_s,
                          u"ordered /workspace 50 GiB, the box has 20 GiB"_s}));
    BoxHardware other = asOrdered();
    other.gpuNames[1] = u"NVIDIA GeForce RTX 3090"_s;
    QCOMPARE(HardwareCheck::differences(order(), other),
             QStringList({u"ordered 2 × NVIDIA GeForce RTX 4090 24 GiB, card 1 of the box is a "
                          "NVIDIA GeForce RTX 3090"_s}));
}

void TestHardwareCheck::unboundedWorkspaceIsNotCompared()
{
    BoxHardware shared = asOrdered();
    shared.workspaceBounded = false;
    shared.workspaceBytes = qint64(10) << 30;
    QCOMPARE(HardwareCheck::differences(order(), shared), QStringList());
}

void TestHardwareCheck::shortfallAppliesOnlyWhatIsLess()
{
    InstanceSpec spec = order();
    BoxShortfall shortfall;
    shortfall.gpuCount = 1;
    shortfall.diskGib = 95;
    applyShortfall(shortfall, spec);
    QCOMPARE(spec.gpuCount, 1);
    QCOMPARE(spec.gpuCards, QList<int>({0}));
    QCOMPARE(spec.diskGib, 50); // never more than ordered
    QCOMPARE(spec.cpus, 4.0);
    QVERIFY(!BoxShortfall{}.any());
}

QTEST_GUILESS_MAIN(TestHardwareCheck)
#include "tst_hardwarecheck.moc"
