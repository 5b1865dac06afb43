#pragma once

#include "api/HardwareCheckModel.h"
#include "api/ProviderCodes.h"
#include "api/SpendingModels.h"

// Typed views of the provider's JSON (backend-sim/api/openapi.yaml, "components/schemas").
//
// Parsing is lenient on purpose: members the client does not know are ignored and missing
// members keep their defaults, so a newer provider that adds fields does not break an older
// client. Only the overall shape is checked (an object where an object belongs); see
// ProviderClient for what counts as an invalid response.
//
// Money is qint64 micro-yuan (fields ending in `Micros`); times are UTC QDateTimes (invalid
// where the provider sent null).

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::core {

// Parses "2026-11-30T12:00:00.000Z" (and other ISO 8601 forms) to a UTC QDateTime; invalid for
// null, missing or malformed values.
QDateTime parseTime(const QJsonValue &value);

// GET /v1/health
struct Health
{
    QString status;
    QString service;
    QString version;
    bool testClock = false;
    // What runs its hosts ("podman", "docker", "inprocess"; empty from providers that do not
    // say) and why the sandbox chose it when that was not its first choice.
    QString runtime;
    QString runtimeNote;
    // The trial credit a new account gets at sign-up; -1 from providers that do not say.
    qint64 trialCreditMicros = -1;
    QDateTime time;
    // The IANA id of the provider's days and months; empty from providers that do not say.
    QString timeZone;

    static Health fromJson(const QJsonObject &o);
};

// POST /v1/_sandbox/prove (paths/SandboxSecret).
struct SandboxProofAnswer
{
    QByteArray proof; // hex HMAC

    static SandboxProofAnswer fromJson(const QJsonObject &o);
};

struct SessionUser
{
    QString id;
    QString email;

    static SessionUser fromJson(const QJsonObject &o);
};

// The answer to sign-up and log-in.
struct AuthSession
{
    QString token;
    QString tokenType;
    SessionUser user;
    qint64 balanceMicros = 0;
    QString deviceToken; // kept by the client, sent back at log-in (see ProviderClient::logIn)

    static AuthSession fromJson(const QJsonObject &o);
};

// GET /v1/me
struct Account
{
    QString id;
    QString email;
    QDateTime createdAt;
    qint64 balanceMicros = 0;
    qint64 spendRateMicrosPerHour = 0;

    static Account fromJson(const QJsonObject &o);
};

struct GpuType
{
    QString id;
    QString name;
    QString description;
    int vramMib = 0;
    qint64 pricePerHourMicros = 0; // one card, one hour
    // The cheaper class the provider may interrupt (with a notice) when it needs the cards.
    qint64 interruptiblePricePerHourMicros = 0;
    int interruptionNoticeSeconds = 0;
    int capacity = 0;
    int available = 0;
    bool simulated = false;
    double cpusPerCard = 0;
    int memoryMibPerCard = 0;
    // The disk an instance of this type is given, and what it costs per hour while stopped
    // (disk × the catalog's one storage price): known before launch.
    qint64 diskGib = 0;
    qint64 storagePricePerGibHourMicros = 0;
    qint64 storageRateMicrosPerHourWhenStopped = 0;
    // A MIG slice of a whole card (sliceOf empty: a whole card): its NVIDIA profile ("3g.40gb")
    // and its share of the card's compute and memory slices.
    QString sliceOf;
    QString migProfile;
    int computeSlices = 0;
    int memorySlices = 0;
    int cardComputeSlices = 0;
    int cardMemorySlices = 0;
    bool isSlice() const { return !sliceOf.isEmpty(); }

    static GpuType fromJson(const QJsonObject &o);
};

struct ImageApp
{
    QString name;
    int port = 0;
    QString protocol;
    QString path; // where its web UI starts
    QStringList models; // library models every instance of the image mounts at /models/NAME
    QString sampleData; // a folder of sample inputs in the image; empty when none
    int gpuCount = 1; // the cards a one-click launch takes

    static ImageApp fromJson(const QJsonObject &o);
};

struct Image
{
    QString id;
    QString name;
    QString description;
    QString os;
    QString sshUser;
    QList<ImageApp> apps;

    static Image fromJson(const QJsonObject &o);
};

struct SshKey
{
    QString id;
    QString name;
    QString publicKey;
    QString type;
    int bits = 0;
    QString fingerprintSha256;
    QDateTime createdAt;

    static SshKey fromJson(const QJsonObject &o);
};

// The life cycle the provider drives; `Unknown` is a state this client does not know yet.
enum class InstanceState {
    Unknown,
    Creating,
    Starting,
    Running,
    Stopping,
    Stopped,
    Terminated,
    Failed
};

InstanceState instanceStateFromString(const QString &text);
QString instanceStateToString(InstanceState state); // the API word ("running"), empty for Unknown

struct LaunchStage
{
    QString name; // image, container, sshd, ready, app:<name> (a runtime reports only the
                  // stages it has)
    QDateTime at;
};

// The latest launch (create, or start of a stopped instance) and its measured time to ready.
struct Launch
{
    QDateTime requestedAt;
    QList<LaunchStage> stages;
    std::optional<qint64> readyMs; // unset until ready

    static Launch fromJson(const QJsonObject &o);
    bool reached(const QString &stage) const;
};

// How to reach an instance over SSH. `host_key` lets a client pin the key it will see.
struct SshEndpoint
{
    QString host;
    int port = 0;
    QString user;
    QString hostKeySha256;
    QString hostKey; // empty where the runtime does not report it

    static SshEndpoint fromJson(const QJsonObject &o);
};

// What stop and terminate do, stated before the user asks for them.
struct Retention
{
    QStringList stopKeeps; // workspace_volume, container_disk, host_key, ssh_port
    QStringList stopReleases; // gpu_cards
    QStringList terminateDeletes; // as stopKeeps
    QStringList billedWhileRunning; // compute, storage
    QStringList billedWhileStopped;
    qint64 storagePricePerGibHourMicros = 0;
    qint64 storageGib = 0; // the disk the instance was given
    qint64 storageRateMicrosPerHourWhenStopped = 0; // storageGib × the price

    static Retention fromJson(const QJsonObject &o);
};

struct InstanceApp
{
    QString name;
    int port = 0; // inside the instance
    std::optional<int> hostPort; // on the sandbox's loopback; unset without a container
    QString url; // token included; empty unless running with a container
    bool ready = false; // it answers (its port listens in the box): the `app:<name>` stage
    QDateTime readyAt; // invalid until ready

    static InstanceApp fromJson(const QJsonObject &o);
};

struct Instance
{
    QString id;
    QString name;
    InstanceState state = InstanceState::Unknown;
    QString stateText; // the provider's word, kept for states this client does not know
    QString stateReason; // stopped_by_user, balance_exhausted, ..., or a failure message
    QString gpuType;
    QString gpuName;
    int gpuCount = 0;
    QList<int> gpuCards; // the cards lent (real: nvidia-smi indexes; simulated: per type)
    QString image;
    QStringList sshKeyIds;
    qint64 pricePerHourMicros = 0; // the current (or last) run, all cards together
    qint64 costMicros = 0; // everything it has cost, posted or not
    QDateTime runningSince; // invalid when not billed now
    QDateTime createdAt;
    QDateTime updatedAt;
    QDateTime terminatedAt;
    std::optional<SshEndpoint> ssh;
    QString runtime;
    Launch launch;
    std::optional<HardwareCheck> hardwareCheck; // the latest launch's, once it has run
    Retention retention;
    QList<InstanceApp> apps;
    double cpus = 0;
    qint64 memoryMib = 0;

    QString snapshotId; // restored from this snapshot; empty when made from an image
    QStringList datasets; // shared datasets mounted read-only at /datasets/NAME
    QStringList models; // library models mounted read-only at /models/NAME

    StopPolicy stopPolicy; // when the provider stops it by itself
    std::optional<PlannedStop> plannedStop; // the earliest such stop, while running

    bool interruptible = false; // price class `interruptible` (else on demand)
    QDateTime interruptionAt; // the deadline of an interruption notice; invalid when none
    bool restartWhenAvailable = false; // started again once cards return after an interruption
    bool wasInterrupted() const
    {
        return state == InstanceState::Stopped && stateReason == StateReason::Interrupted;
    }

    static Instance fromJson(const QJsonObject &o);
    bool isBilled() const { return state == InstanceState::Running; }
};

// The SSE `instance.interruption_notice`: the provider stops an interruptible host at
// `interruptionAt` (reason "capacity": an on-demand launch took its cards; "operator").
struct InterruptionNotice
{
    QString instanceId;
    QDateTime interruptionAt;
    int noticeSeconds = 0;
    QString reason;

    static InterruptionNotice fromJson(const QJsonObject &o);
};

struct BillingInstance
{
    QString instanceId;
    QString name;
    InstanceState state = InstanceState::Unknown;
    qint64 pricePerHourMicros = 0;
    qint64 spendRateMicrosPerHour = 0;
    qint64 costMicros = 0;

    static BillingInstance fromJson(const QJsonObject &o);
};

// GET /v1/billing/summary, and the SSE `billing` event (which has no `instances`).
struct BillingSummary
{
    qint64 balanceMicros = 0; // live: ledger balance less accrued costs
    qint64 ledgerBalanceMicros = 0; // posted
    qint64 accruedMicros = 0; // owed by running instances, not posted yet
    qint64 spendRateMicrosPerHour = 0;
    QDateTime runsOutAt; // provider's clock; invalid when nothing runs
    QDateTime asOf; // provider's clock
    QList<BillingInstance> instances;

    static BillingSummary fromJson(const QJsonObject &o);
};

// One double entry of a posting. `account` is "user" for the caller's own account.
struct LedgerEntry
{
    QString account;
    qint64 amountMicros = 0;

    static LedgerEntry fromJson(const QJsonObject &o);
};

// One ledger transaction (trial_credit, topup, compute).
struct Posting
{
    qint64 seq = 0;
    QString id;
    QString kind;
    qint64 amountMicros = 0; // change to the caller's balance (negative for compute)
    qint64 balanceAfterMicros = 0;
    QString instanceId; // compute postings only
    QString snapshotId; // a kept snapshot's storage fee: the snapshot
    QString snapshotName; // and its name (the provider's, also once it is deleted)
    QDateTime periodStart; // compute postings only
    QDateTime periodEnd;
    std::optional<qint64> rateMicrosPerHour;
    QString description;
    QDateTime createdAt;
    QList<LedgerEntry> entries;

    static Posting fromJson(const QJsonObject &o);
};

struct LedgerPage
{
    QList<Posting> postings; // newest first
    std::optional<qint64>
        nextBefore; // pass as `before` for the next (older) page; unset on the last
    qint64 balanceMicros = 0; // posted balance

    static LedgerPage fromJson(const QJsonObject &o);
};

struct TopupResult
{
    Posting posting;
    qint64 balanceMicros = 0; // live balance after the top-up

    static TopupResult fromJson(const QJsonObject &o);
};

// One card in a telemetry sample (simulated cards follow the container's real load).
struct GpuSample
{
    int index = 0;
    double utilizationPct = 0;
    double memoryUsedMib = 0;
    qint64 memoryTotalMib = 0;
    double temperatureC = 0;
    double powerW = 0;

    static GpuSample fromJson(const QJsonObject &o);
};

// One telemetry sample of an instance: an element of GET /v1/instances/{id}/metrics `samples`,
// and the body of the SSE `metrics` event (which adds `instance_id`).
struct MetricsSample
{
    QString instanceId; // only in the SSE event
    QDateTime at;
    std::optional<double> cpuPercent; // of one core (200 = two cores busy); unset until known
    std::optional<double> memoryMib;
    QList<GpuSample> gpus;

    static MetricsSample fromJson(const QJsonObject &o);
};

// GET /v1/instances/{id}/metrics: samples oldest first, averaged per `stepSeconds`.
struct InstanceMetrics
{
    QString instanceId;
    int stepSeconds = 1;
    bool simulated = false;
    QList<MetricsSample> samples;

    static InstanceMetrics fromJson(const QJsonObject &o);
};

// GET /v1/datasets: a host folder the operator shares, read-only, with the instances that ask.
struct Dataset
{
    QString name;
    QString mountPath;
    qint64 sizeBytes = 0;
    qint64 files = 0;
    bool available = false; // its folder is there now
    QDateTime addedAt;

    static Dataset fromJson(const QJsonObject &o);
};

// What POST /v1/instances asks for.
struct NewInstance
{
    QString name; // empty: the provider picks one
    QString gpuType;
    int gpuCount = 1;
    QString image;
    QStringList sshKeyIds;
    // Defaulted ({}), so that brace-initialised requests may leave them out.
    QStringList datasets{}; // names of GET /v1/datasets; sent only when not empty
    QStringList models{}; // names of GET /v1/models; sent only when not empty
    StopPolicy stopPolicy{}; // sent only when not empty
    bool interruptible = false; // price_class; sent only when true
    bool restartWhenAvailable = false; // sent only when true (needs interruptible)

    QJsonObject toJson() const;
};

// What a snapshot keeps and what keeping it costs (a snapshot's `retention`).
struct SnapshotRetention
{
    QStringList keeps; // container_disk, workspace_volume
    QStringList doesNotKeep; // host_key, ssh_port, authorized_keys, datasets, memory_and_processes
    bool survivesInstanceTerminate = false;
    QStringList billedWhileKept; // storage
    qint64 storageGib = 0; // billable size
    qint64 storagePricePerGibHourMicros = 0;
    qint64 storageRateMicrosPerHour = 0; // storageGib at that price
    bool deletedWhenBalanceRunsOut = false;

    static SnapshotRetention fromJson(const QJsonObject &o);
};

// A snapshot of an instance's container disk and /workspace (GET /v1/snapshots[/{id}]).
struct Snapshot
{
    QString id;
    QString name;
    QString state; // creating, ready, failed, deleted
    QString stateReason;
    QString instanceId; // the source (perhaps terminated since)
    QString image;
    QString gpuType;
    int gpuCount = 0;
    std::optional<qint64> sizeBytes; // disk + workspace; unknown until ready
    std::optional<qint64> diskBytes;
    std::optional<qint64> workspaceBytes;
    qint64 storageRateMicrosPerHour = 0; // billed now
    qint64 storageCostMicros = 0; // so far, posted or not
    QDateTime createdAt;
    QDateTime readyAt;
    SnapshotRetention retention;

    static Snapshot fromJson(const QJsonObject &o);
    bool isReady() const { return state == QLatin1StringView("ready"); }
};

// POST /v1/instances with snapshot_id: a new instance from a snapshot's disk and /workspace.
struct SnapshotRestore
{
    QString snapshotId;
    QString name; // empty: the provider picks one
    QString gpuType; // empty: the snapshot's
    int gpuCount = 0; // 0: the snapshot's
    QStringList sshKeyIds;

    QJsonObject toJson() const;
};

} // namespace cardhour::core

Q_DECLARE_METATYPE(cardhour::core::Instance)
Q_DECLARE_METATYPE(cardhour::core::BillingSummary)
Q_DECLARE_METATYPE(cardhour::core::MetricsSample)
Q_DECLARE_METATYPE(cardhour::core::SessionUser)
