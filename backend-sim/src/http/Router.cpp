#include "Router.h"

#include "core/ApiError.h"

#include <QDebug>

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

} // namespace

void Router::add(const QByteArray &method, const QString &pattern, Handler handler)
{
    m_entries.append(Entry{method, pattern, pattern.split(u'/'), std::move(handler)});
}

Response Router::dispatch(Request &request) const
{
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

    try {
        return best->handler(request);
    } catch (const std::exception &e) {
        qWarning().noquote() << "cardhour-sim: handler for" << method << best->pattern
                             << "threw:" << e.what();
    } catch (...) {
        qWarning().noquote() << "cardhour-sim: handler for" << method << best->pattern
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
