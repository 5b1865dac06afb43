#pragma once

// Shared by the SSH tests: waiting for key replies, running programs with their own
// environment, files of random bytes and their SHA-256.
#include "ssh/SshKeyStore.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QTest>

#include <sys/stat.h>

namespace cardhour::test {

using namespace Qt::StringLiterals;

// Two real ed25519 host keys: what a provider vouches for, and another one.
inline const QString kHostKey =
    u"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIL3PxZifVOUQ1xXPeHsxq324rb+ldUOhk49GR8h7lj4"_s;
inline const QString kOtherHostKey =
    u"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPN9OK26OvU/ck9X3JTV/iEpmX46rC+ZWSQV9APBtYVu"_s;

// A whole file's bytes (empty when it cannot be read).
inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

struct KeyOutcome
{
    bool done = false;
    bool ok = false;
    core::SshKeyPair key;
    QString error;
};

inline KeyOutcome awaitKey(core::SshKeyReply *reply, int timeoutMs = 30000)
{
    auto outcome = std::make_shared<KeyOutcome>();
    QObject::connect(reply, &core::SshKeyReply::finished, reply, [reply, outcome] {
        *outcome = {true, reply->ok(), reply->key(), reply->error()};
    });
    (void)QTest::qWaitFor([&outcome] { return outcome->done; }, timeoutMs);
    return *outcome;
}

struct ProcessResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString describe() const
    {
        return u"exit %1, stdout: %2, stderr: %3"_s.arg(exitCode).arg(
            QString::fromUtf8(out.trimmed()), QString::fromUtf8(err.trimmed()));
    }
};

// Runs a program to the end while the event loop keeps running.
inline ProcessResult
runProgram(const QString &program, const QStringList &args,
           const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
           int timeoutMs = 60000)
{
    ProcessResult result;
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        result.err = p.errorString().toUtf8();
        return result;
    }
    (void)QTest::qWaitFor([&p] { return p.state() == QProcess::NotRunning; }, timeoutMs);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished(5000);
        result.err = "timed out";
        return result;
    }
    result.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    result.out = p.readAllStandardOutput();
    result.err = p.readAllStandardError();
    return result;
}

// The permission bits (e.g. 0600) of a path, from stat(2).
inline int modeOf(const QString &path)
{
    struct stat st = {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

// Writes `bytes` random bytes in 1 MiB pieces; returns the hex SHA-256 (empty on failure).
inline QString writeRandomFile(const QString &path, qint64 bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    QCryptographicHash sha(QCryptographicHash::Sha256);
    QByteArray block(1024 * 1024, Qt::Uninitialized);
    for (qint64 left = bytes; left > 0;) {
        const qint64 n = std::min<qint64>(left, block.size());
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()),
                                              block.size() / 4);
        if (file.write(block.constData(), n) != n)
            return {};
        sha.addData(QByteArrayView(block.constData(), n));
        left -= n;
    }
    return QString::fromLatin1(sha.result().toHex());
}

inline QString sha256OfFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash sha(QCryptographicHash::Sha256);
    sha.addData(&file);
    return QString::fromLatin1(sha.result().toHex());
}

} // namespace cardhour::test
