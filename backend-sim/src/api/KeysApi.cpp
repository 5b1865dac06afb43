// GET/POST /v1/ssh-keys, DELETE /v1/ssh-keys/{id}
#include "ApiContext.h"
#include "Requests.h"
#include "service/SshKeys.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerKeyRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/ssh-keys"_s, [&ctx](http::Request &, const QString &userId) {
        return http::Response::json(200, ctx.keys.list(userId));
    });

    ctx.idempotentRoute(
        "POST", u"/v1/ssh-keys"_s, [&ctx](http::Request &request, const QString &userId) {
            requests::NewSshKey key = requests::parseNewSshKey(request.body);
            if (key.name.isEmpty())
                key.name = u"key"_s;
            return http::Response::json(201, ctx.keys.add(userId, key.name, key.publicKey));
        });

    ctx.authedRoute("DELETE", u"/v1/ssh-keys/{id}"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        ctx.keys.remove(userId, request.pathParams.value(u"id"_s));
                        return http::Response::noContent();
                    });
}

} // namespace cardhour::sim
