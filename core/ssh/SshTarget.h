#pragma once

#include <QCoreApplication>
#include <QString>

namespace cardhour::core {

struct Instance;
class SshKeyPair;

// Everything needed to reach one instance over SSH: where, as whom, with which key, and the
// host key the provider says the instance has (the only one a connection accepts).
//
// `host` and `user` come from the provider and end up in ~/.ssh/config, known_hosts lines,
// shell command lines and libssh: a target is valid only while both are safe there (see
// hostProblem(), userProblem()), so every path that checks isValid() refuses a hostile answer.
struct SshTarget
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::SshTarget)
public:
    QString host;
    int port = 22;
    QString user;
    // "SHA256:..." from the provider (`ssh.host_key_sha256`); a connection without it is refused.
    QString expectedHostKeySha256;
    QString hostKeyLine; // "ssh-ed25519 AAAA..." when the provider reports it (for known_hosts)
    QString privateKeyPath;
    QString passphrase; // empty: the key has none
    // The same private key without its passphrase (OpenSSH base64), when SshKeyStore has
    // unlocked it ahead: connecting then skips the passphrase's key derivation.
    QByteArray unlockedKey;
    QString keyFingerprint; // of the public key, for messages
    QString instanceName; // for messages and the ~/.ssh/config alias

    // From a running instance's `ssh` object and a key; invalid (empty host) without `ssh`.
    static SshTarget fromInstance(const Instance &instance, const SshKeyPair &key,
                                  const QString &passphrase = {});
    bool isValid() const { return port > 0 && port <= 65535 && problem().isEmpty(); }
    // Why the target is not valid (translated), or empty when it is.
    QString problem() const;
    // A DNS name (letters, digits and hyphens in dot-separated labels of at most 63, none
    // starting or ending with a hyphen, 253 in all) or an IP literal without a zone; empty when
    // `host` is one, else why not (translated).
    static QString hostProblem(const QString &host);
    // A POSIX user name: [a-z_][a-z0-9_-]*[$]?, at most 32 characters.
    static QString userProblem(const QString &user);
    // "user@host:port" for messages.
    QString describe() const;
};

} // namespace cardhour::core
