#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

#include <functional>
#include <memory>

namespace cardhour::http {

class EventStream;

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// One parsed HTTP/1.1 request. Header names are stored lower-cased.
struct Request
{
    QByteArray method; // "GET", "POST", ...
    QByteArray target; // the raw request-target, e.g. "/v1/instances?limit=5"
    QString path; // percent-decoded path without the query, e.g. "/v1/instances"
    QUrlQuery query; // parsed query string
    HeaderList headers; // in arrival order, names lower-cased
    QByteArray body;
    QHostAddress peer; // remote address (set by the server, empty in parser tests)
    quint16 localPort = 0; // the port the request arrived on (set by the server)
    QHash<QString, QString> pathParams; // filled by the Router from "{name}" segments

    // First value of a header, compared case-insensitively; empty if absent.
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
};

// A complete response. If `stream` is set the server writes the status line and headers
// without a Content-Length, keeps the connection open and hands it to `stream` as an
// EventStream (server-sent events); `body` is then ignored.
struct Response
{
    int status = 200;
    HeaderList headers;
    QByteArray body;
    std::function<void(std::shared_ptr<EventStream>)> stream;
    // Held this long before it is sent, the connection's next requests waiting behind it (a
    // rehearsed slow API); 0: sent at once.
    int delayMs = 0;
    // Answered later (work done off the event loop): the server calls this at once with a
    // function to call, on the server's thread, with the real answer (or never, if the peer
    // left); the connection's next requests wait behind it, other connections do not.
    std::function<void(std::function<void(Response)> answer)> deferred;

    void setHeader(const QByteArray &name, const QByteArray &value); // replaces same name

    static Response json(int status, const QJsonObject &object);
    static Response json(int status, const QJsonArray &array);
    // `body` is JSON already serialised (a view kept for many readers).
    static Response jsonBody(int status, const QByteArray &body);
    // {"error":{"code":code,"message":message}}
    static Response error(int status, const QString &code, const QString &message);
    static Response noContent(); // 204
};

// Reason phrase for a status code ("Not Found"); "Unknown" for codes we never send.
QByteArray reasonPhrase(int status);

} // namespace cardhour::http
