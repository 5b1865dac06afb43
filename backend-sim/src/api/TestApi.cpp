// Routes that exist only with `cardhour-sim --test-clock`: move time, steer the in-process
// runtime, check the ledger's invariants. Without the flag these paths are 404.
#include "ApiContext.h"
#include "Requests.h"
#include "billing/Ledger.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/InProcessRuntime.h"
#include "service/InstanceService.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void registerTestRoutes(ApiContext &ctx)
{
    if (!ctx.testClock)
        return;

    ctx.publicRoute("GET", u"/v1/_test/clock"_s, [&ctx](http::Request &) {
        return http::Response::json(200,
                                    QJsonObject{{u"now"_s, json::isoTime(ctx.clock.nowMs())},
                                                {u"now_ms"_s, ctx.clock.nowMs()}});
    });

    ctx.publicRoute("POST", u"/v1/_test/clock/advance"_s, [&ctx](http::Request &request) {
        const qint64 ms = requests::parseClockAdvance(request.body);
        // Advance in steps no longer than the posting interval would make checkpoints; one
        // step is enough because metering is exact for any gap: a segment's cost depends only
        // on its length, and exhaustion is found at the exact millisecond inside the gap.
        ctx.testClock->advanceMs(ms);
        ctx.instances.tick();
        return http::Response::json(200,
                                    QJsonObject{{u"now"_s, json::isoTime(ctx.clock.nowMs())},
                                                {u"now_ms"_s, ctx.clock.nowMs()}});
    });

    ctx.publicRoute("GET", u"/v1/_test/ledger/verify"_s, [&ctx](http::Request &) {
        const QString problem = ctx.ledger.verify();
        return http::Response::json(
            200, QJsonObject{{u"ok"_s, problem.isEmpty()}, {u"problem"_s, problem}});
    });

    if (!ctx.inProcessRuntime)
        return;
    ctx.publicRoute("POST", u"/v1/_test/runtime/hold"_s, [&ctx](http::Request &request) {
        const QJsonObject o = json::parseObject(request.body);
        ctx.inProcessRuntime->setHold(o.value(u"hold"_s).toBool());
        return http::Response::noContent();
    });
    ctx.publicRoute("POST", u"/v1/_test/runtime/release"_s, [&ctx](http::Request &) {
        ctx.inProcessRuntime->release();
        return http::Response::noContent();
    });
    ctx.publicRoute("POST", u"/v1/_test/runtime/fail-next"_s, [&ctx](http::Request &request) {
        const QJsonObject o = json::parseObject(request.body);
        ctx.inProcessRuntime->failNext(o.value(u"reason"_s).toString(u"simulated failure"_s));
        return http::Response::noContent();
    });
}

} // namespace cardhour::sim
