#pragma once

#include "ssh/SshTarget.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace cardhour::core {

// OpenSSH integration: "Add to ~/.ssh/config", "Copy SSH command", "Open in system terminal".
// The instance's host key is pinned in a known_hosts file that CardHour manages (never the
// user's own), and StrictHostKeyChecking=yes makes OpenSSH refuse any other key, so VS Code
// Remote-SSH and plain `ssh cardhour-NAME` get the same guarantee as the built-in terminal.
class SshConfigWriter
{
    Q_DECLARE_TR_FUNCTIONS(SshConfigWriter)
public:
    // CardHour's own known_hosts: DataPaths::knownHostsPath() (<data>/CardHour/ssh/known_hosts).
    static QString defaultKnownHostsPath();
    // "cardhour-" + the instance name reduced to letters, digits, '-', '_' and '.'.
    static QString hostAlias(const QString &instanceName);
    // "[host]:port" (or the bare host on port 22), as known_hosts and ssh spell it.
    static QString knownHostsName(const SshTarget &target);

    // Writes (or updates) the line for this host in the managed known_hosts file, keeping the
    // lines of other hosts. The key line (target.hostKeyLine: the provider's `ssh.host_key`, or
    // SshConnection::serverKeyLine() after a verified connection) must have the fingerprint the
    // provider reported: a key that was not verified is never pinned.
    static bool pinHostKey(const QString &knownHostsPath, const SshTarget &target, QString *error);

    // The `Host cardhour-NAME` block, between marker comments that let us find it again.
    static QString configBlock(const SshTarget &target, const QString &knownHostsPath);
    // Adds the block to `configPath` (created 0600 if missing, its folder 0700), or replaces the
    // one written before; every other byte of the file stays as it was. A new block goes first,
    // ending with `Match all`, so the user's own `Host *` lines cannot override the pinning.
    static bool addToConfig(const QString &configPath, const SshTarget &target,
                            const QString &knownHostsPath, QString *error);
    // Removes the block again (no-op when absent).
    static bool removeFromConfig(const QString &configPath, const QString &instanceName,
                                 QString *error);

    // The arguments of `ssh` that connect like the built-in terminal (program not included).
    static QStringList sshArguments(const SshTarget &target, const QString &knownHostsPath);
    // The same as one line for a POSIX shell, for "Copy SSH command".
    static QString sshCommandLine(const SshTarget &target, const QString &knownHostsPath);

private:
    static QString beginMarker(const QString &alias);
    static QString endMarker(const QString &alias);
};

} // namespace cardhour::core
