#pragma once

#include "http/HttpMessage.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace cardhour::http {
class Router;
}

namespace cardhour::sim {

class Accounts;
class Catalog;
class ChaosFaults;
class Clock;
class Database;
class Datasets;
class EventBus;
class Idempotency;
class InProcessRuntime;
class InstanceService;
class Ledger;
class ManualClock;
class Models;
class PrivateModels;
class SnapshotService;
class HostDiskReserve;
class SshKeys;
class Telemetry;
class TerminateReconciler;
class ContainerRuntime;
class Meter;

// What route handlers share, plus the wrappers every route goes through: ApiError → error
// response, DbError → 500, bearer authentication, Idempotency-Key handling.
struct ApiContext
{
    Database &db;
    Ledger &ledger;
    Accounts &accounts;
    SshKeys &keys;
    InstanceService &instances;
    EventBus &events;
    const Catalog &catalog;
    Idempotency &idempotency;
    const Clock &clock;
    ManualClock *testClock = nullptr; // set only with --test-clock
    InProcessRuntime *inProcessRuntime = nullptr; // set when that runtime is in use
    http::Router &router;
    Telemetry *telemetry = nullptr; // samples running instances (GPU metrics)
    Datasets *datasets = nullptr; // shared read-only folders
    SnapshotService *snapshots = nullptr; // snapshots of instances' disks and /workspace
    Models *models = nullptr; // the public model library
    PrivateModels *privateModels = nullptr; // users' own models and their uploads
    Meter *meter = nullptr; // for the test routes that leave billing wrong on purpose
    ContainerRuntime *runtime = nullptr; // what runs instances (its test hooks)
    TerminateReconciler *terminateReconciler = nullptr; // GET /v1/reconciler
    const HostDiskReserve *diskReserve = nullptr; // what writes to the host's disk must leave free
    // Rehearsed failures: its slow_api faults hold every answer to an account for a while.
    ChaosFaults *chaos = nullptr;
    QByteArray sandboxSecret = {}; // this run's paths/SandboxSecret (POST /v1/_sandbox/prove)
    QString runtimeName = {}; // what runs instances: podman, docker or inprocess
    QString runtimeNote = {}; // why `--runtime auto` chose it, when not the first choice
    QString timeZoneId = {}; // the IANA zone of the provider's days, months and statements
    // Host names (besides IP literals and `localhost`) that requests may be addressed to.
    QStringList hostNames = {};
    // With --test-clock: what /v1/_test/* want in X-CardHour-Test-Secret
    // (<data>/test-clock-secret).
    QByteArray testClockSecret = {};

    using Handler = std::function<http::Response(http::Request &)>;
    using AuthedHandler = std::function<http::Response(http::Request &, const QString &userId)>;

    // A route anyone may call.
    void publicRoute(const QByteArray &method, const QString &pattern, Handler handler);
    // A route that needs `Authorization: Bearer <token>`; 401 otherwise. Requests other than
    // GET first bring billing up to the clock, so they act on the current balance.
    void authedRoute(const QByteArray &method, const QString &pattern, AuthedHandler handler,
                     const QByteArray &bodyType = "application/json");
    // Like authedRoute, and honours `Idempotency-Key`: the handler and the record of its
    // response commit in one transaction; a replay returns the stored response.
    void idempotentRoute(const QByteArray &method, const QString &pattern, AuthedHandler handler);
    // Like authedRoute for a body of raw bytes (Content-Type: application/octet-stream, which
    // a no-cors page cannot send either), e.g. a chunk of an upload.
    void binaryRoute(const QByteArray &method, const QString &pattern, AuthedHandler handler);

    // What `body` returns, or the error response for the ApiError or DbError it throws (as
    // every route's answer): for answers made after the handler returned
    // (http::Response::deferred).
    static http::Response answerOf(const std::function<http::Response()> &body);

    static QByteArray bearerToken(const http::Request &request);
    // What every route checks first, so that a web page in the user's browser cannot drive
    // the provider: a body must be `application/json` (415: a no-cors form or text/plain POST
    // cannot send that), the Host must be the provider's own (DNS rebinding: an IP literal,
    // `localhost` or one of `hostNames`) and an Origin, when present, must name that host.
    static void checkRequestSource(const http::Request &request, const QStringList &hostNames,
                                   const QByteArray &bodyType = "application/json");
};

// Route groups, one file each under api/.
void registerAuthRoutes(ApiContext &ctx);
void registerCatalogRoutes(ApiContext &ctx);
void registerKeyRoutes(ApiContext &ctx);
void registerInstanceRoutes(ApiContext &ctx);
void registerBillingRoutes(ApiContext &ctx);
void registerEventRoutes(ApiContext &ctx);
void registerMetricsRoutes(ApiContext &ctx);
void registerDatasetRoutes(ApiContext &ctx);
void registerSnapshotRoutes(ApiContext &ctx);
void registerModelRoutes(ApiContext &ctx);
void registerLimitRoutes(ApiContext &ctx);
void registerSpendingRoutes(ApiContext &ctx); // spending limits, stop policies
void registerChaosRoutes(ApiContext &ctx); // refused (403) without --allow-chaos
void registerReconcilerRoutes(ApiContext &ctx); // the terminate reconciler's report
void registerTestRoutes(ApiContext &ctx); // only with --test-clock
void registerAllRoutes(ApiContext &ctx);

} // namespace cardhour::sim
