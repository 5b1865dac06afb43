#include "Router.h"

#include "core/ApiError.h"

#include <QDebug>

#include <algorithm>
#include <exception>

namespace cardhour::http {

using namespace Qt::StringLiterals;

namespace {

bool isPlaceholder(const QString &segment)
{
    return segment.size() > 2 && segment.startsWith(u'{') && segment.endsWith(u'}');
}

// Whether `pattern` matches `path`; on success `literalMask` tells, segment by segment from the
// left, which pattern segments were literals (used to prefer literal routes).
bool matches(const QStringList &pattern, const QStringList &path, QList<bool> &literalMask)
{
    if (pattern.size() != path.size())
        return false;
    literalMask.clear();
    literalMask.reserve(pattern.size());
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QString &want = pattern.at(i);
        if (isPlaceholder(want)) {
            if (path.at(i).isEmpty())
                return false;
            literalMask.append(false);
        } else {
            if (want != path.at(i))
                return false;
            literalMask.append(true);
        }
    }
    return true;
}

// A route is more specific than another when, at the first segment where they differ in kind,
// it has a literal and the other a placeholder.
bool moreSpecific(const QList<bool> &a, const QList<bool> &b)
{
    for (qsizetype i = 0; i < a.size() && i < b.size(); ++i) {
        if (a.at(i) != b.at(i))
            return a.at(i);
    }
    return false;
}

QString literalKey(const QByteArray &method, const QString &path)
{
    return QString::fromLatin1(method) + u' ' + path;
}

} // namespace

void Router::add(const QByteArray &method, const QString &pattern, Handler handler)
{
    const QStringList segments = pattern.split(u'/');
    const QString key = literalKey(method, pattern);
    // The first one added wins, as it does in dispatch()'s walk.
    if (std::none_of(segments.cbegin(), segments.cend(), isPlaceholder) && !m_literal.contains(key))
        m_literal.insert(key, m_entries.size());
    m_entries.append(Entry{method, pattern, segments, std::move(handler)});
}

Response Router::dispatch(Request &request) const
{
    if (const auto literal = m_literal.constFind(literalKey(request.method, request.path));
        literal != m_literal.cend()) {
        request.pathParams.clear();
        return call(m_entries.at(*literal), request);
    }
    const QStringList segments = request.path.split(u'/');

    const Entry *best = nullptr;
    QList<bool> bestMask;
    QList<QByteArray> allowed;
    QList<bool> mask;
    for (const Entry &entry : m_entries) {
        if (!matches(entry.segments, segments, mask))
            continue;
        if (entry.method != request.method) {
            if (!allowed.contains(entry.method))
                allowed.append(entry.method);
            continue;
        }
        if (best == nullptr || moreSpecific(mask, bestMask)) {
            best = &entry;
            bestMask = mask;
        }
    }

    const QString method = QString::fromLatin1(request.method);
    if (best == nullptr) {
        if (allowed.isEmpty()) {
            return Response::error(404, sim::ErrorCode::NotFound,
                                   u"No route for %1 %2"_s.arg(method, request.path));
        }
        Response response =
            Response::error(405, sim::ErrorCode::MethodNotAllowed,
                            u"Method %1 is not allowed for %2"_s.arg(method, request.path));
        response.setHeader("Allow"_ba, allowed.join(", "_ba));
        return response;
    }

    request.pathParams.clear();
    for (qsizetype i = 0; i < best->segments.size(); ++i) {
        const QString &segment = best->segments.at(i);
        if (isPlaceholder(segment))
            request.pathParams.insert(segment.sliced(1, segment.size() - 2), segments.at(i));
    }

    return call(*best, request);
}

Response Router::call(const Entry &entry, Request &request) const
{
    try {
        return entry.handler(request);
    } catch (const std::exception &e) {
        qWarning().noquote() << "cardhour-sim: handler for" << entry.method << entry.pattern
                             << "threw:" << e.what();
    } catch (...) {
        qWarning().noquote() << "cardhour-sim: handler for" << entry.method << entry.pattern
                             << "threw a non-standard exception";
    }
    return Response::error(500, sim::ErrorCode::Internal, u"Internal server error"_s);
}

QList<Router::Route> Router::routes() const
{
    QList<Route> result;
    result.reserve(m_entries.size());
    for (const Entry &entry : m_entries)
        result.append(Route{entry.method, entry.pattern});
    return result;
}

} // namespace cardhour::http
