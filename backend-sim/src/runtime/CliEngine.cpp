#include "CliEngine.h"

#include "EngineApi.h"
#include "EngineCalls.h"
#include "EngineExec.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

CliEngine::CliEngine(Settings settings, QObject *parent)
    : QObject(parent), EngineCommands(settings.engine, settings.providerId),
      m_settings(std::move(settings))
{}

CliEngine::~CliEngine()
{
    shutDown();
}

void CliEngine::shutDown()
{
    if (isShuttingDown())
        return;
    setShuttingDown();
    // The socket of a service of our own (the service may leave it behind).
    const QString ownSocket = m_apiService && m_api ? m_api->socketPath() : QString();
    delete m_api;
    m_api = nullptr;
    m_events = 0;
    if (m_apiService) { // asked to end (SIGTERM) before the rest are killed: it shuts down cleanly
        m_apiService->terminate();
        m_apiService->waitForFinished(2000);
        if (!ownSocket.isEmpty())
            QFile::remove(ownSocket);
    }
    // No callbacks into a half-destroyed runtime; containers themselves outlive the provider.
    const QList<Process *> procs = findChildren<Process *>(Qt::FindDirectChildrenOnly);
    for (Process *proc : procs) {
        disconnect(proc, nullptr, this, nullptr);
        proc->kill();
        proc->waitForFinished(2000);
    }
}

void CliEngine::run(const QStringList &args, Callback done, int timeoutMs,
                    const QProcessEnvironment &extraEnv)
{
    if (m_api) {
        QProcessEnvironment environment = m_settings.environment;
        const QStringList keys = extraEnv.keys();
        for (const QString &key : keys)
            environment.insert(key, extraEnv.value(key));
        std::optional<cli::ApiCall> call = args.value(0) == u"exec"_s
            ? cli::execCallFor(engine(), args)
            : cli::apiCallFor(engine(), args, environment);
        if (call)
            return runOverApi(*call, args, std::move(done), timeoutMs, extraEnv);
    }
    runProcess(args, std::move(done), timeoutMs, extraEnv);
}

void CliEngine::runProcess(const QStringList &args, Callback done, int timeoutMs,
                           const QProcessEnvironment &extraEnv)
{
    Process::Options options;
    options.environment = m_settings.environment;
    const QStringList keys = extraEnv.keys();
    for (const QString &key : keys)
        options.environment.insert(key, extraEnv.value(key));
    options.timeoutMs = timeoutMs > 0 ? timeoutMs : m_settings.commandTimeoutMs;
    qCDebug(lcCli).noquote() << m_settings.program << args.join(u' ');
    Process::start(this, m_settings.program, args, options,
                   [this, done = std::move(done)](const ProcessResult &result) {
                       if (!isShuttingDown())
                           done(result);
                   });
}

void CliEngine::runSnapshotStep(const QStringList &args, Callback done, int timeoutMs)
{
    Process::Options options;
    options.environment = m_settings.environment;
    options.timeoutMs = timeoutMs;
    options.onParentDeath = Process::Options::ParentDeath::Kill;
    qCDebug(lcCli).noquote() << m_settings.program << args.join(u' ');
    Process::start(this, m_settings.program, args, options,
                   [this, done = std::move(done)](const ProcessResult &result) {
                       if (!isShuttingDown())
                           done(result);
                   });
}

ProcessResult CliEngine::runBlocking(const QStringList &args, int timeoutMs)
{
    Process::Options options;
    options.environment = m_settings.environment;
    options.timeoutMs = timeoutMs;
    return Process::run(m_settings.program, args, options);
}

} // namespace cardhour::sim
