#pragma once

#include <QCoreApplication>
#include <QString>

struct ssh_key_struct; // libssh's ssh_key

namespace cardhour::core {

// One SSH key pair on disk: a private key file (OpenSSH format, possibly passphrase-protected)
// and its public key line. Generated keys live in the app's data folder; imported ones stay
// where the user keeps them (~/.ssh/id_*), we only remember their paths.
class SshKeyPair
{
    Q_DECLARE_TR_FUNCTIONS(SshKeyPair)
public:
    SshKeyPair() = default;

    // Generates an ed25519 key with libssh and writes `privatePath` (0600, created with those
    // permissions, never wider for a moment) and `privatePath`.pub. An empty passphrase writes
    // an unencrypted key. Refuses to overwrite an existing file. False + `error` on failure.
    static bool generate(const QString &privatePath, const QString &passphrase,
                         const QString &comment, SshKeyPair *out, QString *error);
    // Reads `publicPath` (an OpenSSH .pub line); the private key is `publicPath` without ".pub".
    static bool fromPublicKeyFile(const QString &publicPath, SshKeyPair *out, QString *error);
    // Whether the private key opens with `passphrase` (empty: none) and belongs to this public key.
    bool checkPrivateKey(const QString &passphrase, QString *error) const;
    // Reads a private key file with `passphrase` (empty: none), never asking on a terminal;
    // nullptr when it cannot. The caller frees the key (ssh_key_free).
    static ssh_key_struct *importPrivateKey(const QString &privatePath, const QString &passphrase);
    // The same for a key held in memory without a passphrase (unlockedCopy()).
    static ssh_key_struct *importUnlockedKey(const QByteArray &base64);
    // The private key opened with `passphrase` and written again without one (OpenSSH base64),
    // for memory only; empty when it does not open. Slow: the passphrase's key derivation.
    QByteArray unlockedCopy(const QString &passphrase) const;

    // "SHA256:" + unpadded base64 of SHA-256 of the key blob, as `ssh-keygen -l` prints it;
    // empty when the line is not a public key libssh can read.
    static QString fingerprintOfPublicKeyLine(const QString &line);
    // The fingerprint of a raw key blob (what the SSH protocol carries).
    static QString fingerprintOfBlob(const QByteArray &blob);

    bool isValid() const { return !m_publicKeyLine.isEmpty(); }
    QString privatePath() const { return m_privatePath; }
    QString publicPath() const { return m_privatePath + QStringLiteral(".pub"); }
    // "ssh-ed25519 AAAA... comment": what POST /v1/ssh-keys takes.
    QString publicKeyLine() const { return m_publicKeyLine; }
    QString type() const; // "ssh-ed25519", ...
    QString comment() const;
    QString fingerprintSha256() const { return m_fingerprint; }

private:
    QString m_privatePath;
    QString m_publicKeyLine;
    QString m_fingerprint;
};

} // namespace cardhour::core
