#include "Tokens.h"

#include <QtGlobal>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

namespace cardhour::sim::tokens {

QByteArray randomBytes(int count)
{
    if (count <= 0)
        return {};
    QByteArray out(count, Qt::Uninitialized);
    if (RAND_bytes(reinterpret_cast<unsigned char *>(out.data()), count) != 1) {
        // Never hand out predictable secrets: without a working CSPRNG nothing is safe.
        qFatal("tokens: RAND_bytes failed (no usable OS random source)");
    }
    return out;
}

QByteArray generate()
{
    return randomBytes(32).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray hashForStorage(QByteArrayView token)
{
    // Fetched once: EVP_sha256() makes OpenSSL 3 look the implementation up on every digest,
    // and this runs for every authenticated request.
    static EVP_MD *const sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digestLen = 0;
    if (!sha256
        || EVP_Digest(token.data(), static_cast<size_t>(token.size()), digest, &digestLen, sha256,
                      nullptr)
            != 1
        || digestLen != 32) {
        qFatal("tokens: SHA-256 failed");
    }
    return QByteArray(reinterpret_cast<const char *>(digest), static_cast<qsizetype>(digestLen))
        .toHex();
}

bool constantTimeEquals(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    if (a.isEmpty())
        return true;
    return CRYPTO_memcmp(a.data(), b.data(), static_cast<size_t>(a.size())) == 0;
}

} // namespace cardhour::sim::tokens
