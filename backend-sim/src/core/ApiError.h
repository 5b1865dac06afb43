#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <array>
#include <exception>
#include <utility>

namespace cardhour::sim {

// Every code the provider answers with in {"error":{"code":..,"message":..}}: the one list.
// backend-sim/api/openapi.yaml's Error.code enum names exactly these; openapi_conformance
// compares the two through `cardhour-sim --print-error-codes`. Header only, so that the HTTP
// layer (which links no more than Qt) uses the same names.
namespace ErrorCode {

// Requests the HTTP layer refuses before any route sees them.
inline constexpr QLatin1StringView BadRequest{"bad_request"};
inline constexpr QLatin1StringView PayloadTooLarge{"payload_too_large"};
inline constexpr QLatin1StringView UriTooLong{"uri_too_long"};
inline constexpr QLatin1StringView HeadersTooLarge{"headers_too_large"};
inline constexpr QLatin1StringView NotImplemented{"not_implemented"};
inline constexpr QLatin1StringView HttpVersionNotSupported{"http_version_not_supported"};
inline constexpr QLatin1StringView MethodNotAllowed{"method_not_allowed"};
// Any route.
inline constexpr QLatin1StringView NotFound{"not_found"};
inline constexpr QLatin1StringView Internal{"internal"};
inline constexpr QLatin1StringView Unavailable{"unavailable"};
inline constexpr QLatin1StringView Unauthorized{"unauthorized"};
inline constexpr QLatin1StringView InvalidJson{"invalid_json"};
inline constexpr QLatin1StringView InvalidField{"invalid_field"};
inline constexpr QLatin1StringView UnknownField{"unknown_field"};
inline constexpr QLatin1StringView InvalidQuery{"invalid_query"};
inline constexpr QLatin1StringView InvalidIdempotencyKey{"invalid_idempotency_key"};
inline constexpr QLatin1StringView IdempotencyKeyReused{"idempotency_key_reused"};
inline constexpr QLatin1StringView UnsupportedMediaType{"unsupported_media_type"};
inline constexpr QLatin1StringView ForbiddenOrigin{"forbidden_origin"};
// An account's limit (instances, snapshots, top-ups; the catalog's user_limits).
inline constexpr QLatin1StringView LimitReached{"limit_reached"};
// The host's free disk is below the provider's reserve (HostDiskReserve).
inline constexpr QLatin1StringView HostDiskFull{"host_disk_full"};
// Accounts.
inline constexpr QLatin1StringView InvalidEmail{"invalid_email"};
inline constexpr QLatin1StringView WeakPassword{"weak_password"};
inline constexpr QLatin1StringView EmailTaken{"email_taken"};
inline constexpr QLatin1StringView InvalidCredentials{"invalid_credentials"};
inline constexpr QLatin1StringView TooManyAttempts{"too_many_attempts"};
inline constexpr QLatin1StringView TokenExpired{"token_expired"};
inline constexpr QLatin1StringView TestSecretRequired{"test_secret_required"};
// SSH keys.
inline constexpr QLatin1StringView InvalidSshKey{"invalid_ssh_key"};
inline constexpr QLatin1StringView DuplicateSshKey{"duplicate_ssh_key"};
inline constexpr QLatin1StringView UnknownSshKey{"unknown_ssh_key"};
// Instances.
inline constexpr QLatin1StringView UnknownGpuType{"unknown_gpu_type"};
inline constexpr QLatin1StringView UnknownImage{"unknown_image"};
inline constexpr QLatin1StringView UnknownDataset{"unknown_dataset"};
inline constexpr QLatin1StringView InvalidGpuCount{"invalid_gpu_count"};
inline constexpr QLatin1StringView NotEnoughGpus{"not_enough_gpus"};
inline constexpr QLatin1StringView GpuTypeRetired{"gpu_type_retired"};
inline constexpr QLatin1StringView CardsBusy{"cards_busy"};
inline constexpr QLatin1StringView IllegalTransition{"illegal_transition"};
// Billing.
inline constexpr QLatin1StringView InsufficientBalance{"insufficient_balance"};
inline constexpr QLatin1StringView BalanceLimit{"balance_limit"};
// Spending limits and stop policies.
inline constexpr QLatin1StringView SpendingLimitReached{"spending_limit_reached"};
inline constexpr QLatin1StringView InvalidRequest{"invalid_request"};
inline constexpr QLatin1StringView InvalidState{"invalid_state"};
// Snapshots.
inline constexpr QLatin1StringView UnknownSnapshot{"unknown_snapshot"};
inline constexpr QLatin1StringView SnapshotNotReady{"snapshot_not_ready"};
inline constexpr QLatin1StringView SnapshotsUnsupported{"snapshots_unsupported"};
inline constexpr QLatin1StringView SnapshotInUse{"snapshot_in_use"};
// Models and their uploads.
inline constexpr QLatin1StringView UnknownModel{"unknown_model"};
inline constexpr QLatin1StringView ModelNameTaken{"model_name_taken"};
inline constexpr QLatin1StringView ModelStorageLimit{"model_storage_limit"};
inline constexpr QLatin1StringView ModelInUse{"model_in_use"};
inline constexpr QLatin1StringView UnknownUpload{"unknown_upload"};
inline constexpr QLatin1StringView UploadOffsetMismatch{"upload_offset_mismatch"};
inline constexpr QLatin1StringView ChunkChecksumMismatch{"chunk_checksum_mismatch"};
inline constexpr QLatin1StringView UploadChecksumMismatch{"upload_checksum_mismatch"};
// The chaos API (rehearsed failures)
inline constexpr QLatin1StringView ChaosDisabled{"chaos_disabled"};
inline constexpr QLatin1StringView ChaosUnsupported{"chaos_unsupported"};

// All of the above (what `--print-error-codes` prints).
inline constexpr std::array all{
    BadRequest,
    PayloadTooLarge,
    UriTooLong,
    HeadersTooLarge,
    NotImplemented,
    HttpVersionNotSupported,
    MethodNotAllowed,
    NotFound,
    Internal,
    Unavailable,
    Unauthorized,
    InvalidJson,
    InvalidField,
    UnknownField,
    InvalidQuery,
    InvalidIdempotencyKey,
    IdempotencyKeyReused,
    UnsupportedMediaType,
    ForbiddenOrigin,
    LimitReached,
    HostDiskFull,
    InvalidEmail,
    WeakPassword,
    EmailTaken,
    InvalidCredentials,
    TooManyAttempts,
    TokenExpired,
    TestSecretRequired,
    InvalidSshKey,
    DuplicateSshKey,
    UnknownSshKey,
    UnknownGpuType,
    UnknownImage,
    UnknownDataset,
    InvalidGpuCount,
    NotEnoughGpus,
    GpuTypeRetired,
    CardsBusy,
    IllegalTransition,
    InsufficientBalance,
    BalanceLimit,
    SpendingLimitReached,
    InvalidRequest,
    InvalidState,
    UnknownSnapshot,
    SnapshotNotReady,
    SnapshotsUnsupported,
    SnapshotInUse,
    UnknownModel,
    ModelNameTaken,
    ModelStorageLimit,
    ModelInUse,
    UnknownUpload,
    UploadOffsetMismatch,
    ChunkChecksumMismatch,
    UploadChecksumMismatch,
    ChaosDisabled,
    ChaosUnsupported,
};

} // namespace ErrorCode

// An error the API reports to the caller: {"error":{"code":..,"message":..}} with `status`.
// Thrown by services and request parsers, turned into a response at the API boundary.
// `code` is one of ErrorCode.
class ApiError : public std::exception
{
public:
    ApiError(int status, QLatin1StringView code, QString message)
        : m_status(status), m_code(code), m_message(std::move(message)), m_what(m_message.toUtf8())
    {}
    int status() const { return m_status; }
    const QString &code() const { return m_code; }
    const QString &message() const { return m_message; }
    const char *what() const noexcept override { return m_what.constData(); }
    // Machine-readable facts about the refusal ({"error":{..., "details":{...}}}).
    const QJsonObject &details() const { return m_details; }
    ApiError &withDetails(QJsonObject details)
    {
        m_details = std::move(details);
        return *this;
    }

private:
    int m_status;
    QString m_code;
    QString m_message;
    QByteArray m_what;
    QJsonObject m_details;
};

} // namespace cardhour::sim
