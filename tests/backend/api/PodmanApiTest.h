#pragma once

// What the end-to-end tests of cardhour-sim with real containers share: running programs
// (podman, ssh), a provider per test with the podman runtime, users, keys, instances, OpenSSH
// with strict host key checking, and removing every container and volume made, also when a
// test fails. A test class derives from PodmanApiTest and calls initPodmanTest() from its
// initTestCase() and cleanupPodmanTest() from cleanup() and cleanupTestCase().
#include "SimProcess.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace cardhour::test {

using namespace Qt::StringLiterals;

inline const QString kImage = u"localhost/cardhour/base:latest"_s;
constexpr int kRunningTimeoutMs = 120'000;

struct Cmd
{
    bool started = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    bool ok() const { return started && exitCode == 0; }
    QString describe() const
    {
        return u"exit %1, stdout: %2, stderr: %3"_s.arg(exitCode).arg(
            QString::fromUtf8(out.trimmed()), QString::fromUtf8(err.trimmed()));
    }
};

// Runs a program to the end (bounded); the event loop keeps running meanwhile so that the
// provider's HTTP replies and the like are not held up.
inline Cmd run(const QString &program, const QStringList &args, int timeoutMs = 60'000)
{
    Cmd result;
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start();
    if (!p.waitForStarted(10'000)) {
        result.err = p.errorString().toUtf8();
        return result;
    }
    const QDeadlineTimer deadline(timeoutMs);
    while (p.state() != QProcess::NotRunning && !deadline.hasExpired())
        QTest::qWait(20);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished(5'000);
        result.err = "timed out";
        return result;
    }
    result.started = true;
    result.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    result.out = p.readAllStandardOutput();
    result.err = p.readAllStandardError();
    return result;
}

inline Cmd podman(const QStringList &args, int timeoutMs = 60'000)
{
    return run(u"podman"_s, args, timeoutMs);
}

// "true" / "false" from podman inspect, or empty when there is no such container.
inline QString containerRunning(const QString &name)
{
    const Cmd c = podman({u"inspect"_s, u"--format"_s, u"{{.State.Running}}"_s, name});
    return c.ok() ? QString::fromUtf8(c.out.trimmed()) : QString();
}

inline bool containerExists(const QString &name)
{
    return podman({u"container"_s, u"exists"_s, name}).ok();
}

inline bool volumeExists(const QString &name)
{
    return podman({u"volume"_s, u"exists"_s, name}).ok();
}

// Containers (all states) with a label filter, as a list of ids.
inline QStringList containersWithLabel(const QString &labelFilter, bool runningOnly = false)
{
    QStringList args{u"ps"_s, u"-q"_s, u"--no-trunc"_s, u"--filter"_s, u"label="_s + labelFilter};
    if (!runningOnly)
        args.insert(1, u"-a"_s);
    const Cmd c = podman(args);
    QStringList ids;
    for (const QByteArray &line : c.out.split('\n'))
        if (!line.trimmed().isEmpty())
            ids.append(QString::fromUtf8(line.trimmed()));
    return ids;
}

// The pid of `parent`'s child `podman system service` (the provider's own API service), or 0.
inline qint64 engineServiceOf(qint64 parent)
{
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number)
            continue;
        QFile stat(u"/proc/%1/stat"_s.arg(pid));
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
        if (!stat.open(QIODevice::ReadOnly) || !cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1).toLongLong() == parent
            && cmdline.readAll().contains(QByteArrayLiteral("system\0service")))
            return pid;
    }
    return 0;
}

// Whether `pid` is a process that has not ended (a zombie has).
inline bool processAlive(qint64 pid)
{
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    return !text.mid(text.lastIndexOf(')') + 2).startsWith('Z');
}

inline QString instanceContainer(const QString &id)
{
    return u"cardhour-"_s + id;
}

inline QString instanceVolume(const QString &id)
{
    return u"cardhour-ws-"_s + id;
}

struct KeyPair
{
    QString privatePath;
    QString publicLine;
};

// One user with one key and one instance that reached `running`.
struct RunningBox
{
    QString token;
    KeyPair key;
    QString keyId;
    QString id;
    QJsonObject instance; // as the API showed it when it was running
    QString failure; // what went wrong (empty when running)
    bool ok() const { return failure.isEmpty(); }
};

class PodmanApiTest : public QObject
{
protected:
    void initPodmanTest(); // skips (QSKIP) where podman or ssh cannot run
    void cleanupPodmanTest(); // kills the providers, removes what they made

    // A provider with the podman runtime (plus `extra`), remembered for clean-up.
    SimProcess *startSim(const QStringList &extra = {});
    QString providerIdOf(const SimProcess &sim) const;
    KeyPair makeKey(const QString &name);
    QString addKey(SimProcess &sim, const QString &token, const KeyPair &key);
    QString create(SimProcess &sim, const QString &token, const QStringList &keyIds,
                   const QJsonObject &extraFields = {});
    QJsonObject waitFor(SimProcess &sim, const QString &token, const QString &id,
                        const QString &state, int timeoutMs = kRunningTimeoutMs);
    QJsonObject instance(SimProcess &sim, const QString &token, const QString &id);
    // Signs up `name`@example.com, adds a key named `name` and launches one instance (the
    // default type and image), waiting until it runs: check ok() and report failure.
    RunningBox launchRunning(SimProcess &sim, const QString &name);
    // Writes `[host]:port <host_key>` to a new known_hosts file; returns its path.
    QString knownHostsFor(const QJsonObject &instance);
    // OpenSSH's arguments for `command` on the instance as root with `key`, pinned to
    // knownHosts only (no agent, no config, no prompt).
    static QStringList sshArguments(const QJsonObject &instance, const QString &knownHosts,
                                    const KeyPair &key, const QString &command);
    Cmd ssh(const QJsonObject &instance, const QString &knownHosts, const KeyPair &key,
            const QString &command);
    void removeEverything();

    std::unique_ptr<QTemporaryDir> m_dir; // keys and known_hosts
    QList<SimProcess *> m_sims;
    QStringList m_providerIds; // of every provider started, across tests
    QStringList m_instanceIds; // every instance id seen, for the volume names
    QStringList m_extraContainers; // made by hand
    int m_files = 0;
};

} // namespace cardhour::test
