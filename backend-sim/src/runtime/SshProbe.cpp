#include "SshProbe.h"

#include "InstanceFiles.h"
#include "SshHandles.h"
#include "runtime/HostPlatform.h"

#include <QCoreApplication>
#include <QMutex>
#include <QPointer>
#include <QPromise>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <libssh/libssh.h>
#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// A box's sshd listens some tens of ms after its container starts: retry soon for the first
// second (a refused connect costs little), then less often for an image that starts slowly.
constexpr int kFirstRetryMs = 10;
constexpr int kFirstRetriesForMs = 1000;
constexpr int kRetryMs = 50;
constexpr int kMaxAttemptMs = 1000;

struct SessionDeleter
{
    void operator()(ssh_session session) const
    {
        ssh_disconnect(session); // sends SSH_MSG_DISCONNECT when connected
        ssh_free(session);
    }
};

// Since libssh 0.10 a socket given with SSH_OPTIONS_FD stays the caller's to close.
struct SocketGuard
{
    platform::NativeSocket fd = platform::kNoSocket;
    explicit SocketGuard(platform::NativeSocket f) : fd(f) {}
    SocketGuard(const SocketGuard &) = delete;
    SocketGuard &operator=(const SocketGuard &) = delete;
    ~SocketGuard() { platform::closeSocket(fd); }
};

// Attempts run here: each blocks for up to a few seconds, so not on Qt's global pool
// (which other code expects to be quick) and never on the event-loop thread.
QThreadPool *probePool()
{
    static QMutex mutex;
    static QPointer<QThreadPool> pool;
    const QMutexLocker lock(&mutex);
    if (!pool) {
        QCoreApplication *app = QCoreApplication::instance();
        if (!app || app->thread() != QThread::currentThread())
            return QThreadPool::globalInstance();
        pool = new QThreadPool(app); // waits for running attempts when the application goes
        pool->setMaxThreadCount(16);
        pool->setExpiryTimeout(10000);
        pool->setObjectName(u"cardhour-ssh-probe"_s);
    }
    return pool;
}

// One probe's session over the connected `fd`: no config files, no known_hosts, the probe's
// timeout. false when libssh refuses the socket.
bool configureSession(ssh_session session, platform::NativeSocket fd, const QString &host, int port,
                      int timeoutMs)
{
    const QByteArray hostBytes = host.toUtf8();
    const unsigned int portValue = static_cast<unsigned int>(port);
    const long timeoutUsec = long(timeoutMs) * 1000;
    const long zero = 0;
    const int verbosity = SSH_LOG_NOLOG;
    const bool processConfig = false;
    socket_t socket = socket_t(fd);
    if (ssh_options_set(session, SSH_OPTIONS_FD, &socket) != SSH_OK)
        return false;
    ssh_options_set(session, SSH_OPTIONS_LOG_VERBOSITY, &verbosity);
    ssh_options_set(session, SSH_OPTIONS_PROCESS_CONFIG, &processConfig); // no ~/.ssh/config
    ssh_options_set(session, SSH_OPTIONS_HOST, hostBytes.constData());
    ssh_options_set(session, SSH_OPTIONS_PORT, &portValue);
    ssh_options_set(session, SSH_OPTIONS_USER, "cardhour-probe");
    // No known_hosts: they would reorder host key algorithms; the expected key is the only truth.
    ssh_options_set(session, SSH_OPTIONS_KNOWNHOSTS, "/dev/null");
    ssh_options_set(session, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null");
    ssh_options_set(session, SSH_OPTIONS_TIMEOUT, &zero);
    ssh_options_set(session, SSH_OPTIONS_TIMEOUT_USEC, &timeoutUsec);
    return true;
}

// "SHA256:..." of the host key the server presented; empty with *why when it cannot be had.
QString serverKeySha256(ssh_session session, const QString &where, QString *why)
{
    ssh_key rawKey = nullptr;
    if (ssh_get_server_publickey(session, &rawKey) != SSH_OK || !rawKey) {
        *why =
            u"%1 presented no host key: %2"_s.arg(where, QString::fromUtf8(ssh_get_error(session)));
        return {};
    }
    const SshKeyPtr key(rawKey);
    unsigned char *hash = nullptr;
    size_t hashLength = 0;
    if (ssh_get_publickey_hash(key.get(), SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLength) != 0
        || !hash) {
        *why = u"cannot hash the host key of %1"_s.arg(where);
        return {};
    }
    const QByteArray digest(reinterpret_cast<const char *>(hash), qsizetype(hashLength));
    ssh_clean_pubkey_hash(&hash);
    return u"SHA256:"_s + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

} // namespace

QString SshProbe::statusName(Status status)
{
    switch (status) {
    case Status::Ready:
        return u"ready"_s;
    case Status::NotListening:
        return u"not_listening"_s;
    case Status::HandshakeFailed:
        return u"handshake_failed"_s;
    case Status::HostKeyMismatch:
        return u"host_key_mismatch"_s;
    }
    return {};
}

SshProbe::Result SshProbe::probeOnce(const QString &host, int port, const QString &expectedSha256,
                                     int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    Result result;
    const QString where = u"%1:%2"_s.arg(host).arg(port);
    timeoutMs = std::max(timeoutMs, 50);

    QString error;
    const platform::NativeSocket fd = platform::connectTcp(host, port, timeoutMs, &error);
    if (fd == platform::kNoSocket) {
        result.status = Status::NotListening;
        result.message = u"nothing accepts connections at %1 (%2)"_s.arg(where, error);
        result.elapsedMs = clock.elapsed();
        return result;
    }

    const SocketGuard socketGuard(fd); // closed after the session (declared before it) is freed
    std::unique_ptr<ssh_session_struct, SessionDeleter> session(ssh_new());
    if (!session) {
        result.status = Status::HandshakeFailed;
        result.message = u"libssh could not make a session"_s;
        return result;
    }
    if (!configureSession(session.get(), fd, host, port, timeoutMs)) {
        result.status = Status::HandshakeFailed;
        result.message = u"libssh refused the socket"_s;
        return result;
    }

    if (ssh_connect(session.get()) != SSH_OK) {
        result.status = Status::HandshakeFailed;
        result.message = u"no SSH handshake with %1: %2"_s.arg(
            where, QString::fromUtf8(ssh_get_error(session.get())));
        result.elapsedMs = clock.elapsed();
        return result;
    }

    QString why;
    result.seenHostKeySha256 = serverKeySha256(session.get(), where, &why);
    if (result.seenHostKeySha256.isEmpty()) {
        result.status = Status::HandshakeFailed;
        result.message = why;
        result.elapsedMs = clock.elapsed();
        return result;
    }
    result.elapsedMs = clock.elapsed();
    if (result.seenHostKeySha256 != expectedSha256) {
        result.status = Status::HostKeyMismatch;
        result.message = u"sshd at %1 presented host key %2, expected %3"_s.arg(
            where, result.seenHostKeySha256, expectedSha256);
        return result;
    }
    result.status = Status::Ready;
    return result;
}

SshProbe::SshProbe(const QString &host, int port, const QString &expectedSha256, int deadlineMs,
                   Callback callback, QObject *parent)
    : QObject(parent), m_host(host), m_port(port), m_expected(expectedSha256),
      m_deadlineMs(deadlineMs), m_callback(std::move(callback)), m_retry(new QTimer(this))
{
    m_clock.start();
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &SshProbe::attempt);
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, &SshProbe::onAttemptDone);
}

SshProbe *SshProbe::probeUntilReady(const QString &host, int port, const QString &expectedSha256,
                                    int deadlineMs, QObject *context, Callback callback)
{
    auto *probe =
        new SshProbe(host, port, expectedSha256, deadlineMs, std::move(callback), context);
    probe->m_retry->start(0); // never from inside this call
    return probe;
}

void SshProbe::attempt()
{
    if (m_done)
        return;
    ++m_attempts;
    const qint64 left = m_deadlineMs - m_clock.elapsed();
    const int timeoutMs = int(std::clamp<qint64>(left, 100, kMaxAttemptMs));
    auto promise = std::make_shared<QPromise<Result>>();
    m_watcher.setFuture(promise->future());
    promise->start();
    probePool()->start([promise, host = m_host, port = m_port, expected = m_expected, timeoutMs] {
        promise->addResult(probeOnce(host, port, expected, timeoutMs));
        promise->finish();
    });
}

void SshProbe::onAttemptDone()
{
    if (m_done || m_watcher.future().resultCount() < 1)
        return;
    Result result = m_watcher.result();
    if (result.status == Status::Ready || result.status == Status::HostKeyMismatch) {
        finish(std::move(result));
        return;
    }
    const qint64 elapsed = m_clock.elapsed();
    if (elapsed + kRetryMs >= m_deadlineMs) {
        result.message =
            u"sshd was not ready within %1 s: %2"_s.arg(m_deadlineMs / 1000.0, 0, 'f', 1)
                .arg(result.message);
        finish(std::move(result));
        return;
    }
    m_retry->start(elapsed < kFirstRetriesForMs ? kFirstRetryMs : kRetryMs);
}

void SshProbe::finish(Result result)
{
    m_done = true;
    result.attempts = m_attempts;
    result.elapsedMs = m_clock.elapsed();
    // From a fresh stack frame, so that the callback may delete this probe's parent.
    QTimer::singleShot(0, this, [this, result] {
        Callback callback = std::move(m_callback);
        m_callback = {};
        deleteLater();
        if (callback)
            callback(result);
    });
}

void SshProbe::cancel()
{
    if (m_done && !m_callback)
        return;
    m_done = true;
    m_callback = {};
    m_retry->stop();
    deleteLater();
}

} // namespace cardhour::sim
