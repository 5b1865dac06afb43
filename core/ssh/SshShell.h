#pragma once

#include "ssh/SshTarget.h"

#include <QByteArray>
#include <QObject>
#include <QString>

class QThread;

namespace cardhour::core {

class SshShellWorker;

// An interactive shell on an instance: a PTY (xterm-256color) and the user's login shell.
//
// Threading: each SshShell owns one QThread with its own event loop, where a SshShellWorker
// holds the libssh session (a session belongs to one thread). The worker watches the session's
// socket with a QSocketNotifier and drains the channel whenever it is readable or after any
// libssh call that may have read from it, so output reaches output() as soon as it arrives
// and nothing ever blocks the UI thread: connecting, authenticating and writing all happen on
// the worker's thread, and the calls below only queue work for it.
class SshShell : public QObject
{
    Q_OBJECT
public:
    explicit SshShell(const SshTarget &target, QObject *parent = nullptr);
    ~SshShell() override; // closes the connection and waits for the worker thread

    // Starts asynchronously: connect, verify host key, authenticate, open channel with PTY
    // (xterm-256color) + shell. Then opened(), or closed() with the reason.
    void open(int cols, int rows);
    void sendInput(const QByteArray &bytes); // keystrokes, as typed
    void resize(int cols, int rows); // window change reaches the remote
    void close();

    bool isOpen() const { return m_open; }
    const SshTarget &target() const { return m_target; }
    // The connection's timings once opened (ms), for the status line and measurements.
    qint64 connectMs() const { return m_connectMs; }
    qint64 authMs() const { return m_authMs; }

Q_SIGNALS:
    void opened();
    void output(const QByteArray &bytes); // raw bytes from the remote, in order
    void closed(const QString &reason); // a clear, user-readable reason

private:
    void stopThread();

    SshTarget m_target;
    QThread *m_thread = nullptr;
    SshShellWorker *m_worker = nullptr;
    bool m_open = false;
    bool m_closed = false;
    qint64 m_connectMs = 0;
    qint64 m_authMs = 0;
};

} // namespace cardhour::core
