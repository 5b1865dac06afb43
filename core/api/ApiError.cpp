#include "api/ApiError.h"

#include "api/ProviderCodes.h"
#include "billing/Money.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace cardhour::core {

ApiError ApiError::network(const QString &detail)
{
    ApiError e;
    e.kind = Kind::Network;
    e.detail = detail;
    return e;
}

namespace {
// The client's own code (no provider sends it): see ProviderCodes.h for the provider's.
constexpr auto kCertificateRefused = "certificate_refused"_L1;
} // namespace

ApiError ApiError::certificateRefused(const QString &sentence)
{
    ApiError e = network(sentence);
    e.code = kCertificateRefused;
    return e;
}

bool ApiError::isCertificateRefused() const
{
    return kind == Kind::Network && code == kCertificateRefused;
}

ApiError ApiError::timeout(int timeoutMs)
{
    ApiError e;
    e.kind = Kind::Timeout;
    e.detail = u"no complete response within %1 ms"_s.arg(timeoutMs);
    return e;
}

ApiError ApiError::http(int status, const QString &code, const QString &message)
{
    ApiError e;
    e.kind = Kind::Http;
    e.httpStatus = status;
    e.code = code;
    e.message = message;
    return e;
}

ApiError ApiError::invalidJson(int status, const QString &detail)
{
    ApiError e;
    e.kind = Kind::InvalidJson;
    e.httpStatus = status;
    e.detail = detail;
    return e;
}

ApiError ApiError::cancelled()
{
    ApiError e;
    e.kind = Kind::Cancelled;
    return e;
}

QString ApiError::userMessage() const
{
    switch (kind) {
    case Kind::None:
        return {};
    case Kind::Network:
        if (isCertificateRefused())
            return detail;
        return tr("The provider cannot be reached (%1).").arg(detail);
    case Kind::Timeout:
        return tr("The provider did not answer in time.");
    case Kind::InvalidJson:
        return tr("The provider sent an answer this version of CardHour does not understand.");
    case Kind::Cancelled:
        return tr("The request was cancelled.");
    case Kind::Http:
        break;
    }
    // Codes the user can act on get a sentence that says what to do; the provider's own
    // message (English) is the fallback for everything else, so nothing is ever hidden.
    struct Known
    {
        QLatin1StringView code;
        const char *text;
    };
    static constexpr Known known[] = {
        {ErrorCode::InvalidCredentials, QT_TR_NOOP("Wrong e-mail address or password.")},
        {ErrorCode::EmailTaken, QT_TR_NOOP("An account with this e-mail address already exists.")},
        {ErrorCode::WeakPassword, QT_TR_NOOP("The password must have at least 8 characters.")},
        {ErrorCode::InvalidEmail, QT_TR_NOOP("This is not a valid e-mail address.")},
        {ErrorCode::TooManyAttempts,
         QT_TR_NOOP("Too many failed log-ins. Please wait and try again.")},
        {ErrorCode::Unauthorized, QT_TR_NOOP("Your session has expired. Please log in again.")},
        {ErrorCode::TokenExpired, QT_TR_NOOP("Your log-in has expired. Please log in again.")},
        {ErrorCode::InsufficientBalance,
         QT_TR_NOOP("The balance is too low to run this instance for a minute. Top up first.")},
        {ErrorCode::NotEnoughGpus, QT_TR_NOOP("Not enough GPUs of this type are free right now.")},
        {ErrorCode::IllegalTransition,
         QT_TR_NOOP("The instance cannot do that in its current state.")},
        {ErrorCode::NotFound, QT_TR_NOOP("It no longer exists.")},
        {ErrorCode::DuplicateSshKey, QT_TR_NOOP("This SSH key is already on your account.")},
        {ErrorCode::InvalidSshKey, QT_TR_NOOP("This is not a usable OpenSSH public key.")},
        {ErrorCode::BalanceLimit, QT_TR_NOOP("A balance may not exceed 1,000,000 yuan.")},
        {ErrorCode::GpuTypeRetired, QT_TR_NOOP("This GPU type is no longer offered.")},
        {ErrorCode::InvalidRequest,
         QT_TR_NOOP("A spending limit must be zero or more, and an alert no higher than its "
                    "maximum.")},
        {ErrorCode::InvalidState, QT_TR_NOOP("The instance cannot do that now.")},
        {ErrorCode::HostDiskFull,
         QT_TR_NOOP("The provider's disk is nearly full: it takes on no new instances, snapshots "
                    "or uploads until space is freed. Running instances carry on.")},
        {ErrorCode::ModelNameTaken,
         QT_TR_NOOP("This name is taken by a public model or by one of your models or "
                    "unfinished uploads. Choose another name.")},
        {ErrorCode::UnknownModel, QT_TR_NOOP("The provider has no model by this name.")},
        {ErrorCode::UnknownUpload,
         QT_TR_NOOP("The provider no longer has this upload. Upload the file again.")},
        {ErrorCode::UploadChecksumMismatch,
         QT_TR_NOOP("The file the provider received does not match the SHA-256 measured on "
                    "this computer (the file changed while it was sent). The provider "
                    "discarded it: upload it again.")},
        {ErrorCode::ChunkChecksumMismatch,
         QT_TR_NOOP("Part of the file was damaged on the way, again and again. What arrived "
                    "intact is kept: try again later to carry on.")},
    };
    for (const Known &entry : known) {
        if (code == entry.code)
            return tr(entry.text);
    }
    if (code == ErrorCode::SpendingLimitReached) {
        // Named from the provider's own figures: the period, its maximum and what it spent.
        const QString period = details.value("period"_L1).toString();
        const QString max = Money::format(details.value("max_micros"_L1).toInteger());
        const QString spent = Money::format(details.value("spent_micros"_L1).toInteger());
        if (period == "day"_L1)
            return tr("Today's spending limit of %1 leaves no room for another minute "
                      "(%2 spent). Raise the limit or wait for tomorrow.")
                .arg(max, spent);
        if (period == "month"_L1)
            return tr("This month's spending limit of %1 leaves no room for another minute "
                      "(%2 spent). Raise the limit or wait for next month.")
                .arg(max, spent);
        if (period == "total"_L1)
            return tr("The total spending limit of %1 leaves no room for another minute "
                      "(%2 spent). Raise the limit to go on.")
                .arg(max, spent);
    }
    if (code == ErrorCode::ModelStorageLimit && details.contains("limit_bytes"_L1)) {
        const QLocale locale;
        const auto bytes = [&](QLatin1StringView key) {
            return locale.formattedDataSize(details.value(key).toInteger(), 1,
                                            QLocale::DataSizeIecFormat);
        };
        return tr("This file (%1) does not fit: your models and unfinished uploads already "
                  "take %2 of the %3 an account may keep. Delete a model or an unfinished "
                  "upload first.")
            .arg(bytes("size_bytes"_L1), bytes("used_bytes"_L1), bytes("limit_bytes"_L1));
    }
    if (!message.isEmpty())
        return tr("The provider refused the request: %1").arg(message);
    return tr("The provider answered with HTTP status %1.").arg(httpStatus);
}

QString ApiError::describe() const
{
    switch (kind) {
    case Kind::None:
        return u"no error"_s;
    case Kind::Network:
        return u"network: "_s + detail;
    case Kind::Timeout:
        return u"timeout: "_s + detail;
    case Kind::InvalidJson:
        return u"invalid JSON (HTTP %1): %2"_s.arg(httpStatus).arg(detail);
    case Kind::Cancelled:
        return u"cancelled"_s;
    case Kind::Http:
        break;
    }
    return u"HTTP %1 %2: %3"_s.arg(httpStatus).arg(code, message);
}

} // namespace cardhour::core
