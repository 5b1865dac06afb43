// CliRuntime with a real engine and the real "base" image: launch, log in with OpenSSH (strict
// host key checking), stop/start with the workspace and host key kept, authorized_keys changes
// live, remove. Built twice (CARDHOUR_TEST_ENGINE): tst_podmanruntime drives the podman CLI;
// tst_dockerruntime drives the docker CLI against podman's Docker-compatible API service, which
// the test starts on a socket of its own (no Docker Engine runs here; the docker CLI is real).
// What the engine did is checked with podman itself. Everything made is labelled with a unique
// cardhour.provider and removed at the end, also when a test fails; the image is kept.
#include "PodmanTestSupport.h"
#include "runtime/CliRuntime.h"
#include "runtime/InstanceFiles.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using namespace cardhour::test;

namespace {

constexpr int kFirstReadyTimeoutMs = 120000;

const cli::Engine kEngine = QLatin1StringView(CARDHOUR_TEST_ENGINE) == QLatin1StringView("docker")
    ? cli::Engine::Docker
    : cli::Engine::Podman;

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestCliRuntime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void lifecycle();
    void runtimeMakesInstanceFilesItself();
    void wrongHostKeyIsNeverReady();
    void imageNotBuilt();
    void startWithoutContainer();
    void removeWhileCreating();
    void containerThatExitsFailsFast();
    void boxesCannotReachEachOther();
    void engineApiAndCommandLine_data();
    void engineApiAndCommandLine();

private:
    CliRuntime::Options options() const;
    InstanceSpec specFor(const QString &id, const QStringList &keys);
    QString newId() const { return u"t"_s + randomSuffix(); }
    // Waits for ready or failed of `id`; returns the failure reason (empty when ready).
    QString waitReady(QSignalSpy &readySpy, QSignalSpy &failedSpy, int timeoutMs,
                      SshEndpoint *endpoint);
    Run ssh(const SshEndpoint &endpoint, const QString &key, const QString &command);
    void writeKnownHosts(const SshEndpoint &endpoint, const InstanceFiles &files);

    // docker: podman's API service on m_dockerHost, for the docker CLI to talk to.
    bool startDockerApi();
    std::unique_ptr<QProcess> m_dockerApi;
    QString m_dockerHost;

    QTemporaryDir m_data;
    QString m_provider = u"cardhour-test-"_s + randomSuffix();
    std::unique_ptr<CleanupGuard> m_cleanup;
    QString m_clientKey[3];
    QString m_knownHosts;
};

void TestCliRuntime::initTestCase()
{
    QVERIFY(m_data.isValid());
    qRegisterMetaType<SshEndpoint>();
    qRegisterMetaType<QHash<QString, bool>>();
    const ImageCheck image = ensureBaseImage();
    if (!image.error.isEmpty())
        QFAIL(qPrintable(image.error));
    if (!image.skip.isEmpty())
        QSKIP(qPrintable(image.skip));
    if (kEngine == cli::Engine::Docker) {
        if (QStandardPaths::findExecutable(u"docker"_s).isEmpty())
            QSKIP("the docker CLI is not installed");
        QVERIFY(startDockerApi());
    }
    QString why;
    QVERIFY2(CliRuntime::isUsable(options(), &why), qPrintable(why));
    CliRuntime::Options missing = options();
    missing.program = u"/nonexistent/"_s + cli::engineName(kEngine);
    QVERIFY(!CliRuntime::isUsable(missing, &why));
    QVERIFY(!why.isEmpty());
    m_cleanup = std::make_unique<CleanupGuard>(m_provider);

    if (QStandardPaths::findExecutable(u"ssh"_s).isEmpty()
        || QStandardPaths::findExecutable(u"ssh-keygen"_s).isEmpty())
        QSKIP("OpenSSH client (ssh, ssh-keygen) is not installed");
    for (int i = 0; i < 3; ++i) {
        m_clientKey[i] = m_data.filePath(u"client%1"_s.arg(i));
        const Run made = runProgram(u"ssh-keygen"_s,
                                    {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-C"_s,
                                     u"client%1"_s.arg(i), u"-f"_s, m_clientKey[i]});
        QVERIFY2(made.ok(), qPrintable(made.errTail()));
    }
    m_knownHosts = m_data.filePath(u"known_hosts"_s);
}

void TestCliRuntime::cleanupTestCase()
{
    m_cleanup.reset(); // removes every container and volume of m_provider
    const Run left = podman(
        {u"ps"_s, u"-a"_s, u"-q"_s, u"--filter"_s, u"label=cardhour.provider="_s + m_provider});
    if (m_dockerApi) {
        m_dockerApi->terminate();
        if (!m_dockerApi->waitForFinished(10000))
            m_dockerApi->kill();
    }
    QCOMPARE(left.out.trimmed(), QByteArray());
}

bool TestCliRuntime::startDockerApi()
{
    const QString socket = m_data.filePath(u"docker.sock"_s);
    m_dockerHost = u"unix://"_s + socket;
    m_dockerApi = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!containersConf().isEmpty())
        env.insert(u"CONTAINERS_CONF"_s, containersConf());
    m_dockerApi->setProcessEnvironment(env);
    m_dockerApi->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_dockerApi->start(podmanBinary(), {u"system"_s, u"service"_s, u"--time=0"_s, m_dockerHost});
    if (!m_dockerApi->waitForStarted(10000)) {
        qWarning("podman system service did not start: %s", qPrintable(m_dockerApi->errorString()));
        return false;
    }
    // Ready when the docker CLI gets an answer through the socket.
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 30000) {
        QProcess probe;
        QProcessEnvironment probeEnv = env;
        probeEnv.insert(u"DOCKER_HOST"_s, m_dockerHost);
        probe.setProcessEnvironment(probeEnv);
        probe.start(u"docker"_s, {u"version"_s, u"--format"_s, u"{{.Server.Version}}"_s});
        if (probe.waitForFinished(10000) && probe.exitCode() == 0) {
            qInfo("docker CLI talks to podman %s's Docker-compatible API at %s",
                  qPrintable(QString::fromUtf8(probe.readAllStandardOutput()).trimmed()),
                  qPrintable(m_dockerHost));
            return true;
        }
        QTest::qWait(200);
    }
    qWarning("the docker CLI got no answer from podman's API service at %s",
             qPrintable(m_dockerHost));
    return false;
}

CliRuntime::Options TestCliRuntime::options() const
{
    CliRuntime::Options o;
    o.engine = kEngine;
    o.program = kEngine == cli::Engine::Podman ? podmanBinary() : u"docker"_s;
    o.dockerHost = m_dockerHost;
    o.containersConf = containersConf();
    o.providerId = m_provider;
    return o;
}

InstanceSpec TestCliRuntime::specFor(const QString &id, const QStringList &keys)
{
    const InstanceFiles files = InstanceFiles::prepare(m_data.path(), id);
    InstanceSpec spec;
    spec.instanceId = id;
    spec.ownerId = u"owner-1"_s;
    spec.image = u"base"_s;
    spec.gpuType = u"rtx4090"_s;
    spec.sshDir = files.sshDir();
    spec.hostKeySha256 = files.hostKeySha256();
    spec.authorizedKeys = keys;
    return spec;
}

QString TestCliRuntime::waitReady(QSignalSpy &readySpy, QSignalSpy &failedSpy, int timeoutMs,
                                  SshEndpoint *endpoint)
{
    const bool done =
        QTest::qWaitFor([&] { return readySpy.count() > 0 || failedSpy.count() > 0; }, timeoutMs);
    if (!done)
        return u"neither ready nor failed within %1 s"_s.arg(timeoutMs / 1000);
    if (failedSpy.count() > 0)
        return failedSpy.first().at(1).toString();
    if (endpoint)
        *endpoint = readySpy.first().at(1).value<SshEndpoint>();
    return {};
}

Run TestCliRuntime::ssh(const SshEndpoint &endpoint, const QString &key, const QString &command)
{
    return runProgram(u"ssh"_s,
                      {u"-F"_s,
                       u"/dev/null"_s,
                       u"-o"_s,
                       u"StrictHostKeyChecking=yes"_s,
                       u"-o"_s,
                       u"UserKnownHostsFile="_s + m_knownHosts,
                       u"-o"_s,
                       u"GlobalKnownHostsFile=/dev/null"_s,
                       u"-o"_s,
                       u"BatchMode=yes"_s,
                       u"-o"_s,
                       u"IdentitiesOnly=yes"_s,
                       u"-o"_s,
                       u"IdentityAgent=none"_s,
                       u"-o"_s,
                       u"ConnectTimeout=15"_s,
                       u"-o"_s,
                       u"LogLevel=ERROR"_s,
                       u"-i"_s,
                       key,
                       u"-p"_s,
                       QString::number(endpoint.port),
                       endpoint.user + u'@' + endpoint.host,
                       command},
                      60000);
}

void TestCliRuntime::writeKnownHosts(const SshEndpoint &endpoint, const InstanceFiles &files)
{
    QFile f(m_knownHosts);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(u"[%1]:%2 %3\n"_s.arg(endpoint.host)
                .arg(endpoint.port)
                .arg(files.hostPublicKeyLine())
                .toUtf8());
}

void TestCliRuntime::lifecycle()
{
    const QString id = newId();
    const InstanceSpec spec = specFor(id, {readText(m_clientKey[0] + u".pub"_s).trimmed()});
    const InstanceFiles files = InstanceFiles::prepare(m_data.path(), id);
    InstanceSpec limited = spec;
    limited.cpus = 1;
    limited.memoryMib = 512;
    limited.appToken = u"app-token-123"_s;

    CliRuntime runtime(options());
    QVERIFY2(runtime.looksUsable(), qPrintable(runtime.unusableReason()));
    QCOMPARE(runtime.name(), cli::engineName(kEngine));
    QVERIFY(runtime.outlivesProvider());
    QSignalSpy stages(&runtime, &ContainerRuntime::stageReached);
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy stoppedSpy(&runtime, &ContainerRuntime::stopped);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);

    // ---- create
    QElapsedTimer clock;
    clock.start();
    runtime.create(limited);
    QCOMPARE(stages.count(), 0); // never from inside the call
    SshEndpoint endpoint;
    QString failure = waitReady(readySpy, failedSpy, kFirstReadyTimeoutMs, &endpoint);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const qint64 launchMs = clock.elapsed();
    qInfo("launch-to-ready (create of %s, image base): %lld ms", qPrintable(id), launchMs);
    QStringList seen;
    for (const QList<QVariant> &args : std::as_const(stages)) {
        QCOMPARE(args.at(0).toString(), id);
        seen.append(args.at(1).toString());
    }
    QCOMPARE(seen, (QStringList{u"image"_s, u"container"_s, u"sshd"_s, u"ready"_s}));
    QCOMPARE(readySpy.first().at(0).toString(), id);
    QCOMPARE(endpoint.host, u"127.0.0.1"_s);
    QVERIFY(endpoint.port > 0);
    QCOMPARE(endpoint.user, u"root"_s);
    QCOMPARE(endpoint.hostKeySha256, files.hostKeySha256());
    QCOMPARE(endpoint.hostKey, files.hostPublicKeyLine());
    QVERIFY(runtime.isRunning(id));
    QCOMPARE(runtime.inventory().value(id, false), true);
    QCOMPARE(runtime.sshPortOf(id), endpoint.port);
    // Only sshd is published: one-click apps stay on the box's loopback.
    QCOMPARE(runtime.publishedPortsOf(id), (QHash<int, int>{{22, endpoint.port}}));

    // Labels, mounts, limits and the app token, as podman reports them.
    const Run inspect =
        podman({u"inspect"_s, u"--type"_s, u"container"_s, CliRuntime::containerName(id)});
    QVERIFY2(inspect.ok(), qPrintable(inspect.errTail()));
    const QJsonObject container = QJsonDocument::fromJson(inspect.out).array().first().toObject();
    const QJsonObject labels =
        container.value(u"Config"_s).toObject().value(u"Labels"_s).toObject();
    QCOMPARE(labels.value(u"cardhour.managed"_s).toString(), u"true"_s);
    QCOMPARE(labels.value(u"cardhour.instance"_s).toString(), id);
    QCOMPARE(labels.value(u"cardhour.owner"_s).toString(), u"owner-1"_s);
    QCOMPARE(labels.value(u"cardhour.provider"_s).toString(), m_provider);
    const QJsonObject hostConfig = container.value(u"HostConfig"_s).toObject();
    QCOMPARE(hostConfig.value(u"Memory"_s).toInteger(), 512LL * 1024 * 1024);
    QCOMPARE(hostConfig.value(u"NanoCpus"_s).toInteger(), 1000000000LL);
    // The app token is in neither the container's environment nor its command line (the box
    // reads it from the provider's 0600 file); PID 1 is the provider's entrypoint.
    const QJsonDocument config(container.value(u"Config"_s).toObject());
    QVERIFY2(!config.toJson().contains("app-token-123"), config.toJson().constData());
    QVERIFY(!container.value(u"Args"_s).toVariant().toStringList().join(u' ').contains(
        u"app-token-123"_s));
    QCOMPARE(container.value(u"Config"_s).toObject().value(u"Cmd"_s).toArray(),
             QJsonArray{u"/etc/cardhour/ssh/cardhour-entrypoint"_s});

    // ---- log in with OpenSSH, strict host key checking against the provider-made key
    writeKnownHosts(endpoint, files);
    Run r = ssh(endpoint, m_clientKey[0],
                u"echo persisted > /workspace/persist.txt && hostname && ulimit -n"_s);
    QVERIFY2(r.ok(), qPrintable(r.errTail()));
    qInfo("in the container: %s", qPrintable(QString::fromUtf8(r.out).simplified()));
    r = ssh(endpoint, m_clientKey[1], u"true"_s);
    QVERIFY2(!r.ok(), "a key that is not in authorized_keys must not log in");
    // Box root: the token in its file, no privileges to gain, no raw sockets or mknod (bits 13
    // and 27 of the bounding set), sshd on the provider's configuration.
    r = ssh(endpoint, m_clientKey[0],
            u"cat /etc/cardhour/ssh/app_token; grep -E '^(NoNewPrivs|CapBnd)' /proc/self/status;"
            " tr '\\0' ' ' < /proc/1/cmdline"_s);
    QVERIFY2(r.ok(), qPrintable(r.errTail()));
    const QString box = QString::fromUtf8(r.out);
    QVERIFY2(box.startsWith(u"app-token-123\n"_s), qPrintable(box));
    QVERIFY2(box.contains(QRegularExpression(u"NoNewPrivs:\\s+1"_s)), qPrintable(box));
    const qulonglong bounding = QRegularExpression(u"CapBnd:\\s+([0-9a-f]+)"_s)
                                    .match(box)
                                    .captured(1)
                                    .toULongLong(nullptr, 16);
    QVERIFY2(bounding != 0 && !(bounding & (1ULL << 13)) && !(bounding & (1ULL << 27)),
             qPrintable(box));
    QVERIFY2(box.contains(u"sshd -D -e -f /etc/cardhour/ssh/sshd_config"_s), qPrintable(box));

    // ---- stop: not running, the container kept
    runtime.stop(id);
    QTRY_COMPARE_WITH_TIMEOUT(stoppedSpy.count(), 1, 60000);
    QCOMPARE(stoppedSpy.first().at(0).toString(), id);
    QVERIFY(!runtime.isRunning(id));
    QVERIFY(runtime.inventory().contains(id));
    QVERIFY(!runtime.inventory().value(id));
    const Run running = podman({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                                u"{{.State.Running}}"_s, CliRuntime::containerName(id)});
    QVERIFY2(running.ok(), qPrintable(running.errTail()));
    QCOMPARE(running.out.trimmed(), "false"_ba);
    QVERIFY(failedSpy.isEmpty());

    // ---- start: same port, same host key (StrictHostKeyChecking), workspace kept
    readySpy.clear();
    stages.clear();
    clock.restart();
    runtime.start(spec);
    failure = waitReady(readySpy, failedSpy, 60000, &endpoint);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    qInfo("launch-to-ready (start after stop): %lld ms", clock.elapsed());
    QCOMPARE(endpoint.port, runtime.sshPortOf(id));
    QCOMPARE(endpoint.hostKeySha256, files.hostKeySha256());
    r = ssh(endpoint, m_clientKey[0], u"cat /workspace/persist.txt"_s);
    QVERIFY2(r.ok(), qPrintable(r.errTail()));
    QCOMPARE(r.out.trimmed(), "persisted"_ba);

    // ---- authorized_keys rewritten: effective at once, no restart
    runtime.setAuthorizedKeys(id, {readText(m_clientKey[1] + u".pub"_s).trimmed()});
    r = ssh(endpoint, m_clientKey[1], u"true"_s);
    QVERIFY2(r.ok(), qPrintable(r.errTail()));
    QVERIFY(!ssh(endpoint, m_clientKey[0], u"true"_s).ok());

    // ---- a restarted provider finds the container and its ports by label
    {
        CliRuntime restarted(options());
        QVERIFY(!restarted.isRunning(id));
        QSignalSpy refreshed(&restarted, &CliRuntime::refreshed);
        QVERIFY(restarted.refreshNow(30000));
        QCOMPARE(refreshed.count(), 1);
        QVERIFY(refreshed.first().at(1).toBool());
        using RunningById = QHash<QString, bool>;
        QVERIFY(refreshed.first().at(0).value<RunningById>().value(id));
        QVERIFY(restarted.isRunning(id));
        QCOMPARE(restarted.sshPortOf(id), endpoint.port);
        QCOMPARE(restarted.publishedPortsOf(id), (QHash<int, int>{{22, endpoint.port}}));

        restarted.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(refreshed.count(), 2, 30000);
        QVERIFY(refreshed.last().at(1).toBool());
        QVERIFY(restarted.containers().contains(id));

        // start() of a running container: ready on the remembered port.
        QSignalSpy ready2(&restarted, &ContainerRuntime::ready);
        QSignalSpy failed2(&restarted, &ContainerRuntime::failed);
        InstanceSpec withKey1 = spec; // the spec is the truth for authorized_keys
        restarted.start(withKey1);
        SshEndpoint again;
        failure = waitReady(ready2, failed2, 60000, &again);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(again.port, endpoint.port);
        QVERIFY(ssh(endpoint, m_clientKey[0], u"true"_s).ok());
    }

    // ---- remove: container and volume gone
    runtime.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 1, 60000);
    QVERIFY(failedSpy.isEmpty());
    QVERIFY(!runtime.isRunning(id));
    QVERIFY(!runtime.inventory().contains(id));
    QCOMPARE(podman({u"container"_s, u"exists"_s, CliRuntime::containerName(id)}).exitCode, 1);
    QCOMPARE(podman({u"volume"_s, u"exists"_s, CliRuntime::volumeName(id)}).exitCode, 1);
    // The runtime was given the ssh dir, so the files are the provider's to delete.
    QVERIFY(QFileInfo::exists(files.hostKeyPath()));
}

void TestCliRuntime::runtimeMakesInstanceFilesItself()
{
    QTemporaryDir data;
    CliRuntime::Options o = options();
    o.dataDir = data.path();
    CliRuntime runtime(o);
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);

    const QString id = newId();
    InstanceSpec spec;
    spec.instanceId = id;
    spec.ownerId = u"owner-2"_s;
    spec.image = u"base"_s;
    spec.authorizedKeys = {readText(m_clientKey[2] + u".pub"_s).trimmed()};
    runtime.create(spec);
    SshEndpoint endpoint;
    const QString failure = waitReady(readySpy, failedSpy, kFirstReadyTimeoutMs, &endpoint);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const InstanceFiles files = InstanceFiles::prepare(data.path(), id);
    QCOMPARE(endpoint.hostKeySha256, files.hostKeySha256());
    writeKnownHosts(endpoint, files);
    const Run r = ssh(endpoint, m_clientKey[2], u"true"_s);
    QVERIFY2(r.ok(), qPrintable(r.errTail()));

    runtime.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 1, 60000);
    QVERIFY(!QFileInfo::exists(files.instanceDir()));
}

void TestCliRuntime::wrongHostKeyIsNeverReady()
{
    CliRuntime runtime(options());
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);
    const QString id = newId();
    InstanceSpec spec = specFor(id, {});
    spec.hostKeySha256 = InstanceFiles::prepare(m_data.path(), id + u"-other"_s).hostKeySha256();
    QElapsedTimer clock;
    clock.start();
    runtime.create(spec);
    QTRY_COMPARE_WITH_TIMEOUT(failedSpy.count(), 1, kFirstReadyTimeoutMs);
    QVERIFY(clock.elapsed() < 55000); // at once, not at the 60 s deadline
    const QString reason = failedSpy.first().at(1).toString();
    QVERIFY2(reason.contains(u"host key"_s) && reason.contains(spec.hostKeySha256),
             qPrintable(reason));
    QCOMPARE(readySpy.count(), 0);
    // Not left running while failed.
    QVERIFY(!runtime.isRunning(id));
    const Run running = podman({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                                u"{{.State.Running}}"_s, CliRuntime::containerName(id)});
    QCOMPARE(running.out.trimmed(), "false"_ba);
    runtime.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 1, 60000);
}

void TestCliRuntime::imageNotBuilt()
{
    CliRuntime runtime(options());
    QSignalSpy stages(&runtime, &ContainerRuntime::stageReached);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    const QString id = newId();
    InstanceSpec spec = specFor(id, {});
    spec.image = u"no-such-image-"_s + randomSuffix();
    runtime.create(spec);
    QTRY_COMPARE_WITH_TIMEOUT(failedSpy.count(), 1, 30000);
    QCOMPARE(failedSpy.first().at(1).toString(),
             u"image %1 is not built: run cardhour-sim images build %1"_s.arg(spec.image));
    QCOMPARE(stages.count(), 1);
    QCOMPARE(stages.first().at(1).toString(), u"image"_s);
    QCOMPARE(podman({u"volume"_s, u"exists"_s, CliRuntime::volumeName(id)}).exitCode, 1);
}

void TestCliRuntime::startWithoutContainer()
{
    CliRuntime runtime(options());
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy stoppedSpy(&runtime, &ContainerRuntime::stopped);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);
    const QString id = newId();
    runtime.start(specFor(id, {}));
    QTRY_COMPARE_WITH_TIMEOUT(failedSpy.count(), 1, 30000);
    QCOMPARE(failedSpy.first().at(1).toString(), u"container is gone"_s);
    // stop and remove of nothing succeed.
    runtime.stop(id);
    runtime.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 1, 30000);
    QCOMPARE(stoppedSpy.count(), 1);
    QCOMPARE(failedSpy.count(), 1);
}

void TestCliRuntime::removeWhileCreating()
{
    CliRuntime runtime(options());
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);
    QSignalSpy stages(&runtime, &ContainerRuntime::stageReached);

    // Removed right away, and removed once podman has started the container.
    const QString early = newId();
    runtime.create(specFor(early, {}));
    runtime.remove(early);
    const QString late = newId();
    connect(&runtime, &ContainerRuntime::stageReached, this,
            [&runtime, late](const QString &instanceId, const QString &stage) {
                if (instanceId == late && stage == u"container"_s)
                    runtime.remove(late);
            });
    runtime.create(specFor(late, {}));
    // And while the sshd probe runs (it is cancelled).
    const QString probing = newId();
    connect(&runtime, &ContainerRuntime::stageReached, this,
            [&runtime, probing](const QString &instanceId, const QString &stage) {
                if (instanceId == probing && stage == u"sshd"_s)
                    QTimer::singleShot(0, &runtime,
                                       [&runtime, probing] { runtime.remove(probing); });
            });
    InstanceSpec slow = specFor(probing, {});
    // A host key sshd accepts but the probe does not: the probe would retry until removed.
    slow.hostKeySha256 =
        InstanceFiles::prepare(m_data.path(), probing + u"-other"_s).hostKeySha256();
    runtime.create(slow);

    QTRY_VERIFY_WITH_TIMEOUT(removedSpy.count() + failedSpy.count() >= 3, kFirstReadyTimeoutMs);
    QTest::qWait(1500); // a stray watchdog or probe would report by now
    QVERIFY2(failedSpy.isEmpty(), qPrintable(failedSpy.value(0).value(1).toString()));
    QCOMPARE(removedSpy.count(), 3);
    QCOMPARE(readySpy.count(), 0);
    for (const QString &id : {early, late, probing}) {
        QCOMPARE(podman({u"container"_s, u"exists"_s, CliRuntime::containerName(id)}).exitCode, 1);
        QCOMPARE(podman({u"volume"_s, u"exists"_s, CliRuntime::volumeName(id)}).exitCode, 1);
        QVERIFY(!runtime.hasPendingWork(id));
    }
}

void TestCliRuntime::containerThatExitsFailsFast()
{
    CliRuntime runtime(options());
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);
    const QString id = newId();
    const InstanceSpec spec = specFor(id, {});
    // sshd cannot load this host key and exits at once.
    QFile key(spec.sshDir + u"/ssh_host_ed25519_key"_s);
    QVERIFY(key.open(QIODevice::WriteOnly | QIODevice::Truncate));
    key.write("not a key\n");
    key.close();
    QElapsedTimer clock;
    clock.start();
    runtime.create(spec);
    QTRY_COMPARE_WITH_TIMEOUT(failedSpy.count(), 1, kFirstReadyTimeoutMs);
    const QString reason = failedSpy.first().at(1).toString();
    qInfo("failed after %lld ms: %s", clock.elapsed(), qPrintable(reason));
    QVERIFY2(clock.elapsed() < 20000, "not at the probe's 60 s deadline");
    QVERIFY2(reason.contains(u"exited"_s), qPrintable(reason));
    QCOMPARE(readySpy.count(), 0);
    QVERIFY(!runtime.isRunning(id));
    runtime.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 1, 60000);
}

// One box must not reach another's ports: under docker each box has a bridge network of its own
// (docker's default bridge is shared), under podman each its own slirp4netns, which keeps the
// host's loopback (where every box's sshd is published) out of reach.
void TestCliRuntime::boxesCannotReachEachOther()
{
    CliRuntime runtime(options());
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);
    const QString a = newId();
    const QString b = newId();
    runtime.create(specFor(a, {}));
    runtime.create(specFor(b, {}));
    QTRY_VERIFY_WITH_TIMEOUT(readySpy.count() + failedSpy.count() >= 2, kFirstReadyTimeoutMs);
    QVERIFY2(failedSpy.isEmpty(), qPrintable(failedSpy.value(0).value(1).toString()));

    // Python in the box: connect with a deadline, print "open" or the error.
    auto connectFrom = [](const QString &id, const QString &host, int port) {
        const QString script =
            u"import socket\ntry:\n socket.create_connection(('%1', %2), 3)\n print('open')\n"
            "except OSError as e:\n print('closed', e)\n"_s.arg(host)
                .arg(port);
        const Run run = podman(
            {u"exec"_s, CliRuntime::containerName(id), u"python3"_s, u"-c"_s, script}, 30000);
        return QString::fromUtf8(run.out + run.err).trimmed();
    };
    const Run inspect =
        podman({u"inspect"_s, u"--type"_s, u"container"_s, CliRuntime::containerName(a)});
    QVERIFY2(inspect.ok(), qPrintable(inspect.errTail()));
    const QJsonObject container = QJsonDocument::fromJson(inspect.out).array().first().toObject();
    const QJsonObject networks =
        container.value(u"NetworkSettings"_s).toObject().value(u"Networks"_s).toObject();
    if (kEngine == cli::Engine::Docker) {
        QCOMPARE(networks.keys(), QStringList{CliRuntime::networkName(a)});
        const QString ipOfA =
            networks.value(CliRuntime::networkName(a)).toObject().value(u"IPAddress"_s).toString();
        QVERIFY(!ipOfA.isEmpty());
        // The probe can see an open port: sshd of A, from A itself.
        QCOMPARE(connectFrom(a, ipOfA, 22), u"open"_s);
        const QString fromB = connectFrom(b, ipOfA, 22);
        QVERIFY2(fromB.startsWith(u"closed"_s), qPrintable(fromB));
        const Run labels =
            podman({u"network"_s, u"inspect"_s, u"--format"_s,
                    u"{{index .Labels \"cardhour.instance\"}}"_s, CliRuntime::networkName(a)});
        QCOMPARE(QString::fromUtf8(labels.out).trimmed(), a);
    } else {
        QCOMPARE(container.value(u"HostConfig"_s).toObject().value(u"NetworkMode"_s).toString(),
                 u"slirp4netns"_s);
        // A's sshd is published on the host's loopback: slirp4netns's gateway (10.0.2.2) does
        // not lead there.
        const QString fromB = connectFrom(b, u"10.0.2.2"_s, runtime.sshPortOf(a));
        QVERIFY2(fromB.startsWith(u"closed"_s), qPrintable(fromB));
    }

    runtime.remove(a);
    runtime.remove(b);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 2, 120000);
    for (const QString &id : {a, b})
        QCOMPARE(podman({u"network"_s, u"exists"_s, CliRuntime::networkName(id)}).exitCode, 1);
}

// The same launch, command, outside kill and stop through the engine's REST API (a podman
// service of the runtime's own; for docker podman's Docker-compatible one, the test's) and
// through the command line only. Through the API the outside kill is noticed from the event
// stream, without a listing being asked for; through the command line the listing notices it.
void TestCliRuntime::engineApiAndCommandLine_data()
{
    QTest::addColumn<bool>("api");
    QTest::newRow("rest-api") << true;
    QTest::newRow("command-line") << false;
}

void TestCliRuntime::engineApiAndCommandLine()
{
    QFETCH(bool, api);
    CliRuntime::Options o = options();
    o.engineApi = api;
    CliRuntime runtime(o);
    QVERIFY2(runtime.looksUsable(), qPrintable(runtime.unusableReason()));
    QCOMPARE(runtime.usesEngineApi(), api);
    QCOMPARE(runtime.watchesEvents(), api);
    QSignalSpy readySpy(&runtime, &ContainerRuntime::ready);
    QSignalSpy failedSpy(&runtime, &ContainerRuntime::failed);
    QSignalSpy stoppedSpy(&runtime, &ContainerRuntime::stopped);
    QSignalSpy removedSpy(&runtime, &ContainerRuntime::removed);
    QSignalSpy refreshedSpy(&runtime, &CliRuntime::refreshed);

    const QString id = newId();
    InstanceSpec spec = specFor(id, {readText(m_clientKey[0] + u".pub"_s).trimmed()});
    spec.cpus = 1;
    spec.memoryMib = 512;
    spec.appToken = u"token-%1"_s.arg(api ? u"api"_s : u"cli"_s);
    const InstanceFiles files = InstanceFiles::prepare(m_data.path(), id);
    QElapsedTimer clock;
    clock.start();
    runtime.create(spec);
    SshEndpoint endpoint;
    const QString why = waitReady(readySpy, failedSpy, kFirstReadyTimeoutMs, &endpoint);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    qInfo("%s: ready after %lld ms", api ? "API" : "command line", clock.elapsed());
    const QString containerId = runtime.containers().value(id).containerId;
    QVERIFY(!containerId.isEmpty());

    // What the container was made with, whichever way: labels, limits, no token.
    const Run inspected =
        podman({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                u"{{index .Config.Labels \"cardhour.instance\"}} "
                "{{.HostConfig.Memory}} {{.HostConfig.NanoCpus}} {{.Config.Env}}"_s,
                containerId});
    QVERIFY2(inspected.ok(), qPrintable(inspected.errTail()));
    const QString made = QString::fromUtf8(inspected.out).trimmed();
    QVERIFY2(made.startsWith(u"%1 %2 %3 "_s.arg(id).arg(512LL * 1024 * 1024).arg(1000000000LL)),
             qPrintable(made));
    QVERIFY2(!made.contains(spec.appToken), qPrintable(made));
    writeKnownHosts(endpoint, files);
    const Run command =
        ssh(endpoint, m_clientKey[0], u"echo hello > /workspace/a && cat /workspace/a"_s);
    QVERIFY2(command.ok(), qPrintable(command.errTail()));
    QCOMPARE(command.out.trimmed(), QByteArray("hello"));

    // Killed behind the runtime's back.
    refreshedSpy.clear();
    const Run killed = podman({u"kill"_s, containerId});
    QVERIFY2(killed.ok(), qPrintable(killed.errTail()));
    if (!api)
        runtime.refresh(); // without events only a listing notices
    QTRY_VERIFY_WITH_TIMEOUT(!runtime.isRunning(id), 20000);
    QVERIFY(refreshedSpy.count() > 0);
    using RunningById = QHash<QString, bool>;
    const RunningById lastListing = refreshedSpy.last().at(0).value<RunningById>();
    QCOMPARE(lastListing.value(id, true), false);

    // Started again and stopped, as the service does.
    readySpy.clear();
    runtime.start(spec);
    const QString whyStart = waitReady(readySpy, failedSpy, 60000, nullptr);
    QVERIFY2(whyStart.isEmpty(), qPrintable(whyStart));
    QVERIFY(runtime.isRunning(id));
    runtime.stop(id);
    QTRY_COMPARE_WITH_TIMEOUT(stoppedSpy.count(), 1, 60000);
    QVERIFY(!runtime.isRunning(id));
    const Run state = podman({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                              u"{{.State.Running}}"_s, containerId});
    QCOMPARE(QString::fromUtf8(state.out).trimmed(), u"false"_s);
    runtime.remove(id);
    QTRY_COMPARE_WITH_TIMEOUT(removedSpy.count(), 1, 60000);
    QCOMPARE(failedSpy.count(), 0);
    const Run gone =
        podman({u"ps"_s, u"-a"_s, u"-q"_s, u"--filter"_s, u"label=cardhour.instance="_s + id});
    QCOMPARE(gone.out.trimmed(), QByteArray());
}

QTEST_GUILESS_MAIN(TestCliRuntime)
#include "tst_cliruntime.moc"
