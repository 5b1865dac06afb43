// GET /v1/events: server-sent events for the caller's instances and bill.
#include "ApiContext.h"
#include "core/ApiError.h"
#include "http/EventStream.h"
#include "service/Accounts.h"
#include "service/EventBus.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerEventRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/events"_s, [&ctx](http::Request &request, const QString &userId) {
        bool ok = false;
        qint64 lastEventId = request.header("last-event-id").toLongLong(&ok);
        if (!ok)
            lastEventId = -1;
        // Streams alone never take every connection of the server: past the bus's cap a new
        // one is refused and the client tries again later (its backoff).
        if (ctx.events.isFull())
            throw ApiError(503, ErrorCode::Unavailable,
                           u"Too many event streams are open on this provider; try again later."_s);
        // The stream lives as long as the token that opened it lets its holder in.
        EventBus::Holder holder;
        holder.token = ApiContext::bearerToken(request);
        holder.stillValid = [&ctx, token = holder.token] {
            return ctx.accounts.authenticate(token).has_value();
        };
        http::Response response;
        response.status = 200;
        response.stream = [&ctx, userId, lastEventId,
                           holder = std::move(holder)](std::shared_ptr<http::EventStream> stream) {
            ctx.events.subscribe(userId, std::move(stream), lastEventId, holder);
        };
        return response;
    });
}

} // namespace cardhour::sim
