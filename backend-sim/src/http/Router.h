#pragma once

#include "HttpMessage.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace cardhour::http {

using Handler = std::function<Response(Request &)>;

// Maps (method, path pattern) to a handler. Patterns are literal segments and "{name}"
// placeholders that match one non-empty segment, e.g. "/v1/instances/{id}/stop"; the matched
// values land in Request::pathParams. Literal segments win over placeholders.
class Router
{
public:
    struct Route
    {
        QByteArray method;
        QString pattern;
    };

    void add(const QByteArray &method, const QString &pattern, Handler handler);

    // Finds the handler and calls it. No pattern matches the path → 404 `not_found`;
    // a pattern matches but not for this method → 405 `method_not_allowed` with an Allow header.
    // A handler that throws std::exception → 500 `internal` (logged with qWarning).
    Response dispatch(Request &request) const;

    QList<Route> routes() const; // in registration order, for --print-routes and the OpenAPI test

private:
    struct Entry
    {
        QByteArray method;
        QString pattern;
        QStringList segments;
        Handler handler;
    };
    Response call(const Entry &entry, Request &request) const;

    QList<Entry> m_entries;
    // Routes with no placeholder by "METHOD path", to their index in m_entries (the first one
    // added): such a route is the most specific match of its very path, so a request for it
    // needs no walk over every pattern.
    QHash<QString, qsizetype> m_literal;
};

} // namespace cardhour::http
