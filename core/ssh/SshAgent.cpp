#include "ssh/SshAgent.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

constexpr int kSshAddTimeoutMs = 20'000;

// Prints the passphrase from the file the variable names, once (the file goes at once): the
// secret is in neither this script nor its arguments, so `ps` and /proc show nothing of it.
const QByteArray kAskpassScript = "#!/bin/sh\n"
                                  "cat -- \"$CARDHOUR_ASKPASS_FILE\"\n"
                                  "status=$?\n"
                                  "rm -f -- \"$CARDHOUR_ASKPASS_FILE\"\n"
                                  "exit $status\n";

// A new folder of this user's alone (QTemporaryDir makes it 0700), in the runtime folder
// (XDG_RUNTIME_DIR: tmpfs, this user's) where there is one.
std::unique_ptr<QTemporaryDir> privateFolder()
{
    QString base = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (base.isEmpty() || !QFileInfo(base).isDir())
        base = QDir::tempPath();
    auto folder =
        std::make_unique<QTemporaryDir>(QDir(base).filePath(u"cardhour-askpass-XXXXXX"_s));
    if (!folder->isValid())
        return nullptr;
    return folder;
}

bool writeOwnerOnly(const QString &path, const QByteArray &data, QFileDevice::Permissions extra)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly,
                   QFileDevice::ReadOwner | QFileDevice::WriteOwner | extra))
        return false;
    const bool written = file.write(data) == data.size() && file.flush();
    file.close();
    return written;
}

} // namespace

SshAgent::SshAgent(QObject *parent) : QObject(parent) {}

QString SshAgent::socketPath()
{
    const QString socket = qEnvironmentVariable("SSH_AUTH_SOCK");
    return !socket.isEmpty() && QFileInfo::exists(socket) ? socket : QString();
}

void SshAgent::addKey(const QString &privateKeyPath, const QString &passphrase,
                      const QObject *context, Done done)
{
    const QPointer<const QObject> guard(context);
    auto finish = [guard, done](Outcome outcome) {
        if (guard)
            done(outcome);
    };
    const auto later = [this, finish](Result result, const QString &error) {
        // Always after addKey() has returned, as the answer of ssh-add would be.
        QTimer::singleShot(0, this, [finish, result, error] { finish({result, error}); });
    };
#ifndef Q_OS_UNIX
    Q_UNUSED(privateKeyPath);
    Q_UNUSED(passphrase);
    return later(Result::NoAgent, tr("CardHour cannot add keys to an ssh-agent on this system."));
#else
    if (socketPath().isEmpty())
        return later(Result::NoAgent,
                     tr("No ssh-agent runs for this session (SSH_AUTH_SOCK names none)."));
    std::shared_ptr<QTemporaryDir> folder = privateFolder();
    if (!folder)
        return later(Result::Failed, tr("Could not make a private folder for ssh-add."));
    const QString askpass = folder->filePath(u"askpass"_s);
    const QString secret = folder->filePath(u"passphrase"_s);
    if (!writeOwnerOnly(askpass, kAskpassScript, QFileDevice::ExeOwner)
        || !writeOwnerOnly(secret, passphrase.toUtf8(), {}))
        return later(Result::Failed, tr("Could not write the askpass helper for ssh-add."));

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"SSH_ASKPASS"_s, askpass);
    environment.insert(u"SSH_ASKPASS_REQUIRE"_s, u"force"_s); // never the terminal's prompt
    environment.insert(u"CARDHOUR_ASKPASS_FILE"_s, secret);
    if (!environment.contains(u"DISPLAY"_s))
        environment.insert(u"DISPLAY"_s, u":0"_s); // OpenSSH before 8.4 asks askpass only then
    auto *process = new QProcess(this);
    process->setProcessEnvironment(environment);
    process->setStandardInputFile(QProcess::nullDevice());
    process->setProgram(u"ssh-add"_s);
    process->setArguments({privateKeyPath});
    auto *deadline = new QTimer(process);
    deadline->setSingleShot(true);
    connect(deadline, &QTimer::timeout, process, &QProcess::kill);
    const auto ended = [process, folder, finish] {
        folder->remove(); // the passphrase's file first of all
        process->deleteLater();
        const QString said = QString::fromLocal8Bit(process->readAllStandardError()).trimmed();
        if (process->error() == QProcess::FailedToStart)
            return finish(
                {Result::Failed, tr("ssh-add could not be started: is OpenSSH installed?")});
        if (process->exitStatus() != QProcess::NormalExit)
            return finish({Result::Failed, tr("ssh-add did not finish.")});
        if (process->exitCode() == 0)
            return finish({Result::Added, {}});
        // ssh-add's own code for "no agent to talk to".
        if (process->exitCode() == 2)
            return finish(
                {Result::NoAgent, tr("The ssh-agent could not be reached: %1").arg(said)});
        return finish({Result::Failed, tr("ssh-add refused the key: %1").arg(said)});
    };
    connect(process, &QProcess::finished, this, ended);
    connect(process, &QProcess::errorOccurred, this, [ended](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) // no finished() follows
            ended();
    });
    process->start();
    deadline->start(kSshAddTimeoutMs);
#endif
}

} // namespace cardhour::core
