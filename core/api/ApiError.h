#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace cardhour::core {

// Why a provider call did not give a result. One value type for every call, so the UI has one
// place that turns failures into words (userMessage()) and one switch for what to do next.
struct ApiError
{
    // The full name, as for QObject classes, so lupdate and the runtime agree on the context.
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::ApiError)
public:
    enum class Kind {
        None, // no error
        Network, // no HTTP response: refused, reset, DNS, TLS, ... (`detail` says which)
        Timeout, // no complete response within the client's timeout
        Http, // the provider answered with a status of 400 or above
        InvalidJson, // a successful status, but a body that is not the JSON the API promises
        Cancelled, // aborted by the caller (ApiReply::abort)
    };

    Kind kind = Kind::None;
    int httpStatus = 0; // Http (and InvalidJson: the status that came with the bad body)
    QString code; // the provider's `error.code` (api/ProviderCodes.h: ErrorCode); may be empty
    QString message; // the provider's `error.message`: English, for logs and as a fallback
    QString detail; // Network / InvalidJson / Timeout: what went wrong, for logs
    // The provider's `error.details`, where it gives them (spending_limit_reached: period,
    // max_micros, spent_micros).
    QJsonObject details;

    static ApiError network(const QString &detail);
    // A Network error: the provider's TLS certificate did not verify; `detail` is the whole
    // translated sentence (TlsTrust::refusal), shown as it is.
    static ApiError certificateRefused(const QString &sentence);
    static ApiError timeout(int timeoutMs);
    static ApiError http(int status, const QString &code, const QString &message);
    static ApiError invalidJson(int status, const QString &detail);
    static ApiError cancelled();

    bool isError() const { return kind != Kind::None; }
    // 401 on a request that carried a token: the token is no longer valid.
    bool isUnauthorized() const { return kind == Kind::Http && httpStatus == 401; }
    // Whether the provider was reached at all (Network/Timeout: maybe it is down).
    bool isUnreachable() const { return kind == Kind::Network || kind == Kind::Timeout; }
    bool isCertificateRefused() const;

    // A translated sentence for the user. Known provider codes get their own wording; other
    // HTTP errors fall back to the provider's English message.
    QString userMessage() const;
    // One line for logs and test failures: "HTTP 409 email_taken: ...", "network: ...".
    QString describe() const;
};

} // namespace cardhour::core

Q_DECLARE_METATYPE(cardhour::core::ApiError)
