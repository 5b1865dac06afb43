// POST /v1/auth/signup, POST /v1/auth/login, POST /v1/auth/logout, GET /v1/me, GET /v1/health,
// POST /v1/_sandbox/prove
#include "ApiContext.h"
#include "Requests.h"
#include "SandboxSecret.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "service/Accounts.h"
#include "service/InstanceService.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
QJsonObject sessionJson(ApiContext &ctx, const Accounts::Session &session)
{
    return {{u"token"_s, session.token},
            {u"token_type"_s, u"Bearer"_s},
            {u"expires_at"_s, json::isoTime(session.expiresAtMs)},
            {u"user"_s, QJsonObject{{u"id"_s, session.userId}, {u"email"_s, session.email}}},
            {u"balance_micros"_s, ctx.instances.liveBalance(session.userId)}};
}
} // namespace

void registerAuthRoutes(ApiContext &ctx)
{
    ctx.publicRoute("GET", u"/v1/health"_s, [&ctx](http::Request &) {
        return http::Response::json(
            200,
            QJsonObject{{u"status"_s, u"ok"_s},
                        {u"service"_s, u"cardhour-sim"_s},
                        {u"version"_s, QCoreApplication::applicationVersion()},
                        {u"test_clock"_s, ctx.testClock != nullptr},
                        {u"runtime"_s, ctx.runtimeName},
                        {u"runtime_note"_s, ctx.runtimeNote},
                        {u"time"_s, json::isoTime(ctx.clock.nowMs())}});
    });

    // The answer to a client's challenge (paths/SandboxSecret): bound to the port the request
    // came in on, so an impostor on another port cannot relay it.
    ctx.publicRoute("POST", u"/v1/_sandbox/prove"_s, [&ctx](http::Request &request) {
        const QByteArray nonce = requests::parseSandboxNonce(request.body);
        if (ctx.sandboxSecret.isEmpty())
            throw ApiError(503, ErrorCode::Unavailable,
                           u"This provider holds no sandbox secret."_s);
        const QByteArray proof = SandboxSecret::proof(ctx.sandboxSecret, nonce, request.localPort);
        return http::Response::json(200, QJsonObject{{u"proof"_s, QString::fromLatin1(proof)}});
    });

    ctx.publicRoute("POST", u"/v1/auth/signup"_s, [&ctx](http::Request &request) {
        const requests::Credentials c = requests::parseCredentials(request.body);
        return http::Response::json(
            201,
            sessionJson(ctx, ctx.accounts.signUp(c.email, c.password, request.peer.toString())));
    });

    ctx.publicRoute("POST", u"/v1/auth/login"_s, [&ctx](http::Request &request) {
        const requests::Credentials c = requests::parseCredentials(request.body);
        const Accounts::Session session =
            ctx.accounts.logIn(c.email, c.password, request.peer.toString());
        return http::Response::json(200, sessionJson(ctx, session));
    });

    ctx.authedRoute("POST", u"/v1/auth/logout"_s, [&ctx](http::Request &request, const QString &) {
        ctx.accounts.logOut(QString::fromLatin1(ApiContext::bearerToken(request)));
        return http::Response::noContent();
    });

    ctx.authedRoute("GET", u"/v1/me"_s, [&ctx](http::Request &, const QString &userId) {
        QJsonObject me = ctx.accounts.userJson(userId);
        me.insert(u"balance_micros"_s, ctx.instances.liveBalance(userId));
        me.insert(u"spend_rate_micros_per_hour"_s, ctx.instances.spendRate(userId));
        return http::Response::json(200, me);
    });
}

} // namespace cardhour::sim
