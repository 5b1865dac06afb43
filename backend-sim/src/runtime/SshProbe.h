#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>

class QTimer;

namespace cardhour::sim {

// Readiness of an instance's sshd, checked honestly: a TCP connection, a real SSH key
// exchange (libssh), and the server's host key compared with the one the provider made for
// the instance. Authentication is never attempted.
class SshProbe final : public QObject
{
    Q_OBJECT
public:
    enum class Status {
        Ready,
        NotListening,
        HandshakeFailed,
        HostKeyMismatch
    };
    Q_ENUM(Status)

    struct Result
    {
        Status status = Status::NotListening;
        QString message; // readable; empty for Ready
        QString seenHostKeySha256; // what the server presented, when the handshake got that far
        int attempts = 1;
        qint64 elapsedMs = 0;
        bool isReady() const { return status == Status::Ready; }
    };
    using Callback = std::function<void(const Result &)>;

    static QString statusName(Status status);

    // One blocking attempt (at most about 3 × timeoutMs): for tests and worker threads, never
    // the event-loop thread of the provider.
    static Result probeOnce(const QString &host, int port, const QString &expectedSha256,
                            int timeoutMs = 1000);

    // Probes on a worker thread every ~50 ms until Ready, HostKeyMismatch (at once: a wrong host
    // key is never "ready") or `deadlineMs` has passed (then the last failure is reported).
    // `callback` runs exactly once, on `context`'s thread and never from inside this call,
    // unless the probe is cancelled or deleted first (it is a child of `context`, so deleting
    // `context` cancels it). The probe deletes itself after the callback.
    static SshProbe *probeUntilReady(const QString &host, int port, const QString &expectedSha256,
                                     int deadlineMs, QObject *context, Callback callback);

    // Drops the callback; an attempt already running finishes on its thread and is discarded.
    void cancel();

private:
    SshProbe(const QString &host, int port, const QString &expectedSha256, int deadlineMs,
             Callback callback, QObject *parent);
    void attempt();
    void onAttemptDone();
    void finish(Result result);

    QString m_host;
    int m_port = 0;
    QString m_expected;
    int m_deadlineMs = 0;
    Callback m_callback;
    QElapsedTimer m_clock;
    QFutureWatcher<Result> m_watcher;
    QTimer *m_retry = nullptr;
    int m_attempts = 0;
    bool m_done = false;
};

} // namespace cardhour::sim
