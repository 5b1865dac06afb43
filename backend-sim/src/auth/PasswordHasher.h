#pragma once

#include <QByteArray>
#include <QString>

namespace cardhour::sim {

// scrypt (OpenSSL EVP_PBE_scrypt) with a random 16-byte salt per password. The encoded form
// carries its own parameters so they can be raised later without breaking old hashes:
//   "scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>"   (hash is 32 bytes)
// The default cost, N = 2^17 with r = 8 (128 MiB, a few hundred ms), is what a stolen database
// costs an attacker per guess; hashes made at a lower cost still verify, and needsRehash()
// says when to make them again (Accounts does at the next good log-in).
class PasswordHasher
{
public:
    struct Params
    {
        static constexpr quint64 kDefaultN = quint64(1) << 17;
        quint64 n = kDefaultN; // CPU/memory cost (128 MiB with r = 8)
        quint32 r = 8;
        quint32 p = 1;
    };

    PasswordHasher() = default;
    explicit PasswordHasher(Params params) : m_params(params) {}

    // Returns the encoded hash; empty only if OpenSSL fails (then qWarning says why).
    QByteArray hash(const QString &password) const;
    // Constant-time comparison (CRYPTO_memcmp) against an encoded hash made by hash(), with the
    // parameters stored in it. A malformed encoded string returns false.
    bool verify(const QString &password, const QByteArray &encoded) const;
    // Whether `encoded` was made at a lower cost than this hasher's (or is malformed), so that
    // a password verified against it should be hashed again.
    bool needsRehash(const QByteArray &encoded) const;

    Params params() const { return m_params; }

private:
    Params m_params;
};

} // namespace cardhour::sim
