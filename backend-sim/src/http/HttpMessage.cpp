#include "HttpMessage.h"

#include <QJsonDocument>

namespace cardhour::http {

using namespace Qt::StringLiterals;

namespace {

bool sameHeaderName(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

} // namespace

QByteArray Request::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (sameHeaderName(key, name))
            return value;
    }
    return {};
}

bool Request::hasHeader(QByteArrayView name) const
{
    for (const auto &entry : headers) {
        if (sameHeaderName(entry.first, name))
            return true;
    }
    return false;
}

void Response::setHeader(const QByteArray &name, const QByteArray &value)
{
    headers.removeIf([&name](const QPair<QByteArray, QByteArray> &entry) {
        return sameHeaderName(entry.first, name);
    });
    headers.append({name, value});
}

Response Response::json(int status, const QJsonObject &object)
{
    Response response;
    response.status = status;
    response.setHeader("Content-Type"_ba, "application/json; charset=utf-8"_ba);
    response.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return response;
}

Response Response::json(int status, const QJsonArray &array)
{
    Response response;
    response.status = status;
    response.setHeader("Content-Type"_ba, "application/json; charset=utf-8"_ba);
    response.body = QJsonDocument(array).toJson(QJsonDocument::Compact);
    return response;
}

Response Response::jsonBody(int status, const QByteArray &body)
{
    Response response;
    response.status = status;
    response.setHeader("Content-Type"_ba, "application/json; charset=utf-8"_ba);
    response.body = body;
    return response;
}

Response Response::error(int status, const QString &code, const QString &message)
{
    // `details` carries machine-readable facts where a refusal has them (the API layer fills it).
    const QJsonObject inner{
        {u"code"_s, code}, {u"message"_s, message}, {u"details"_s, QJsonValue::Null}};
    return json(status, QJsonObject{{u"error"_s, inner}});
}

Response Response::noContent()
{
    Response response;
    response.status = 204;
    return response;
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue"_ba;
    case 101:
        return "Switching Protocols"_ba;
    case 200:
        return "OK"_ba;
    case 201:
        return "Created"_ba;
    case 202:
        return "Accepted"_ba;
    case 204:
        return "No Content"_ba;
    case 301:
        return "Moved Permanently"_ba;
    case 302:
        return "Found"_ba;
    case 303:
        return "See Other"_ba;
    case 304:
        return "Not Modified"_ba;
    case 307:
        return "Temporary Redirect"_ba;
    case 308:
        return "Permanent Redirect"_ba;
    case 400:
        return "Bad Request"_ba;
    case 401:
        return "Unauthorized"_ba;
    case 402:
        return "Payment Required"_ba;
    case 403:
        return "Forbidden"_ba;
    case 404:
        return "Not Found"_ba;
    case 405:
        return "Method Not Allowed"_ba;
    case 406:
        return "Not Acceptable"_ba;
    case 408:
        return "Request Timeout"_ba;
    case 409:
        return "Conflict"_ba;
    case 410:
        return "Gone"_ba;
    case 411:
        return "Length Required"_ba;
    case 412:
        return "Precondition Failed"_ba;
    case 413:
        return "Content Too Large"_ba;
    case 414:
        return "URI Too Long"_ba;
    case 415:
        return "Unsupported Media Type"_ba;
    case 416:
        return "Range Not Satisfiable"_ba;
    case 422:
        return "Unprocessable Content"_ba;
    case 423:
        return "Locked"_ba;
    case 428:
        return "Precondition Required"_ba;
    case 429:
        return "Too Many Requests"_ba;
    case 431:
        return "Request Header Fields Too Large"_ba;
    case 500:
        return "Internal Server Error"_ba;
    case 501:
        return "Not Implemented"_ba;
    case 502:
        return "Bad Gateway"_ba;
    case 503:
        return "Service Unavailable"_ba;
    case 504:
        return "Gateway Timeout"_ba;
    case 505:
        return "HTTP Version Not Supported"_ba;
    case 507:
        return "Insufficient Storage"_ba;
    default:
        return "Unknown"_ba;
    }
}

} // namespace cardhour::http
