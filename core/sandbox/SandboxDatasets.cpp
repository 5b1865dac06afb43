#include "sandbox/SandboxDatasets.h"

#include "sandbox/SandboxLauncher.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SandboxDatasets::SandboxDatasets(const SandboxLauncher *launcher, QObject *parent)
    : QObject(parent), m_launcher(launcher)
{}

SandboxDatasets::~SandboxDatasets()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(3000);
    }
}

QStringList SandboxDatasets::arguments(const QString &name, const QString &folder) const
{
    return {u"datasets"_s, u"add"_s, name, folder, u"--data"_s, m_launcher->dataDir()};
}

bool SandboxDatasets::add(const QString &name, const QString &folder, QString *error)
{
    if (m_process) {
        if (error)
            *error = tr("A folder is being added already; wait until it is done.");
        return false;
    }
    m_name = name;
    auto *process = new QProcess(this);
    m_process = process;
    process->setProgram(m_launcher->executable());
    process->setArguments(arguments(name, folder));
    process->setStandardInputFile(QProcess::nullDevice());
    connect(process, &QProcess::finished, this, &SandboxDatasets::onFinished);
    connect(process, &QProcess::errorOccurred, this, &SandboxDatasets::onError);
    process->start();
    return true;
}

void SandboxDatasets::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    const QString out = QString::fromUtf8(m_process->readAllStandardOutput()).trimmed();
    QString err = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
    err.remove(QRegularExpression(u"^cardhour-sim: "_s));
    if (status == QProcess::NormalExit && exitCode == 0)
        return finish(true, out);
    if (status != QProcess::NormalExit)
        return finish(false, tr("The sandbox program stopped before it had added the folder."));
    finish(false,
           tr("The sandbox did not add the folder: %1")
               .arg(err.isEmpty() ? tr("exit status %1").arg(exitCode) : err));
}

void SandboxDatasets::onError(QProcess::ProcessError error)
{
    if (!m_process || error != QProcess::FailedToStart)
        return; // the others end in finished()
    finish(false,
           tr("The sandbox program %1 could not be started: %2")
               .arg(m_launcher->executable(), m_process->errorString()));
}

void SandboxDatasets::finish(bool ok, const QString &message)
{
    QProcess *process = m_process;
    m_process = nullptr;
    if (process) {
        process->disconnect(this);
        process->deleteLater();
    }
    Q_EMIT finished(m_name, ok, message);
}

} // namespace cardhour::core
