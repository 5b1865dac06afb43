#include "PodmanApiTest.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QUuid>

namespace cardhour::test {

void PodmanApiTest::initPodmanTest()
{
    if (SimProcess::binaryPath().isEmpty())
        QSKIP("CARDHOUR_SIM_BIN is not set (run through ctest)");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    const Cmd version = podman({u"--version"_s}, 20'000);
    if (!version.ok())
        QSKIP(qPrintable(u"podman cannot be run: %1"_s.arg(version.describe())));
    const Cmd image = podman({u"image"_s, u"exists"_s, kImage});
    if (!image.ok())
        QFAIL(qPrintable(
            u"the base image %1 is missing (the fixture podman_base_image builds it): %2"_s.arg(
                kImage, image.describe())));
    const QString probe =
        u"cardhour-test-probe-"_s + QUuid::createUuid().toString(QUuid::Id128).left(12);
    m_extraContainers.append(probe);
    const Cmd canRun =
        podman({u"run"_s, u"--rm"_s, u"--name"_s, probe, u"--entrypoint"_s, u"/bin/true"_s, kImage},
               120'000);
    if (!canRun.ok())
        QSKIP(qPrintable(u"podman cannot run a container here (is CONTAINERS_CONF set, e.g. to "
                         "backend-sim/podman/containers.conf?): %1"_s.arg(canRun.describe())));
    const Cmd sshVersion = run(u"ssh"_s, {u"-V"_s});
    if (!sshVersion.ok())
        QSKIP("the OpenSSH client (ssh) is not installed");
}

void PodmanApiTest::cleanupPodmanTest()
{
    for (SimProcess *sim : std::as_const(m_sims)) {
        sim->kill();
        delete sim;
    }
    m_sims.clear();
    removeEverything();
}

void PodmanApiTest::removeEverything()
{
    for (const QString &provider : std::as_const(m_providerIds)) {
        const QStringList ids = containersWithLabel(u"cardhour.provider="_s + provider);
        if (!ids.isEmpty())
            podman(QStringList{u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s} + ids, 120'000);
        const Cmd volumes = podman({u"volume"_s, u"ls"_s, u"-q"_s, u"--filter"_s,
                                    u"label=cardhour.provider="_s + provider});
        QStringList names;
        for (const QByteArray &line : volumes.out.split('\n'))
            if (!line.trimmed().isEmpty())
                names.append(QString::fromUtf8(line.trimmed()));
        if (!names.isEmpty())
            podman(QStringList{u"volume"_s, u"rm"_s, u"-f"_s} + names);
    }
    for (const QString &name : std::as_const(m_extraContainers))
        if (containerExists(name))
            podman({u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s, name});
    for (const QString &id : std::as_const(m_instanceIds)) {
        if (containerExists(instanceContainer(id)))
            podman({u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s, instanceContainer(id)});
        if (volumeExists(instanceVolume(id)))
            podman({u"volume"_s, u"rm"_s, u"-f"_s, instanceVolume(id)});
    }
}

SimProcess *PodmanApiTest::startSim(const QStringList &extra)
{
    auto *sim = new SimProcess;
    m_sims.append(sim);
    if (!sim->start(QStringList{u"--runtime"_s, u"podman"_s} + extra, {}, 60'000)) {
        qWarning("cardhour-sim did not start: %s", qPrintable(sim->lastError()));
        return nullptr;
    }
    const QString id = providerIdOf(*sim);
    if (id.isEmpty()) {
        qWarning("no provider-id in %s", qPrintable(sim->dataDir()));
        return nullptr;
    }
    if (!m_providerIds.contains(id))
        m_providerIds.append(id);
    return sim;
}

QString PodmanApiTest::providerIdOf(const SimProcess &sim) const
{
    QFile file(QDir(sim.dataDir()).filePath(u"provider-id"_s));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readAll()).trimmed();
}

KeyPair PodmanApiTest::makeKey(const QString &name)
{
    KeyPair key;
    key.privatePath = m_dir->filePath(u"%1-%2"_s.arg(name).arg(++m_files));
    const Cmd c = run(u"ssh-keygen"_s,
                      {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-C"_s,
                       name + u"@test"_s, u"-f"_s, key.privatePath});
    if (!c.ok()) {
        qWarning("ssh-keygen failed: %s", qPrintable(c.describe()));
        return {};
    }
    QFile pub(key.privatePath + u".pub"_s);
    if (pub.open(QIODevice::ReadOnly))
        key.publicLine = QString::fromUtf8(pub.readAll()).trimmed();
    return key;
}

QString PodmanApiTest::addKey(SimProcess &sim, const QString &token, const KeyPair &key)
{
    const Reply r = sim.authedPost(
        token, u"/v1/ssh-keys"_s,
        QJsonObject{{u"name"_s, u"k%1"_s.arg(++m_files)}, {u"public_key"_s, key.publicLine}});
    if (r.status != 201) {
        qWarning("adding a key failed: %s", r.describe().constData());
        return {};
    }
    return r.value(u"id"_s).toString();
}

QString PodmanApiTest::create(SimProcess &sim, const QString &token, const QStringList &keyIds,
                              const QJsonObject &extraFields)
{
    QJsonObject body{{u"gpu_type"_s, u"rtx4090"_s},
                     {u"image"_s, u"base"_s},
                     {u"ssh_key_ids"_s, QJsonArray::fromStringList(keyIds)}};
    for (auto it = extraFields.begin(); it != extraFields.end(); ++it)
        body.insert(it.key(), it.value());
    const Reply r = sim.authedPost(token, u"/v1/instances"_s, body);
    if (r.status != 202) {
        qWarning("create failed: %s", r.describe().constData());
        return {};
    }
    const QString id = r.value(u"id"_s).toString();
    m_instanceIds.append(id);
    return id;
}

QJsonObject PodmanApiTest::instance(SimProcess &sim, const QString &token, const QString &id)
{
    const Reply r = sim.authedGet(token, u"/v1/instances/"_s + id);
    return r.status == 200 ? r.object() : QJsonObject();
}

RunningBox PodmanApiTest::launchRunning(SimProcess &sim, const QString &name)
{
    RunningBox box;
    box.token = sim.signUp(name + u"@example.com"_s);
    if (box.token.isEmpty()) {
        box.failure = u"signing up %1 failed"_s.arg(name);
        return box;
    }
    box.key = makeKey(name);
    box.keyId = addKey(sim, box.token, box.key);
    if (box.keyId.isEmpty()) {
        box.failure = u"adding %1's key failed"_s.arg(name);
        return box;
    }
    box.id = create(sim, box.token, {box.keyId});
    if (box.id.isEmpty()) {
        box.failure = u"launching %1's instance failed"_s.arg(name);
        return box;
    }
    box.instance = waitFor(sim, box.token, box.id, u"running"_s);
    if (box.instance.value(u"state"_s).toString() != u"running"_s)
        box.failure = u"%1's instance did not run: %2"_s.arg(
            name, QString::fromUtf8(QJsonDocument(box.instance).toJson(QJsonDocument::Compact)));
    return box;
}

QJsonObject PodmanApiTest::waitFor(SimProcess &sim, const QString &token, const QString &id,
                                   const QString &state, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    QJsonObject last;
    for (;;) {
        const QJsonObject now = instance(sim, token, id);
        if (!now.isEmpty())
            last = now;
        if (last.value(u"state"_s).toString() == state || deadline.hasExpired())
            return last;
        // Terminal states other than the one waited for end the wait early.
        const QString s = last.value(u"state"_s).toString();
        if ((s == u"failed"_s || s == u"terminated"_s) && state != u"failed"_s
            && state != u"terminated"_s)
            return last;
        QTest::qWait(100);
    }
}

QString PodmanApiTest::knownHostsFor(const QJsonObject &inst)
{
    const QJsonObject sshInfo = inst.value(u"ssh"_s).toObject();
    const QString path = m_dir->filePath(u"known_hosts-%1"_s.arg(++m_files));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(u"[%1]:%2 %3\n"_s.arg(sshInfo.value(u"host"_s).toString())
                   .arg(sshInfo.value(u"port"_s).toInt())
                   .arg(sshInfo.value(u"host_key"_s).toString())
                   .toUtf8());
    return path;
}

QStringList PodmanApiTest::sshArguments(const QJsonObject &inst, const QString &knownHosts,
                                        const KeyPair &key, const QString &command)
{
    const QJsonObject sshInfo = inst.value(u"ssh"_s).toObject();
    return {
        u"-F"_s,
        u"/dev/null"_s,
        u"-o"_s,
        u"StrictHostKeyChecking=yes"_s,
        u"-o"_s,
        u"UserKnownHostsFile="_s + knownHosts,
        u"-o"_s,
        u"GlobalKnownHostsFile=/dev/null"_s,
        u"-o"_s,
        u"IdentitiesOnly=yes"_s,
        u"-o"_s,
        u"IdentityAgent=none"_s,
        u"-o"_s,
        u"BatchMode=yes"_s,
        u"-o"_s,
        u"ConnectTimeout=15"_s,
        u"-o"_s,
        u"LogLevel=ERROR"_s,
        u"-i"_s,
        key.privatePath,
        u"-p"_s,
        QString::number(sshInfo.value(u"port"_s).toInt()),
        u"%1@%2"_s.arg(sshInfo.value(u"user"_s).toString(), sshInfo.value(u"host"_s).toString()),
        command};
}

Cmd PodmanApiTest::ssh(const QJsonObject &inst, const QString &knownHosts, const KeyPair &key,
                       const QString &command)
{
    return run(u"ssh"_s, sshArguments(inst, knownHosts, key, command), 60'000);
}

// ---- 1. the whole life of one instance, over real SSH -------------------------------------------

} // namespace cardhour::test
