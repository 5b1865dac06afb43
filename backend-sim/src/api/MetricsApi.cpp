// GET /v1/instances/{id}/metrics
#include "ApiContext.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "gpu/Telemetry.h"
#include "service/InstanceService.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr int kDefaultWindowSeconds = 300;
constexpr int kMaxStepSeconds = 3600;
} // namespace

void registerMetricsRoutes(ApiContext &ctx)
{
    ctx.authedRoute(
        "GET", u"/v1/instances/{id}/metrics"_s,
        [&ctx](http::Request &request, const QString &userId) {
            const QString id = request.pathParams.value(u"id"_s);
            ctx.instances.requireState(userId, id); // another user's instance is "not found"
            qint64 sinceMs = ctx.clock.nowMs() - kDefaultWindowSeconds * 1000LL;
            const QString since = request.query.queryItemValue(u"since"_s, QUrl::FullyDecoded);
            if (!since.isEmpty()) {
                const QDateTime at = QDateTime::fromString(since, Qt::ISODateWithMs);
                if (!at.isValid())
                    throw ApiError(
                        400, ErrorCode::InvalidQuery,
                        u"\"since\" must be an ISO 8601 time, e.g. 2026-11-30T15:00:00Z."_s);
                sinceMs = at.toMSecsSinceEpoch();
            }
            int step = 1;
            const QString stepText = request.query.queryItemValue(u"step"_s);
            if (!stepText.isEmpty()) {
                bool ok = false;
                step = stepText.toInt(&ok);
                if (!ok || step < 1 || step > kMaxStepSeconds)
                    throw ApiError(
                        400, ErrorCode::InvalidQuery,
                        u"\"step\" must be a whole number of seconds from 1 to %1."_s.arg(
                            kMaxStepSeconds));
            }
            if (!ctx.telemetry)
                throw ApiError(503, ErrorCode::Unavailable, u"Telemetry is not running."_s);
            return http::Response::json(200, ctx.telemetry->metricsJson(id, sinceMs, step));
        });
}

} // namespace cardhour::sim
