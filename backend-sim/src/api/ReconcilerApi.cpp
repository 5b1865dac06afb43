// GET /v1/reconciler: the terminate reconciler's last pass, as it concerns the caller.
#include "ApiContext.h"
#include "service/TerminateReconciler.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerReconcilerRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/reconciler"_s, [&ctx](http::Request &, const QString &userId) {
        QJsonObject report =
            ctx.terminateReconciler ? ctx.terminateReconciler->lastReport(userId) : QJsonObject{};
        if (report.isEmpty()) // no pass has finished yet
            report = {{u"pass"_s, 0},
                      {u"at"_s, QJsonValue()},
                      {u"listed"_s, false},
                      {u"findings"_s, QJsonArray{}}};
        return http::Response::json(200, report);
    });
}

} // namespace cardhour::sim
