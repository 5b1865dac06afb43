#pragma once

#include "ExitCode.h"
#include "api/ApiError.h"
#include "api/ApiReply.h"
#include "api/Models.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace cardhour::core {
struct SshTarget;
class ClientSession;
class SecretStore;
class SshKeyPair;
class SshKeyReply;
class SshKeyStore;
} // namespace cardhour::core

namespace cardhour::ctl {

// A provider call's outcome, copied out of its Reply (which deletes itself).
template<typename T>
struct Result
{
    std::optional<T> value;
    core::ApiError error;
    bool ok() const { return value.has_value(); }
};

class Context;

// One subcommand: its words for --help, its own options, and what it does.
struct Command
{
    QString name;
    QString summary; // one line, for `cardhourctl --help`
    QString arguments; // e.g. "NAME" for the usage line
    QList<QCommandLineOption> options;
    std::function<int(Context &)> run; // returns an ExitCode
};

// What a command runs with: its parsed command line and the connection to the provider (made
// on demand: `connect()`), plus the helpers every command needs. Commands are written as plain
// sequences of steps; each wait runs the event loop until the answer is there.
class Context
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Context)
public:
    Context(QCommandLineParser &parser, QStringList positional);
    ~Context();

    QCommandLineParser &parser;
    QStringList args; // the positional arguments after the command name
    bool json = false;

    bool isSet(const QString &option) const { return parser.isSet(option); }
    QString value(const QString &option) const { return parser.value(option); }
    QStringList values(const QString &option) const { return parser.values(option); }

    // Connects to the provider (--provider, CARDHOUR_PROVIDER_URL, else the sandbox) and reads
    // the token from the keychain. Ok when logged in; NotLoggedIn (with a message on stderr
    // when `needLogin`) when not; Failed when the provider cannot be reached.
    int connect(bool needLogin = true);
    core::ClientSession *session() const { return m_session.get(); }
    core::ProviderClient *client() const;
    // The SSH keys (DataPaths::sshKeyDir()); passphrases in the same keychain as the token.
    core::SshKeyStore *keyStore();
    // "CardHour", as the desktop client, unless CARDHOUR_KEYCHAIN_SERVICE says otherwise.
    static QString keychainService();

    template<typename T>
    Result<T> await(core::Reply<T> *reply)
    {
        Result<T> result;
        QEventLoop loop;
        QObject::connect(reply, &core::ApiReply::finished, &loop, [&] {
            if (reply->ok())
                result.value = reply->value();
            else
                result.error = reply->error();
            loop.quit();
        });
        loop.exec();
        return result;
    }
    // A key being generated or imported, once it is there; invalid, with `error`, when not.
    static core::SshKeyPair awaitKey(core::SshKeyReply *reply, QString *error);
    // Runs the event loop for `ms` milliseconds.
    static void sleep(int ms);

    // Says what went wrong on stderr and returns the exit code for it (see ExitCode.h).
    int fail(const core::ApiError &error) const;
    static int codeFor(const core::ApiError &error);
    // `usage` on stderr, plus where to read more; returns Usage.
    int usage(const QString &message) const;
    // The host called `nameOrId` (its name or id), NotFound on stderr when there is none.
    std::optional<core::Instance> findInstance(const QString &nameOrId, int *code,
                                               bool includeTerminated = false);
    // The one positional argument a command takes; Usage when absent.
    bool oneArgument(const QString &what, QString *out, int *code) const;

    QString commandName;

private:
    std::unique_ptr<core::ClientSession> m_session;
    std::unique_ptr<core::SecretStore> m_secrets; // only without a session
    std::unique_ptr<core::SshKeyStore> m_keyStore;
};

// Parses the command line, runs the command, returns the exit status.
class Cli
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Cli)
public:
    static int run(const QStringList &arguments);
    static QString helpText(const QList<Command> &commands);
};

// The SSH target of host `name` (name or id): its host key checked against the provider's and
// pinned (SshAccess), the local key's passphrase read from the keychain. Nullopt with `*code`
// set (and said on stderr) when it cannot be reached.
std::optional<core::SshTarget> resolveTarget(Context &ctx, const QString &name, int *code);

// The commands, by concern (one file each).
QList<Command> accountCommands();
QList<Command> hostCommands();
QList<Command> accessCommands();
QList<Command> moneyCommands();
QList<Command> watchCommands();
QList<Command> copyCommands();
QList<Command> snapshotCommands();
QList<Command> appCommands();
QList<Command> topCommands();
QList<Command> limitCommands();
QList<Command> modelCommands();
QList<Command> chaosCommands();
// launch --stop-at/--stop-after/--max-cost/--idle-stop (LimitsCommands.cpp).
void addLaunchStopOptions(QList<Command> &commands);

} // namespace cardhour::ctl
