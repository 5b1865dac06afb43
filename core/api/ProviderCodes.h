#pragma once

#include <QLatin1StringView>

// The provider's words the client acts on, by name: the codes of its errors and the reasons it
// gives for an instance's or a snapshot's state. Only those the client matches are here; each
// must be one backend-sim/api/openapi.yaml lists (client_provider_codes checks every one), so a
// code renamed in the contract cannot leave a comparison here that is never true again.
namespace cardhour::core {

// `error.code` of a failed call (openapi.yaml: the Error.code enum).
namespace ErrorCode {
inline constexpr QLatin1StringView NotFound{"not_found"};
inline constexpr QLatin1StringView Unauthorized{"unauthorized"};
inline constexpr QLatin1StringView InvalidEmail{"invalid_email"};
inline constexpr QLatin1StringView WeakPassword{"weak_password"};
inline constexpr QLatin1StringView EmailTaken{"email_taken"};
inline constexpr QLatin1StringView InvalidCredentials{"invalid_credentials"};
inline constexpr QLatin1StringView TooManyAttempts{"too_many_attempts"};
inline constexpr QLatin1StringView TokenExpired{"token_expired"};
inline constexpr QLatin1StringView InvalidSshKey{"invalid_ssh_key"};
inline constexpr QLatin1StringView DuplicateSshKey{"duplicate_ssh_key"};
inline constexpr QLatin1StringView NotEnoughGpus{"not_enough_gpus"};
inline constexpr QLatin1StringView GpuTypeRetired{"gpu_type_retired"};
inline constexpr QLatin1StringView IllegalTransition{"illegal_transition"};
inline constexpr QLatin1StringView InsufficientBalance{"insufficient_balance"};
inline constexpr QLatin1StringView BalanceLimit{"balance_limit"};
inline constexpr QLatin1StringView SpendingLimitReached{"spending_limit_reached"};
inline constexpr QLatin1StringView InvalidRequest{"invalid_request"};
inline constexpr QLatin1StringView InvalidState{"invalid_state"};
inline constexpr QLatin1StringView SnapshotInUse{"snapshot_in_use"};
inline constexpr QLatin1StringView HostDiskFull{"host_disk_full"};
inline constexpr QLatin1StringView InvalidField{"invalid_field"};
inline constexpr QLatin1StringView UnknownModel{"unknown_model"};
inline constexpr QLatin1StringView ModelNameTaken{"model_name_taken"};
inline constexpr QLatin1StringView ModelStorageLimit{"model_storage_limit"};
inline constexpr QLatin1StringView ModelInUse{"model_in_use"};
inline constexpr QLatin1StringView UnknownUpload{"unknown_upload"};
inline constexpr QLatin1StringView UploadOffsetMismatch{"upload_offset_mismatch"};
inline constexpr QLatin1StringView ChunkChecksumMismatch{"chunk_checksum_mismatch"};
inline constexpr QLatin1StringView UploadChecksumMismatch{"upload_checksum_mismatch"};
} // namespace ErrorCode

// An instance's `state_reason` (openapi.yaml: Instance.state_reason's x-state-reasons; a failed
// instance's reason may also be the runtime's own message, which no constant names).
namespace StateReason {
inline constexpr QLatin1StringView StoppedByUser{"stopped_by_user"};
inline constexpr QLatin1StringView BalanceExhausted{"balance_exhausted"};
inline constexpr QLatin1StringView SpendingLimit{"spending_limit"};
inline constexpr QLatin1StringView MaxDuration{"max_duration"};
inline constexpr QLatin1StringView MaxCost{"max_cost"};
inline constexpr QLatin1StringView Idle{"idle"};
inline constexpr QLatin1StringView ProviderRestarted{"provider_restarted"};
inline constexpr QLatin1StringView ContainerStopped{"container_stopped"};
inline constexpr QLatin1StringView ContainerGone{"container_gone"};
inline constexpr QLatin1StringView Interrupted{"interrupted"};
} // namespace StateReason

// A snapshot's `state_reason` (openapi.yaml: Snapshot.state_reason's x-state-reasons).
namespace SnapshotReason {
inline constexpr QLatin1StringView ProviderRestarted{"provider_restarted"};
} // namespace SnapshotReason

// Why the provider will stop a running instance (openapi.yaml: the StopWarning.reason enum).
namespace StopReason {
inline constexpr QLatin1StringView MaxDuration{"max_duration"};
inline constexpr QLatin1StringView MaxCost{"max_cost"};
inline constexpr QLatin1StringView Idle{"idle"};
} // namespace StopReason

} // namespace cardhour::core
