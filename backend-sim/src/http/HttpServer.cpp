#include "HttpServer.h"

#include "EventStream.h"
#include "RequestParser.h"
#include "Router.h"
#include "core/ApiError.h"

#include <QDebug>
#include <QPointer>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <exception>
#include <memory>

#if defined(Q_OS_UNIX)
#include <sys/resource.h>
#include <sys/socket.h>
#endif

namespace cardhour::http {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 ReadChunk = 64 * 1024;
constexpr qint64 SocketReadBuffer = 256 * 1024;
constexpr int LingerMs = 2000;

struct Connection
{
    explicit Connection(RequestParser::Limits limits) : parser(limits) {}

    RequestParser parser;
    QByteArray buffer;
    QTimer *idleTimer = nullptr; // child of the socket; also the lingering-close timer
    QTimer *requestTimer = nullptr; // child of the socket: the deadline of a request under way
    int idleTimeoutMs = 60000;
    qint64 maxQueuedOutput = 1024 * 1024;
    bool streaming = false; // handed to an EventStream: no more requests
    bool closing = false; // answered for the last time, waiting for the close
    bool paused = false; // answers queued past maxQueuedOutput: no reading until they drain
    bool delayed = false; // an answer is held (Response::delayMs): later requests wait behind it
};

// What evictOldest() looks at, on each socket.
constexpr char kAcceptedProperty[] = "cardhour_accepted";
constexpr char kStreamingProperty[] = "cardhour_streaming";

bool sameName(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

bool hasHeader(const HeaderList &headers, QByteArrayView name)
{
    for (const auto &entry : headers) {
        if (sameName(entry.first, name))
            return true;
    }
    return false;
}

// A header the handler may send: a token name and a value without line breaks or NUL.
bool isSafeHeader(const QByteArray &name, const QByteArray &value)
{
    if (name.isEmpty())
        return false;
    for (const char c : name) {
        if (!isTokenChar(c))
            return false;
    }
    for (const char c : value) {
        if (c == '\r' || c == '\n' || c == '\0')
            return false;
    }
    return true;
}

// Appends the handler's headers except the ones in `reserved` (which the server writes).
void appendHandlerHeaders(QByteArray &out, const HeaderList &headers,
                          std::initializer_list<QByteArrayView> reserved)
{
    for (const auto &[name, value] : headers) {
        bool skip = false;
        for (const QByteArrayView r : reserved)
            skip = skip || sameName(name, r);
        if (skip)
            continue;
        if (!isSafeHeader(name, value)) {
            qWarning().noquote() << "cardhour-sim: dropping invalid response header"
                                 << QString::fromLatin1(name);
            continue;
        }
        out += name + ": "_ba + value + "\r\n"_ba;
    }
}

QByteArray statusLine(int status)
{
    return "HTTP/1.1 "_ba + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n"_ba;
}

bool hasBody(const Response &response)
{
    // 1xx, 204 and 304 responses have neither a body nor a Content-Length.
    return !((response.status >= 100 && response.status < 200) || response.status == 204
             || response.status == 304);
}

QByteArray responseHead(const Response &response, bool keepAlive)
{
    QByteArray out = statusLine(response.status);
    appendHandlerHeaders(out, response.headers,
                         {"content-length", "connection", "transfer-encoding"});
    if (!hasHeader(response.headers, "cache-control"))
        out += "Cache-Control: no-store\r\n"_ba;
    if (!hasHeader(response.headers, "server"))
        out += "Server: cardhour-sim\r\n"_ba;
    if (hasBody(response))
        out += "Content-Length: "_ba + QByteArray::number(response.body.size()) + "\r\n"_ba;
    out += keepAlive ? "Connection: keep-alive\r\n"_ba : "Connection: close\r\n"_ba;
    out += "\r\n"_ba;
    return out;
}

// A large body goes to the socket as a block of its own: QIODevice::write(const QByteArray &)
// keeps an array of a chunk or more in the socket's buffer without copying it, so a 100 KB
// instance list is not copied once more behind its head.
void writeResponse(QTcpSocket *socket, const Response &response, bool keepAlive)
{
    constexpr qsizetype kBodyOfItsOwnBytes = 16 * 1024;
    QByteArray head = responseHead(response, keepAlive);
    if (!hasBody(response) || response.body.isEmpty()) {
        socket->write(head);
    } else if (response.body.size() < kBodyOfItsOwnBytes) {
        head += response.body;
        socket->write(head);
    } else {
        socket->write(head);
        socket->write(response.body);
    }
}

QByteArray serializeStreamHead(const Response &response)
{
    QByteArray out = statusLine(response.status);
    appendHandlerHeaders(out, response.headers,
                         {"content-length", "connection", "transfer-encoding", "content-type",
                          "cache-control", "server"});
    out += "Content-Type: text/event-stream\r\n"
           "Cache-Control: no-store\r\n"
           "Server: cardhour-sim\r\n"
           "Connection: keep-alive\r\n"
           "\r\n"_ba;
    return out;
}

QString errorCode(int status)
{
    switch (status) {
    case 413:
        return sim::ErrorCode::PayloadTooLarge;
    case 414:
        return sim::ErrorCode::UriTooLong;
    case 431:
        return sim::ErrorCode::HeadersTooLarge;
    case 501:
        return sim::ErrorCode::NotImplemented;
    case 505:
        return sim::ErrorCode::HttpVersionNotSupported;
    default:
        return sim::ErrorCode::BadRequest;
    }
}

// Answer bytes not yet handed to the kernel: for TLS also the ones already encrypted.
qint64 pendingOutput(const QTcpSocket *socket)
{
    qint64 bytes = socket->bytesToWrite();
    if (const auto *tls = qobject_cast<const QSslSocket *>(socket))
        bytes += tls->encryptedBytesToWrite();
    return bytes;
}

// Half-closes the connection: the peer reads everything we sent, then end of stream.
void shutdownWrite(QTcpSocket *socket)
{
#if defined(Q_OS_UNIX)
    const qintptr fd = socket->socketDescriptor();
    if (fd != -1)
        ::shutdown(static_cast<int>(fd), SHUT_WR);
#else
    Q_UNUSED(socket);
#endif
}

// Ends a connection after the last response. Closing a socket while the peer is still sending
// (the rest of a refused body, pipelined requests) makes the kernel send a reset, which can
// destroy the response before the peer reads it. So: once the response is flushed, stop
// sending, keep reading and discarding for a short while, and close when the peer does or
// the linger time is over.
void closeGracefully(QTcpSocket *socket, Connection *conn)
{
    conn->closing = true;
    conn->buffer.clear();
    conn->idleTimer->stop();
    auto linger = [socket, conn] {
        shutdownWrite(socket);
        conn->idleTimer->start(qMin(conn->idleTimeoutMs, LingerMs));
    };
    if (pendingOutput(socket) == 0) {
        linger();
        return;
    }
    auto flushed = std::make_shared<QMetaObject::Connection>();
    auto encryptedFlushed = std::make_shared<QMetaObject::Connection>();
    auto onWritten = [socket, linger, flushed, encryptedFlushed] {
        if (pendingOutput(socket) > 0)
            return;
        QObject::disconnect(*flushed);
        QObject::disconnect(*encryptedFlushed);
        linger();
    };
    *flushed = QObject::connect(socket, &QIODevice::bytesWritten, socket, onWritten);
    if (auto *tls = qobject_cast<QSslSocket *>(socket))
        *encryptedFlushed =
            QObject::connect(tls, &QSslSocket::encryptedBytesWritten, socket, onWritten);
}

void holdAnswer(const Router &router, QTcpSocket *socket, Connection *conn, Response response,
                bool keepAlive);
void awaitAnswer(const Router &router, QTcpSocket *socket, Connection *conn, Response pending,
                 bool keepAlive);

// Answers every complete request in the connection's buffer, in order. Returns false when
// the connection takes no further requests (error, close, stream, or the peer left).
bool answerBuffered(const Router &router, QTcpSocket *socket, Connection *conn)
{
    if (conn->delayed)
        return false; // answered, in order, once the held answer is sent
    for (;;) {
        if (pendingOutput(socket) > conn->maxQueuedOutput) {
            // A peer that pipelines requests without reading the answers: stop here (the
            // rest stays in the buffers, which are bounded) until the output drains.
            conn->paused = true;
            return true;
        }
        const RequestParser::Result result = conn->parser.feed(conn->buffer);
        if (result == RequestParser::Result::NeedMore) {
            if (conn->parser.takeContinueRequest())
                socket->write("HTTP/1.1 100 Continue\r\n\r\n");
            return true;
        }
        if (result == RequestParser::Result::Error) {
            const Response response =
                Response::error(conn->parser.errorStatus(), errorCode(conn->parser.errorStatus()),
                                conn->parser.errorMessage());
            conn->closing = true;
            if (socket->state() != QAbstractSocket::ConnectedState)
                return false;
            writeResponse(socket, response, false);
            closeGracefully(socket, conn);
            return false;
        }

        Request request = conn->parser.takeRequest();
        const bool keepAlive = conn->parser.keepAlive();
        request.peer = socket->peerAddress();
        request.localPort = socket->localPort();

        QPointer<QTcpSocket> guard(socket);
        Response response = router.dispatch(request);
        if (guard.isNull() || socket->state() != QAbstractSocket::ConnectedState)
            return false; // the peer left while the handler ran

        if (response.stream) {
            socket->write(serializeStreamHead(response));
            conn->streaming = true;
            socket->setProperty(kStreamingProperty, true);
            conn->buffer.clear();
            conn->idleTimer->stop();
            conn->requestTimer->stop();
            auto stream = std::make_shared<EventStream>(socket);
            try {
                response.stream(std::move(stream));
            } catch (const std::exception &e) {
                qWarning().noquote() << "cardhour-sim: event stream setup threw:" << e.what();
                if (!guard.isNull())
                    socket->disconnectFromHost();
            } catch (...) {
                qWarning().noquote() << "cardhour-sim: event stream setup threw";
                if (!guard.isNull())
                    socket->disconnectFromHost();
            }
            return false;
        }

        if (response.deferred) {
            awaitAnswer(router, socket, conn, std::move(response), keepAlive);
            return false;
        }
        if (response.delayMs > 0) {
            holdAnswer(router, socket, conn, std::move(response), keepAlive);
            return false;
        }
        writeResponse(socket, response, keepAlive);
        if (!keepAlive) {
            closeGracefully(socket, conn);
            return false;
        }
    }
}

// Sends an answer that was held back (delayed or deferred), then goes on with the requests
// that arrived meanwhile.
void sendHeldAnswer(const Router &router, QTcpSocket *socket, Connection *conn,
                    const Response &response, bool keepAlive)
{
    conn->delayed = false;
    if (socket->state() != QAbstractSocket::ConnectedState)
        return;
    writeResponse(socket, response, keepAlive);
    if (!keepAlive) {
        closeGracefully(socket, conn);
        return;
    }
    // The rest of the buffer, then what came meanwhile (which also restarts the idle timer).
    if (answerBuffered(router, socket, conn))
        Q_EMIT socket->readyRead();
}

// Sends `response` after its delay; requests that arrive meanwhile are buffered and answered
// after it, in order. The socket owns the timer: a peer that leaves cancels it.
void holdAnswer(const Router &router, QTcpSocket *socket, Connection *conn, Response response,
                bool keepAlive)
{
    conn->delayed = true;
    conn->idleTimer->stop();
    conn->requestTimer->stop();
    const int delayMs = response.delayMs;
    // Precise: a coarse timer may fire up to 5 % early, and the delay asked for is a promise.
    QTimer::singleShot(delayMs, Qt::PreciseTimer, socket,
                       [&router, socket, conn, response = std::move(response), keepAlive] {
                           sendHeldAnswer(router, socket, conn, response, keepAlive);
                       });
}

// Waits for the answer of a handler that finishes later (Response::deferred), holding the
// connection's next requests as holdAnswer does; the event loop serves others meanwhile.
void awaitAnswer(const Router &router, QTcpSocket *socket, Connection *conn, Response pending,
                 bool keepAlive)
{
    conn->delayed = true;
    conn->idleTimer->stop();
    conn->requestTimer->stop();
    QPointer<QTcpSocket> guard(socket);
    const int delayMs = pending.delayMs;
    pending.deferred([&router, guard, conn, keepAlive, delayMs](Response response) {
        if (guard.isNull())
            return; // the peer left (and its Connection with it)
        if (response.delayMs == 0)
            response.delayMs = delayMs;
        if (response.delayMs > 0)
            holdAnswer(router, guard.data(), conn, std::move(response), keepAlive);
        else
            sendHeldAnswer(router, guard.data(), conn, response, keepAlive);
    });
}

} // namespace

int HttpServer::defaultMaxConnections()
{
#if defined(Q_OS_UNIX)
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY)
        return 512;
    const qint64 room = qint64(files.rlim_cur) - 256;
    return int(std::clamp<qint64>(room, 512, 8192));
#else
    return 512;
#endif
}

HttpServer::HttpServer(const Router &router, QObject *parent)
    : QObject(parent), m_router(router), m_server(std::make_unique<QTcpServer>())
{
    watchServer();
}

void HttpServer::watchServer()
{
    // Not newConnection: a TLS server emits that before the handshake; a connection is pending
    // (and ours) only once it is encrypted.
    connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, this,
            &HttpServer::onNewConnection);
    connect(m_server.get(), &QTcpServer::acceptError, this, &HttpServer::onAcceptError);
}

void HttpServer::setTls(const QSslConfiguration &configuration)
{
    auto server = std::make_unique<QSslServer>();
    server->setSslConfiguration(configuration);
    // A peer that connects and never finishes its handshake holds a socket no longer than a
    // slow request would.
    server->setHandshakeTimeout(m_requestTimeoutMs);
    connect(server.get(), &QSslServer::errorOccurred, this,
            [](QSslSocket *socket, QAbstractSocket::SocketError) {
                qDebug().noquote()
                    << "cardhour-sim: TLS handshake failed with" << socket->peerAddress().toString()
                    << ":" << socket->errorString();
            });
    m_server = std::move(server);
    m_tls = true;
    watchServer();
}

void HttpServer::onAcceptError(QAbstractSocket::SocketError error)
{
    // QTcpServer stops accepting after an error that is not temporary (EMFILE, ENFILE,
    // ENOBUFS): free a descriptor and try again shortly instead of going deaf for good.
    qWarning().noquote() << "cardhour-sim: accept failed:" << m_server->errorString() << "("
                         << int(error) << "); closing the oldest connection, resuming soon";
    evictOldest();
    QTimer::singleShot(100, this, [this] { m_server->resumeAccepting(); });
}

bool HttpServer::evictOldest()
{
    QTcpSocket *oldest = nullptr;
    quint64 oldestOrder = 0;
    const auto sockets = m_server->findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly);
    for (QTcpSocket *socket : sockets) {
        if (socket->property(kStreamingProperty).toBool()
            || socket->state() != QAbstractSocket::ConnectedState)
            continue;
        const quint64 order = socket->property(kAcceptedProperty).toULongLong();
        if (!oldest || order < oldestOrder) {
            oldest = socket;
            oldestOrder = order;
        }
    }
    if (!oldest)
        return false;
    qWarning().noquote() << "cardhour-sim:" << m_openConnections
                         << "connections open (the cap): closed the oldest, from"
                         << oldest->peerAddress().toString();
    oldest->abort(); // disconnected() → deleteLater
    return true;
}

HttpServer::~HttpServer()
{
    m_server->close();
    // Drop the open connections now, while this object is still whole.
    const auto sockets = m_server->findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly);
    for (QTcpSocket *socket : sockets) {
        disconnect(socket, nullptr, this, nullptr);
        socket->abort(); // an EventStream on it sees disconnected() and emits closed()
        delete socket;
    }
    m_openConnections = 0;
}

bool HttpServer::listen(const QHostAddress &address, quint16 port)
{
    return m_server->listen(address, port);
}

quint16 HttpServer::serverPort() const
{
    return m_server->serverPort();
}

QString HttpServer::errorString() const
{
    return m_server->errorString();
}

int HttpServer::openConnectionCount() const
{
    return m_openConnections;
}

void HttpServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        // Past the cap, the oldest connection that is not an event stream makes room; with
        // nothing to close (all streams), the new one is refused.
        if (m_openConnections >= m_maxConnections && !evictOldest()) {
            qWarning().noquote() << "cardhour-sim:" << m_openConnections
                                 << "event streams open (the cap): refused a new connection";
            socket->abort();
            socket->deleteLater();
            continue;
        }
        ++m_openConnections;
        connect(socket, &QObject::destroyed, this, [this] { --m_openConnections; });
        socket->setProperty(kAcceptedProperty, ++m_accepted);

        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        socket->setReadBufferSize(SocketReadBuffer);

        auto conn = std::make_shared<Connection>(m_limits);
        conn->maxQueuedOutput = m_maxQueuedOutput;
        conn->idleTimer = new QTimer(socket);
        conn->idleTimer->setSingleShot(true);
        conn->idleTimer->setInterval(m_idleTimeoutMs);
        conn->idleTimeoutMs = m_idleTimeoutMs;
        connect(conn->idleTimer, &QTimer::timeout, socket,
                [socket] { socket->disconnectFromHost(); });
        // From a request's first byte to its last, whatever the pace: a byte now and then
        // (slowloris) does not keep a connection.
        conn->requestTimer = new QTimer(socket);
        conn->requestTimer->setSingleShot(true);
        conn->requestTimer->setInterval(m_requestTimeoutMs);
        connect(conn->requestTimer, &QTimer::timeout, socket, [this, socket] {
            // Said, since the client sees only a reset: a slow sender or a stalled event loop.
            qWarning().noquote() << "cardhour-sim: closed a connection from"
                                 << socket->peerAddress().toString() << "whose request took over"
                                 << m_requestTimeoutMs << "ms";
            socket->abort();
        });

        connect(socket, &QAbstractSocket::disconnected, socket, [socket, conn] {
            conn->closing = true;
            conn->idleTimer->stop();
            conn->requestTimer->stop();
            socket->deleteLater();
        });

        auto process = [this, socket, conn] {
            // Read in bounded chunks so the pending buffer stays near the parser's limits.
            while (socket->bytesAvailable() > 0 && !conn->paused) {
                const QByteArray chunk = socket->read(ReadChunk);
                if (chunk.isEmpty())
                    break;
                if (conn->streaming || conn->closing)
                    continue; // nothing more is parsed on this connection
                conn->buffer.append(chunk);
                if (!answerBuffered(m_router, socket, conn.get()))
                    return;
            }
            if (conn->streaming || conn->closing)
                return;
            conn->idleTimer->start();
            if (!conn->buffer.isEmpty() || conn->parser.midRequest()) {
                if (!conn->requestTimer->isActive())
                    conn->requestTimer->start();
            } else {
                conn->requestTimer->stop();
            }
        };
        connect(socket, &QIODevice::readyRead, socket, process);
        connect(socket, &QIODevice::bytesWritten, socket, [this, socket, conn, process] {
            if (!conn->paused || pendingOutput(socket) > conn->maxQueuedOutput / 2)
                return;
            conn->paused = false;
            if (!conn->streaming && !conn->closing && answerBuffered(m_router, socket, conn.get()))
                process();
        });

        if (socket->state() != QAbstractSocket::ConnectedState) {
            socket->deleteLater();
            continue;
        }
        conn->idleTimer->start();
        if (socket->bytesAvailable() > 0)
            QMetaObject::invokeMethod(socket, process, Qt::QueuedConnection);
    }
}

} // namespace cardhour::http
