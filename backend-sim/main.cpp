// cardhour-sim: the CardHour Sandbox provider.
#include "CardHourVersion.h"
#include "DataPaths.h"
#include "cli/ChaosCommand.h"
#include "cli/DatasetsCommand.h"
#include "cli/DoctorCommand.h"
#include "cli/ImagesCommand.h"
#include "cli/ModelsCommand.h"
#include "core/ApiError.h"
#include "core/RuntimeFiles.h"
#include "http/ServingProcess.h"
#include "server/SimServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QSocketNotifier>
#include <QTextStream>

#include <algorithm>
#include <csignal>
#include <cstdio>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using cardhour::sim::SimServer;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "cardhour-sim: " << message << Qt::endl;
    return 2;
}

#ifdef Q_OS_UNIX
int s_signalFds[2] = {-1, -1};
void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(s_signalFds[0], &byte, 1);
}
// SIGINT/SIGTERM end the event loop cleanly (closing the database) instead of killing mid-write.
void installQuitOnSignals(QCoreApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, s_signalFds) != 0)
        return;
    auto *notifier = new QSocketNotifier(s_signalFds[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [&app] { app.quit(); });
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
}
#endif

bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(u':');
    if (colon <= 0)
        return false;
    QString host = text.left(colon);
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    if (host == u"localhost"_s)
        host = u"127.0.0.1"_s;
    bool ok = false;
    const uint value = text.mid(colon + 1).toUInt(&ok);
    if (!ok || value > 65535 || !address->setAddress(host))
        return false;
    *port = static_cast<quint16>(value);
    return true;
}

// The sandbox's one default place (DataPaths: the client and scripts/run use it too), after the
// layout before issue 12 is moved into it, once per run. A run given --data DIR uses no default
// place, so it leaves them alone (as every test run does).
QString defaultDataDir()
{
    static const bool migrated = [] {
        const QStringList arguments = QCoreApplication::arguments();
        const bool dataGiven =
            std::any_of(arguments.cbegin(), arguments.cend(), [](const QString &a) {
                return a == u"--data"_s || a.startsWith(u"--data="_s);
            });
        if (!dataGiven) {
            for (const QString &note : cardhour::DataPaths::migrateOldLayout())
                QTextStream(stderr) << "cardhour-sim: " << note << Qt::endl;
        }
        return true;
    }();
    Q_UNUSED(migrated);
    return cardhour::DataPaths::sandboxDataDir();
}

// $CONTAINERS_CONF when set, else the containers.conf installed with the sandbox (runc, modest
// ulimits: what works where crun or podman's own limits do not), else podman's own (empty).
QString defaultContainersConf()
{
    if (qEnvironmentVariableIsSet("CONTAINERS_CONF"))
        return qEnvironmentVariable("CONTAINERS_CONF");
    const QString installed = cardhour::sim::RuntimeFiles::containersConf();
    return QFileInfo::exists(installed) ? installed : QString();
}

} // namespace

int main(int argc, char *argv[])
{
    cardhour::http::prepareServingProcess();
#ifdef Q_OS_UNIX
    // Everything the provider writes (database, snapshot archives, keys, tokens) is its user's
    // alone; SimServer also narrows a data directory made by an older version. Child processes
    // (podman) get the usual 022 back (runtime/Process.cpp).
    ::umask(S_IRWXG | S_IRWXO);
#endif
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"cardhour-sim"_s);
    QCoreApplication::setOrganizationName(u"CardHour"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(CARDHOUR_VERSION));

    // Subcommands before the server's options: `cardhour-sim images list|build ...`,
    // `cardhour-sim doctor [--fix FILE] [--json]`, `cardhour-sim datasets list|add|remove ...`.
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() > 1 && arguments.at(1) == u"images"_s)
        return cardhour::sim::runImagesCommand(arguments.mid(2), defaultContainersConf(),
                                               defaultDataDir());
    if (arguments.size() > 1 && arguments.at(1) == u"doctor"_s)
        return cardhour::sim::runDoctorCommand(arguments.mid(2), defaultContainersConf(),
                                               defaultDataDir());
    if (arguments.size() > 1 && arguments.at(1) == u"datasets"_s)
        return cardhour::sim::runDatasetsCommand(arguments.mid(2), defaultDataDir());
    if (arguments.size() > 1 && arguments.at(1) == u"models"_s)
        return cardhour::sim::runModelsCommand(arguments.mid(2), defaultDataDir());
    if (arguments.size() > 1 && arguments.at(1) == u"chaos"_s)
        return cardhour::sim::runChaosCommand(arguments.mid(2), defaultDataDir());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"CardHour Sandbox: a simulated GPU-cloud provider on this machine.\n\n"
        "Subcommands:\n"
        "  images list | build ID... | build --all     the catalog's container images\n"
        "  datasets list | add NAME DIR | remove NAME  folders instances mount read-only\n"
        "  models list | add NAME DIR                  the public model library\n"
        "  chaos add KIND [...] | list | clear ID      rehearsed failures on a running sandbox\n"
        "  doctor [--json] [--fix FILE]                what containers and GPUs lack here, and the "
        "fix\n\n"
        "Without a subcommand it serves the API; the first line on stdout is "
        "\"listening http://HOST:PORT\"."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listenOption(
        u"listen"_s, u"Address to serve on (default 127.0.0.1:8787; port 0 picks a free one)."_s,
        u"HOST:PORT"_s, u"127.0.0.1:8787"_s);
    const QCommandLineOption dataOption(
        u"data"_s, u"Directory for the provider's state (SQLite)."_s, u"DIR"_s);
    const QCommandLineOption storeOption(
        u"store"_s,
        u"Keep accounts, instances and the ledger in PostgreSQL instead of the data directory's"
        " SQLite file: postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME]. Several"
        " providers (each with its own --data) may share one."_s,
        u"URL"_s);
    const QCommandLineOption remoteOption(
        u"allow-remote"_s,
        u"Allow listening on a non-loopback address (only with --tls-cert and --tls-key)."_s);
    const QCommandLineOption tlsCertOption(
        u"tls-cert"_s,
        u"Serve HTTPS with this certificate (PEM; the server's first, then intermediates)."_s,
        u"FILE"_s);
    const QCommandLineOption tlsKeyOption(
        u"tls-key"_s, u"The private key of --tls-cert (PEM, RSA or EC, no passphrase)."_s,
        u"FILE"_s);
    const QCommandLineOption scryptOption(
        u"scrypt-cost-log2"_s,
        u"scrypt cost of new password hashes, as log2(N): 10 to 20 (default 17). Below 17 "
        "only for tests."_s,
        u"N"_s, u"17"_s);
    const QCommandLineOption testClockOption(
        u"test-clock"_s,
        u"Use a clock that only moves through POST /v1/_test/clock/advance (tests)."_s);
    const QCommandLineOption catalogOption(
        u"catalog"_s, u"Directory with gpus.json and images.json (default: built in)."_s, u"DIR"_s);
    const QCommandLineOption runtimeOption(
        u"runtime"_s,
        u"What runs instances: podman or docker (real containers; docker "
        "talks to $DOCKER_HOST), inprocess (no containers: lifecycle and billing "
        "only), or auto (podman if usable, else docker, else inprocess)."_s,
        u"NAME"_s, u"auto"_s);
    const QCommandLineOption containersConfOption(
        u"containers-conf"_s,
        u"containers.conf for podman (default: $CONTAINERS_CONF, else the one installed in "
        "share/cardhour/podman)."_s,
        u"FILE"_s);
    const QCommandLineOption engineApiOption(
        u"engine-api"_s,
        u"How podman or docker is driven: auto (its REST API on its socket, a podman service "
        "of the sandbox's own, and its event stream; the command line where that does not "
        "answer) or off (the command line only)."_s,
        u"MODE"_s, u"auto"_s);
    const QCommandLineOption tagPrefixOption(
        u"tag-prefix"_s,
        u"Prefix of the image tags instances run (default: localhost/cardhour/; as for "
        "`cardhour-sim images`)."_s,
        u"PREFIX"_s, u"localhost/cardhour/"_s);
    const QCommandLineOption postingOption(
        u"posting-interval"_s,
        u"Seconds between ledger postings for running instances (default 60)."_s, u"SECONDS"_s,
        u"60"_s);
    const QCommandLineOption diskCheckOption(
        u"disk-check-interval"_s,
        u"Seconds between measurements of the running boxes' own disks; a box whose disk is "
        "full is stopped (podman and docker; default 20)."_s,
        u"SECONDS"_s, u"20"_s);
    const QCommandLineOption workspaceDiskOption(
        u"workspace-disk"_s,
        u"How /workspace is bounded: auto (an ext4 image of the instance's disk on a loop device "
        "where this host allows it, else measured) or measured (measured with the box's own disk "
        "every --disk-check-interval and the instance stopped once together they hold more than "
        "its disk; podman and docker)."_s,
        u"MODE"_s, u"auto"_s);
    const QCommandLineOption privateNetworkOption(
        u"allow-private-network"_s,
        u"Let boxes reach this host's own addresses and the private, link-local (cloud "
        "metadata) and loopback ranges; by default they are refused (Linux)."_s);
    const QCommandLineOption allowChaosOption(
        u"allow-chaos"_s,
        u"Allow rehearsed failures (POST /v1/chaos/faults, `cardhour-sim chaos`): each "
        "account may fail its own next launch, slow its own API answers, drop its hosts' SSH "
        "connections or fill their /workspace. Off by default."_s);
    const QCommandLineOption diskReserveOption(
        u"disk-reserve"_s,
        u"GiB of the data directory's disk kept free: below it new launches, snapshots and "
        "model uploads are refused with 507 (default 2; 0: none kept)."_s,
        u"GIB"_s, u"2"_s);
    const QCommandLineOption maxStreamsOption(
        u"max-event-streams"_s,
        u"Event streams (GET /v1/events) open at once over all accounts; past it a new one is "
        "refused with 503 (default: half the connection cap)."_s,
        u"COUNT"_s, u"0"_s);
    const QCommandLineOption gpusOption(
        u"gpus"_s,
        u"Which GPUs to lend: real (this host's NVIDIA cards, passed through to the "
        "containers), simulated, mixed (both), or auto (real when there are some and "
        "the runtime can pass them, else simulated)."_s,
        u"MODE"_s, u"auto"_s);
    const QCommandLineOption nvidiaSmiOption(
        u"nvidia-smi"_s, u"The nvidia-smi to read real cards with."_s, u"PATH"_s, u"nvidia-smi"_s);
    const QCommandLineOption hostNameOption(
        u"host-name"_s,
        u"Also accept requests addressed (Host header) to NAME; IP literals and localhost are "
        "always accepted, other names refused (DNS rebinding). Repeatable."_s,
        u"NAME"_s);
    const QCommandLineOption routesOption(
        u"print-routes"_s,
        u"Print every API route and exit (those under /v1/_test/ are served only with "
        "--test-clock)."_s);
    // For scripts/run, so that it names the folder this program uses instead of a copy of the rule.
    const QCommandLineOption dataDirOption(
        u"print-data-dir"_s,
        u"Print the data directory (--data, else the default one) and exit."_s);
    // For openapi_conformance, which compares them with the document's Error.code enum.
    QCommandLineOption errorCodesOption(u"print-error-codes"_s,
                                        u"Print the API's error codes and exit."_s);
    errorCodesOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({errorCodesOption});
    parser.addOptions(
        {listenOption,     dataOption,           remoteOption,         testClockOption,
         catalogOption,    runtimeOption,        containersConfOption, engineApiOption,
         tagPrefixOption,  postingOption,        diskCheckOption,      workspaceDiskOption,
         maxStreamsOption, privateNetworkOption, diskReserveOption,    gpusOption,
         nvidiaSmiOption,  hostNameOption,       routesOption,         dataDirOption,
         tlsCertOption,    tlsKeyOption,         scryptOption,         allowChaosOption,
         storeOption});
    parser.process(app);

    if (parser.isSet(errorCodesOption)) {
        QTextStream out(stdout);
        for (const QLatin1StringView code : cardhour::sim::ErrorCode::all)
            out << code << '\n';
        return 0;
    }
    if (parser.isSet(dataDirOption)) {
        QTextStream(stdout) << (parser.isSet(dataOption) ? parser.value(dataOption)
                                                         : defaultDataDir())
                            << '\n';
        return 0;
    }
    if (parser.isSet(routesOption)) {
        QTextStream out(stdout);
        for (const QString &line : SimServer::routeTable(true))
            out << line << '\n';
        return 0;
    }

    SimServer::Options options;
    if (!parseListen(parser.value(listenOption), &options.address, &options.port))
        return fail(u"--listen wants HOST:PORT, e.g. 127.0.0.1:0 (got \"%1\")"_s.arg(
            parser.value(listenOption)));
    options.tlsCertificateFile = parser.value(tlsCertOption);
    options.tlsKeyFile = parser.value(tlsKeyOption);
    if (options.tlsCertificateFile.isEmpty() != options.tlsKeyFile.isEmpty())
        return fail(u"HTTPS needs both --tls-cert FILE and --tls-key FILE"_s);
    const bool tls = !options.tlsCertificateFile.isEmpty();
    if (!options.address.isLoopback() && !parser.isSet(remoteOption))
        return fail(u"refusing to listen on %1, which is not a loopback address. Pass "
                    "--allow-remote (with --tls-cert and --tls-key) if you really mean it."_s.arg(
                        options.address.toString()));
    // Beyond this machine every password and token would cross the network in clear, and
    // CardHour's clients refuse plain http:// to anything but loopback anyway.
    if (!options.address.isLoopback() && !tls)
        return fail(u"refusing to listen on %1 without TLS: passwords and tokens would cross "
                    "the network unencrypted. Give --tls-cert FILE and --tls-key FILE."_s.arg(
                        options.address.toString()));
    options.dataDir = parser.isSet(dataOption) ? parser.value(dataOption) : defaultDataDir();
    options.store = parser.value(storeOption);
    if (parser.isSet(catalogOption))
        options.catalogDir = parser.value(catalogOption);
    options.runtime = parser.value(runtimeOption);
    options.gpus = parser.value(gpusOption);
    options.nvidiaSmi = parser.value(nvidiaSmiOption);
    options.containersConf = parser.isSet(containersConfOption) ? parser.value(containersConfOption)
                                                                : defaultContainersConf();
    options.imagePrefix = parser.value(tagPrefixOption);
    const QString engineApi = parser.value(engineApiOption);
    if (engineApi != u"auto"_s && engineApi != u"off"_s)
        return fail(u"--engine-api wants auto or off"_s);
    options.engineApi = engineApi == u"auto"_s;
    options.allowPrivateNetwork = parser.isSet(privateNetworkOption);
    const QString workspaceDisk = parser.value(workspaceDiskOption);
    if (workspaceDisk != u"auto"_s && workspaceDisk != u"measured"_s)
        return fail(u"--workspace-disk wants auto or measured"_s);
    options.measuredWorkspace = workspaceDisk == u"measured"_s;
    options.testClock = parser.isSet(testClockOption);
    options.allowChaos = parser.isSet(allowChaosOption);
    options.hostNames = parser.values(hostNameOption);
    bool ok = false;
    const int postingSeconds = parser.value(postingOption).toInt(&ok);
    if (!ok || postingSeconds < 1 || postingSeconds > 86400)
        return fail(u"--posting-interval wants 1 to 86400 seconds"_s);
    options.scryptCostLog2 = parser.value(scryptOption).toInt(&ok);
    if (!ok || options.scryptCostLog2 < 10 || options.scryptCostLog2 > 20)
        return fail(u"--scrypt-cost-log2 wants 10 to 20 (N = 2^10 to 2^20)"_s);
    options.postingIntervalMs = postingSeconds * 1000LL;
    const int diskCheckSeconds = parser.value(diskCheckOption).toInt(&ok);
    if (!ok || diskCheckSeconds < 1 || diskCheckSeconds > 3600)
        return fail(u"--disk-check-interval wants 1 to 3600 seconds"_s);
    options.diskCheckIntervalMs = diskCheckSeconds * 1000;
    options.maxEventStreams = parser.value(maxStreamsOption).toInt(&ok);
    if (!ok || options.maxEventStreams < 0 || options.maxEventStreams > 100'000)
        return fail(u"--max-event-streams wants 1 to 100000 (0: half the connection cap)"_s);
    const double reserveGib = parser.value(diskReserveOption).toDouble(&ok);
    if (!ok || reserveGib < 0 || reserveGib > 1e6)
        return fail(u"--disk-reserve wants 0 to 1000000 GiB"_s);
    options.diskReserveBytes = qint64(reserveGib * double(1LL << 30));

    if (!QDir().mkpath(options.dataDir))
        return fail(u"cannot create the data directory %1"_s.arg(options.dataDir));
    // One provider per data directory: two would race on the same ledger.
    QLockFile lock(QDir(options.dataDir).filePath(u"cardhour-sim.lock"_s));
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0)) {
        qint64 pid = 0;
        QString host, appName;
        lock.getLockInfo(&pid, &host, &appName);
        return fail(u"another cardhour-sim (pid %1) is using %2"_s.arg(pid).arg(options.dataDir));
    }

    SimServer server(options);
    try {
        server.start();
    } catch (const std::exception &error) {
        return fail(QString::fromUtf8(error.what()));
    }
#ifdef Q_OS_UNIX
    installQuitOnSignals(app);
#endif
    const QString host = options.address.protocol() == QAbstractSocket::IPv6Protocol
        ? u"[%1]"_s.arg(options.address.toString())
        : options.address.toString();
    if (!server.runtimeNote().isEmpty())
        QTextStream(stderr) << "cardhour-sim: " << server.runtimeNote() << Qt::endl;
    QTextStream(stderr) << "cardhour-sim: GPUs: " << server.gpuNote() << Qt::endl;
    // The first line on stdout, exactly; launchers and tests read it to find the port.
    std::printf("listening %s://%s:%u\n", server.servesTls() ? "https" : "http",
                host.toUtf8().constData(), static_cast<unsigned>(server.port()));
    std::fflush(stdout);
    const int code = app.exec();
    // A terminate or stop asked for just before the signal still reaches its container.
    server.finishPendingWork(15000);
    return code;
}
