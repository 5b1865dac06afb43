#pragma once

#include <QSslConfiguration>
#include <QString>

#include <optional>

namespace cardhour::http {

// What an HTTPS listener presents, read from the operator's PEM files: `certFile` holds the
// server's certificate first, then any intermediate ones; `keyFile` its private key (RSA or
// EC, without a passphrase). Checked before anything listens, so that a wrong file is a clear
// message at start instead of a handshake that fails for every client: both files readable
// and PEM, the certificate valid today, the key the certificate's own.
// Returns the configuration, or nullopt with the reason in *error.
std::optional<QSslConfiguration> loadServerTls(const QString &certFile, const QString &keyFile,
                                               QString *error);

} // namespace cardhour::http
