#include "SimServer.h"

#include "api/ApiContext.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "http/HttpServer.h"
#include "http/Router.h"
#include "runtime/InProcessRuntime.h"
#include "service/Accounts.h"
#include "service/Catalog.h"
#include "service/EventBus.h"
#include "service/Idempotency.h"
#include "service/InstanceService.h"
#include "service/SshKeys.h"
#include "store/Database.h"

#include <QDir>

#include <stdexcept>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

SimServer::SimServer(Options options, QObject *parent) : QObject(parent), m_options(std::move(options)) {}

SimServer::~SimServer()
{
    m_ticker.stop();
    if (m_events)
        m_events->closeAll();
    m_http.reset(); // no more requests before the services go away
}

void SimServer::start()
{
    if (m_options.testClock)
        m_clock = std::make_unique<ManualClock>(m_options.testClockStartMs > 0 ? m_options.testClockStartMs
                                                                               : SystemClock().nowMs());
    else
        m_clock = std::make_unique<SystemClock>();

    if (!QDir().mkpath(m_options.dataDir))
        throw std::runtime_error(u"cannot create the data directory %1"_s.arg(m_options.dataDir).toStdString());
    m_db = std::make_unique<Database>();
    try {
        m_db->open(QDir(m_options.dataDir).filePath(u"cardhour-sim.sqlite"_s));
    } catch (const DbError &error) {
        throw std::runtime_error(error.what());
    }
    m_catalog = std::make_unique<Catalog>(Catalog::load(m_options.catalogDir));
    m_ledger = std::make_unique<Ledger>(*m_db);
    m_meter = std::make_unique<Meter>(*m_db, *m_ledger, m_options.postingIntervalMs);
    m_accounts = std::make_unique<Accounts>(*m_db, *m_ledger, *m_clock);
    m_keys = std::make_unique<SshKeys>(*m_db, *m_clock);
    m_idempotency = std::make_unique<Idempotency>(*m_db);
    m_events = std::make_unique<EventBus>();

    InProcessRuntime *inProcess = nullptr;
    if (m_options.runtime == u"inprocess"_s) {
        auto runtime = std::make_unique<InProcessRuntime>();
        inProcess = runtime.get();
        m_runtime = std::move(runtime);
    } else {
        throw std::runtime_error(u"unknown runtime \"%1\" (available: inprocess)"_s.arg(m_options.runtime).toStdString());
    }
    m_instances = std::make_unique<InstanceService>(*m_db, *m_ledger, *m_meter, *m_catalog, *m_keys, *m_runtime,
                                                    *m_events, *m_clock);
    m_instances->reconcile();

    m_router = std::make_unique<http::Router>();
    m_context = std::unique_ptr<ApiContext>(new ApiContext{
        *m_db, *m_ledger, *m_accounts, *m_keys, *m_instances, *m_events, *m_catalog, *m_idempotency, *m_clock,
        m_options.testClock ? static_cast<ManualClock *>(m_clock.get()) : nullptr, inProcess, *m_router});
    registerAllRoutes(*m_context);

    m_http = std::make_unique<http::HttpServer>(*m_router);
    if (!m_http->listen(m_options.address, m_options.port))
        throw std::runtime_error(u"cannot listen on %1:%2: %3"_s.arg(m_options.address.toString())
                                     .arg(m_options.port).arg(m_http->errorString()).toStdString());

    // The meter runs whether or not any client is connected: balances run out on their own.
    m_ticker.setInterval(m_options.tickIntervalMs);
    connect(&m_ticker, &QTimer::timeout, this, [this] {
        try {
            m_instances->tick();
        } catch (const DbError &error) {
            qWarning("billing tick failed: %s", error.what());
        }
    });
    m_ticker.start();
}

quint16 SimServer::port() const
{
    return m_http ? m_http->serverPort() : 0;
}

QStringList SimServer::routeTable(bool testClock)
{
    Options options;
    options.testClock = testClock;
    // Register against throw-away services over an in-memory database.
    Database db;
    db.open(u":memory:"_s);
    ManualClock clock(0);
    Catalog catalog = Catalog::load(options.catalogDir);
    Ledger ledger(db);
    Meter meter(db, ledger);
    Accounts accounts(db, ledger, clock);
    SshKeys keys(db, clock);
    Idempotency idempotency(db);
    EventBus events;
    InProcessRuntime runtime;
    InstanceService instances(db, ledger, meter, catalog, keys, runtime, events, clock);
    http::Router router;
    ApiContext ctx{db, ledger, accounts, keys, instances, events, catalog, idempotency, clock,
                   testClock ? &clock : nullptr, &runtime, router};
    registerAllRoutes(ctx);
    QStringList lines;
    for (const http::Router::Route &route : router.routes())
        lines.append(QString::fromLatin1(route.method) + u' ' + route.pattern);
    return lines;
}

} // namespace cardhour::sim
