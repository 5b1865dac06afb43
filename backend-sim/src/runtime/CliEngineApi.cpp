#include "CliEngine.h"
#include "EngineApi.h"
#include "EngineCalls.h"
#include "EngineExec.h"
#include "WorkspaceDisk.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QTimer>

using namespace Qt::StringLiterals;

// The engine's REST API on its unix socket: which socket (a podman service of our own), the
// calls made there instead of a process each, and the event stream that notices containers
// ending instead of waiting for the next listing.

namespace cardhour::sim {

namespace {

constexpr int kServiceStartMs = 5000; // a podman service answers in well under a second here
constexpr int kEventRetryMs = 1000;

} // namespace

QString CliEngine::podmanSocketPath(const QString &dataDir, std::unique_ptr<QTemporaryDir> &spare)
{
    const QString inData = QDir(dataDir).absoluteFilePath(u"podman-api.sock"_s);
    if (!dataDir.isEmpty() && inData.toLocal8Bit().size() < 100)
        return inData;
    spare = std::make_unique<QTemporaryDir>(QDir(QDir::tempPath()).filePath(u"cardhour-XXXXXX"_s));
    if (!spare->isValid())
        return {};
    return spare->filePath(u"podman-api.sock"_s);
}

namespace {

QString dockerSocketPath(const QString &dockerHost)
{
    if (dockerHost.startsWith(u"unix://"_s))
        return dockerHost.mid(7);
    if (!dockerHost.isEmpty())
        return {}; // tcp:// or ssh://: the docker CLI knows how to reach it, not a unix socket
    return u"/var/run/docker.sock"_s;
}

} // namespace

void CliEngine::connectApi()
{
    QString socket = m_settings.engineSocket;
    if (socket.isEmpty()) {
        socket = engine() == cli::Engine::Podman
            ? startPodmanService()
            : dockerSocketPath(m_settings.dockerHost.isEmpty()
                                   ? m_settings.environment.value(u"DOCKER_HOST"_s)
                                   : m_settings.dockerHost);
    }
    if (socket.isEmpty())
        return;
    auto *api = new EngineApi(socket, cli::apiPrefix(engine()), this);
    const EngineReply ping = api->get(u"/_ping"_s, 2000);
    if (!ping.ok()) {
        qCInfo(lcCli).noquote() << what(u"API"_s) << "on" << socket << "does not answer ("
                                << (ping.connected ? ping.message() : ping.error)
                                << "): the command line only";
        delete api;
        return;
    }
    m_api = api;
    qCInfo(lcCli).noquote() << what(u"API"_s) << "on" << socket;
    watchEvents();
}

QString CliEngine::startPodmanService()
{
    const QString socket = podmanSocketPath(m_settings.dataDir, m_spareSocketDir);
    if (socket.isEmpty())
        return {};
    QFile::remove(socket); // left by a provider that was killed; the data folder is ours (lock)
    Process::Options options;
    options.environment = m_settings.environment;
    options.lines = true; // its log is not kept
    options.mergeChannels = true;
    // A provider killed (kill -9, a crash) must not leave its service running for good: the
    // next start makes a new one on the same socket (the containers are conmon's, not its).
    options.onParentDeath = Process::Options::ParentDeath::Terminate;
    m_apiService = Process::start(this, m_settings.program,
                                  {u"system"_s, u"service"_s, u"--time=0"_s, u"unix://"_s + socket},
                                  options, [this, socket](const ProcessResult &result) {
                                      qCWarning(lcCli).noquote()
                                          << what(u"system service"_s)
                                          << "ended:" << describe(result, what(u"service"_s))
                                          << "; the command line from now on";
                                      if (m_api) {
                                          m_api->deleteLater();
                                          m_api = nullptr;
                                          m_events = 0;
                                      }
                                      QFile::remove(socket);
                                  });
    connect(m_apiService, &Process::line, this, [this](const QString &text) {
        qCDebug(lcCli).noquote() << what(u"service:"_s) << text;
    });
    // Blocking and bounded, like the constructor's `info`: the first launch can use it then.
    QElapsedTimer waited;
    waited.start();
    EngineApi probe(socket, cli::apiPrefix(engine()));
    while (waited.elapsed() < kServiceStartMs && m_apiService && m_apiService->isRunning()) {
        if (QFileInfo::exists(socket) && probe.get(u"/_ping"_s, 1000).ok())
            return socket;
        QThread::msleep(20);
    }
    qCWarning(lcCli).noquote() << what(u"system service"_s) << "did not answer on" << socket
                               << "within" << kServiceStartMs << "ms: the command line only";
    if (m_apiService)
        m_apiService->terminate();
    return {};
}

void CliEngine::runOverApi(const cli::ApiCall &call, const QStringList &args, Callback done,
                           int timeoutMs, const QProcessEnvironment &extraEnv)
{
    const int timeout = timeoutMs > 0 ? timeoutMs : m_settings.commandTimeoutMs;
    qCDebug(lcCli).noquote() << what(u"API"_s) << call.method << call.path;
    m_api->request(
        call.method, call.path, call.body, timeout,
        [this, call, args, done = std::move(done), timeout, extraEnv](const EngineReply &reply) {
            if (isShuttingDown())
                return;
            if (!reply.connected || !m_api) {
                // Nothing reached the engine: the same request as a command line.
                qCInfo(lcCli).noquote() << what(u"API"_s) << "did not answer (" << reply.error
                                        << "): running" << args.value(0) << "as a command";
                return runProcess(args, done, timeout, extraEnv);
            }
            if (cli::startLostHelperExit(call, reply))
                return startAsCommand(call, reply, done, timeout, false);
            if (call.execAfterCreate && reply.ok())
                return startExec(reply.body, done, timeout);
            if (!call.startAfterCreate || !reply.ok())
                return done(cli::resultOf(call, reply));
            startCreated(call, reply.body, done, timeout);
        });
}

void CliEngine::startCreated(const cli::ApiCall &create, const QByteArray &body,
                             const Callback &done, int timeoutMs)
{
    // `run -d`: the container is made; its start is what can still fail (a taken port).
    cli::ApiCall start = create;
    start.id = QJsonDocument::fromJson(body).object().value(u"Id"_s).toString();
    start.method = "POST";
    start.path = u"/containers/%1/start"_s.arg(start.id);
    start.body = QByteArray();
    start.startAfterCreate = false;
    if (start.id.isEmpty())
        return done(cli::resultOf(start, EngineReply{true, false, 500, {}, {}}));
    m_api->request(start.method, start.path, {}, timeoutMs,
                   [this, start, done, timeoutMs](const EngineReply &started) {
                       if (isShuttingDown())
                           return;
                       if (cli::startLostHelperExit(start, started))
                           return startAsCommand(start, started, done, timeoutMs, true);
                       done(cli::resultOf(start, started));
                   });
}

void CliEngine::startExec(const QByteArray &created, const Callback &done, int timeoutMs)
{
    const QString execId = QJsonDocument::fromJson(created).object().value(u"Id"_s).toString();
    const cli::ApiCall start = cli::execStartCall(execId);
    m_api->request(start.method, start.path, start.body, timeoutMs,
                   [this, execId, done, timeoutMs](const EngineReply &started) {
                       if (isShuttingDown())
                           return;
                       if (!started.ok())
                           return done(cli::execResult(started, {}));
                       const cli::ApiCall inspect = cli::execInspectCall(execId);
                       m_api->request(inspect.method, inspect.path, {}, timeoutMs,
                                      [this, started, done](const EngineReply &inspected) {
                                          if (!isShuttingDown())
                                              done(cli::execResult(started, inspected));
                                      });
                   });
}

void CliEngine::startAsCommand(const cli::ApiCall &start, const EngineReply &failed,
                               const Callback &done, int timeoutMs, bool fresh)
{
    qCInfo(lcCli).noquote() << what(u"API"_s) << "start of" << start.id << "lost a helper's exit ("
                            << failed.message() << "): starting as a command";
    // A volume mount the service lost is still mounted, unknown to podman, which would mount it
    // once more over it at this start and unmount only that one at the stop.
    if (const QString volume = cli::volumeMountLostBy(start, failed); !volume.isEmpty()) {
        QString error;
        const int released = WorkspaceDisk::releaseLostMounts(volume, &error);
        qCInfo(lcCli).noquote() << what(u"volume"_s) << volume << ": released" << released
                                << "mount(s) the failed start left" << error;
    }
    // The command line prints the id, as `start` and `run -d` both do.
    runProcess(
        {u"start"_s, start.id},
        [this, done, id = start.id, fresh](const ProcessResult &r) {
            ProcessResult result = r;
            switch (cli::lostStartOutcome(r, fresh)) {
            case cli::LostStart::MakeAgain:
                // Still "already running" in err: the launch removes it and runs it again.
                qCInfo(lcCli).noquote() << what(u"API"_s) << "start of" << id
                                        << "had started after all, but the engine keeps it as "
                                           "not started: made again";
                break;
            case cli::LostStart::Started:
                if (!result.ok())
                    qCInfo(lcCli).noquote() << what(u"API"_s) << "start of" << id
                                            << "had started after all (already running)";
                result.exitCode = 0;
                result.crashed = false;
                result.err.clear();
                result.out = id.toUtf8() + '\n';
                break;
            case cli::LostStart::Failed:
                break;
            }
            done(result);
        },
        timeoutMs, QProcessEnvironment());
}

// ---- events ---------------------------------------------------------------------------------

void CliEngine::watchEvents()
{
    if (!m_api || m_events != 0 || isShuttingDown())
        return;
    m_events = m_api->stream(
        cli::eventsPath(engine(), providerId()),
        [this](const QByteArray &line) { noteEvent(line); },
        [this](const EngineReply &reply) {
            m_events = 0;
            qCInfo(lcCli).noquote() << what(u"event stream"_s) << "ended ("
                                    << (reply.error.isEmpty() ? reply.message() : reply.error)
                                    << "); listening again in" << kEventRetryMs << "ms";
            QTimer::singleShot(kEventRetryMs, this, &CliEngine::watchEvents);
            // What happened while it was closed: one listing.
            Q_EMIT eventsMissed();
        });
}

void CliEngine::noteEvent(const QByteArray &line)
{
    const std::optional<cli::EngineEvent> event = cli::parseEvent(line);
    if (!event || event->providerId != providerId() || event->instanceId.isEmpty())
        return;
    if (event->ended()) {
        qCDebug(lcCli).noquote() << "event" << event->action << "of instance" << event->instanceId;
        Q_EMIT containerEnded(event->instanceId);
    } else if (event->action == u"start"_s) {
        Q_EMIT containerStarted(event->instanceId);
    }
}

} // namespace cardhour::sim
