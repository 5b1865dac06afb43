#pragma once

#include <QCoreApplication>
#include <QList>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QString>

#include <optional>

namespace cardhour::core {

// Whom the client trusts for an https:// provider: the system's certificate authorities, plus
// the ones the user gives for a provider with its own (a self-signed sandbox on another
// machine, say). Both the REST client and the event stream use the same configuration, and a
// certificate that does not verify is never accepted: there is no "ignore" switch, since the
// password and token would then go to whoever answers.
class TlsTrust
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::TlsTrust)
public:
    TlsTrust() = delete;

    // The PEM certificates in `path` (one or more), or nullopt with a translated *error.
    static std::optional<QList<QSslCertificate>> loadCaFile(const QString &path, QString *error);
    // The configuration for requests: the system's authorities plus `extraCas`.
    static QSslConfiguration configuration(const QList<QSslCertificate> &extraCas);
    // A translated sentence on why `host`'s certificate was refused, naming each reason.
    static QString refusal(const QString &host, const QList<QSslError> &errors, bool extraCasGiven);
};

} // namespace cardhour::core
