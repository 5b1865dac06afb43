#include "PasswordHasher.h"

#include <QList>
#include <QtDebug>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <optional>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kSaltBytes = 16;
constexpr int kHashBytes = 32;
constexpr int kMinSaltBytes = 8;
constexpr int kMaxSaltBytes = 64;
constexpr quint64 kMaxN = quint64(1) << 20;
constexpr quint64 kMaxR = 64;
constexpr quint64 kMaxP = 64;
constexpr quint64 kMaxRTimesP = 256;
// Upper bound on the memory one verification may take (N = 2^20 with r = 8 is 1 GiB).
constexpr quint64 kMaxMemoryBytes = (quint64(1) << 30) + (quint64(1) << 22);
constexpr qsizetype kMaxEncodedLength = 512;

// Memory OpenSSL's scrypt allocates (B and V arrays), computed the way it checks maxmem.
quint64 scryptMemory(const PasswordHasher::Params &p)
{
    return quint64(128) * p.r * (p.n + 2) + quint64(128) * p.r * p.p;
}

bool paramsAcceptable(const PasswordHasher::Params &p)
{
    if (p.n < 2 || p.n > kMaxN || (p.n & (p.n - 1)) != 0)
        return false;
    if (p.r < 1 || p.r > kMaxR || p.p < 1 || p.p > kMaxP)
        return false;
    if (quint64(p.r) * p.p > kMaxRTimesP)
        return false;
    return scryptMemory(p) <= kMaxMemoryBytes;
}

// Plain decimal, no sign, no leading zeros, at most 10 digits.
std::optional<quint64> parseDecimal(QByteArrayView text)
{
    if (text.isEmpty() || text.size() > 10 || (text.size() > 1 && text.front() == '0'))
        return std::nullopt;
    quint64 value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + quint64(c - '0');
    }
    return value;
}

std::optional<QByteArray> parseBase64(const QByteArray &text)
{
    for (const char c : text) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
            || c == '+' || c == '/' || c == '=';
        if (!ok)
            return std::nullopt;
    }
    auto result = QByteArray::fromBase64Encoding(text, QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return std::nullopt;
    return std::move(result.decoded);
}

QString opensslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return u"unknown error"_s;
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    return QString::fromLatin1(buf);
}

bool deriveKey(const QByteArray &password, const QByteArray &salt, const PasswordHasher::Params &p,
               unsigned char *out)
{
    const quint64 maxMem = scryptMemory(p) + (quint64(1) << 20);
    return EVP_PBE_scrypt(password.constData(), static_cast<size_t>(password.size()),
                          reinterpret_cast<const unsigned char *>(salt.constData()),
                          static_cast<size_t>(salt.size()), p.n, p.r, p.p, maxMem, out, kHashBytes)
        == 1;
}

} // namespace

QByteArray PasswordHasher::hash(const QString &password) const
{
    if (!paramsAcceptable(m_params)) {
        qWarning("PasswordHasher: refusing scrypt parameters N=%llu r=%u p=%u",
                 static_cast<unsigned long long>(m_params.n), m_params.r, m_params.p);
        return {};
    }
    QByteArray salt(kSaltBytes, Qt::Uninitialized);
    if (RAND_bytes(reinterpret_cast<unsigned char *>(salt.data()), kSaltBytes) != 1) {
        qWarning("PasswordHasher: RAND_bytes failed: %s", qPrintable(opensslError()));
        return {};
    }
    QByteArray utf8 = password.toUtf8();
    unsigned char derived[kHashBytes];
    const bool ok = deriveKey(utf8, salt, m_params, derived);
    OPENSSL_cleanse(utf8.data(), static_cast<size_t>(utf8.size()));
    if (!ok) {
        qWarning("PasswordHasher: scrypt failed: %s", qPrintable(opensslError()));
        return {};
    }
    const QByteArray hashBytes(reinterpret_cast<const char *>(derived), kHashBytes);
    OPENSSL_cleanse(derived, sizeof derived);

    QByteArray encoded = "scrypt$"_ba;
    encoded += QByteArray::number(m_params.n);
    encoded += '$';
    encoded += QByteArray::number(m_params.r);
    encoded += '$';
    encoded += QByteArray::number(m_params.p);
    encoded += '$';
    encoded += salt.toBase64();
    encoded += '$';
    encoded += hashBytes.toBase64();
    return encoded;
}

bool PasswordHasher::needsRehash(const QByteArray &encoded) const
{
    const QList<QByteArray> parts = encoded.split('$');
    if (parts.size() != 6 || parts.at(0) != "scrypt"_ba)
        return true;
    const auto n = parseDecimal(parts.at(1));
    const auto r = parseDecimal(parts.at(2));
    const auto p = parseDecimal(parts.at(3));
    // Only ever upwards: a provider run at a lower cost (tests) does not weaken stored hashes.
    return !n || !r || !p || *n < m_params.n || *r < m_params.r || *p < m_params.p;
}

bool PasswordHasher::verify(const QString &password, const QByteArray &encoded) const
{
    if (encoded.isEmpty() || encoded.size() > kMaxEncodedLength)
        return false;
    const QList<QByteArray> parts = encoded.split('$');
    if (parts.size() != 6 || parts.at(0) != "scrypt"_ba)
        return false;
    const auto n = parseDecimal(parts.at(1));
    const auto r = parseDecimal(parts.at(2));
    const auto p = parseDecimal(parts.at(3));
    if (!n || !r || !p || *r > 0xffffffffu || *p > 0xffffffffu)
        return false;
    Params params;
    params.n = *n;
    params.r = static_cast<quint32>(*r);
    params.p = static_cast<quint32>(*p);
    if (!paramsAcceptable(params))
        return false;
    const auto salt = parseBase64(parts.at(4));
    const auto expected = parseBase64(parts.at(5));
    if (!salt || !expected || salt->size() < kMinSaltBytes || salt->size() > kMaxSaltBytes
        || expected->size() != kHashBytes) {
        return false;
    }

    QByteArray utf8 = password.toUtf8();
    unsigned char derived[kHashBytes];
    const bool ok = deriveKey(utf8, *salt, params, derived);
    OPENSSL_cleanse(utf8.data(), static_cast<size_t>(utf8.size()));
    if (!ok) {
        qWarning("PasswordHasher: scrypt failed: %s", qPrintable(opensslError()));
        return false;
    }
    const bool equal = CRYPTO_memcmp(derived, expected->constData(), kHashBytes) == 0;
    OPENSSL_cleanse(derived, sizeof derived);
    return equal;
}

} // namespace cardhour::sim
