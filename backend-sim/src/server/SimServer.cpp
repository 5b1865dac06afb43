#include "SimServer.h"

#include "SandboxSecret.h"
#include "api/ApiContext.h"
#include "auth/Tokens.h"
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "billing/SpendingLimits.h"
#include "core/Clock.h"
#include "gpu/NvidiaGpus.h"
#include "gpu/Telemetry.h"
#include "http/HttpServer.h"
#include "http/Router.h"
#include "http/TlsFiles.h"
#include "runtime/CliRuntime.h"
#include "runtime/InProcessRuntime.h"
#include "service/Accounts.h"
#include "service/Catalog.h"
#include "service/ChaosFaults.h"
#include "service/Datasets.h"
#include "service/EventBus.h"
#include "service/HostDiskReserve.h"
#include "service/Idempotency.h"
#include "service/InstanceService.h"
#include "service/Models.h"
#include "service/PrivateModels.h"
#include "service/SampleDatasets.h"
#include "service/SnapshotService.h"
#include "service/SshKeys.h"
#include "service/TerminateReconciler.h"
#include "store/Database.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QUuid>

#include <stdexcept>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// A stable id for this provider's data, put on every container it makes, so that two
// providers sharing one podman never reconcile each other's containers away.
QString providerId(const QString &dataDir)
{
    QFile file(QDir(dataDir).filePath(u"provider-id"_s));
    if (file.open(QIODevice::ReadOnly)) {
        const QString id = QString::fromLatin1(file.readAll()).trimmed();
        if (!id.isEmpty())
            return id;
        file.close();
    }
    const QString id = u"cardhour-"_s + QUuid::createUuid().toString(QUuid::Id128).left(16);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(id.toLatin1()) < 0)
        throw std::runtime_error(u"cannot write %1"_s.arg(file.fileName()).toStdString());
    return id;
}

// The key one-click app tokens are derived from (InstanceService::setAppTokenKey): made once,
// 0600, next to the database, which then holds no app token.
QByteArray appTokenKey(const QString &dataDir)
{
    QFile file(QDir(dataDir).filePath(u"app-token.key"_s));
    if (file.open(QIODevice::ReadOnly)) {
        const QByteArray key = file.readAll();
        if (key.size() >= 32)
            return key;
        file.close();
    }
    const QByteArray key = tokens::randomBytes(32);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner) || file.write(key) != 32)
        throw std::runtime_error(u"cannot write %1"_s.arg(file.fileName()).toStdString());
    return key;
}

// The secret /v1/_test/* routes want (X-CardHour-Test-Secret), fresh at every start of a
// --test-clock run and readable by this user only: with the test clock on, anyone else on the
// machine could otherwise move time (and bills) or steer the runtime.
QByteArray writeTestClockSecret(const QString &dataDir)
{
    const QString target = QDir(dataDir).filePath(u"test-clock-secret"_s);
    const QByteArray secret = tokens::randomBytes(32).toHex();
    const QString temporary = target + u".new"_s;
    QFile::remove(temporary);
    QFile file(temporary);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFile::ReadOwner | QFile::WriteOwner)
        || file.write(secret) != secret.size() || !file.flush())
        throw std::runtime_error(
            u"cannot write %1: %2"_s.arg(temporary, file.errorString()).toStdString());
    file.close();
    QFile::remove(target);
    if (!QFile::rename(temporary, target))
        throw std::runtime_error(u"cannot move %1 to %2"_s.arg(temporary, target).toStdString());
    return secret;
}
// What to do when the runtime asked for by --runtime does not answer.
QString unusableRuntime(const QString &runtime, const QString &why)
{
    const QString next = runtime == u"docker"_s
        ? u"start the Docker daemon (e.g. `sudo systemctl start docker`) or point DOCKER_HOST at "
          "one"_s
        : u"run `cardhour-sim doctor` to see what is missing and how to fix it"_s;
    return u"--runtime %1: %1 is not usable (%2). Next: %3; or start with --runtime auto (podman, "
           "else docker, else in-process) or --runtime inprocess (no containers)."_s.arg(runtime,
                                                                                         why, next);
}

} // namespace

SimServer::SimServer(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{}

SimServer::~SimServer()
{
    m_ticker.stop();
    m_reconciler.stop();
    if (m_events)
        m_events->closeAll();
    m_http.reset(); // no more requests before the services go away
}

void SimServer::start()
{
    if (m_options.testClock)
        m_clock = std::make_unique<ManualClock>(
            m_options.testClockStartMs > 0 ? m_options.testClockStartMs : SystemClock().nowMs());
    else
        m_clock = std::make_unique<SystemClock>();

    if (!QDir().mkpath(m_options.dataDir))
        throw std::runtime_error(
            u"cannot create the data directory %1"_s.arg(m_options.dataDir).toStdString());
    // The data directory holds every account's ledger, app tokens and whole /workspace
    // archives: its user's alone (0700), also when an older version made it with 0755.
    if (!QFile::setPermissions(m_options.dataDir,
                               QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        throw std::runtime_error(
            u"cannot make the data directory %1 private (0700)"_s.arg(m_options.dataDir)
                .toStdString());
    // Before listening: a client that finds this sandbox proves it by this secret.
    QString secretError;
    const QByteArray sandboxSecret = SandboxSecret::create(m_options.dataDir, &secretError);
    if (sandboxSecret.isEmpty())
        throw std::runtime_error(secretError.toStdString());
    const QString dbPath = QDir(m_options.dataDir).filePath(u"cardhour-sim.sqlite"_s);
    m_db = std::make_unique<Database>();
    try {
        m_db->open(m_options.store.isEmpty() ? StoreLocation::sqlite(dbPath)
                                             : StoreLocation::parse(m_options.store));
    } catch (const DbError &error) {
        throw std::runtime_error(error.what());
    }
    for (const QString &suffix : {QString(), u"-wal"_s, u"-shm"_s})
        if (QFile::exists(dbPath + suffix))
            QFile::setPermissions(dbPath + suffix, QFile::ReadOwner | QFile::WriteOwner);
    m_catalog = std::make_unique<Catalog>(Catalog::load(m_options.catalogDir));
    m_ledger = std::make_unique<Ledger>(*m_db);
    m_books = std::make_unique<Bookkeeper>(*m_db, *m_ledger);
    m_meter = std::make_unique<Meter>(*m_db, *m_books, m_options.postingIntervalMs);
    m_spendingLimits = std::make_unique<SpendingLimits>(*m_db);
    m_meter->setSpendingLimits(m_spendingLimits.get());
    PasswordHasher::Params hashParams;
    hashParams.n = quint64(1) << m_options.scryptCostLog2;
    m_accounts = std::make_unique<Accounts>(*m_db, *m_books, *m_clock, PasswordHasher(hashParams));
    m_keys = std::make_unique<SshKeys>(*m_db, *m_clock);
    m_idempotency = std::make_unique<Idempotency>(*m_db);
    m_events = std::make_unique<EventBus>(m_options.maxEventStreams > 0
                                              ? m_options.maxEventStreams
                                              : http::HttpServer::defaultMaxConnections() / 2);

    InProcessRuntime *inProcess = nullptr;
    CliRuntime *containers = nullptr;
    QString runtimeName = m_options.runtime;
    CliRuntime::Options cliOptions;
    cliOptions.containersConf = m_options.containersConf;
    cliOptions.dataDir = m_options.dataDir;
    cliOptions.imagePrefix = m_options.imagePrefix;
    cliOptions.engineApi = m_options.engineApi;
    cliOptions.allowPrivateNetwork = m_options.allowPrivateNetwork;
    cliOptions.measuredWorkspace = m_options.measuredWorkspace;
    cliOptions.diskCheckIntervalMs = m_options.diskCheckIntervalMs;
    if (runtimeName == u"auto"_s) {
        QString whyNotPodman;
        QString whyNotDocker;
        CliRuntime::Options podmanProbe = cliOptions;
        CliRuntime::Options dockerProbe = cliOptions;
        dockerProbe.engine = cli::Engine::Docker;
        bool podmanSlow = false;
        const bool podman = CliRuntime::isUsable(podmanProbe, &whyNotPodman, 20'000, &podmanSlow);
        const bool docker =
            !podman && !podmanSlow && CliRuntime::isUsable(dockerProbe, &whyNotDocker);
        if (podman) {
            runtimeName = u"podman"_s;
        } else if (podmanSlow) {
            // A podman that runs but answers late is busy (an image build holds its storage),
            // not absent: hosts without containers would have no SSH, and say nothing of why.
            runtimeName = u"podman"_s;
            m_runtimeNote =
                u"podman answers slowly (%1); instances run with podman"_s.arg(whyNotPodman);
        } else if (docker) {
            runtimeName = u"docker"_s;
            m_runtimeNote =
                u"podman is not usable (%1): instances run with docker"_s.arg(whyNotPodman);
        } else {
            runtimeName = u"inprocess"_s;
            m_runtimeNote =
                u"neither podman (%1) nor docker (%2) is usable: instances run in-process, without "
                "containers"_s.arg(whyNotPodman, whyNotDocker);
        }
    }
    if (runtimeName == u"inprocess"_s) {
        auto runtime = std::make_unique<InProcessRuntime>();
        runtime->setDataDir(m_options.dataDir); // its instances' stand-in files, for snapshots
        inProcess = runtime.get();
        m_runtime = std::move(runtime);
    } else if (runtimeName == u"podman"_s || runtimeName == u"docker"_s) {
        cliOptions.engine = runtimeName == u"docker"_s ? cli::Engine::Docker : cli::Engine::Podman;
        // Asked for by name and not there: say what to do next instead of retrying a listing.
        if (QString why; m_options.runtime != u"auto"_s && !CliRuntime::isUsable(cliOptions, &why))
            throw std::runtime_error(unusableRuntime(runtimeName, why).toStdString());
        cliOptions.providerId = providerId(m_options.dataDir);
        auto runtime = std::make_unique<CliRuntime>(cliOptions);
        containers = runtime.get();
        m_runtime = std::move(runtime);
        // Reconcile only against a listing we got: a runtime that does not answer is not
        // taken to mean that every container is gone.
        bool listed = false;
        for (int attempt = 0; attempt < 3 && !listed; ++attempt)
            listed = containers->refreshNow(20'000);
        if (!listed)
            throw std::runtime_error(
                u"%1 did not list its containers after 3 tries; not starting, so that no "
                "instance is declared dead by mistake"_s.arg(runtimeName)
                    .toStdString());
    } else {
        throw std::runtime_error(
            u"unknown runtime \"%1\" (available: auto, podman, docker, inprocess)"_s
                .arg(runtimeName)
                .toStdString());
    }
    offerHostGpus(runtimeName);
    m_instances = std::make_unique<InstanceService>(*m_db, *m_books, *m_meter, *m_catalog, *m_keys,
                                                    *m_runtime, *m_events, *m_clock);
    m_datasets = std::make_unique<Datasets>(m_options.dataDir);
    m_instances->setDatasets(m_datasets.get());
    if (containers) {
        // The apps' sample datasets, made by their images before the first launch can ask.
        SampleDatasets::Options sampleOptions;
        sampleOptions.program = runtimeName;
        sampleOptions.containersConf = m_options.containersConf;
        sampleOptions.tagPrefix = m_options.imagePrefix;
        sampleOptions.dataDir = m_options.dataDir;
        bool failed = false;
        const QStringList made =
            SampleDatasets(sampleOptions, *m_datasets)
                .ensure(SampleDatasets::declaredBy(*m_catalog), false, &failed);
        for (const QString &line : made)
            if (failed || !line.contains(u": current"_s))
                qInfo("%s", qPrintable(line));
    }
    m_models =
        std::make_unique<Models>(m_options.dataDir, Models::catalogFileIn(m_options.catalogDir));
    if (QString modelError; !m_models->refreshInstalled(&modelError))
        qWarning("model library: %s", qPrintable(modelError));
    m_privateModels = std::make_unique<PrivateModels>(*m_db, *m_books, *m_catalog, *m_clock,
                                                      *m_models, m_options.dataDir);
    m_instances->setModels(m_privateModels.get());
    m_instances->setSpendingLimits(m_spendingLimits.get());
    m_instances->setAppTokenKey(appTokenKey(m_options.dataDir));
    if (m_db->isPostgres()) {
        // Other provider processes may share the database: each runs, sees and checkpoints
        // its own hosts (SQLite has one provider, whose hosts are all of them).
        m_instances->shareStore(providerId(m_options.dataDir));
        m_meter->setHostedHere(
            [runtime = m_runtime.get()](const QString &id) { return runtime->isRunning(id); });
    }
    m_instances->reconcile(true);
    m_snapshots = std::make_unique<SnapshotService>(*m_db, *m_meter, *m_catalog, *m_instances,
                                                    *m_runtime, *m_events, *m_clock);
    m_snapshots->reconcile();
    // Nothing of a terminated instance may run, hold a disk or bill: a pass at each interval
    // (ones terminated within it are left to their own removal first).
    m_terminateReconciler =
        std::make_unique<TerminateReconciler>(*m_db, *m_books, *m_meter, *m_runtime, *m_clock);
    m_terminateReconciler->start(m_options.reconcileIntervalMs, m_options.reconcileIntervalMs);
    if (containers) {
        // Periodically: containers that stopped or vanished behind our back end their instance's
        // billing at the last second they were seen; orphans are removed.
        connect(containers, &CliRuntime::refreshed, this,
                [this](const QHash<QString, bool> &, bool ok) {
                    if (ok)
                        m_instances->reconcile(false);
                });
        m_reconciler.setInterval(m_options.reconcileIntervalMs);
        // With the engine's event stream open, containers that end are noticed at once: the
        // listing is then a slow safety net, every fourth tick.
        connect(&m_reconciler, &QTimer::timeout, containers, [this, containers] {
            if (!containers->watchesEvents() || ++m_reconcileTicks % 4 == 0)
                containers->refresh();
        });
        m_reconciler.start();
    }

    Telemetry::Options telemetryOptions;
    telemetryOptions.nvidiaSmi = m_options.nvidiaSmi;
    if (containers)
        telemetryOptions.dataDir = m_options.dataDir; // status files for the containers' nvidia-smi
    m_telemetry = std::make_unique<Telemetry>(
        *m_db, *m_catalog, *m_runtime, *m_events, *m_clock,
        [this](const QString &gpuType, int gpuCount) {
            const InstanceService::Resources r = m_instances->resourcesFor(gpuType, gpuCount);
            return QPair<double, qint64>(r.cpus, r.memoryMib);
        },
        telemetryOptions);
    // Idle stops follow the cards' utilisation, simulated cards' following the box's real load.
    connect(m_telemetry.get(), &Telemetry::sampled, m_instances.get(),
            [this](const QString &instanceId, const Telemetry::Sample &sample) {
                double busiest = 0;
                for (const Telemetry::CardSample &card : sample.cards)
                    busiest = std::max(busiest, static_cast<double>(card.utilizationPct));
                m_instances->noteUtilisation(instanceId, sample.atMs, busiest);
            });
    m_telemetry->start();

    m_router = std::make_unique<http::Router>();
    m_context = std::unique_ptr<ApiContext>(new ApiContext{
        *m_db, *m_ledger, *m_accounts, *m_keys, *m_instances, *m_events, *m_catalog, *m_idempotency,
        *m_clock, m_options.testClock ? static_cast<ManualClock *>(m_clock.get()) : nullptr,
        inProcess, *m_router, m_telemetry.get()});
    m_context->datasets = m_datasets.get();
    m_context->snapshots = m_snapshots.get();
    m_context->models = m_models.get();
    m_context->privateModels = m_privateModels.get();
    m_context->meter = m_meter.get();
    m_context->runtime = m_runtime.get();
    m_context->terminateReconciler = m_terminateReconciler.get();
    m_diskReserve =
        std::make_unique<HostDiskReserve>(m_options.dataDir, m_options.diskReserveBytes);
    m_context->diskReserve = m_diskReserve.get();
    m_context->sandboxSecret = sandboxSecret;
    m_context->runtimeName = m_runtime->name();
    m_context->runtimeNote = m_runtimeNote;
    m_context->timeZoneId = m_spendingLimits->timeZoneId();
    m_context->hostNames = m_options.hostNames;
    m_chaos = std::make_unique<ChaosFaults>(*m_runtime, *m_instances, *m_events, *m_clock);
    m_chaos->setAllowed(m_options.allowChaos);
    m_context->chaos = m_chaos.get();
    if (m_options.testClock)
        m_context->testClockSecret = writeTestClockSecret(m_options.dataDir);
    registerAllRoutes(*m_context);

    m_http = std::make_unique<http::HttpServer>(*m_router);
    if (!m_options.tlsCertificateFile.isEmpty() || !m_options.tlsKeyFile.isEmpty()) {
        if (m_options.tlsCertificateFile.isEmpty() || m_options.tlsKeyFile.isEmpty())
            throw std::runtime_error("HTTPS needs both --tls-cert FILE and --tls-key FILE");
        QString tlsError;
        const std::optional<QSslConfiguration> tls =
            http::loadServerTls(m_options.tlsCertificateFile, m_options.tlsKeyFile, &tlsError);
        if (!tls)
            throw std::runtime_error(tlsError.toStdString());
        m_http->setTls(*tls);
    }
    if (!m_http->listen(m_options.address, m_options.port))
        throw std::runtime_error(u"cannot listen on %1:%2: %3"_s.arg(m_options.address.toString())
                                     .arg(m_options.port)
                                     .arg(m_http->errorString())
                                     .toStdString());

    // The meter runs whether or not any client is connected: balances run out on their own.
    m_ticker.setInterval(m_options.tickIntervalMs);
    connect(&m_ticker, &QTimer::timeout, this, [this] {
        try {
            m_instances->tick();
            m_privateModels->accrue();
        } catch (const DbError &error) {
            qWarning("billing tick failed: %s", error.what());
        }
    });
    m_ticker.start();
}

void SimServer::offerHostGpus(const QString &runtimeName)
{
    const QString mode = m_options.gpus;
    if (mode != u"auto"_s && mode != u"real"_s && mode != u"simulated"_s && mode != u"mixed"_s)
        throw std::runtime_error(
            u"unknown --gpus \"%1\" (available: auto, real, simulated, mixed)"_s.arg(mode)
                .toStdString());
    if (mode == u"simulated"_s) {
        m_gpuNote = u"simulated cards (--gpus simulated)"_s;
        return;
    }
    const NvidiaGpus::Inventory inventory = NvidiaGpus::detect(m_options.nvidiaSmi);
    // Why the cards found cannot reach a container, if they cannot.
    QString cannotPass;
    if (runtimeName == u"inprocess"_s)
        cannotPass = u"the in-process runtime has no containers to give them to"_s;
    else if (runtimeName == u"podman"_s && inventory.cdiSpec.isEmpty())
        cannotPass =
            u"podman needs their CDI spec (run: nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml)"_s;
    if (inventory.cards.isEmpty() || !cannotPass.isEmpty()) {
        const QString why = inventory.cards.isEmpty()
            ? inventory.problem
            : u"found %1 NVIDIA GPU(s), but %2"_s.arg(inventory.cards.size()).arg(cannotPass);
        if (mode == u"real"_s)
            throw std::runtime_error(u"--gpus real: %1"_s.arg(why).toStdString());
        m_gpuNote = u"simulated cards: %1"_s.arg(why);
        return;
    }
    QList<HostCard> cards;
    for (const NvidiaGpus::Card &card : inventory.cards)
        cards.append(HostCard{card.index, NvidiaGpus::catalogIdFor(card.name), card.name,
                              card.memoryMib, card.powerLimitW});
    m_catalog->offerHostCards(cards, mode == u"mixed"_s);
    QStringList names;
    for (const NvidiaGpus::Card &card : inventory.cards)
        names.append(u"%1: %2"_s.arg(card.index).arg(card.name));
    m_gpuNote = u"real cards, passed through with %1: %2%3"_s.arg(
        runtimeName, names.join(u", "_s),
        mode == u"mixed"_s ? u" (and simulated ones)"_s : QString());
}

QString SimServer::runtimeName() const
{
    return m_runtime ? m_runtime->name() : QString();
}

void SimServer::finishPendingWork(int timeoutMs)
{
    auto *containers = qobject_cast<CliRuntime *>(m_runtime.get());
    if (!containers || !containers->hasPendingWork())
        return;
    m_ticker.stop();
    m_reconciler.stop();
    if (m_telemetry)
        m_telemetry->stop();
    QElapsedTimer waited;
    waited.start();
    while (containers->hasPendingWork() && waited.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
}

quint16 SimServer::port() const
{
    return m_http ? m_http->serverPort() : 0;
}

bool SimServer::servesTls() const
{
    return m_http && m_http->isTls();
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
    Bookkeeper books(db, ledger);
    Meter meter(db, books);
    Accounts accounts(db, books, clock);
    SshKeys keys(db, clock);
    Idempotency idempotency(db);
    EventBus events;
    InProcessRuntime runtime;
    InstanceService instances(db, books, meter, catalog, keys, runtime, events, clock);
    http::Router router;
    ApiContext ctx{db,       ledger,  accounts,    keys,  instances,
                   events,   catalog, idempotency, clock, testClock ? &clock : nullptr,
                   &runtime, router};
    SnapshotService snapshots(db, meter, catalog, instances, runtime, events, clock);
    ctx.snapshots = &snapshots;
    Models models(u"/nonexistent"_s, Models::catalogFileIn(options.catalogDir));
    PrivateModels privateModels(db, books, catalog, clock, models, u"/nonexistent"_s);
    ctx.models = &models;
    ctx.privateModels = &privateModels;
    ChaosFaults chaos(runtime, instances, events, clock);
    ctx.chaos = &chaos;
    registerAllRoutes(ctx);
    QStringList lines;
    for (const http::Router::Route &route : router.routes())
        lines.append(QString::fromLatin1(route.method) + u' ' + route.pattern);
    return lines;
}

} // namespace cardhour::sim
