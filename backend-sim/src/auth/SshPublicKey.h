#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace cardhour::sim {

// A validated OpenSSH public key line ("ssh-ed25519 AAAA... comment").
// Accepted: ssh-ed25519 (32-byte key), ecdsa-sha2-nistp256/384/521 (point on the named curve,
// checked with OpenSSL), ssh-rsa with a modulus of at least 2048 bits and an odd exponent > 1.
// The base64 blob must decode to exactly the fields of its type (nothing left over) and its
// inner type string must equal the outer one.
struct SshPublicKey
{
    QString type; // e.g. "ssh-ed25519"
    QByteArray blob; // decoded wire-format key
    QString comment; // may be empty
    int bits = 0; // 256 for ed25519, curve size for ecdsa, modulus bits for rsa

    // "SHA256:" + unpadded base64 of SHA-256(blob), exactly as `ssh-keygen -l` prints it.
    QString fingerprintSha256() const;
    // "type base64" (no comment): the canonical form stored and compared for duplicates.
    QString canonical() const;

    // Returns the key or std::nullopt with a human-readable reason in *error.
    static std::optional<SshPublicKey> parse(const QString &line, QString *error);
};

} // namespace cardhour::sim
