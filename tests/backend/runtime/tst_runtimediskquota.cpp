// How CliRuntime says an instance's disk is bounded (GET /v1/limits `disk`, each instance's
// `resources.disk_quota`), per engine: docker has no loop-mounted /workspace, so its
// container's own disk and its /workspace volume are both measured and the instance stopped
// when full (stop-when-full), as with rootless podman; where this provider cannot read docker's
// data root, /workspace cannot be measured and is reported unbounded. And a docker box over its
// disk is reported (diskFull) by the runtime itself. The engine here is a script that answers
// `info`, `ps` and `inspect` as the docker CLI does (no engine runs).
#include "runtime/CliRuntime.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <utility>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestRuntimeDiskQuota : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachEngineSaysHowTheDiskIsBounded_data();
    void eachEngineSaysHowTheDiskIsBounded();
    void dockerBoxOverItsDiskIsReported();
};

namespace {

// A program that prints `info` (and `ps`, `inspect`) as given, logs its command lines to
// `<dir>/calls` and does nothing else.
QString fakeEngine(const QTemporaryDir &dir, const QByteArray &info, const QByteArray &ps = {},
                   const QByteArray &inspect = {})
{
    const std::pair<const char *, QByteArray> outputs[] = {
        {"info", info}, {"ps", ps}, {"inspect", inspect}};
    for (const auto &[name, text] : outputs) {
        QFile file(dir.filePath(QString::fromLatin1(name)));
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return {};
    }
    const QString path = dir.filePath(u"engine"_s);
    QFile script(path);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\ncd '" + QFile::encodeName(dir.path())
                 + "' || exit 1\necho \"$*\" >> calls\n"
                   "case \"$1\" in info|ps|inspect) cat \"$1\" ;; esac\nexit 0\n");
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

void TestRuntimeDiskQuota::dockerBoxOverItsDiskIsReported()
{
    QTemporaryDir dir;
    QTemporaryDir layer;
    QFile data(layer.filePath(u"data"_s)); // 2 GiB, sparse, in a box of a 1 GiB disk
    QVERIFY(data.open(QIODevice::WriteOnly) && data.resize(2LL << 30));
    const QString fullId = u"8990324b7523"_s + QString(52, u'a');
    // As the docker 28 CLI printed them against a Docker-compatible API.
    const QByteArray ps =
        uR"({"Command":"\"/etc/cardhour/ssh/c…\"","ID":"8990324b7523","Labels":"cardhour.disk-gib=1,cardhour.instance=i-1,cardhour.managed=true,cardhour.owner=u-1,cardhour.provider=prov","Names":"cardhour-i-1","Ports":"127.0.0.1:40787-\u003e22/tcp","Size":"0B","State":"running","Status":"Up 13 seconds"})"_s
            .toUtf8()
        + '\n';
    const QByteArray inspect =
        (fullId + u'\t' + layer.path() + u"\t\t2026-12-06T06:46:35.943998694Z\n"_s).toUtf8();
    const QByteArray info = uR"({"DockerRootDir":"%1"})"_s.arg(dir.path()).toUtf8();
    CliRuntime::Options options;
    options.engine = cli::Engine::Docker;
    options.program = fakeEngine(dir, info, ps, inspect);
    options.providerId = u"prov"_s;
    options.dataDir = dir.filePath(u"data"_s);
    options.engineApi = false;
    options.diskCheckIntervalMs = 50;
    CliRuntime runtime(options);
    QSignalSpy full(&runtime, &ContainerRuntime::diskFull);
    QVERIFY(runtime.refreshNow(10000));
    QVERIFY(runtime.isRunning(u"i-1"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!full.isEmpty(), 10000);
    QCOMPARE(full.first().at(0).toString(), u"i-1"_s);
    QCOMPARE(full.first().at(1).toLongLong(), 2LL << 30);
    QCOMPARE(full.first().at(2).toLongLong(), 1LL << 30);
    QFile calls(dir.filePath(u"calls"_s));
    QVERIFY(calls.open(QIODevice::ReadOnly));
    const QByteArray log = calls.readAll();
    QVERIFY2(log.contains("--filter status=running --size=false --format json"), log.constData());
    QVERIFY2(log.contains("\ninspect --type container --format"), log.constData());
}

QTEST_GUILESS_MAIN(TestRuntimeDiskQuota)
#include "tst_runtimediskquota.moc"
