#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace cardhour {

// How the client knows that a process answering as CardHour Sandbox is the user's own.
//
// At every start cardhour-sim writes 32 random bytes (hex) into `sandbox-secret` in its data
// directory, a file only its owner can read (created 0600, never widened). A client that means to
// attach reads that file from the data directory it expects, sends a fresh random nonce to
// POST /v1/_sandbox/prove and compares the answer with proof(secret, nonce, port): an HMAC-SHA256
// over the nonce and the TCP port the request arrived on. Another local user can bind the port
// and copy the health answer, but cannot read the file; relaying the nonce to the real sandbox
// does not help either, since the real one answers for its own port, not the impostor's.
class SandboxSecret
{
public:
    SandboxSecret() = delete;

    static QString filePath(const QString &dataDir);
    // The provider: a fresh secret, written to filePath() with owner-only permissions (a
    // temporary file created 0600 then renamed over the old one). Empty and `*error` set on
    // failure.
    static QByteArray create(const QString &dataDir, QString *error);
    // The client: the secret in `dataDir`, or nullopt with `*error` (untranslated detail) when it
    // is missing, unreadable, or readable by others or owned by someone else (Unix).
    static std::optional<QByteArray> read(const QString &dataDir, QString *error);

    // 64 hex digits of fresh randomness.
    static QByteArray newNonce();
    // Nonces are 32 to 128 hex digits.
    static bool isValidNonce(const QByteArray &nonce);
    // Hex HMAC-SHA256(secret, "cardhour-sandbox-proof/v1\n" + nonce + "\n" + port).
    static QByteArray proof(const QByteArray &secret, const QByteArray &nonce, quint16 port);
    // Compares two proofs in time that does not depend on where they differ.
    static bool proofsEqual(const QByteArray &a, const QByteArray &b);
};

} // namespace cardhour
