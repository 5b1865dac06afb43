#include "Sha256.h"

#include <QByteArray>

#include <openssl/evp.h>

namespace cardhour::sim {

namespace {
// Fetched once: EVP_sha256() makes OpenSSL 3 look the implementation up on every use.
const EVP_MD *sha256Method()
{
    static EVP_MD *const method = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (!method)
        qFatal("Sha256: OpenSSL has no SHA-256");
    return method;
}
} // namespace

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free)
{
    reset();
}

Sha256::~Sha256() = default;

void Sha256::reset()
{
    if (!m_ctx || EVP_DigestInit_ex(m_ctx.get(), sha256Method(), nullptr) != 1)
        qFatal("Sha256: cannot start a digest");
}

void Sha256::addData(QByteArrayView data)
{
    if (EVP_DigestUpdate(m_ctx.get(), data.data(), static_cast<size_t>(data.size())) != 1)
        qFatal("Sha256: digest update failed");
}

QString Sha256::hex() const
{
    const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> copy(EVP_MD_CTX_new(),
                                                                   EVP_MD_CTX_free);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!copy || EVP_MD_CTX_copy_ex(copy.get(), m_ctx.get()) != 1
        || EVP_DigestFinal_ex(copy.get(), digest, &length) != 1)
        qFatal("Sha256: digest failed");
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(digest), qsizetype(length)).toHex());
}

QString Sha256::hexOf(QByteArrayView data)
{
    Sha256 sha;
    sha.addData(data);
    return sha.hex();
}

} // namespace cardhour::sim
