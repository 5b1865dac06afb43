#include "ApiContext.h"

#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "http/Router.h"
#include "service/Accounts.h"
#include "service/ChaosFaults.h"
#include "service/Idempotency.h"
#include "service/InstanceService.h"
#include "store/Database.h"

#include <QDebug>
#include <QHostAddress>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
http::Response guarded(const std::function<http::Response()> &body)
{
    try {
        return body();
    } catch (const ApiError &error) {
        http::Response response =
            http::Response::error(error.status(), error.code(), error.message());
        if (!error.details().isEmpty())
            response =
                http::Response::json(error.status(),
                                     QJsonObject{{u"error"_s,
                                                  QJsonObject{{u"code"_s, error.code()},
                                                              {u"message"_s, error.message()},
                                                              {u"details"_s, error.details()}}}});
        if (error.status() == 401)
            response.setHeader("WWW-Authenticate", "Bearer realm=\"cardhour\"");
        return response;
    } catch (const DbError &error) {
        qWarning("database error: %s", error.what());
        return http::Response::error(500, ErrorCode::Internal,
                                     u"The provider could not complete the request."_s);
    }
}
} // namespace

namespace {
// The host part of a Host header or of an Origin's authority: "[::1]:80" → "::1",
// "example.org:8787" → "example.org". Empty when it is malformed.
QString hostPart(const QByteArray &authority)
{
    const QString text = QString::fromLatin1(authority).trimmed().toLower();
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(u']');
        if (close < 0)
            return {};
        const QString rest = text.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(u':'))
            return {};
        return text.mid(1, close - 1);
    }
    return text.section(u':', 0, 0);
}

// The Host headers a local client sends ("127.0.0.1:8787", "localhost", "[::1]:80"), told
// apart without building strings or parsing an address: they are most requests' Host.
bool isLoopbackAuthority(QByteArrayView authority)
{
    qsizetype end = authority.size();
    for (qsizetype i = end - 1; i >= 0; --i) {
        const char c = authority.at(i);
        if (c == ':') {
            if (i == end - 1)
                return false; // a colon without a port
            end = i;
            break;
        }
        if (c < '0' || c > '9')
            break;
    }
    const QByteArrayView host = authority.first(end);
    return host == "127.0.0.1" || host == "[::1]"
        || host.compare("localhost", Qt::CaseInsensitive) == 0;
}

bool isOwnHost(const QString &host, const QStringList &hostNames)
{
    if (host.isEmpty())
        return false;
    // A page can make its own name resolve to 127.0.0.1 (DNS rebinding), never an IP literal.
    return host == u"localhost"_s || !QHostAddress(host).isNull()
        || hostNames.contains(host, Qt::CaseInsensitive);
}
} // namespace

void ApiContext::checkRequestSource(const http::Request &request, const QStringList &hostNames,
                                    const QByteArray &bodyType)
{
    if (!request.body.isEmpty()) {
        const QByteArray type =
            request.header("content-type").split(';').constFirst().trimmed().toLower();
        if (type != bodyType)
            throw ApiError(415, ErrorCode::UnsupportedMediaType,
                           u"A request body must be sent as Content-Type: %1."_s.arg(
                               QString::fromLatin1(bodyType)));
    }
    const QByteArray host = request.header("host");
    if (!isLoopbackAuthority(host) && !isOwnHost(hostPart(host), hostNames))
        throw ApiError(403, ErrorCode::ForbiddenOrigin,
                       u"The request is addressed to a host (%1) that is not this provider."_s.arg(
                           QString::fromLatin1(host.left(100))));
    if (request.hasHeader("origin")) {
        // Same origin only: scheme http(s) and the very authority the request was sent to.
        const QByteArray origin = request.header("origin").trimmed().toLower();
        const qsizetype sep = origin.indexOf("://");
        const QByteArray scheme = sep > 0 ? origin.left(sep) : QByteArray();
        const QByteArray authority = sep > 0 ? origin.mid(sep + 3) : QByteArray();
        if ((scheme != "http" && scheme != "https") || authority != host.trimmed().toLower())
            throw ApiError(403, ErrorCode::ForbiddenOrigin,
                           u"Requests from another origin (%1) are refused."_s.arg(
                               QString::fromLatin1(origin.left(100))));
    }
}

http::Response ApiContext::answerOf(const std::function<http::Response()> &body)
{
    return guarded(body);
}

QByteArray ApiContext::bearerToken(const http::Request &request)
{
    const QByteArray value = request.header("authorization").trimmed();
    if (value.size() < 7 || value.left(7).toLower() != "bearer ")
        return {};
    return value.mid(7).trimmed();
}

void ApiContext::publicRoute(const QByteArray &method, const QString &pattern, Handler handler)
{
    router.add(method, pattern, [this, handler = std::move(handler)](http::Request &request) {
        return guarded([&] {
            checkRequestSource(request, hostNames);
            return handler(request);
        });
    });
}

void ApiContext::authedRoute(const QByteArray &method, const QString &pattern,
                             AuthedHandler handler, const QByteArray &bodyType)
{
    router.add(method, pattern,
               [this, method, bodyType, handler = std::move(handler)](http::Request &request) {
                   QString caller;
                   http::Response response = guarded([&] {
                       checkRequestSource(request, hostNames, bodyType);
                       const QByteArray token = bearerToken(request);
                       if (token.isEmpty())
                           throw ApiError(401, ErrorCode::Unauthorized,
                                          u"This route needs an Authorization: Bearer token."_s);
                       bool expired = false;
                       const std::optional<QString> userId = accounts.authenticate(token, &expired);
                       if (!userId && expired)
                           throw ApiError(401, ErrorCode::TokenExpired,
                                          u"The token has expired: log in again."_s);
                       if (!userId)
                           throw ApiError(
                               401, ErrorCode::Unauthorized,
                               u"The token is not valid (expired, revoked or mistyped)."_s);
                       if (method != "GET")
                           instances.tick();
                       caller = *userId;
                       return handler(request, *userId);
                   });
                   // A rehearsed slow API holds the caller's answers, errors too.
                   if (chaos && !caller.isEmpty() && !response.stream)
                       response.delayMs = chaos->responseDelayMs(caller);
                   return response;
               });
}

void ApiContext::binaryRoute(const QByteArray &method, const QString &pattern,
                             AuthedHandler handler)
{
    authedRoute(method, pattern, std::move(handler), "application/octet-stream");
}

void ApiContext::idempotentRoute(const QByteArray &method, const QString &pattern,
                                 AuthedHandler handler)
{
    authedRoute(
        method, pattern,
        [this, handler = std::move(handler)](http::Request &request, const QString &userId) {
            const QByteArray key = request.header("idempotency-key");
            if (!request.hasHeader("idempotency-key"))
                return handler(request, userId);
            Idempotency::validateKey(key);
            const QByteArray hash =
                Idempotency::requestHash(request.method, request.path, request.body);
            Transaction tx(db);
            if (const std::optional<Idempotency::Stored> stored =
                    idempotency.lookup(userId, key, hash)) {
                http::Response replay;
                replay.status = stored->status;
                replay.body = stored->body;
                replay.setHeader("Content-Type", "application/json; charset=utf-8");
                replay.setHeader("Idempotent-Replayed", "true");
                return replay;
            }
            http::Response response = handler(request, userId);
            // Errors are not stored: a retry after a 402 or 409 should be able to succeed.
            if (response.status < 400) {
                idempotency.store(userId, key, hash, response.status, response.body, clock.nowMs());
                tx.commit();
            }
            return response;
        });
}

void registerAllRoutes(ApiContext &ctx)
{
    registerAuthRoutes(ctx);
    registerCatalogRoutes(ctx);
    registerKeyRoutes(ctx);
    registerInstanceRoutes(ctx);
    registerBillingRoutes(ctx);
    registerEventRoutes(ctx);
    registerMetricsRoutes(ctx);
    registerDatasetRoutes(ctx);
    registerModelRoutes(ctx);
    registerSnapshotRoutes(ctx);
    registerLimitRoutes(ctx);
    registerSpendingRoutes(ctx);
    registerChaosRoutes(ctx);
    registerReconcilerRoutes(ctx);
    registerTestRoutes(ctx);
}

} // namespace cardhour::sim
