// GET /v1/limits
#include "ApiContext.h"
#include "service/Catalog.h"
#include "service/HostDiskReserve.h"
#include "service/InstanceService.h"
#include "service/Limits.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerLimitRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/limits"_s, [&ctx](http::Request &, const QString &userId) {
        QJsonObject limits = Limits(ctx.db, ctx.catalog.userLimits()).usageJson(userId);
        limits.insert(u"pids_per_instance"_s, ctx.catalog.pidsLimitPerInstance());
        const DiskQuota disk = ctx.instances.diskQuota();
        limits.insert(u"disk"_s,
                      QJsonObject{{u"mechanism"_s, disk.mechanism},
                                  {u"workspace_bounded"_s, disk.workspaceBounded()},
                                  {u"container_disk"_s, disk.containerDisk},
                                  {u"detail"_s, disk.detail}});
        if (ctx.diskReserve)
            limits.insert(u"host_disk"_s, ctx.diskReserve->json());
        return http::Response::json(200, limits);
    });
}

} // namespace cardhour::sim
