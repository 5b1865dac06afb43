// POST/GET /v1/instances, GET/DELETE /v1/instances/{id}, POST /v1/instances/{id}/stop|start,
// POST /v1/instances/{id}/ssh-keys, DELETE /v1/instances/{id}/ssh-keys/{keyId}
#include "ApiContext.h"
#include "Requests.h"
#include "service/HostDiskReserve.h"
#include "service/InstanceService.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerInstanceRoutes(ApiContext &ctx)
{
    ctx.idempotentRoute("POST", u"/v1/instances"_s,
                        [&ctx](http::Request &request, const QString &userId) {
                            const InstanceService::CreateRequest create =
                                requests::parseCreateInstance(request.body);
                            if (ctx.diskReserve)
                                ctx.diskReserve->requireRoom(0, u"instances"_s);
                            return http::Response::json(202, ctx.instances.create(userId, create));
                        });

    ctx.authedRoute(
        "GET", u"/v1/instances"_s, [&ctx](http::Request &request, const QString &userId) {
            const QString include = request.query.queryItemValue(u"include_terminated"_s);
            return http::Response::jsonBody(
                200, ctx.instances.listJson(userId, include == u"true"_s || include == u"1"_s));
        });

    ctx.authedRoute("GET", u"/v1/instances/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(
                            200, ctx.instances.get(userId, request.pathParams.value(u"id"_s)));
                    });

    ctx.idempotentRoute("POST", u"/v1/instances/{id}/stop"_s,
                        [&ctx](http::Request &request, const QString &userId) {
                            return http::Response::json(
                                202, ctx.instances.stop(userId, request.pathParams.value(u"id"_s)));
                        });

    ctx.idempotentRoute("POST", u"/v1/instances/{id}/start"_s,
                        [&ctx](http::Request &request, const QString &userId) {
                            return http::Response::json(
                                202,
                                ctx.instances.start(userId, request.pathParams.value(u"id"_s)));
                        });

    ctx.authedRoute("POST", u"/v1/instances/{id}/ssh-keys"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        const QString keyId = requests::parseInstanceKey(request.body);
                        return http::Response::json(
                            200,
                            ctx.instances.addKey(userId, request.pathParams.value(u"id"_s), keyId));
                    });

    ctx.authedRoute("DELETE", u"/v1/instances/{id}/ssh-keys/{keyId}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(
                            200,
                            ctx.instances.removeKey(userId, request.pathParams.value(u"id"_s),
                                                    request.pathParams.value(u"keyId"_s)));
                    });

    ctx.authedRoute(
        "DELETE", u"/v1/instances/{id}"_s, [&ctx](http::Request &request, const QString &userId) {
            return http::Response::json(
                200, ctx.instances.terminate(userId, request.pathParams.value(u"id"_s)));
        });
}

} // namespace cardhour::sim
