#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QString>

#include <functional>

namespace cardhour::core {

// The user's own ssh-agent, for `ssh` outside the app: a key CardHour generated has its
// passphrase in the keychain only, so the copied command and the ~/.ssh/config block work in a
// terminal once the key is in the agent (ssh signs with the agent's copy of the -i key).
// addKey() runs `ssh-add` with SSH_ASKPASS_REQUIRE=force and an askpass helper that prints the
// passphrase from a file: both in a folder of this user's alone (0700; the runtime folder where
// there is one), the file 0600, removed as soon as ssh-add ends. The passphrase is never on a
// command line or in an environment variable. Beside SshAccess and SshConfigWriter, the only
// code that runs an ssh program for the user.
class SshAgent : public QObject
{
    Q_OBJECT
public:
    enum class Result {
        Added, // the agent holds the key now
        NoAgent, // no agent runs for this session (or it could not be reached)
        Failed // ssh-add is missing, or the agent or the key refused
    };
    struct Outcome
    {
        Result result = Result::Failed;
        QString error; // translated, unless Added
    };
    using Done = std::function<void(const Outcome &)>;

    // ssh-add runs in this process's environment as it is at each addKey() (SSH_AUTH_SOCK).
    explicit SshAgent(QObject *parent = nullptr);

    // The agent's socket from SSH_AUTH_SOCK when it is there; empty when none runs.
    static QString socketPath();
    // Adds the private key at `privateKeyPath` (its passphrase: `passphrase`, empty for none);
    // `done` runs once, later, unless `context` has gone.
    void addKey(const QString &privateKeyPath, const QString &passphrase, const QObject *context,
                Done done);
};

} // namespace cardhour::core
