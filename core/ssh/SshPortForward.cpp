#include "ssh/SshPortForward.h"

#include "api/Models.h"
#include "ssh/LoopbackPeer.h"
#include "ssh/SshForwardWorker.h"

#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <libssh/libssh.h>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
// Stop reading a channel while its browser socket has this much unsent: the remote then waits
// (libssh stops widening the channel's window), instead of us buffering without bound.
constexpr qint64 kSocketBacklog = 4 * 1024 * 1024;
} // namespace

// ---- SshForwardWorker: the worker thread's side
// ---------------------------------------------------

SshForwardWorker::SshForwardWorker(const SshTarget &target, int remotePort)
    : m_target(target), m_remotePort(remotePort)
{}

SshForwardWorker::~SshForwardWorker()
{
    stop();
}

void SshForwardWorker::start(quint16 localPort)
{
    m_connection = std::make_unique<SshConnection>(m_target);
    if (!m_connection->open()) {
        fail(m_connection->errorMessage());
        return;
    }
    m_server = new QTcpServer(this);
    // Loopback only: the forward must not open the instance to the network.
    if (!m_server->listen(QHostAddress::LocalHost, localPort)) {
        fail(SshPortForward::tr("Could not listen on 127.0.0.1:%1: %2")
                 .arg(localPort)
                 .arg(m_server->errorString()));
        return;
    }
    connect(m_server, &QTcpServer::newConnection, this, &SshForwardWorker::accept);
    m_notifier = new QSocketNotifier(qintptr(ssh_get_fd(m_connection->session())),
                                     QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SshForwardWorker::pump);
    Q_EMIT listening(m_server->serverPort());
}

void SshForwardWorker::accept()
{
    while (m_server && m_server->hasPendingConnections()) {
        QTcpSocket *socket = m_server->nextPendingConnection();
        // 127.0.0.1 is open to every user of the machine; the app behind the forward (root in
        // the box, a notebook with a terminal) is this user's alone. Closed before any byte.
        if (!peerIsThisUser(*socket)) {
            qWarning("port forward: refused a connection from another local user (port %u)",
                     unsigned(socket->peerPort()));
            socket->abort();
            socket->deleteLater();
            continue;
        }
        ssh_channel channel = ssh_channel_new(m_connection->session());
        if (!channel
            || ssh_channel_open_forward(channel, "127.0.0.1", m_remotePort, "127.0.0.1",
                                        m_server->serverPort())
                != SSH_OK) {
            // Nothing listens on the remote port (yet): the browser sees the connection close.
            qWarning("port forward: channel to remote port %d refused: %s", m_remotePort,
                     qPrintable(m_connection->libsshError()));
            if (channel)
                ssh_channel_free(channel);
            socket->abort();
            socket->deleteLater();
            if (!ssh_is_connected(m_connection->session())) {
                fail(SshPortForward::tr("The SSH connection to %1 was lost.")
                         .arg(m_target.instanceName));
                return;
            }
            continue;
        }
        m_channels.insert(socket, channel);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { fromSocket(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] { drop(socket); });
        connect(socket, &QTcpSocket::bytesWritten, this, &SshForwardWorker::pump);
        Q_EMIT channelsChanged(int(m_channels.size()));
        fromSocket(socket);
    }
}

void SshForwardWorker::fromSocket(QTcpSocket *socket)
{
    ssh_channel channel = m_channels.value(socket);
    if (!channel)
        return;
    const QByteArray data = socket->readAll();
    if (!data.isEmpty()
        && ssh_channel_write(channel, data.constData(), uint32_t(data.size())) == SSH_ERROR) {
        drop(socket);
        return;
    }
    pump();
}

void SshForwardWorker::pump()
{
    if (!m_connection || m_failed)
        return;
    char buffer[32768];
    // Reading one channel makes libssh take in whatever the socket holds, for every channel:
    // go round again until a whole pass moves nothing, or data would wait in libssh's buffers
    // with no socket notification left to fetch it.
    for (bool moved = true; moved;) {
        moved = false;
        QList<QTcpSocket *> finished;
        for (auto it = m_channels.cbegin(); it != m_channels.cend(); ++it) {
            QTcpSocket *socket = it.key();
            ssh_channel channel = it.value();
            while (socket->bytesToWrite() < kSocketBacklog) {
                const int n = ssh_channel_read_nonblocking(channel, buffer, sizeof buffer, 0);
                if (n == SSH_ERROR) {
                    finished.append(socket);
                    break;
                }
                if (n <= 0)
                    break;
                socket->write(buffer, n);
                moved = true;
            }
            if (ssh_channel_is_eof(channel) && ssh_channel_poll(channel, 0) <= 0)
                finished.append(socket);
        }
        for (QTcpSocket *socket : std::as_const(finished))
            drop(socket);
    }
    if (!ssh_is_connected(m_connection->session()))
        fail(SshPortForward::tr("The SSH connection to %1 was lost.").arg(m_target.instanceName));
}

void SshForwardWorker::drop(QTcpSocket *socket)
{
    ssh_channel channel = m_channels.take(socket);
    if (!channel)
        return;
    ssh_channel_send_eof(channel);
    ssh_channel_close(channel);
    ssh_channel_free(channel);
    // Closes after what is still queued for the browser has been written; deleting the socket
    // before that would cut the end of the response off.
    socket->disconnectFromHost();
    if (socket->state() == QAbstractSocket::UnconnectedState)
        socket->deleteLater();
    else
        connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
    Q_EMIT channelsChanged(int(m_channels.size()));
}

void SshForwardWorker::stop()
{
    const QList<QTcpSocket *> sockets = m_channels.keys();
    for (QTcpSocket *socket : sockets)
        drop(socket);
    if (m_server)
        m_server->close();
    if (m_notifier)
        m_notifier->setEnabled(false);
    if (m_connection)
        m_connection->close();
}

void SshForwardWorker::fail(const QString &reason)
{
    if (m_failed)
        return;
    m_failed = true;
    stop();
    Q_EMIT failed(reason);
}

// ---- SshPortForward: the caller's side
// --------------------------------------------------------------

SshPortForward::SshPortForward(const SshTarget &target, int remotePort, QObject *parent)
    : QObject(parent), m_target(target), m_remotePort(remotePort)
{}

SshPortForward::~SshPortForward()
{
    stop();
}

void SshPortForward::start(quint16 localPort)
{
    if (m_thread)
        return;
    m_thread = new QThread(this);
    m_thread->setObjectName(u"ssh-forward"_s);
    m_worker = new SshForwardWorker(m_target, m_remotePort);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SshForwardWorker::listening, this, [this](quint16 port) {
        m_localPort = port;
        Q_EMIT listening(port);
    });
    connect(m_worker, &SshForwardWorker::failed, this, &SshPortForward::failed);
    connect(m_worker, &SshForwardWorker::channelsChanged, this, [this](int open) {
        m_channels = open;
        Q_EMIT channelsChanged(open);
    });
    m_thread->start();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, localPort] { worker->start(localPort); },
        Qt::QueuedConnection);
}

void SshPortForward::stop()
{
    if (!m_thread)
        return;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->stop(); }, Qt::QueuedConnection);
    m_thread->quit();
    m_thread->wait();
    m_thread = nullptr;
    m_worker = nullptr;
    m_localPort = 0;
}

QUrl SshPortForward::appUrl(const InstanceApp &app, quint16 localPort)
{
    QUrl url(app.url);
    if (app.url.isEmpty() || !url.isValid())
        url = QUrl(u"http://127.0.0.1/"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(localPort);
    return url;
}

} // namespace cardhour::core
