// POST/GET /v1/chaos/faults, DELETE /v1/chaos/faults/{id}: rehearsed failures on the caller's
// own account and hosts (ChaosFaults), only where the operator allowed them (--allow-chaos).
// Unlike /v1/_test/*, these need no secret of the run: an account's token is enough, since
// nothing here reaches beyond that account.
#include "ApiContext.h"
#include "service/ChaosFaults.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerChaosRoutes(ApiContext &ctx)
{
    if (!ctx.chaos)
        return;
    ctx.authedRoute("POST", u"/v1/chaos/faults"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(201, ctx.chaos->add(userId, request.body));
                    });
    ctx.authedRoute("GET", u"/v1/chaos/faults"_s, [&ctx](http::Request &, const QString &userId) {
        return http::Response::json(200, ctx.chaos->list(userId));
    });
    ctx.authedRoute("DELETE", u"/v1/chaos/faults/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(
                            200, ctx.chaos->clear(userId, request.pathParams.value(u"id"_s)));
                    });
}

} // namespace cardhour::sim
