// GET /v1/catalog/gpus, GET /v1/catalog/images
#include "ApiContext.h"
#include "service/Catalog.h"
#include "service/InstanceService.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerCatalogRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/catalog/gpus"_s, [&ctx](http::Request &, const QString &) {
        return http::Response::json(200, ctx.instances.gpuCatalog());
    });

    ctx.authedRoute("GET", u"/v1/catalog/images"_s, [&ctx](http::Request &, const QString &) {
        QJsonArray images;
        for (const ImageEntry &image : ctx.catalog.images())
            images.append(Catalog::toJson(image));
        return http::Response::json(200, images);
    });
}

} // namespace cardhour::sim
