// Attacks on the provider's containers by another user of the same machine or by the box's
// own root, each performed for real against cardhour-sim with the podman runtime:
//   * one-click app: the Jupyter token is read from the host's process list, the notebook is
//     reached through a port published on the host (issue 13, item 3);
//   * a key copied into /root/.ssh/authorized_keys inside the box survives its removal through
//     the API (item 9);
//   * the user restores an older database: reconcile must not delete the volumes of instances
//     it does not know (item 8);
//   * a fork bomb (bounded, to spare the machine if the limit were missing) in one box (item 6);
//   * a box connects to the host's own address and the cloud metadata address (issue 39, N5);
//   * an app token that leaked still opens the app after the owner restarts the host (N1);
//   * box root rewrites sshd's configuration and the entrypoint in its own files, so a key
//     removed through the API logs in again after a restart (issue 39, low);
//   * box root makes device nodes, or a user of the box gains root through a setuid copy of a
//     shell (issue 39, low: default capabilities, no no-new-privileges).
#include "PodmanApiTest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkInterface>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

// Every host process whose command line (/proc/PID/cmdline, NULs as spaces) holds `needle`.
QStringList processesShowing(const QByteArray &needle)
{
    QStringList hits;
    const QStringList pids = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        bool numeric = false;
        pid.toInt(&numeric);
        if (!numeric)
            continue;
        QFile file(u"/proc/%1/cmdline"_s.arg(pid));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        QByteArray cmdline = file.readAll();
        cmdline.replace('\0', ' ');
        if (cmdline.contains(needle))
            hits.append(pid + u": "_s + QString::fromUtf8(cmdline.left(200)));
    }
    return hits;
}

// The TCP ports something listens on in this network namespace (the host's).
QList<int> listeningPorts()
{
    QList<int> ports;
    for (const QString &table : {u"/proc/net/tcp"_s, u"/proc/net/tcp6"_s}) {
        QFile file(table);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = file.readAll().split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> fields = lines.at(i).simplified().split(' ');
            if (fields.size() < 4 || fields.at(3) != "0A") // 0A: LISTEN
                continue;
            bool ok = false;
            const QByteArray local = fields.at(1);
            const int port = local.mid(local.lastIndexOf(':') + 1).toInt(&ok, 16);
            if (ok && !ports.contains(port))
                ports.append(port);
        }
    }
    return ports;
}

// What `GET path` on 127.0.0.1:port answers within a short time (empty when nothing does).
QByteArray httpGet(int port, const QByteArray &path)
{
    QTcpSocket socket;
    socket.connectToHost(u"127.0.0.1"_s, quint16(port));
    if (!socket.waitForConnected(1000))
        return {};
    socket.write("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray answer;
    QDeadlineTimer deadline(1500);
    while (!deadline.hasExpired() && socket.state() == QAbstractSocket::ConnectedState) {
        if (socket.waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime()))))
            answer += socket.readAll();
        else
            break;
    }
    return answer + socket.readAll();
}

} // namespace

class TestSecProviderPodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void appTokenAndPortStayInTheBox();
    void removedKeyNoLongerLogsIn();
    void restoredOlderDatabaseLosesNoVolume();
    void forkBombStaysInItsBox();
    void aBoxReachesNoPrivateAddress();
    void appTokenChangesWithEveryStart();
    void boxRootCannotUndoARemovedKey();
    void boxRootHasNoDevicesOrSetuidGains();

private:
    // One user with two keys ("kept" and "removed") and an instance with both, running.
    struct TwoKeyBox
    {
        QString token;
        KeyPair kept;
        KeyPair removed;
        QString removedId;
        QString id;
        QJsonObject inst;
        QString knownHosts;
        QString failure; // empty when it runs
    };
    TwoKeyBox launchWithTwoKeys(SimProcess &sim, const QString &email);
    // Stops and starts the instance, waiting until it runs again.
    QJsonObject restart(SimProcess &sim, const QString &token, const QString &id);
};

void TestSecProviderPodman::appTokenAndPortStayInTheBox()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"notebook@example.com"_s);
    QVERIFY(!token.isEmpty());
    const Reply r =
        sim->authedPost(token, u"/v1/instances"_s,
                        QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"jupyter"_s}});
    QVERIFY2(r.status == 202, r.describe().constData());
    const QString id = r.value(u"id"_s).toString();
    m_instanceIds.append(id);
    const QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    const QJsonObject app = inst.value(u"apps"_s).toArray().at(0).toObject();
    const QString url = app.value(u"url"_s).toString();
    const QByteArray appToken = url.section(u"token="_s, 1).toLatin1();
    QVERIFY2(appToken.size() >= 32, qPrintable(url));
    QVERIFY2(!app.contains(u"host_port"_s),
             QJsonDocument(app).toJson(QJsonDocument::Compact).constData());

    // The notebook server runs: inside the box, with the token, it answers.
    const QString box = instanceContainer(id);
    const QString status =
        u"http://127.0.0.1:%1/api/status?token=%2"_s.arg(app.value(u"port"_s).toInt())
            .arg(QString::fromLatin1(appToken));
    QTRY_VERIFY_WITH_TIMEOUT(podman({u"exec"_s, box, u"curl"_s, u"-s"_s, u"-o"_s, u"/dev/null"_s,
                                     u"-w"_s, u"%{http_code}"_s, status},
                                    10'000)
                                     .out.trimmed()
                                 == "200",
                             60'000);

    // Another local user reads every process's command line: the token is in none.
    const QStringList showing = processesShowing(appToken);
    QVERIFY2(showing.isEmpty(), qPrintable(showing.join(u'\n')));

    // Nothing on the host serves the app: podman publishes sshd only...
    const Cmd ports = podman({u"port"_s, box});
    QVERIFY2(ports.ok(), qPrintable(ports.describe()));
    const QList<QByteArray> published = ports.out.trimmed().split('\n');
    QCOMPARE(published.size(), 1);
    QVERIFY2(published.first().startsWith("22/tcp"), ports.out.constData());
    // ...and no port listening on this machine answers the notebook's API with the token.
    const QByteArray path = "/api/status?token=" + appToken;
    const int sshPort = inst.value(u"ssh"_s).toObject().value(u"port"_s).toInt();
    for (const int port : listeningPorts()) {
        if (port == sim->port() || port == sshPort)
            continue;
        const QByteArray answer = httpGet(port, path);
        QVERIFY2(!(answer.startsWith("HTTP/1.1 200") && answer.contains("\"started\"")),
                 qPrintable(u"port %1 serves the notebook: %2"_s.arg(port).arg(
                     QString::fromUtf8(answer.left(300)))));
    }

    // The database does not hold the token either (it is derived from a 0600 key file).
    QFile db(QDir(sim->dataDir()).filePath(u"cardhour-sim.sqlite"_s));
    QVERIFY(db.open(QIODevice::ReadOnly));
    QVERIFY(!db.readAll().contains(appToken));
    QFile wal(QDir(sim->dataDir()).filePath(u"cardhour-sim.sqlite-wal"_s));
    if (wal.open(QIODevice::ReadOnly))
        QVERIFY(!wal.readAll().contains(appToken));
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
}

TestSecProviderPodman::TwoKeyBox TestSecProviderPodman::launchWithTwoKeys(SimProcess &sim,
                                                                          const QString &email)
{
    TwoKeyBox box;
    box.token = sim.signUp(email);
    box.kept = makeKey(u"kept"_s);
    box.removed = makeKey(u"removed"_s);
    const QString keptId = addKey(sim, box.token, box.kept);
    box.removedId = addKey(sim, box.token, box.removed);
    if (box.token.isEmpty() || keptId.isEmpty() || box.removedId.isEmpty()) {
        box.failure = u"could not sign up or add the keys"_s;
        return box;
    }
    box.id = create(sim, box.token, {keptId, box.removedId});
    if (box.id.isEmpty()) {
        box.failure = u"the launch was refused"_s;
        return box;
    }
    box.inst = waitFor(sim, box.token, box.id, u"running"_s);
    if (box.inst.value(u"state"_s).toString() != u"running"_s) {
        box.failure = QString::fromUtf8(QJsonDocument(box.inst).toJson(QJsonDocument::Compact));
        return box;
    }
    box.knownHosts = knownHostsFor(box.inst);
    return box;
}

QJsonObject TestSecProviderPodman::restart(SimProcess &sim, const QString &token, const QString &id)
{
    const Reply stop = sim.authedPost(token, u"/v1/instances/%1/stop"_s.arg(id));
    if (stop.status != 202)
        return QJsonObject{{u"failure"_s, QString::fromUtf8(stop.describe())}};
    const QJsonObject stopped = waitFor(sim, token, id, u"stopped"_s);
    if (stopped.value(u"state"_s).toString() != u"stopped"_s)
        return stopped;
    const Reply start = sim.authedPost(token, u"/v1/instances/%1/start"_s.arg(id));
    if (start.status != 202)
        return QJsonObject{{u"failure"_s, QString::fromUtf8(start.describe())}};
    return waitFor(sim, token, id, u"running"_s);
}

void TestSecProviderPodman::appTokenChangesWithEveryStart()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"rotate@example.com"_s);
    QVERIFY(!token.isEmpty());
    const Reply r =
        sim->authedPost(token, u"/v1/instances"_s,
                        QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"jupyter"_s}});
    QVERIFY2(r.status == 202, r.describe().constData());
    const QString id = r.value(u"id"_s).toString();
    m_instanceIds.append(id);
    const auto appOf = [](const QJsonObject &inst) {
        return inst.value(u"apps"_s).toArray().at(0).toObject();
    };
    const QJsonObject first = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(first.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(first).toJson(QJsonDocument::Compact).constData());
    const int port = appOf(first).value(u"port"_s).toInt();
    const QString leaked = appOf(first).value(u"url"_s).toString().section(u"token="_s, 1);
    QVERIFY2(leaked.size() >= 32, qPrintable(appOf(first).value(u"url"_s).toString()));

    // The notebook's answer, inside the box, to a request with `appToken`.
    const auto statusWith = [this, &id, port](const QString &appToken) {
        return podman({u"exec"_s, instanceContainer(id), u"curl"_s, u"-s"_s, u"-o"_s,
                       u"/dev/null"_s, u"-w"_s, u"%{http_code}"_s,
                       u"http://127.0.0.1:%1/api/status?token=%2"_s.arg(port).arg(appToken)},
                      10'000)
            .out.trimmed();
    };
    QTRY_COMPARE_WITH_TIMEOUT(statusWith(leaked), "200"_ba, 60'000);

    // The owner stops and starts the host: a new token, and the leaked one opens nothing.
    const QJsonObject again = restart(*sim, token, id);
    QVERIFY2(again.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(again).toJson(QJsonDocument::Compact).constData());
    const QString fresh = appOf(again).value(u"url"_s).toString().section(u"token="_s, 1);
    QVERIFY2(fresh.size() >= 32 && fresh != leaked, qPrintable(fresh));
    QTRY_COMPARE_WITH_TIMEOUT(statusWith(fresh), "200"_ba, 60'000);
    QCOMPARE(statusWith(leaked), "403"_ba);
    // Neither token is on a host command line or in the container's recorded configuration.
    QVERIFY(processesShowing(fresh.toLatin1()).isEmpty());
    const Cmd inspect = podman({u"inspect"_s, instanceContainer(id)});
    QVERIFY2(inspect.ok(), qPrintable(inspect.describe()));
    QVERIFY(!inspect.out.contains(fresh.toLatin1()) && !inspect.out.contains(leaked.toLatin1()));
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
}

void TestSecProviderPodman::boxRootCannotUndoARemovedKey()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const TwoKeyBox box = launchWithTwoKeys(*sim, u"persist@example.com"_s);
    QVERIFY2(box.failure.isEmpty(), qPrintable(box.failure));
    const auto &[token, kept, removed, removedId, id, inst, knownHosts, failure] = box;

    // The removed key's holder, root in the box, plants a way back: its key in root's own file,
    // every sshd configuration in the image told to read that file, and every entrypoint the
    // image has (this version's or an older one's) running sshd on the planted configuration.
    const QString plant = uR"SH(set -e
mkdir -p /root/.ssh /etc/ssh/sshd_config.d /usr/local/sbin
cat /etc/cardhour/ssh/authorized_keys > /root/.ssh/authorized_keys
chmod 700 /root/.ssh && chmod 600 /root/.ssh/authorized_keys
{ echo 'AuthorizedKeysFile /root/.ssh/authorized_keys'; cat /etc/ssh/sshd_config; } > /tmp/c
cat /tmp/c > /etc/ssh/sshd_config
echo 'AuthorizedKeysFile /root/.ssh/authorized_keys' > /etc/ssh/sshd_config.d/cardhour.conf
printf '#!/bin/sh
exec /usr/sbin/sshd -D -e -h /etc/cardhour/ssh/ssh_host_ed25519_key
'     > /usr/local/sbin/cardhour-entrypoint
chmod 755 /usr/local/sbin/cardhour-entrypoint
echo planted)SH"_s;
    const Cmd planted = ssh(inst, knownHosts, removed, plant);
    QVERIFY2(planted.ok() && planted.out.contains("planted"), qPrintable(planted.describe()));

    const Reply del =
        sim->authedDelete(token, u"/v1/instances/%1/ssh-keys/%2"_s.arg(id, removedId));
    QVERIFY2(del.status == 200, del.describe().constData());
    // A restart reads every configuration afresh: the provider's, not the planted one.
    const QJsonObject again = restart(*sim, token, id);
    QVERIFY2(again.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(again).toJson(QJsonDocument::Compact).constData());
    const Cmd after = ssh(again, knownHosts, removed, u"echo back-in"_s);
    QVERIFY2(!after.ok() && !after.out.contains("back-in"), qPrintable(after.describe()));
    const Cmd keptLogin = ssh(again, knownHosts, kept, u"cat /proc/1/cmdline | tr '\\0' ' '"_s);
    QVERIFY2(keptLogin.ok(), qPrintable(keptLogin.describe()));
    QVERIFY2(keptLogin.out.contains("-f /etc/cardhour/ssh/sshd_config"), keptLogin.out.constData());
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
}

void TestSecProviderPodman::boxRootHasNoDevicesOrSetuidGains()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const RunningBox box = launchRunning(*sim, u"caps"_s);
    QVERIFY2(box.ok(), qPrintable(box.failure));
    m_instanceIds.append(box.id);
    const QString knownHosts = knownHostsFor(box.instance);
    // Box root makes a block device node of the host's first disk and a raw socket; a user of
    // the box runs a setuid-root copy of a shell. Each line prints what it got.
    const QString attempt =
        uR"SH(mknod /tmp/disk b 8 0 2>/dev/null && echo mknod:made || echo mknod:refused
python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)'     2>/dev/null && echo raw:made || echo raw:refused
useradd -M mallory 2>/dev/null || true
cp /bin/bash /tmp/rootbash && chmod 4755 /tmp/rootbash
su -s /bin/sh mallory -c '/tmp/rootbash -p -c "id -u"' 2>/dev/null | sed 's/^/setuid:/')SH"_s;
    const Cmd got = ssh(box.instance, knownHosts, box.key, attempt);
    QVERIFY2(got.ok(), qPrintable(got.describe()));
    QVERIFY2(got.out.contains("mknod:refused"), got.out.constData());
    QVERIFY2(got.out.contains("raw:refused"), got.out.constData());
    QVERIFY2(got.out.contains("setuid:") && !got.out.contains("setuid:0"), got.out.constData());
    QCOMPARE(sim->authedDelete(box.token, u"/v1/instances/"_s + box.id).status, 200);
}

void TestSecProviderPodman::removedKeyNoLongerLogsIn()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const TwoKeyBox box = launchWithTwoKeys(*sim, u"keys@example.com"_s);
    QVERIFY2(box.failure.isEmpty(), qPrintable(box.failure));
    const auto &[token, kept, removed, removedId, id, inst, knownHosts, failure] = box;

    // Root in the box copies every installed key into root's own authorized_keys.
    const Cmd copy = ssh(inst, knownHosts, removed,
                         u"mkdir -p /root/.ssh && chmod 700 /root/.ssh"
                         " && cat /etc/cardhour/ssh/authorized_keys >> /root/.ssh/authorized_keys"
                         " && chmod 600 /root/.ssh/authorized_keys && echo copied"_s);
    QVERIFY2(copy.ok() && copy.out.contains("copied"), qPrintable(copy.describe()));

    const Reply del =
        sim->authedDelete(token, u"/v1/instances/%1/ssh-keys/%2"_s.arg(id, removedId));
    QVERIFY2(del.status == 200, del.describe().constData());

    // The removed key is refused although the box's own file still lists it; the other works.
    const Cmd after = ssh(inst, knownHosts, removed, u"echo still-in"_s);
    QVERIFY2(!after.ok() && !after.out.contains("still-in"), qPrintable(after.describe()));
    const Cmd keptLogin = ssh(inst, knownHosts, kept, u"grep -c . /root/.ssh/authorized_keys"_s);
    QVERIFY2(keptLogin.ok() && keptLogin.out.trimmed().toInt() >= 2,
             qPrintable(keptLogin.describe()));
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
}

void TestSecProviderPodman::restoredOlderDatabaseLosesNoVolume()
{
    SimProcess *sim = startSim();
    QVERIFY(sim);
    const QString token = sim->signUp(u"backup@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"backup"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());

    // The backup: the database as it was before the instance existed.
    const QDir data(sim->dataDir());
    QVERIFY(sim->terminate());
    const QString backup = m_dir->filePath(u"backup.sqlite"_s);
    QVERIFY(QFile::copy(data.filePath(u"cardhour-sim.sqlite"_s), backup));
    QVERIFY(!QFile::exists(data.filePath(u"cardhour-sim.sqlite-wal"_s))
            || QFileInfo(data.filePath(u"cardhour-sim.sqlite-wal"_s)).size() == 0);
    QVERIFY2(sim->restart(60'000), qPrintable(sim->lastError()));

    const QString id = create(*sim, token, {keyId});
    QVERIFY(!id.isEmpty());
    const QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    const Cmd wrote = ssh(inst, knownHostsFor(inst), key,
                          u"echo precious-work > /workspace/results.txt && echo wrote"_s);
    QVERIFY2(wrote.ok() && wrote.out.contains("wrote"), qPrintable(wrote.describe()));

    // The user restores the older database and starts the provider again.
    QVERIFY(sim->terminate());
    for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s})
        QFile::remove(data.filePath(u"cardhour-sim.sqlite"_s + suffix));
    QVERIFY(QFile::copy(backup, data.filePath(u"cardhour-sim.sqlite"_s)));
    QVERIFY2(sim->restart(60'000), qPrintable(sim->lastError()));

    // Reconcile at start-up and a periodic one (every 15 s) later: the unknown instance's
    // container is stopped (nobody bills it), and it and its volume stay, data and all.
    QTRY_COMPARE_WITH_TIMEOUT(containerRunning(instanceContainer(id)), u"false"_s, 30'000);
    QTest::qWait(17'000);
    QVERIFY(containerExists(instanceContainer(id)));
    QVERIFY(volumeExists(instanceVolume(id)));
    const Cmd read =
        podman({u"run"_s, u"--rm"_s, u"--network=none"_s, u"-v"_s, instanceVolume(id) + u":/w:ro"_s,
                u"--entrypoint"_s, u"/bin/cat"_s, kImage, u"/w/results.txt"_s},
               120'000);
    QVERIFY2(read.ok() && read.out.trimmed() == "precious-work", qPrintable(read.describe()));

    // `cardhour-sim doctor` lists it.
    const Cmd doctor = run(SimProcess::binaryPath(),
                           {u"doctor"_s, u"--json"_s, u"--data"_s, data.path()}, 180'000);
    const QJsonArray checks =
        QJsonDocument::fromJson(doctor.out).object().value(u"checks"_s).toArray();
    QJsonObject quarantine;
    for (const QJsonValue &check : checks)
        if (check.toObject().value(u"name"_s).toString() == u"quarantine"_s)
            quarantine = check.toObject();
    QVERIFY2(quarantine.value(u"status"_s).toString() == u"warning"_s
                 && quarantine.value(u"detail"_s).toString().contains(id),
             qPrintable(doctor.describe()));
}

void TestSecProviderPodman::forkBombStaysInItsBox()
{
    // A catalog with a low process limit, so that a bounded bomb (1,000 processes) shows it.
    QTemporaryDir catalog;
    QVERIFY(catalog.isValid());
    const QDir source(QStringLiteral(CARDHOUR_SOURCE_CATALOG));
    for (const QString &name : {u"gpus.json"_s, u"images.json"_s}) {
        QFile in(source.filePath(name));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject document = QJsonDocument::fromJson(in.readAll()).object();
        if (name == u"gpus.json"_s)
            document.insert(u"pids_limit_per_instance"_s, 256);
        QFile out(catalog.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(QJsonDocument(document).toJson()) > 0);
    }
    SimProcess *sim = startSim({u"--catalog"_s, catalog.path()});
    QVERIFY(sim);
    const QString token = sim->signUp(u"forks@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"forks"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    const QString bomber = create(*sim, token, {keyId});
    const QString neighbour = create(*sim, token, {keyId});
    QVERIFY(!bomber.isEmpty() && !neighbour.isEmpty());
    const QJsonObject inst = waitFor(*sim, token, bomber, u"running"_s);
    const QJsonObject other = waitFor(*sim, token, neighbour, u"running"_s);
    QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s
                 && other.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
    // The API states the limit, and the container has it.
    QCOMPARE(inst.value(u"resources"_s).toObject().value(u"pids_limit"_s).toInt(), 256);
    const Cmd limit = podman(
        {u"inspect"_s, u"--format"_s, u"{{.HostConfig.PidsLimit}}"_s, instanceContainer(bomber)});
    QCOMPARE(limit.out.trimmed(), "256"_ba);
    // Nor may it forge packets for its neighbours (docker would grant NET_RAW by default).
    const Cmd caps =
        podman({u"inspect"_s, u"--format"_s, u"{{.EffectiveCaps}}"_s, instanceContainer(bomber)});
    QVERIFY2(caps.ok() && !caps.out.contains("NET_RAW"), qPrintable(caps.describe()));

    // The bomb: as many long-lived processes as it can make, up to 1,000 (their output to
    // /dev/null, so that the SSH session ends).
    const Cmd bomb =
        ssh(inst, knownHostsFor(inst), key,
            u"python3 -c 'import os\n"
            "quiet = [(os.POSIX_SPAWN_OPEN, fd, \"/dev/null\", os.O_RDWR, 0) for fd in (0, 1, 2)]\n"
            "n = 0\n"
            "for i in range(1000):\n"
            "    try:\n"
            "        os.posix_spawn(\"/bin/sleep\", [\"sleep\", \"600\"], os.environ,"
            " file_actions=quiet)\n"
            "    except OSError:\n"
            "        break\n"
            "    n += 1\n"
            "print(\"spawned\", n)'"_s);
    QVERIFY2(bomb.out.contains("spawned"), qPrintable(bomb.describe()));
    const int spawned = bomb.out.trimmed().split(' ').last().toInt();
    qInfo("the box made %d of 1000 processes (limit 256)", spawned);
    QVERIFY2(spawned < 256, qPrintable(bomb.describe()));

    // The provider and the other box carry on.
    QCOMPARE(sim->get(u"/v1/health"_s).status, 200);
    const Cmd next = ssh(other, knownHostsFor(other), key, u"echo neighbour-ok"_s);
    QVERIFY2(next.ok() && next.out.contains("neighbour-ok"), qPrintable(next.describe()));
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + bomber).status, 200);
    QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + neighbour).status, 200);
}

// A tenant's box reaches neither the host's own (LAN) address nor the link-local metadata
// address; `--allow-private-network` opens them (which also shows the probe can connect).
void TestSecProviderPodman::aBoxReachesNoPrivateAddress()
{
    QHostAddress lan;
    for (const QHostAddress &a : QNetworkInterface::allAddresses()) {
        if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback()) {
            lan = a;
            break;
        }
    }
    if (lan.isNull())
        QSKIP("this host has no IPv4 address but loopback");
    QTcpServer listener;
    QVERIFY(listener.listen(QHostAddress::AnyIPv4));
    const QString probe =
        u"for a in %1:%2 169.254.169.254:80; do"
        " if timeout 3 bash -c \"echo > /dev/tcp/${a%%:*}/${a##*:}\" 2>/dev/null;"
        " then echo \"$a open\"; else echo \"$a closed\"; fi; done"_s.arg(lan.toString())
            .arg(listener.serverPort());
    const QByteArray lanLine = u"%1:%2 "_s.arg(lan.toString()).arg(listener.serverPort()).toUtf8();

    for (const bool allowed : {false, true}) {
        SimProcess *sim =
            startSim(allowed ? QStringList{u"--allow-private-network"_s} : QStringList{});
        QVERIFY(sim);
        const QString token = sim->signUp(u"egress%1@example.com"_s.arg(int(allowed)));
        const KeyPair key = makeKey(u"egress"_s);
        const QString keyId = addKey(*sim, token, key);
        const QString id = create(*sim, token, {keyId});
        QVERIFY(!id.isEmpty());
        const QJsonObject inst = waitFor(*sim, token, id, u"running"_s);
        QVERIFY2(inst.value(u"state"_s).toString() == u"running"_s,
                 QJsonDocument(inst).toJson(QJsonDocument::Compact).constData());
        const Cmd tried = ssh(inst, knownHostsFor(inst), key, probe);
        qInfo("allow-private-network %d: %s", int(allowed), tried.out.constData());
        QVERIFY2(tried.ok(), qPrintable(tried.describe()));
        QVERIFY2(tried.out.contains(lanLine + (allowed ? "open" : "closed")),
                 qPrintable(tried.describe()));
        if (allowed) {
            // (Taken by the event loop the test's waits ran, or still in the backlog.)
            QVERIFY(listener.hasPendingConnections() || listener.waitForNewConnection(1000));
        } else {
            QVERIFY2(tried.out.contains("169.254.169.254:80 closed"), qPrintable(tried.describe()));
            QVERIFY(!listener.hasPendingConnections() && !listener.waitForNewConnection(100));
        }
        QCOMPARE(sim->authedDelete(token, u"/v1/instances/"_s + id).status, 200);
        cleanupPodmanTest();
    }
}

QTEST_MAIN(TestSecProviderPodman)
#include "tst_sec_provider_podman.moc"
