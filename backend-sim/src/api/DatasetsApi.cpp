// GET /v1/datasets
#include "ApiContext.h"
#include "core/ApiError.h"
#include "core/Json.h"
#include "service/Datasets.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerDatasetRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/datasets"_s, [&ctx](http::Request &, const QString &) {
        if (!ctx.datasets)
            throw ApiError(503, ErrorCode::Unavailable, u"Datasets are not available."_s);
        return http::Response::json(200, ctx.datasets->listJson());
    });
}

} // namespace cardhour::sim
