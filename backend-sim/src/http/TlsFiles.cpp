#include "TlsFiles.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>

#include <memory>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

using namespace Qt::StringLiterals;

namespace cardhour::http {

namespace {

constexpr qint64 kMaxPemBytes = 1024 * 1024;

std::optional<QByteArray> readSmallFile(const QString &path, const QString &what, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read the TLS %1 %2: %3"_s.arg(what, path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxPemBytes) {
        *error = u"the TLS %1 %2 is larger than 1 MiB: not a PEM file"_s.arg(what, path);
        return std::nullopt;
    }
    return file.readAll();
}

// Whether `key` is the private half of `certificate`'s public key (OpenSSL compares them).
bool keyMatchesCertificate(const QByteArray &certificatePem, const QByteArray &keyPem)
{
    const std::unique_ptr<BIO, decltype(&BIO_free)> certBio(
        BIO_new_mem_buf(certificatePem.constData(), int(certificatePem.size())), BIO_free);
    const std::unique_ptr<BIO, decltype(&BIO_free)> keyBio(
        BIO_new_mem_buf(keyPem.constData(), int(keyPem.size())), BIO_free);
    if (!certBio || !keyBio)
        return false;
    const std::unique_ptr<X509, decltype(&X509_free)> cert(
        PEM_read_bio_X509(certBio.get(), nullptr, nullptr, nullptr), X509_free);
    const std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr), EVP_PKEY_free);
    return cert && key && X509_check_private_key(cert.get(), key.get()) == 1;
}

} // namespace

std::optional<QSslConfiguration> loadServerTls(const QString &certFile, const QString &keyFile,
                                               QString *error)
{
    if (!QSslSocket::supportsSsl()) {
        *error = u"this Qt has no usable TLS backend (%1), so HTTPS cannot be served"_s.arg(
            QSslSocket::activeBackend().isEmpty() ? u"none found"_s : QSslSocket::activeBackend());
        return std::nullopt;
    }
    const std::optional<QByteArray> certPem = readSmallFile(certFile, u"certificate"_s, error);
    if (!certPem)
        return std::nullopt;
    const std::optional<QByteArray> keyPem = readSmallFile(keyFile, u"key"_s, error);
    if (!keyPem)
        return std::nullopt;
#ifndef Q_OS_WIN
    // Like sshd with its host keys: a key every user of the machine can read is no secret.
    // Group access stays allowed (Debian's ssl-cert group reads /etc/ssl/private this way).
    if (QFileInfo(keyFile).permissions() & (QFile::ReadOther | QFile::WriteOther)) {
        *error =
            u"the TLS key %1 can be read or written by every user of this machine: make it "
            "private (chmod 600 %1) and, since others may have copied it, consider a new one"_s.arg(
                keyFile);
        return std::nullopt;
    }
#endif

    const QList<QSslCertificate> chain = QSslCertificate::fromData(*certPem, QSsl::Pem);
    if (chain.isEmpty() || chain.constFirst().isNull()) {
        *error = u"%1 holds no PEM certificate (-----BEGIN CERTIFICATE-----)"_s.arg(certFile);
        return std::nullopt;
    }
    const QSslCertificate &certificate = chain.constFirst();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (certificate.expiryDate() < now) {
        *error = u"the TLS certificate %1 expired on %2"_s.arg(
            certFile, certificate.expiryDate().toString(Qt::ISODate));
        return std::nullopt;
    }
    if (certificate.effectiveDate() > now) {
        *error = u"the TLS certificate %1 is valid only from %2"_s.arg(
            certFile, certificate.effectiveDate().toString(Qt::ISODate));
        return std::nullopt;
    }

    QSslKey key;
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec}) {
        key = QSslKey(*keyPem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            break;
    }
    if (key.isNull()) {
        *error =
            u"%1 holds no usable private key (PEM, RSA or EC, without a passphrase)"_s.arg(keyFile);
        return std::nullopt;
    }
    if (!keyMatchesCertificate(*certPem, *keyPem)) {
        *error = u"the key %1 does not belong to the certificate %2"_s.arg(keyFile, certFile);
        return std::nullopt;
    }

    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificateChain(chain);
    config.setPrivateKey(key);
    config.setProtocol(QSsl::TlsV1_2OrLater);
    config.setPeerVerifyMode(QSslSocket::VerifyNone); // clients prove themselves by token
    return config;
}

} // namespace cardhour::http
