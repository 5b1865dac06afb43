#include "ssh/SshShell.h"

#include "ssh/SshShellWorker.h"

#include <QSocketNotifier>
#include <QThread>

#include <libssh/libssh.h>

using namespace Qt::StringLiterals;

namespace cardhour::core {

// ---- SshShellWorker: the worker thread's side
// ------------------------------------------------------

SshShellWorker::SshShellWorker(const SshTarget &target) : m_target(target) {}

SshShellWorker::~SshShellWorker()
{
    if (m_channel) {
        ssh_channel_close(m_channel);
        ssh_channel_free(m_channel);
    }
}

void SshShellWorker::start(int cols, int rows)
{
    m_connection = std::make_unique<SshConnection>(m_target);
    if (!m_connection->open()) {
        finish(m_connection->errorMessage());
        return;
    }
    ssh_session session = m_connection->session();
    m_channel = ssh_channel_new(session);
    if (!m_channel || ssh_channel_open_session(m_channel) != SSH_OK
        || ssh_channel_request_pty_size(m_channel, "xterm-256color", std::max(1, cols),
                                        std::max(1, rows))
            != SSH_OK
        || ssh_channel_request_shell(m_channel) != SSH_OK) {
        finish(SshShell::tr("The shell on %1 could not be started: %2")
                   .arg(m_target.instanceName, m_connection->libsshError()));
        return;
    }
    m_notifier = new QSocketNotifier(qintptr(ssh_get_fd(session)), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SshShellWorker::pump);
    Q_EMIT opened(m_connection->connectMs(), m_connection->authMs());
    pump(); // the prompt may already be buffered
}

void SshShellWorker::write(const QByteArray &bytes)
{
    if (!m_channel || m_finished || bytes.isEmpty())
        return;
    // Blocking write: waits for the remote's window when it is full, on this thread only.
    if (ssh_channel_write(m_channel, bytes.constData(), uint32_t(bytes.size())) == SSH_ERROR) {
        finish(SshShell::tr("The connection to %1 was lost: %2")
                   .arg(m_target.instanceName, m_connection->libsshError()));
        return;
    }
    pump();
}

void SshShellWorker::resize(int cols, int rows)
{
    if (!m_channel || m_finished)
        return;
    ssh_channel_change_pty_size(m_channel, std::max(1, cols), std::max(1, rows));
    pump();
}

void SshShellWorker::stop(const QString &reason)
{
    finish(reason);
}

void SshShellWorker::pump()
{
    if (!m_channel || m_finished)
        return;
    QByteArray chunk;
    char buffer[32768];
    for (int stream = 0; stream < 2; ++stream) {
        for (;;) {
            const int n = ssh_channel_read_nonblocking(m_channel, buffer, sizeof buffer, stream);
            if (n == SSH_ERROR) {
                if (!chunk.isEmpty())
                    Q_EMIT output(chunk);
                finish(SshShell::tr("The connection to %1 was lost: %2")
                           .arg(m_target.instanceName, m_connection->libsshError()));
                return;
            }
            if (n <= 0)
                break;
            chunk.append(buffer, n);
            if (chunk.size() >= 256 * 1024) { // hand big bursts over in pieces
                Q_EMIT output(chunk);
                chunk.clear();
            }
        }
    }
    if (!chunk.isEmpty())
        Q_EMIT output(chunk);
    if (ssh_channel_is_eof(m_channel) || ssh_channel_is_closed(m_channel)) {
        const int status = ssh_channel_get_exit_status(m_channel);
        finish(status >= 0 ? SshShell::tr("The shell on %1 ended (exit status %2).")
                                 .arg(m_target.instanceName)
                                 .arg(status)
                           : SshShell::tr("The shell on %1 ended.").arg(m_target.instanceName));
    }
}

void SshShellWorker::finish(const QString &reason)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_notifier)
        m_notifier->setEnabled(false);
    if (m_channel) {
        ssh_channel_close(m_channel);
        ssh_channel_free(m_channel);
        m_channel = nullptr;
    }
    if (m_connection)
        m_connection->close();
    Q_EMIT closed(reason);
}

// ---- SshShell: the caller's side
// ---------------------------------------------------------------------

SshShell::SshShell(const SshTarget &target, QObject *parent) : QObject(parent), m_target(target) {}

SshShell::~SshShell()
{
    stopThread();
}

void SshShell::open(int cols, int rows)
{
    if (m_thread)
        return; // one connection per SshShell; make a new one to reconnect
    m_thread = new QThread(this);
    m_thread->setObjectName(u"ssh-shell"_s);
    m_worker = new SshShellWorker(m_target);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SshShellWorker::opened, this, [this](qint64 connectMs, qint64 authMs) {
        m_connectMs = connectMs;
        m_authMs = authMs;
        m_open = true;
        Q_EMIT opened();
    });
    connect(m_worker, &SshShellWorker::output, this, &SshShell::output);
    connect(m_worker, &SshShellWorker::closed, this, [this](const QString &reason) {
        m_open = false;
        if (m_closed)
            return;
        m_closed = true;
        Q_EMIT closed(reason);
    });
    m_thread->start();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, cols, rows] { worker->start(cols, rows); },
        Qt::QueuedConnection);
}

void SshShell::sendInput(const QByteArray &bytes)
{
    if (m_worker)
        QMetaObject::invokeMethod(
            m_worker, [worker = m_worker, bytes] { worker->write(bytes); }, Qt::QueuedConnection);
}

void SshShell::resize(int cols, int rows)
{
    if (m_worker)
        QMetaObject::invokeMethod(
            m_worker, [worker = m_worker, cols, rows] { worker->resize(cols, rows); },
            Qt::QueuedConnection);
}

void SshShell::close()
{
    if (m_worker)
        QMetaObject::invokeMethod(
            m_worker,
            [worker = m_worker] { worker->stop(SshShell::tr("The terminal was closed.")); },
            Qt::QueuedConnection);
}

void SshShell::stopThread()
{
    if (!m_thread)
        return;
    close();
    m_thread->quit(); // runs after the queued stop, then deletes the worker on its thread
    m_thread->wait();
    m_thread = nullptr;
    m_worker = nullptr;
}

} // namespace cardhour::core
