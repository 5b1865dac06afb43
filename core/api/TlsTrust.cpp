#include "api/TlsTrust.h"

#include <QFile>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
constexpr qint64 kMaxCaFileBytes = 4 * 1024 * 1024;
} // namespace

std::optional<QList<QSslCertificate>> TlsTrust::loadCaFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read the CA certificate file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxCaFileBytes) {
        *error = tr("%1 is too large to be a CA certificate file.").arg(path);
        return std::nullopt;
    }
    const QList<QSslCertificate> certificates =
        QSslCertificate::fromData(file.readAll(), QSsl::Pem);
    if (certificates.isEmpty() || certificates.constFirst().isNull()) {
        *error = tr("%1 holds no PEM certificate (-----BEGIN CERTIFICATE-----).").arg(path);
        return std::nullopt;
    }
    return certificates;
}

QSslConfiguration TlsTrust::configuration(const QList<QSslCertificate> &extraCas)
{
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setProtocol(QSsl::TlsV1_2OrLater);
    config.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (!extraCas.isEmpty())
        config.addCaCertificates(extraCas);
    return config;
}

QString TlsTrust::refusal(const QString &host, const QList<QSslError> &errors, bool extraCasGiven)
{
    QStringList reasons;
    for (const QSslError &error : errors) {
        if (!reasons.contains(error.errorString()))
            reasons.append(error.errorString());
    }
    QString text =
        tr("CardHour refused the certificate of %1 (%2), so nothing was sent to it: not the "
           "password, not the token.")
            .arg(host, reasons.join(u"; "_s));
    if (!extraCasGiven)
        text += u' '
            + tr("If this provider uses its own certificate authority, give its CA certificate "
                 "with --ca FILE.");
    return text;
}

} // namespace cardhour::core
