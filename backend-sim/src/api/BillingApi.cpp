// GET /v1/billing/ledger, GET /v1/billing/summary, POST /v1/billing/topup, GET /v1/limits
#include "ApiContext.h"
#include "Requests.h"
#include "billing/Ledger.h"
#include "core/Json.h"
#include "service/InstanceService.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerBillingRoutes(ApiContext &ctx)
{
    ctx.authedRoute(
        "GET", u"/v1/billing/ledger"_s, [&ctx](http::Request &request, const QString &userId) {
            const requests::Page page =
                requests::parsePage(request.query.queryItemValue(u"limit"_s),
                                    request.query.queryItemValue(u"before"_s));
            const QJsonArray postings = ctx.ledger.page(userId, page.before, page.limit + 1);
            QJsonArray shown;
            for (int i = 0; i < std::min<qsizetype>(page.limit, postings.size()); ++i)
                shown.append(postings.at(i));
            const bool more = postings.size() > page.limit;
            return http::Response::json(
                200,
                QJsonObject{
                    {u"postings"_s, shown},
                    {u"next_before"_s,
                     more ? QJsonValue(shown.last().toObject().value(u"seq"_s)) : QJsonValue()},
                    {u"balance_micros"_s, ctx.ledger.balance(userId)}});
        });

    ctx.authedRoute("GET", u"/v1/billing/summary"_s,
                    [&ctx](http::Request &, const QString &userId) {
                        return http::Response::json(200, ctx.instances.billingSummary(userId));
                    });

    ctx.idempotentRoute(
        "POST", u"/v1/billing/topup"_s, [&ctx](http::Request &request, const QString &userId) {
            const QJsonObject newest =
                ctx.instances.topUp(userId, requests::parseTopup(request.body));
            return http::Response::json(
                201,
                QJsonObject{{u"posting"_s, newest},
                            {u"balance_micros"_s, ctx.instances.liveBalance(userId)}});
        });
}

} // namespace cardhour::sim
