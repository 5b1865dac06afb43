#pragma once

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace cardhour::http {
class HttpServer;
class Router;
} // namespace cardhour::http

namespace cardhour::sim {

class Accounts;
class Bookkeeper;
class Catalog;
class ChaosFaults;
class Clock;
class ContainerRuntime;
class Database;
class Datasets;
class HostDiskReserve;
class Models;
class PrivateModels;
class EventBus;
class Idempotency;
class InstanceService;
class Ledger;
class ManualClock;
class Meter;
class SpendingLimits;
class SnapshotService;
class SshKeys;
class Telemetry;
class TerminateReconciler;
struct ApiContext;

// The whole provider: storage, services, routes and the HTTP listener, wired together.
class SimServer : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0;
        QString dataDir;
        QString store; // empty: SQLite in dataDir; else a postgresql:// URL (StoreLocation)
        QString catalogDir = QStringLiteral(":/catalog");
        QString runtime = QStringLiteral("auto"); // auto | podman | docker | inprocess
        QString containersConf; // podman: CONTAINERS_CONF to use, if any (docker: DOCKER_HOST comes
                                // from the environment)
        QString imagePrefix = QStringLiteral("localhost/cardhour/"); // as `images --tag-prefix`
        bool engineApi = true; // podman/docker through their REST API (CliRuntime::Options)
        bool allowPrivateNetwork = false; // CliRuntime::Options::allowPrivateNetwork
        bool measuredWorkspace = false; // CliRuntime::Options::measuredWorkspace
        int reconcileIntervalMs = 15'000;
        int diskCheckIntervalMs = 20'000; // CliRuntime::Options::diskCheckIntervalMs
        int maxEventStreams = 0; // 0: half of HttpServer::defaultMaxConnections()
        qint64 diskReserveBytes = 2LL << 30; // HostDiskReserve; 0: none kept
        bool testClock = false;
        bool allowChaos = false; // rehearsed failures (ChaosFaults); else /v1/chaos/* answer 403
        qint64 testClockStartMs = 0; // 0: start at the real time
        qint64 postingIntervalMs = 60'000;
        int tickIntervalMs = 1000;
        // Which cards to lend: real (the host's NVIDIA GPUs, passed through; refuses to start
        // without them), simulated, mixed (both), or auto (real when there are some and the
        // runtime can pass them, else simulated).
        QString gpus = QStringLiteral("auto");
        QString nvidiaSmi = QStringLiteral("nvidia-smi");
        QStringList hostNames; // accepted in Host besides IP literals and localhost
        // HTTPS with this certificate chain and key (PEM); both empty: plain HTTP.
        QString tlsCertificateFile;
        QString tlsKeyFile;
        int scryptCostLog2 = 17; // new password hashes: scrypt N = 2^this (never below 17 by
                                 // default; --scrypt-cost-log2 lets tests go lower)
    };

    explicit SimServer(Options options, QObject *parent = nullptr);
    ~SimServer() override;

    // Opens the data, reconciles, starts listening. Throws std::runtime_error with a message
    // fit for the user.
    void start();
    quint16 port() const;
    bool servesTls() const;
    // Stops the timers and runs the event loop until the runtime has no container work
    // left (removals after terminate, stops) or timeoutMs passed. For a clean shutdown.
    void finishPendingWork(int timeoutMs);
    QString runtimeName() const;
    // Set when --runtime auto fell back to the in-process runtime: why podman was not used.
    QString runtimeNote() const { return m_runtimeNote; }
    // What cards are lent and why (real GPUs found, or why not).
    QString gpuNote() const { return m_gpuNote; }
    const http::Router &router() const { return *m_router; }
    // The routes the server would serve with these options, without opening anything.
    static QStringList routeTable(bool testClock);

private:
    // Offers the host's real cards in the catalog as --gpus asks (before the services start).
    void offerHostGpus(const QString &runtimeName);

    Options m_options;
    QString m_runtimeNote;
    QString m_gpuNote;
    std::unique_ptr<Clock> m_clock;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<Catalog> m_catalog;
    std::unique_ptr<Ledger> m_ledger;
    std::unique_ptr<Bookkeeper> m_books;
    std::unique_ptr<Meter> m_meter;
    std::unique_ptr<SpendingLimits> m_spendingLimits;
    std::unique_ptr<Accounts> m_accounts;
    std::unique_ptr<SshKeys> m_keys;
    std::unique_ptr<Idempotency> m_idempotency;
    std::unique_ptr<EventBus> m_events;
    std::unique_ptr<ContainerRuntime> m_runtime;
    std::unique_ptr<InstanceService> m_instances;
    std::unique_ptr<Telemetry> m_telemetry;
    std::unique_ptr<Datasets> m_datasets;
    std::unique_ptr<Models> m_models;
    std::unique_ptr<PrivateModels> m_privateModels;
    std::unique_ptr<SnapshotService> m_snapshots;
    std::unique_ptr<TerminateReconciler> m_terminateReconciler;
    std::unique_ptr<HostDiskReserve> m_diskReserve;
    std::unique_ptr<ChaosFaults> m_chaos;
    std::unique_ptr<http::Router> m_router;
    std::unique_ptr<ApiContext> m_context;
    std::unique_ptr<http::HttpServer> m_http;
    QTimer m_ticker;
    QTimer m_reconciler;
    int m_reconcileTicks = 0;
};

} // namespace cardhour::sim
