// How CliRuntime says an instance's disk is bounded (GET /v1/limits `disk`, each instance's
// `resources.disk_quota`), per engine: docker has no loop-mounted /workspace, so its
// container's own disk and its /workspace volume are both measured and the instance stopped
// when full (stop-when-full), as with rootless podman; where this provider cannot read docker's
// data root, /workspace cannot be measured and is reported unbounded. The engine here is a
// script that answers `info` as the real one would (no engine runs).
#include "runtime/CliRuntime.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestRuntimeDiskQuota : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachEngineSaysHowTheDiskIsBounded_data();
    void eachEngineSaysHowTheDiskIsBounded();
};

namespace {

// A program that prints `info` as JSON and does nothing else.
QString fakeEngine(const QTemporaryDir &dir, const QByteArray &info)
{
    const QString path = dir.filePath(u"engine"_s);
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\n[ \"$1\" = info ] && cat <<'END'\n" + info + "\nEND\nexit 0\n");
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

} // namespace

void TestRuntimeDiskQuota::eachEngineSaysHowTheDiskIsBounded_data()
{
    QTest::addColumn<cli::Engine>("engine");
    QTest::addColumn<bool>("measured"); // --workspace-disk measured
    QTest::addColumn<bool>("dataRootReadable");
    QTest::addColumn<QString>("mechanism");
    QTest::addColumn<QString>("detailSays");
    QTest::newRow("docker") << cli::Engine::Docker << false << true << u"stop-when-full"_s
                            << u"/workspace is measured with the container's own disk"_s;
    QTest::newRow("docker, measured") << cli::Engine::Docker << true << true << u"stop-when-full"_s
                                      << u"--workspace-disk measured"_s;
    QTest::newRow("docker, its data root not readable here")
        << cli::Engine::Docker << false << false << u"none"_s << u"/workspace is not bounded"_s;
    QTest::newRow("podman, measured") << cli::Engine::Podman << true << true << u"stop-when-full"_s
                                      << u"--workspace-disk measured"_s;
}

void TestRuntimeDiskQuota::eachEngineSaysHowTheDiskIsBounded()
{
    QFETCH(cli::Engine, engine);
    QFETCH(bool, measured);
    QFETCH(bool, dataRootReadable);
    QFETCH(QString, mechanism);
    QFETCH(QString, detailSays);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString dataRoot = dataRootReadable ? dir.path() : dir.filePath(u"not/there/docker"_s);
    const QByteArray info = engine == cli::Engine::Docker
        ? uR"({"DockerRootDir":"%1","SecurityOptions":["name=seccomp,profile=builtin"]})"_s
              .arg(dataRoot)
              .toUtf8()
        : R"({"host":{"security":{"selinuxEnabled":false}}})"_ba;
    CliRuntime::Options options;
    options.engine = engine;
    options.program = fakeEngine(dir, info);
    options.dataDir = dir.filePath(u"data"_s);
    options.engineApi = false;
    options.measuredWorkspace = measured;
    QString why;
    QVERIFY2(CliRuntime::isUsable(options, &why), qPrintable(why));
    const CliRuntime runtime(options);
    const DiskQuota quota = runtime.diskQuota();
    QCOMPARE(quota.mechanism, mechanism);
    QCOMPARE(quota.workspaceBounded(), false);
    // The container's own disk is measured either way.
    QCOMPARE(quota.containerDisk, u"stop-when-full"_s);
    QVERIFY2(quota.detail.contains(detailSays), qPrintable(quota.detail));
    if (!dataRootReadable)
        QVERIFY2(quota.detail.contains(dataRoot), qPrintable(quota.detail));
}

QTEST_GUILESS_MAIN(TestRuntimeDiskQuota)
#include "tst_runtimediskquota.moc"
