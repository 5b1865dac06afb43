#pragma once

#include <QString>

namespace cardhour::core {

struct Instance;
class SshKeyPair;

// Everything needed to reach one instance over SSH: where, as whom, with which key, and the
// host key the provider says the instance has (the only one a connection accepts).
struct SshTarget
{
    QString host;
    int port = 22;
    QString user;
    // "SHA256:..." from the provider (`ssh.host_key_sha256`); a connection without it is refused.
    QString expectedHostKeySha256;
    QString hostKeyLine; // "ssh-ed25519 AAAA..." when the provider reports it (for known_hosts)
    QString privateKeyPath;
    QString passphrase; // empty: the key has none
    QString keyFingerprint; // of the public key, for messages
    QString instanceName; // for messages and the ~/.ssh/config alias

    // From a running instance's `ssh` object and a key; invalid (empty host) without `ssh`.
    static SshTarget fromInstance(const Instance &instance, const SshKeyPair &key,
                                  const QString &passphrase = {});
    bool isValid() const { return !host.isEmpty() && port > 0 && !user.isEmpty(); }
    // "user@host:port" for messages.
    QString describe() const;
};

} // namespace cardhour::core
