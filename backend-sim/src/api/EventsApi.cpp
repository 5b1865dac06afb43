// GET /v1/events: server-sent events for the caller's instances and bill.
#include "ApiContext.h"
#include "http/EventStream.h"
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
        http::Response response;
        response.status = 200;
        response.stream = [&ctx, userId, lastEventId](std::shared_ptr<http::EventStream> stream) {
            ctx.events.subscribe(userId, std::move(stream), lastEventId);
        };
        return response;
    });
}

} // namespace cardhour::sim
