#pragma once

#include "RequestParser.h"

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QTcpServer>

namespace cardhour::http {

class Router;

// HTTP/1.1 server over QTcpServer on the thread's event loop: keep-alive, pipelined requests
// answered in order, idle connections closed after a timeout, responses to a handler that
// sets Response::stream turned into a server-sent-events stream.
class HttpServer : public QObject
{
    Q_OBJECT
public:
    explicit HttpServer(const Router &router, QObject *parent = nullptr);
    ~HttpServer() override;

    bool listen(const QHostAddress &address, quint16 port); // port 0 picks a free one
    quint16 serverPort() const;
    QString errorString() const;

    void setLimits(RequestParser::Limits limits) { m_limits = limits; }
    void setIdleTimeoutMs(int ms) { m_idleTimeoutMs = ms; } // default 60 000
    int openConnectionCount() const;

private:
    void onNewConnection();

    const Router &m_router;
    QTcpServer m_server;
    RequestParser::Limits m_limits;
    int m_idleTimeoutMs = 60000;
    int m_openConnections = 0;
};

} // namespace cardhour::http
