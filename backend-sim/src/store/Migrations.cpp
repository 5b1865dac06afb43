#include "Migrations.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim::migrations {

const QList<Migration> &all()
{
    static const QList<Migration> list = {
        {1,
         u"accounts, keys, instances, billing segments, double-entry ledger, idempotency"_s,
         {
             u"CREATE TABLE users ("
             " id TEXT PRIMARY KEY,"
             " email TEXT NOT NULL UNIQUE COLLATE NOCASE,"
             " password_hash TEXT NOT NULL,"
             // Cached sum of this user's ledger account; updated in the posting's transaction.
             " balance_micros INTEGER NOT NULL DEFAULT 0 CHECK (balance_micros >= 0),"
             " created_at INTEGER NOT NULL)"_s,

             u"CREATE TABLE tokens ("
             " hash TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " created_at INTEGER NOT NULL,"
             " revoked_at INTEGER)"_s,

             u"CREATE TABLE ssh_keys ("
             " id TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " name TEXT NOT NULL,"
             " public_key TEXT NOT NULL,"
             " key_type TEXT NOT NULL,"
             " bits INTEGER NOT NULL,"
             " fingerprint TEXT NOT NULL,"
             " created_at INTEGER NOT NULL,"
             " UNIQUE (user_id, fingerprint))"_s,

             u"CREATE TABLE instances ("
             " id TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " name TEXT NOT NULL,"
             " state TEXT NOT NULL CHECK (state IN ('creating','starting','running','stopping',"
             "   'stopped','terminated','failed')),"
             " state_reason TEXT,"
             " gpu_type TEXT NOT NULL,"
             " gpu_count INTEGER NOT NULL CHECK (gpu_count IN (1,2,4,8)),"
             " image TEXT NOT NULL,"
             " price_per_hour_micros INTEGER NOT NULL CHECK (price_per_hour_micros >= 0),"
             " created_at INTEGER NOT NULL,"
             " updated_at INTEGER NOT NULL,"
             " terminated_at INTEGER,"
             " ssh_host TEXT, ssh_port INTEGER, ssh_user TEXT, ssh_host_key_sha256 TEXT)"_s,
             u"CREATE INDEX instances_by_user ON instances(user_id, created_at)"_s,
             u"CREATE INDEX instances_by_state ON instances(state, gpu_type)"_s,

             // The keys an instance was asked for, with the key text copied: deleting a key from
             // the account does not silently change what a running host trusts.
             u"CREATE TABLE instance_ssh_keys ("
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " key_id TEXT NOT NULL,"
             " public_key TEXT NOT NULL,"
             " PRIMARY KEY (instance_id, key_id))"_s,

             // One row per uninterrupted run of an instance. The rate is fixed at the start; the
             // cost is always computed from the whole length, never by adding rounded ticks.
             u"CREATE TABLE segments ("
             " id INTEGER PRIMARY KEY AUTOINCREMENT,"
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " rate_micros_per_hour INTEGER NOT NULL,"
             " started_at INTEGER NOT NULL,"
             " ended_at INTEGER,"
             " last_seen_at INTEGER NOT NULL," // last meter tick that saw it running
             " charged_micros INTEGER NOT NULL DEFAULT 0," // owed up to charged_until
             // Part of charged_micros not posted because the balance ran out: never a debt.
             " written_off_micros INTEGER NOT NULL DEFAULT 0,"
             " charged_until INTEGER NOT NULL)"_s,
             u"CREATE INDEX segments_by_instance ON segments(instance_id)"_s,
             u"CREATE INDEX segments_open ON segments(user_id) WHERE ended_at IS NULL"_s,

             u"CREATE TABLE ledger_txns ("
             " id INTEGER PRIMARY KEY AUTOINCREMENT,"
             " uuid TEXT NOT NULL UNIQUE,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " kind TEXT NOT NULL,"
             " amount_micros INTEGER NOT NULL," // signed, as the user's balance sees it
             " balance_after_micros INTEGER NOT NULL,"
             " instance_id TEXT,"
             " segment_id INTEGER,"
             " period_start INTEGER,"
             " period_end INTEGER,"
             " description TEXT NOT NULL,"
             " created_at INTEGER NOT NULL)"_s,
             u"CREATE INDEX ledger_txns_by_user ON ledger_txns(user_id, id)"_s,
             u"CREATE TABLE ledger_entries ("
             " id INTEGER PRIMARY KEY AUTOINCREMENT,"
             " txn_id INTEGER NOT NULL REFERENCES ledger_txns(id),"
             " account TEXT NOT NULL,"
             " amount_micros INTEGER NOT NULL)"_s,
             u"CREATE INDEX ledger_entries_by_txn ON ledger_entries(txn_id)"_s,
             u"CREATE INDEX ledger_entries_by_account ON ledger_entries(account)"_s,

             u"CREATE TABLE idempotency ("
             " user_id TEXT NOT NULL,"
             " key TEXT NOT NULL,"
             " request_hash TEXT NOT NULL,"
             " status INTEGER NOT NULL,"
             " response TEXT NOT NULL,"
             " created_at INTEGER NOT NULL,"
             " PRIMARY KEY (user_id, key))"_s,
         }},
        {2,
         u"launch stages with timestamps"_s,
         {
             // One launch per create or start; each stage is recorded once when reached.
             u"ALTER TABLE instances ADD COLUMN launch_seq INTEGER NOT NULL DEFAULT 0"_s,
             u"ALTER TABLE instances ADD COLUMN launch_requested_at INTEGER"_s,
             u"CREATE TABLE instance_stages ("
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " launch_seq INTEGER NOT NULL,"
             " stage TEXT NOT NULL,"
             " at INTEGER NOT NULL,"
             " PRIMARY KEY (instance_id, launch_seq, stage))"_s,
         }},
        {3,
         u"the host's public key next to its fingerprint"_s,
         {
             u"ALTER TABLE instances ADD COLUMN ssh_host_key TEXT"_s,
         }},
        {4,
         u"a secret token for the instance's one-click app"_s,
         {
             u"ALTER TABLE instances ADD COLUMN app_token TEXT"_s,
         }},
        {5,
         u"storage billed while stopped: segment kinds, the disk an instance was given"_s,
         {
             // Existing segments are all runs: compute. A storage segment is a stopped
             // instance's disk, billed at the rate recorded when it opened.
             u"ALTER TABLE segments ADD COLUMN kind TEXT NOT NULL DEFAULT 'compute'"
             " CHECK (kind IN ('compute','storage'))"_s,
             // An instance is billed for one thing at a time: its run or its disk.
             u"CREATE UNIQUE INDEX segments_one_open_per_instance ON segments(instance_id) WHERE ended_at IS NULL"_s,
             // GiB of disk given at create; NULL for instances made before: the catalog's size.
             u"ALTER TABLE instances ADD COLUMN disk_gib INTEGER CHECK (disk_gib IS NULL OR disk_gib > 0)"_s,
         }},
        {6,
         u"telemetry history by the minute; the shared datasets an instance mounts"_s,
         {
             // One row per instance and minute: the minute's averages. gpus is a JSON array of
             // [utilization %, VRAM used MiB, temperature C, power W] per card.
             u"CREATE TABLE telemetry_minutes ("
             " instance_id TEXT NOT NULL,"
             " minute_ms INTEGER NOT NULL,"
             " cpu_percent REAL,"
             " memory_mib REAL,"
             " gpus TEXT NOT NULL,"
             " PRIMARY KEY (instance_id, minute_ms))"_s,
             u"CREATE INDEX telemetry_minutes_by_time ON telemetry_minutes(minute_ms)"_s,
             // The folder is recorded at create: a dataset registered again elsewhere later does
             // not move under a running instance.
             u"CREATE TABLE instance_datasets ("
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " name TEXT NOT NULL,"
             " path TEXT NOT NULL,"
             " PRIMARY KEY (instance_id, name))"_s,
         }},
        {7,
         u"snapshots of an instance's disk and /workspace, their storage fee; instances restored from them"_s,
         {
             // A deleted snapshot's row stays (its fee is in the ledger); removed_at is when its
             // image and archive were confirmed gone.
             u"CREATE TABLE snapshots ("
             " id TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " name TEXT NOT NULL,"
             " state TEXT NOT NULL CHECK (state IN ('creating','ready','failed','deleted')),"
             " state_reason TEXT,"
             " image TEXT NOT NULL," // the catalog image the disk is based on
             " gpu_type TEXT NOT NULL," // the source's, the default for a restore
             " gpu_count INTEGER NOT NULL,"
             " disk_bytes INTEGER," // the disk's changes over the catalog image
             " workspace_bytes INTEGER,"
             " paused INTEGER," // 1: taken from a running instance, frozen meanwhile
             " created_at INTEGER NOT NULL,"
             " ready_at INTEGER,"
             " deleted_at INTEGER,"
             " removed_at INTEGER)"_s,
             u"CREATE INDEX snapshots_by_user ON snapshots(user_id, created_at)"_s,
             // A snapshot's storage segment names its snapshot; instance_id is its source.
             u"ALTER TABLE segments ADD COLUMN snapshot_id TEXT REFERENCES snapshots(id)"_s,
             u"DROP INDEX segments_one_open_per_instance"_s,
             u"CREATE UNIQUE INDEX segments_one_open_per_instance ON segments(instance_id)"
             " WHERE ended_at IS NULL AND snapshot_id IS NULL"_s,
             u"CREATE UNIQUE INDEX segments_one_open_per_snapshot ON segments(snapshot_id)"
             " WHERE ended_at IS NULL AND snapshot_id IS NOT NULL"_s,
             u"ALTER TABLE instances ADD COLUMN snapshot_id TEXT REFERENCES snapshots(id)"_s,
         }},
        {8,
         u"which cards an instance was lent"_s,
         {
             // Card numbers within the instance's GPU type: nvidia-smi indexes for real cards,
             // 0..capacity-1 for simulated ones. Kept after stop, so that a restart asks for the
             // same cards; only instances that hold their cards (by state) count as using them.
             u"CREATE TABLE instance_cards ("
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " gpu_type TEXT NOT NULL,"
             " card INTEGER NOT NULL CHECK (card >= 0),"
             " PRIMARY KEY (instance_id, card))"_s,
             u"CREATE INDEX instance_cards_by_type ON instance_cards(gpu_type, card)"_s,
         }},
        {9,
         u"private models, their uploads and storage fee; the models an instance mounts"_s,
         {
             // received_bytes is what the partial file holds for sure (it is cut back to it).
             u"CREATE TABLE model_uploads ("
             " id TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " name TEXT NOT NULL,"
             " file_name TEXT NOT NULL,"
             " task TEXT NOT NULL,"
             " size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),"
             " sha256 TEXT NOT NULL,"
             " received_bytes INTEGER NOT NULL DEFAULT 0 CHECK (received_bytes >= 0),"
             " created_at INTEGER NOT NULL,"
             " updated_at INTEGER NOT NULL)"_s,
             u"CREATE INDEX model_uploads_by_user ON model_uploads(user_id)"_s,
             // A deleted model's row stays (its fee is in the ledger). The fee owed at t is
             // segmentCost(t - billed_from, rate); charged_micros of it is posted or written off.
             u"CREATE TABLE private_models ("
             " id TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " name TEXT NOT NULL,"
             " file_name TEXT NOT NULL,"
             " task TEXT NOT NULL,"
             " size_bytes INTEGER NOT NULL,"
             " sha256 TEXT NOT NULL,"
             " created_at INTEGER NOT NULL,"
             " deleted_at INTEGER,"
             " rate_micros_per_hour INTEGER NOT NULL,"
             " billed_from INTEGER NOT NULL,"
             " charged_micros INTEGER NOT NULL DEFAULT 0,"
             " charged_until INTEGER NOT NULL)"_s,
             u"CREATE UNIQUE INDEX private_models_live_name ON private_models(user_id, name)"
             " WHERE deleted_at IS NULL"_s,
             // The folder is recorded at create, like a dataset's.
             u"CREATE TABLE instance_models ("
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " name TEXT NOT NULL,"
             " path TEXT NOT NULL,"
             " PRIMARY KEY (instance_id, name))"_s,
         }},
        {10,
         u"spending limits per account and period; stop policies per instance"_s,
         {
             // alerted_window_start: the start of the window whose alert was sent (once each).
             u"CREATE TABLE spending_limits ("
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " period TEXT NOT NULL CHECK (period IN ('day','month','total')),"
             " alert_micros INTEGER CHECK (alert_micros >= 0),"
             " max_micros INTEGER CHECK (max_micros >= 0),"
             " alerted_window_start INTEGER,"
             " PRIMARY KEY (user_id, period))"_s,
             // What a period spent is summed by posting time.
             u"CREATE INDEX ledger_txns_by_user_time ON ledger_txns(user_id, created_at)"_s,
             // idle_* NULL: no idle stop. Kept across stops and provider restarts.
             u"CREATE TABLE instance_stop_policies ("
             " instance_id TEXT PRIMARY KEY REFERENCES instances(id),"
             " stop_at INTEGER,"
             " max_cost_micros INTEGER CHECK (max_cost_micros >= 0),"
             " idle_threshold_percent INTEGER,"
             " idle_window_seconds INTEGER,"
             " idle_require_no_connections INTEGER,"
             " idle_warning_seconds INTEGER)"_s,
         }},
        {11,
         u"the snapshot a ledger posting charges for"_s,
         {
             // NULL for every posting that is not a snapshot's fee; earlier fees are told from
             // their segment, which names the snapshot.
             u"ALTER TABLE ledger_txns ADD COLUMN snapshot_id TEXT"_s,
             u"UPDATE ledger_txns SET snapshot_id = (SELECT g.snapshot_id FROM segments g"
             " WHERE g.id = ledger_txns.segment_id) WHERE segment_id IS NOT NULL"_s,
         }},
        {12,
         u"the running instances' ids in one index (the telemetry pass reads them every second)"_s,
         {
             // Covering: the pass reads no row of the table itself.
             u"CREATE INDEX instances_running ON instances(state, id)"_s,
         }},
        {13,
         u"the devices each account logged in on (their log-ins are throttled apart)"_s,
         {
             // token_hash: SHA-256 of the device token, as for bearer tokens.
             u"CREATE TABLE login_devices ("
             " token_hash TEXT PRIMARY KEY,"
             " user_id TEXT NOT NULL REFERENCES users(id),"
             " created_at INTEGER NOT NULL)"_s,
             u"CREATE INDEX login_devices_by_user ON login_devices(user_id, created_at)"_s,
         }},
        {14,
         u"MIG slices of a card lent to an instance"_s,
         {
             // NULL: the whole card. Otherwise the slice's first memory slice, how many memory
             // slices it spans and how many compute slices it takes; gpu_type is then the
             // whole card's type, so whole-card and slice rentals count the same cards.
             u"ALTER TABLE instance_cards ADD COLUMN slice_start INTEGER"
             " CHECK (slice_start IS NULL OR slice_start >= 0)"_s,
             u"ALTER TABLE instance_cards ADD COLUMN slice_size INTEGER"_s,
             u"ALTER TABLE instance_cards ADD COLUMN slice_compute INTEGER"_s,
         }},
        {15,
         u"the provider process that runs each instance (several may share one PostgreSQL)"_s,
         {
             // NULL: made before, by the only provider there was.
             u"ALTER TABLE instances ADD COLUMN host_provider TEXT"_s,
         }},
        {16,
         u"interruptible hosts: their price class, a pending interruption, the auto-restart"_s,
         {
             // interruption_at: the deadline an interruption notice gave (NULL: none pending).
             // restart_when_available: started again once cards of its type are free after an
             // interruption.
             u"ALTER TABLE instances ADD COLUMN price_class TEXT NOT NULL DEFAULT 'on_demand'"
             " CHECK (price_class IN ('on_demand', 'interruptible'))"_s,
             u"ALTER TABLE instances ADD COLUMN interruption_at INTEGER"_s,
             u"ALTER TABLE instances ADD COLUMN restart_when_available INTEGER NOT NULL DEFAULT 0"_s,
             // Every tick looks for deadlines due: only the few pending are indexed.
             u"CREATE INDEX instances_interruptions ON instances(interruption_at)"
             " WHERE interruption_at IS NOT NULL"_s,
         }},
        {17,
         u"the hardware check of each launch; charges of an instance by period end"_s,
         {
             // result: the check as the instance view shows it (JSON).
             u"CREATE TABLE instance_hardware_checks ("
             " instance_id TEXT NOT NULL REFERENCES instances(id),"
             " launch_seq INTEGER NOT NULL,"
             " checked_at INTEGER NOT NULL,"
             " passed INTEGER NOT NULL,"
             " result TEXT NOT NULL,"
             " PRIMARY KEY (instance_id, launch_seq))"_s,
             // The terminate reconciler's look for charges after an instance's termination.
             u"CREATE INDEX ledger_txns_by_instance ON ledger_txns(instance_id, period_end)"_s,
         }},
    };
    return list;
}

} // namespace cardhour::sim::migrations
