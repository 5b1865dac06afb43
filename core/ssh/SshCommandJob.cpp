#include "ssh/SshCommandJob.h"

#include <QThread>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SshCommandJob *SshCommandJob::start(const SshTarget &target, const QString &command,
                                    QObject *parent)
{
    auto *job = new SshCommandJob(parent);
    job->m_thread = QThread::create([job, target, command] {
        SshConnection connection(target);
        const bool open = connection.open();
        SshConnection::ExecResult result;
        if (open && !command.isEmpty())
            result = connection.exec(command);
        const SshConnection::Failure failure = connection.failure();
        const QString error = connection.errorMessage();
        const qint64 connectMs = connection.connectMs();
        const qint64 authMs = connection.authMs();
        QMetaObject::invokeMethod(
            job,
            [job, failure, error, result, connectMs, authMs] {
                job->m_thread->wait();
                job->m_failure = failure;
                job->m_error = error;
                job->m_result = result;
                job->m_connectMs = connectMs;
                job->m_authMs = authMs;
                Q_EMIT job->finished();
                job->deleteLater();
            },
            Qt::QueuedConnection);
    });
    job->m_thread->setObjectName(u"ssh-command"_s);
    job->m_thread->start();
    return job;
}

SshCommandJob::~SshCommandJob()
{
    // Deleted with its parent before it finished: wait for the connection attempt to end.
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

} // namespace cardhour::core
