// Routes that exist only with `cardhour-sim --test-clock`: move time, interrupt a host, steer
// the in-process runtime, check the ledger's invariants. Without the flag these paths are 404;
// with it they answer only a request carrying this run's secret (<data>/test-clock-secret,
// 0600) in X-CardHour-Test-Secret, so another local user cannot move the clock or steer the
// runtime.
#include "ApiContext.h"
#include "Requests.h"
#include "auth/Tokens.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/InProcessRuntime.h"
#include "service/InstanceService.h"
#include "service/TerminateReconciler.h"
#include "store/Database.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
void testRoute(ApiContext &ctx, const QByteArray &method, const QString &pattern,
               ApiContext::Handler handler)
{
    ctx.publicRoute(method, pattern, [&ctx, handler = std::move(handler)](http::Request &request) {
        const QByteArray given = request.header("x-cardhour-test-secret");
        // An empty secret (none written) opens nothing.
        if (ctx.testClockSecret.isEmpty()
            || !tokens::constantTimeEquals(given, ctx.testClockSecret))
            throw ApiError(403, ErrorCode::TestSecretRequired,
                           u"Test routes answer only with this run's secret (the "
                           "provider's test-clock-secret file) in X-CardHour-Test-Secret."_s);
        return handler(request);
    });
}
} // namespace

// What the hardware check and the terminate reconciler are there for, made to happen for real:
// a box that gets less than ordered, a teardown that fails, a billing segment left open.
static void registerFaultRoutes(ApiContext &ctx)
{
    testRoute(ctx, "POST", u"/v1/_test/runtime/shortchange-next"_s, [&ctx](http::Request &request) {
        const QJsonObject o = json::parseObject(request.body);
        BoxShortfall shortfall;
        shortfall.gpuCount = o.value(u"gpu_count"_s).toInt();
        shortfall.cpus = o.value(u"cpus"_s).toDouble();
        shortfall.memoryMib = o.value(u"memory_mib"_s).toInteger();
        shortfall.diskGib = o.value(u"disk_gib"_s).toInteger();
        if (!shortfall.any())
            throw ApiError(400, ErrorCode::InvalidRequest,
                           u"Give at least one of gpu_count, cpus, memory_mib, disk_gib."_s);
        ctx.runtime->shortchangeNextBox(shortfall);
        return http::Response::noContent();
    });
    testRoute(ctx, "POST", u"/v1/_test/runtime/fail-next-removal"_s,
              [&ctx](http::Request &request) {
                  const QJsonObject o = json::parseObject(request.body);
                  ctx.runtime->failNextRemoval(
                      o.value(u"reason"_s).toString(u"simulated teardown failure"_s));
                  return http::Response::noContent();
              });
    // As a provider bug would: a terminated instance's compute billed on from now.
    testRoute(ctx, "POST", u"/v1/_test/billing/leave-open"_s, [&ctx](http::Request &request) {
        const QString id = json::parseObject(request.body).value(u"instance_id"_s).toString();
        Transaction tx(ctx.db);
        QSqlQuery q = ctx.db.exec(u"SELECT user_id, price_per_hour_micros FROM instances"
                                  " WHERE id = ? AND state = 'terminated'"_s,
                                  {id});
        if (!q.next())
            throw ApiError(404, ErrorCode::NotFound, u"No terminated instance has this id."_s);
        ctx.meter->openSegment(id, q.value(0).toString(), q.value(1).toLongLong(),
                               ctx.clock.nowMs());
        tx.commit();
        return http::Response::noContent();
    });
    // One pass of the terminate reconciler now (none left out for being recent): 202, its
    // report at GET /v1/reconciler once it is done.
    testRoute(ctx, "POST", u"/v1/_test/reconciler/run"_s, [&ctx](http::Request &) {
        const int pass = ctx.terminateReconciler->runNow(0);
        return http::Response::json(202, QJsonObject{{u"pass"_s, pass}});
    });
}

void registerTestRoutes(ApiContext &ctx)
{
    if (!ctx.testClock)
        return;

    testRoute(ctx, "GET", u"/v1/_test/clock"_s, [&ctx](http::Request &) {
        return http::Response::json(200,
                                    QJsonObject{{u"now"_s, json::isoTime(ctx.clock.nowMs())},
                                                {u"now_ms"_s, ctx.clock.nowMs()}});
    });

    testRoute(ctx, "POST", u"/v1/_test/clock/advance"_s, [&ctx](http::Request &request) {
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

    testRoute(ctx, "GET", u"/v1/_test/ledger/verify"_s, [&ctx](http::Request &) {
        const QString problem = ctx.ledger.verify();
        return http::Response::json(
            200, QJsonObject{{u"ok"_s, problem.isEmpty()}, {u"problem"_s, problem}});
    });

    // The provider interrupts an interruptible host, as it would to free capacity.
    testRoute(ctx, "POST", u"/v1/_test/instances/{id}/interrupt"_s, [&ctx](http::Request &request) {
        const QJsonObject o =
            request.body.trimmed().isEmpty() ? QJsonObject() : json::parseObject(request.body);
        json::rejectUnknownFields(o, {u"notice_seconds"_s});
        std::optional<int> notice;
        if (o.contains(u"notice_seconds"_s))
            notice = int(json::requiredInteger(o, u"notice_seconds"_s, 0, 3600));
        return http::Response::json(
            200, ctx.instances.interrupt(request.pathParams.value(u"id"_s), notice));
    });

    registerFaultRoutes(ctx);
    if (!ctx.inProcessRuntime)
        return;
    testRoute(ctx, "POST", u"/v1/_test/runtime/hold"_s, [&ctx](http::Request &request) {
        const QJsonObject o = json::parseObject(request.body);
        ctx.inProcessRuntime->setHold(o.value(u"hold"_s).toBool());
        return http::Response::noContent();
    });
    testRoute(ctx, "POST", u"/v1/_test/runtime/release"_s, [&ctx](http::Request &) {
        ctx.inProcessRuntime->release();
        return http::Response::noContent();
    });
    testRoute(ctx, "POST", u"/v1/_test/runtime/fail-next"_s, [&ctx](http::Request &request) {
        const QJsonObject o = json::parseObject(request.body);
        ctx.inProcessRuntime->failNext(o.value(u"reason"_s).toString(u"simulated failure"_s));
        return http::Response::noContent();
    });
}

} // namespace cardhour::sim
