#pragma once

#include "CliDialect.h"
#include "Process.h"

#include <QList>
#include <QLoggingCategory>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>

namespace cardhour::sim {

Q_DECLARE_LOGGING_CATEGORY(lcCli)

// How the container runtime's parts run the engine's commands: a command line (or the API call
// it stands for) with its result handed to a callback on the event loop. CliEngine runs them
// for real; tests answer them from a script. The helpers below are built on run().
class EngineCommands
{
public:
    using Callback = std::function<void(const ProcessResult &)>;
    using FindCallback =
        std::function<void(bool ok, const QString &error, const QList<cli::ContainerInfo> &found)>;

    EngineCommands(cli::Engine engine, QString providerId);
    virtual ~EngineCommands();
    EngineCommands(const EngineCommands &) = delete;
    EngineCommands &operator=(const EngineCommands &) = delete;

    // `args` without the program; timeoutMs 0: the default. extraEnv: for the program only.
    virtual void run(const QStringList &args, Callback done, int timeoutMs = 0,
                     const QProcessEnvironment &extraEnv = {}) = 0;
    // A step of a snapshot: it dies with the provider (whose restart marks the snapshot
    // failed), so that no commit or export finishes for a snapshot nobody records.
    virtual void runSnapshotStep(const QStringList &args, Callback done, int timeoutMs) = 0;
    // Blocking and bounded: for the provider's start-up only.
    virtual ProcessResult runBlocking(const QStringList &args, int timeoutMs) = 0;

    cli::Engine engine() const { return m_engine; }
    QString name() const; // "podman" or "docker"
    const QString &providerId() const { return m_providerId; }
    // No callback of a command comes once the runtime is being destroyed.
    bool isShuttingDown() const { return m_shuttingDown; }

    QString what(const QString &verb) const; // "podman run", "docker rm", ... for messages
    // "podman rm failed (exit 2): <its stderr>", "... timed out: ...", "...: could not be run
    // (...)".
    static QString describe(const ProcessResult &result, const QString &what);

    // --filter arguments for this provider's containers (of one instance, when given).
    QStringList labelFilter(const QString &instanceId) const;
    // `ps -a` of this provider's containers (of one instance, when given), as JSON.
    QStringList listArgs(const QString &instanceId = {}) const;
    // The containers of one instance, by label.
    void findContainer(const QString &instanceId, FindCallback done);

protected:
    void setShuttingDown() { m_shuttingDown = true; }

private:
    cli::Engine m_engine;
    QString m_providerId;
    bool m_shuttingDown = false;
};

} // namespace cardhour::sim
