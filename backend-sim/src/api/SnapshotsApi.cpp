// POST /v1/instances/{id}/snapshots, GET /v1/snapshots, GET/DELETE /v1/snapshots/{id}
#include "ApiContext.h"
#include "Requests.h"
#include "service/HostDiskReserve.h"
#include "service/SnapshotService.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerSnapshotRoutes(ApiContext &ctx)
{
    ctx.idempotentRoute(
        "POST", u"/v1/instances/{id}/snapshots"_s,
        [&ctx](http::Request &request, const QString &userId) {
            const QString name = requests::parseNewSnapshot(request.body);
            if (ctx.diskReserve)
                ctx.diskReserve->requireRoom(0, u"snapshots"_s);
            return http::Response::json(
                202, ctx.snapshots->create(userId, request.pathParams.value(u"id"_s), name));
        });

    ctx.authedRoute("GET", u"/v1/snapshots"_s, [&ctx](http::Request &, const QString &userId) {
        return http::Response::json(200, ctx.snapshots->list(userId));
    });

    ctx.authedRoute("GET", u"/v1/snapshots/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(
                            200, ctx.snapshots->get(userId, request.pathParams.value(u"id"_s)));
                    });

    ctx.authedRoute("DELETE", u"/v1/snapshots/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(
                            200, ctx.snapshots->remove(userId, request.pathParams.value(u"id"_s)));
                    });
}

} // namespace cardhour::sim
