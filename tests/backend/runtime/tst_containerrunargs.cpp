// ContainerRunArgs and BoxNames: the `run -d` of an instance, argument by argument.
#include "runtime/BoxNames.h"
#include "runtime/ContainerRunArgs.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestContainerRunArgs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void names();
    void simulatedCards();
    void realCardsAndLimits();
    void snapshotImage();
};

namespace {

InstanceSpec specFor(const QString &id)
{
    InstanceSpec spec;
    spec.instanceId = id;
    spec.ownerId = u"u-1"_s;
    spec.image = u"base"_s;
    spec.gpuType = u"H100"_s;
    spec.sshDir = u"/data/instances/%1/ssh"_s.arg(id);
    spec.diskGib = 20;
    return spec;
}

ContainerRunArgs::Settings settings()
{
    ContainerRunArgs::Settings s;
    s.providerId = u"prov"_s;
    s.imagePrefix = u"localhost/cardhour/"_s;
    s.network = u"slirp4netns"_s;
    s.stopTimeoutS = 7;
    return s;
}

// The value after `flag` at its n-th occurrence.
QString valueOf(const QStringList &args, const QString &flag, int n = 0)
{
    for (int i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == flag && n-- == 0)
            return args.at(i + 1);
    }
    return {};
}

QStringList valuesOf(const QStringList &args, const QString &flag)
{
    QStringList values;
    for (int i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == flag)
            values.append(args.at(i + 1));
    }
    return values;
}

} // namespace

void TestContainerRunArgs::names()
{
    QCOMPARE(box::containerName(u"abc"_s), u"cardhour-abc"_s);
    QCOMPARE(box::volumeName(u"abc"_s), u"cardhour-ws-abc"_s);
    QCOMPARE(box::networkName(u"abc"_s), u"cardhour-net-abc"_s);
    QCOMPARE(box::snapshotImage(u"AB-12"_s), u"localhost/cardhour-snapshot/ab-12:latest"_s);
    QCOMPARE(box::snapshotArchive(u"/data"_s, u"s1"_s), u"/data/snapshots/s1/workspace.tar"_s);
    QCOMPARE(box::hostnameFor(u"3F2A-99b1-xyz"_s), u"cardhour-3f2a99b1"_s);
    QCOMPARE(box::hostnameFor(u"--"_s), u"cardhour-instance"_s);
    QCOMPARE(box::ownerLabels(u"i"_s, u"o"_s, u"p"_s),
             (QStringList{u"--label"_s, u"cardhour.managed=true"_s, u"--label"_s,
                          u"cardhour.instance=i"_s, u"--label"_s, u"cardhour.owner=o"_s,
                          u"--label"_s, u"cardhour.provider=p"_s}));
}

void TestContainerRunArgs::simulatedCards()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    ContainerRunArgs::Settings s = settings();
    s.dataDir = data.path();
    s.selinux = true;
    InstanceSpec spec = specFor(u"i-1"_s);
    spec.datasets = {{u"mnist"_s, u"/srv/mnist"_s}};
    spec.models = {{u"llama"_s, u"/srv/llama"_s}};
    spec.appToken = u"secret"_s;
    const ContainerRunArgs run = ContainerRunArgs::forSpec(spec, 40022, s);
    const QStringList &args = run.args;
    QCOMPARE(args.mid(0, 4), (QStringList{u"run"_s, u"-d"_s, u"--name"_s, u"cardhour-i-1"_s}));
    QCOMPARE(valuesOf(args, u"--label"_s),
             (QStringList{u"cardhour.managed=true"_s, u"cardhour.instance=i-1"_s,
                          u"cardhour.owner=u-1"_s, u"cardhour.provider=prov"_s,
                          u"cardhour.disk-gib=20"_s}));
    QCOMPARE(valueOf(args, u"--hostname"_s), u"cardhour-i1"_s);
    QVERIFY(args.contains(u"--pull=never"_s));
    QCOMPARE(valueOf(args, u"--network"_s), u"slirp4netns"_s);
    QCOMPARE(valuesOf(args, u"-p"_s), QStringList{u"127.0.0.1:40022:22"_s});
    const QString gpuDir = data.path() + u"/instances/i-1/gpu"_s;
    const QString noticeDir = data.path() + u"/instances/i-1/notices"_s;
    QCOMPARE(valuesOf(args, u"-v"_s),
             (QStringList{u"cardhour-ws-i-1:/workspace"_s,
                          u"/data/instances/i-1/ssh:/etc/cardhour/ssh:ro,z"_s,
                          u"/srv/mnist:/datasets/mnist:ro,z"_s, u"/srv/llama:/models/llama:ro,z"_s,
                          noticeDir + u":/run/cardhour/notices:ro,z"_s,
                          gpuDir + u":/run/cardhour/gpu:ro,z"_s}));
    QVERIFY(QDir(gpuDir).exists()); // made for the mount
    QVERIFY(QDir(noticeDir).exists()); // where the provider writes an interruption's notice
    // Every capability dropped but the few sshd and apt need; no privileges gained by setuid.
    QCOMPARE(valueOf(args, u"--cap-drop"_s), u"ALL"_s);
    const QStringList kept = valuesOf(args, u"--cap-add"_s);
    QVERIFY(kept.contains(u"SYS_CHROOT"_s) && kept.contains(u"NET_BIND_SERVICE"_s));
    for (const QString &gone : {u"NET_RAW"_s, u"MKNOD"_s, u"SETFCAP"_s, u"SYS_ADMIN"_s})
        QVERIFY2(!kept.contains(gone), qPrintable(gone));
    QCOMPARE(valueOf(args, u"--security-opt"_s), u"no-new-privileges"_s);
    // The token is on no command line and in no environment: the box reads it from its file.
    QVERIFY(!valuesOf(args, u"-e"_s).contains(u"CARDHOUR_APP_TOKEN"_s));
    QVERIFY(!args.join(u' ').contains(u"secret"_s));
    // PID 1 comes from the provider's read-only folder, not from the image.
    QCOMPARE(args.mid(args.size() - 4),
             (QStringList{u"--stop-timeout"_s, u"7"_s, u"localhost/cardhour/base:latest"_s,
                          u"/etc/cardhour/ssh/cardhour-entrypoint"_s}));
    QVERIFY(!args.contains(u"--cpus"_s));
}

void TestContainerRunArgs::realCardsAndLimits()
{
    ContainerRunArgs::Settings s = settings();
    s.network.clear();
    InstanceSpec spec = specFor(u"i-2"_s);
    spec.realGpus = true;
    spec.gpuCards = {1};
    spec.cpus = 2.5;
    spec.memoryMib = 4096;
    spec.pidsLimit = 512;
    const QStringList args = ContainerRunArgs::forSpec(spec, 40023, s).args;
    QVERIFY(!args.contains(u"--network"_s)); // the engine's default
    QCOMPARE(valuesOf(args, u"-v"_s).size(), 2); // /workspace and ssh: no status folder
    for (const QString &arg : cli::gpuDeviceArgs(cli::Engine::Podman, {1}))
        QVERIFY2(args.contains(arg), qPrintable(arg));
    QCOMPARE(valueOf(args, u"--cpus"_s), u"2.5"_s);
    QCOMPARE(valueOf(args, u"--memory"_s), u"4096m"_s);
    QCOMPARE(valueOf(args, u"--pids-limit"_s), u"512"_s);
}

void TestContainerRunArgs::snapshotImage()
{
    InstanceSpec spec = specFor(u"i-3"_s);
    spec.snapshotId = u"S-1"_s;
    const QStringList args = ContainerRunArgs::forSpec(spec, 40024, settings()).args;
    QCOMPARE(args.at(args.size() - 2), u"localhost/cardhour-snapshot/s-1:latest"_s);
}

QTEST_GUILESS_MAIN(TestContainerRunArgs)
#include "tst_containerrunargs.moc"
