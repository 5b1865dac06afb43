// POST /v1/auth/signup, POST /v1/auth/login, POST /v1/auth/logout, GET /v1/me, GET /v1/health,
// POST /v1/_sandbox/prove
#include "ApiContext.h"
#include "Requests.h"
#include "SandboxSecret.h"
#include "billing/Ledger.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "service/Accounts.h"
#include "service/EventBus.h"
#include "service/InstanceService.h"
#include "store/Database.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonDocument>

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// GET /v1/me between writes: the account's fields serialised and its posted balance read once
// per change of the database; at each read the live balance and spend rate come from the open
// segments in memory, as InstanceService::liveBalance and spendRate say them.
class MeView
{
public:
    explicit MeView(ApiContext &ctx) : m_ctx(ctx) {}

    QByteArray body(const QString &userId)
    {
        if (m_keptAt != m_ctx.db.writeVersion()) {
            m_kept.clear();
            m_keptAt = m_ctx.db.writeVersion();
        }
        auto kept = m_kept.find(userId);
        if (kept == m_kept.end()) {
            const QByteArray object =
                QJsonDocument(m_ctx.accounts.userJson(userId)).toJson(QJsonDocument::Compact);
            // The fields without their braces; QJsonObject writes its keys sorted, so the
            // balance goes first and the spend rate last, as they would in one object.
            kept = m_kept.insert(
                userId, {object.sliced(1, object.size() - 2), m_ctx.ledger.balance(userId), {}, 0});
        }
        // Asked again within the same millisecond: the same bytes (the walk of the open
        // segments would give the same amounts).
        const qint64 now = m_ctx.clock.nowMs();
        if (!kept->body.isEmpty() && kept->bodyAtMs == now)
            return kept->body;
        const InstanceService::LiveAccount live =
            m_ctx.instances.liveAccount(userId, kept->postedMicros);
        QByteArray out;
        out.reserve(kept->fields.size() + 80);
        out += "{\"balance_micros\":";
        out += QByteArray::number(live.balanceMicros);
        if (!kept->fields.isEmpty())
            out += ',' + kept->fields;
        out += ",\"spend_rate_micros_per_hour\":";
        out += QByteArray::number(live.spendRatePerHourMicros);
        out += '}';
        kept->body = out;
        kept->bodyAtMs = now;
        return out;
    }

private:
    struct Kept
    {
        QByteArray fields;
        qint64 postedMicros = 0;
        QByteArray body; // the last answer made, and the clock it was made at
        qint64 bodyAtMs = 0;
    };
    ApiContext &m_ctx;
    QHash<QString, Kept> m_kept;
    quint64 m_keptAt = 0; // Database::writeVersion() m_kept was read at
};
} // namespace

namespace {
QJsonObject sessionJson(ApiContext &ctx, const Accounts::Session &session)
{
    return {{u"token"_s, session.token},
            {u"token_type"_s, u"Bearer"_s},
            {u"expires_at"_s, json::isoTime(session.expiresAtMs)},
            {u"user"_s, QJsonObject{{u"id"_s, session.userId}, {u"email"_s, session.email}}},
            {u"balance_micros"_s, ctx.instances.liveBalance(session.userId)},
            {u"device_token"_s, session.deviceToken}};
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
                        // Said before sign-up, so a new user knows what the trial gives.
                        {u"trial_credit_micros"_s, Accounts::kTrialCreditMicros},
                        {u"time_zone"_s, ctx.timeZoneId},
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
        const requests::Credentials c =
            requests::parseCredentials(request.body, requests::CredentialsFor::SignUp);
        return http::Response::json(
            201,
            sessionJson(
                ctx, ctx.accounts.signUp(c.email, c.password, request.peer.toString(), c.proof)));
    });

    ctx.publicRoute("POST", u"/v1/auth/login"_s, [&ctx](http::Request &request) {
        const requests::Credentials c =
            requests::parseCredentials(request.body, requests::CredentialsFor::LogIn);
        const Accounts::Session session =
            ctx.accounts.logIn(c.email, c.password, request.peer.toString(), c.deviceToken);
        return http::Response::json(200, sessionJson(ctx, session));
    });

    ctx.authedRoute("POST", u"/v1/auth/logout"_s, [&ctx](http::Request &request, const QString &) {
        const QByteArray token = ApiContext::bearerToken(request);
        ctx.accounts.logOut(QString::fromLatin1(token));
        ctx.events.closeStreamsOf(token); // no stream outlives the session that opened it
        return http::Response::noContent();
    });

    auto me = std::make_shared<MeView>(ctx);
    ctx.authedRoute("GET", u"/v1/me"_s, [me](http::Request &, const QString &userId) {
        return http::Response::jsonBody(200, me->body(userId));
    });
}

} // namespace cardhour::sim
