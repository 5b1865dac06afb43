#pragma once

#include "RequestParser.h"

#include <QHostAddress>
#include <QObject>
#include <QSslConfiguration>
#include <QString>
#include <QTcpServer>

#include <memory>

namespace cardhour::http {

class Router;

// HTTP/1.1 server over QTcpServer on the thread's event loop: keep-alive, pipelined requests
// answered in order, idle connections closed after a timeout, responses to a handler that
// sets Response::stream turned into a server-sent-events stream.
// Against slow or greedy peers: a request (line, headers and body) must arrive within the
// request timeout from its first byte, whatever the pace (slowloris); at most
// maxConnections are open, and a new one past that closes the oldest connection that is not
// an event stream (so sockets held open do not lock real clients out); no further pipelined
// request is read while more than maxQueuedOutput bytes of answers wait to be sent; after an
// accept error (out of file descriptors, say) accepting resumes shortly.
// With setTls() it serves HTTPS instead (QSslServer): a connection counts, and is read, only
// once its handshake is done, and a handshake must finish within the request timeout.
class HttpServer : public QObject
{
    Q_OBJECT
public:
    explicit HttpServer(const Router &router, QObject *parent = nullptr);
    ~HttpServer() override;

    // Serve HTTPS with this certificate and key (http/TlsFiles); before listen().
    void setTls(const QSslConfiguration &configuration);
    bool isTls() const { return m_tls; }
    bool listen(const QHostAddress &address, quint16 port); // port 0 picks a free one
    quint16 serverPort() const;
    QString errorString() const;

    void setLimits(RequestParser::Limits limits) { m_limits = limits; }
    void setIdleTimeoutMs(int ms) { m_idleTimeoutMs = ms; } // default 60 000
    void setRequestTimeoutMs(int ms) { m_requestTimeoutMs = ms; } // default 10 000
    void setMaxConnections(int count) { m_maxConnections = count; }
    // 512, or more where the process may open more files (one per connection, keeping 256
    // for everything else): 1 000 event streams of many users and tabs fit. At most 8 192.
    static int defaultMaxConnections();
    void setMaxQueuedOutput(qint64 bytes) { m_maxQueuedOutput = bytes; } // default 1 MiB
    int openConnectionCount() const;

private:
    void onNewConnection();
    void onAcceptError(QAbstractSocket::SocketError error);
    // Closes the oldest connection that is not an event stream; false if there is none.
    bool evictOldest();
    void watchServer();

    const Router &m_router;
    std::unique_ptr<QTcpServer> m_server;
    bool m_tls = false;
    RequestParser::Limits m_limits;
    int m_idleTimeoutMs = 60000;
    int m_requestTimeoutMs = 10000;
    int m_maxConnections = defaultMaxConnections();
    qint64 m_maxQueuedOutput = 1024 * 1024;
    int m_openConnections = 0;
    quint64 m_accepted = 0; // accept order, for evictOldest()
};

} // namespace cardhour::http
