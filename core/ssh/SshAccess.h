#pragma once

#include "api/Models.h"
#include "ssh/SshKeyPair.h"
#include "ssh/SshTarget.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace cardhour::core {

// The one path from an instance as the provider describes it to an SSH target that OpenSSH may
// be pointed at: the local key (SshKeyChoice) and the provider's host key, pinned in CardHour's
// known_hosts only after its fingerprint matched `ssh.host_key_sha256`
// (SshConfigWriter::pinHostKey). Every known_hosts line, ~/.ssh/config block, copied command and
// system-terminal command is made from what resolve() returns: no key is trusted on first use.
class SshAccess
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::SshAccess)
public:
    enum class KeyNeed {
        Required, // a local key must open it (terminal, ~/.ssh/config, system terminal)
        Optional // "Copy SSH command": without a local key ssh offers the user's own keys
    };

    SshTarget target; // valid only when error is empty
    QString error; // translated
    bool ok() const { return error.isEmpty(); }

    static SshAccess resolve(const Instance &instance, const QList<SshKey> &providerKeys,
                             const QList<SshKeyPair> &localKeys, const QString &knownHostsPath,
                             KeyNeed need = KeyNeed::Required);

    // "Copy SSH command": resolve(..., Optional), then the command line for a POSIX shell; empty
    // with `error` set when the host key could not be checked and pinned. `target` (optional)
    // gets the target it was made for (its key, for SshAgent).
    static QString copiedCommand(const Instance &instance, const QList<SshKey> &providerKeys,
                                 const QList<SshKeyPair> &localKeys, const QString &knownHostsPath,
                                 QString *error, SshTarget *target = nullptr);
};

} // namespace cardhour::core
