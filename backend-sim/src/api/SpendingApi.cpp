// GET/PUT /v1/spending-limits, PUT /v1/instances/{id}/stop-policy,
// POST /v1/instances/{id}/keep-running
#include "ApiContext.h"
#include "billing/SpendingLimits.h"
#include "core/ApiError.h"
#include "core/Json.h"
#include "service/InstanceService.h"

#include <QJsonObject>

#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// One amount of a period: absent (unchanged), null (cleared) or a whole number of micro-yuan.
void readAmount(const QJsonObject &o, const QString &period, const QString &key, bool &given,
                std::optional<qint64> &amount)
{
    const QJsonValue value = o.value(key);
    if (value.isUndefined())
        return;
    given = true;
    if (value.isNull())
        return;
    const double number = value.toDouble(-1.0);
    if (!value.isDouble() || std::trunc(number) != number || std::fabs(number) >= 9.0e15)
        throw ApiError(
            400, ErrorCode::InvalidRequest,
            u"Field \"%1.%2\" must be a whole number of micro-yuan or null."_s.arg(period, key));
    if (number < 0)
        throw ApiError(400, ErrorCode::InvalidRequest,
                       u"Field \"%1.%2\" must not be negative."_s.arg(period, key));
    amount = static_cast<qint64>(number);
}

std::array<std::optional<InstanceService::LimitChange>, 3> parseLimits(const QByteArray &body)
{
    const QJsonObject o = json::parseObject(body);
    json::rejectUnknownFields(o, {u"day"_s, u"month"_s, u"total"_s});
    std::array<std::optional<InstanceService::LimitChange>, 3> changes;
    for (const SpendingLimits::Period period : SpendingLimits::kPeriods) {
        const QString name = SpendingLimits::periodName(period);
        const QJsonValue value = o.value(name);
        if (value.isUndefined())
            continue;
        if (!value.isObject())
            throw ApiError(
                400, ErrorCode::InvalidRequest,
                u"Field \"%1\" must be an object with alert_micros and max_micros."_s.arg(name));
        const QJsonObject limit = value.toObject();
        json::rejectUnknownFields(limit, {u"alert_micros"_s, u"max_micros"_s});
        InstanceService::LimitChange change;
        readAmount(limit, name, u"alert_micros"_s, change.alertGiven, change.alertMicros);
        readAmount(limit, name, u"max_micros"_s, change.maxGiven, change.maxMicros);
        changes.at(static_cast<size_t>(period)) = change;
    }
    return changes;
}
} // namespace

void registerSpendingRoutes(ApiContext &ctx)
{
    ctx.authedRoute("GET", u"/v1/spending-limits"_s,
                    [&ctx](http::Request &, const QString &userId) {
                        return http::Response::json(200, ctx.instances.spendingLimitsJson(userId));
                    });

    ctx.authedRoute(
        "PUT", u"/v1/spending-limits"_s, [&ctx](http::Request &request, const QString &userId) {
            return http::Response::json(
                200, ctx.instances.changeSpendingLimits(userId, parseLimits(request.body)));
        });

    ctx.authedRoute(
        "PUT", u"/v1/instances/{id}/stop-policy"_s,
        [&ctx](http::Request &request, const QString &userId) {
            const StopPolicy policy = StopPolicy::fromJson(json::parseObject(request.body));
            return http::Response::json(
                200,
                ctx.instances.setStopPolicy(userId, request.pathParams.value(u"id"_s), policy));
        });

    ctx.authedRoute("POST", u"/v1/instances/{id}/keep-running"_s,
                    [&ctx](http::Request &request, const QString &userId) {
                        return http::Response::json(
                            200,
                            ctx.instances.keepRunning(userId, request.pathParams.value(u"id"_s)));
                    });
}

} // namespace cardhour::sim
