#pragma once

#include "EngineCommands.h"

#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <memory>

namespace cardhour::sim {

class EngineApi;
struct EngineReply;
namespace cli {
struct ApiCall;
}

// Runs the engine's commands: over its REST API (EngineApi) for the calls EngineCalls knows,
// else as a command line through Process. CliEngineApi.cpp: the API's socket (a podman service
// of its own, a child ended with it), its calls, and its event stream, which tells of
// containers of this provider that end or start at once instead of at the next listing.
class CliEngine final : public QObject, public EngineCommands
{
    Q_OBJECT
public:
    struct Settings
    {
        cli::Engine engine = cli::Engine::Podman;
        QString program; // "podman", "docker" or a path
        QProcessEnvironment environment; // CONTAINERS_CONF, DOCKER_HOST
        QString providerId;
        int commandTimeoutMs = 120000; // for a run() with no timeout of its own
        QString dockerHost; // for docker's API socket; empty: the environment's DOCKER_HOST
        QString engineSocket; // empty: podman's service of our own, docker's DOCKER_HOST or .sock
        QString dataDir; // where podman's service puts its socket when the path is short enough
    };

    explicit CliEngine(Settings settings, QObject *parent = nullptr);
    // Ends the API service of our own and every command still running, without callbacks.
    ~CliEngine() override;

    void run(const QStringList &args, Callback done, int timeoutMs = 0,
             const QProcessEnvironment &extraEnv = {}) override;
    void runSnapshotStep(const QStringList &args, Callback done, int timeoutMs) override;
    ProcessResult runBlocking(const QStringList &args, int timeoutMs) override;
    const QString &program() const { return m_settings.program; }

    // Opens the API (starting podman's service) and its event stream; the command line only
    // when it does not answer.
    void connectApi();
    bool usesApi() const { return m_api != nullptr; }
    bool watchesEvents() const { return m_events != 0; }
    // From now on no callback comes; called by the runtime's destructor before its parts go.
    void shutDown(); // once; later calls do nothing

    // Where podman's service of our own listens. A socket path must fit sockaddr_un (108
    // bytes with its NUL): in the data folder when short, else in a fresh 0700 folder of the
    // temporary directory (made in `spare`), which nobody else can have made first: a
    // predictable name there would let another user answer as the engine. Empty: none made.
    static QString podmanSocketPath(const QString &dataDir, std::unique_ptr<QTemporaryDir> &spare);

Q_SIGNALS:
    // From the event stream, for containers of this provider.
    void containerEnded(const QString &instanceId);
    void containerStarted(const QString &instanceId);
    // The stream closed: what happened meanwhile is unknown (it opens again by itself).
    void eventsMissed();

private:
    void runProcess(const QStringList &args, Callback done, int timeoutMs,
                    const QProcessEnvironment &extraEnv);
    QString startPodmanService();
    void runOverApi(const cli::ApiCall &call, const QStringList &args, Callback done, int timeoutMs,
                    const QProcessEnvironment &extraEnv);
    // `run -d` over the API: the container is made; now its start.
    void startCreated(const cli::ApiCall &create, const QByteArray &body, const Callback &done,
                      int timeoutMs);
    // `exec` over the API: the session is made; now its start (output attached) and exit code.
    void startExec(const QByteArray &created, const Callback &done, int timeoutMs);
    // A start the engine's service failed by losing a helper's exit, tried once more as
    // `start <id>` on the command line.
    // `fresh`: the start of a container made for this launch (see cli::lostStartOutcome).
    void startAsCommand(const cli::ApiCall &start, const EngineReply &failed, const Callback &done,
                        int timeoutMs, bool fresh);
    void watchEvents();
    void noteEvent(const QByteArray &line);

    Settings m_settings;
    EngineApi *m_api = nullptr;
    QPointer<Process> m_apiService; // the podman service this engine started, while it runs
    std::unique_ptr<QTemporaryDir>
        m_spareSocketDir; // its socket's folder when the data dir's path is too long
    quint64 m_events = 0; // the event stream's handle; 0 while it is not open
};

} // namespace cardhour::sim
