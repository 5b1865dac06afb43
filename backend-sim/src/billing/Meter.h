#pragma once

#include "Bookkeeper.h"
#include "Ledger.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace cardhour::sim {

class Bookkeeper;
class Database;
class RawChunkedStatement;
class SpendingLimits;

// Per-second metering of instances. A segment is one uninterrupted period at a fixed rate,
// of one kind: `compute` while an instance runs, `storage` for its disk while it is stopped.
// What it owes at time t is always segmentCost(t - start, rate), so checkpoint postings (every
// postingInterval) and the final posting at close add up exactly to the cost of the whole
// period. An instance has at most one open segment. A kept snapshot is billed in `storage`
// segments of its own (snapshotId set; instanceId is its source instance): the per-instance
// calls below leave those out, the per-user ones (openSegments*, exhaustion) count them.
// All mutating calls must run inside a Transaction. The open segments are also kept in memory,
// changed by the same calls that change their rows, so the read calls below never query
// SQLite for them (a rollback makes them reload): only Meter writes the segments table.
// Its postings go through the Bookkeeper, which also hears of every segment opened or closed
// (a rate that begins or ends moves the owner's bill).
class Meter
{
public:
    enum class Kind {
        Compute,
        Storage
    };

    struct OpenSegment
    {
        qint64 id = 0;
        Kind kind = Kind::Compute;
        QString instanceId;
        QString userId;
        qint64 ratePerHourMicros = 0;
        qint64 startedAtMs = 0;
        qint64 chargedMicros = 0; // already posted to the ledger
        qint64 chargedUntilMs = 0; // end of the last posted period
        qint64 lastSeenAtMs = 0; // as the table holds it (last_seen_at)
        // The last sighting, which may be newer than last_seen_at: a compute segment seen
        // running each tick is written every kSightingsWriteIntervalMs, not every second.
        qint64 seenAtMs = 0;
        QString snapshotId; // empty: the instance's own run or disk
    };

    // How often (in provider time) the ticks' sightings of running instances reach
    // last_seen_at. A kill -9 leaves unbilled the sightings not yet written, less than this
    // interval of each running instance, on top of the time since the last tick, as before:
    // at most segmentCost(kSightingsWriteIntervalMs, rate) more per instance than when every
    // tick wrote them. Never billed twice: recovery bills from charged_until, which moves in
    // the same transaction as each posting. A clean stop writes them all (~Meter).
    static constexpr qint64 kSightingsWriteIntervalMs = 10'000;

    Meter(Database &db, Bookkeeper &books, qint64 postingIntervalMs = 60'000);
    ~Meter();
    Meter(const Meter &) = delete;
    Meter &operator=(const Meter &) = delete;
    // With limits, no posting takes a period past its hard maximum (the rest is written off,
    // as at a zero balance); InstanceService stops the hosts before that happens.
    void setSpendingLimits(const SpendingLimits *limits) { m_limits = limits; }
    // Provider processes sharing one database (PostgreSQL): the tick sees running and posts
    // checkpoints only for the compute segments of instances this process runs (the others'
    // hosts are theirs to see; a provider that died is not seen running by another). Storage
    // segments are posted by whichever tick comes first: under the shared write lock each
    // posting starts from the charged_until the last one left, so nothing is posted twice.
    void setHostedHere(std::function<bool(const QString &instanceId)> hostedHere)
    {
        m_hostedHere = std::move(hostedHere);
    }

    // Lifetime cost of an instance, posted and unposted, apart by kind.
    struct Costs
    {
        qint64 computeMicros = 0;
        qint64 storageMicros = 0;
    };

    static QString kindName(Kind kind);

    // Opens a segment at the given rate, fixed for its whole length. Throws DbError if the
    // instance already has an open segment (of either kind).
    void openSegment(const QString &instanceId, const QString &userId, qint64 ratePerHourMicros,
                     qint64 atMs, Kind kind = Kind::Compute);
    // Ends the instance's open segment of `kind` at `atMs` and posts what it still owes,
    // capped at the user's balance (the balance never goes below zero). Returns the amount
    // posted; 0 when the instance had no open segment of that kind.
    // `why`, when given, ends the posting's description (the stop's state_reason).
    qint64 closeSegment(const QString &instanceId, qint64 atMs, Kind kind = Kind::Compute,
                        const QString &why = {});

    // A snapshot's storage fee from `atMs`; throws DbError if it is billed already.
    void openSnapshotSegment(const QString &snapshotId, const QString &instanceId,
                             const QString &userId, qint64 ratePerHourMicros, qint64 atMs);
    // Ends it at `atMs`, posting what it still owes (capped at the balance); returns that.
    qint64 closeSnapshotSegment(const QString &snapshotId, qint64 atMs);
    std::optional<OpenSegment> openSegmentOfSnapshot(const QString &snapshotId);
    // Lifetime storage cost (posted + unposted at `atMs`) per snapshot of a user.
    QHash<QString, qint64> snapshotCosts(const QString &userId, qint64 atMs);

    // Open segments of every kind, snapshots' included.
    QList<OpenSegment> openSegments();
    // The users with an open segment, without copying the segments (the tick's list).
    QStringList usersWithOpenSegments();
    QList<OpenSegment> openSegmentsOf(const QString &userId);
    QList<OpenSegment> openSegmentsOfInstance(const QString &instanceId);
    std::optional<OpenSegment> openSegmentOf(const QString &instanceId, Kind kind = Kind::Compute);

    // Owed but not yet posted, at `atMs`.
    static qint64 unposted(const OpenSegment &segment, qint64 atMs);
    // What a user's open segments (snapshots' included) owe unposted at `atMs`, and their
    // summed rate: a live balance without copying the segments.
    struct OpenTotals
    {
        qint64 unpostedMicros = 0;
        qint64 ratePerHourMicros = 0;
        qsizetype segments = 0;
    };
    OpenTotals openTotalsOf(const QString &userId, qint64 atMs);
    // The first millisecond in [fromMs, toMs] at which `segments` owe at least `balance`
    // (i.e. the balance is used up), or nullopt if it lasts beyond toMs.
    static std::optional<qint64> exhaustionTime(const QList<OpenSegment> &segments,
                                                qint64 balanceMicros, qint64 fromMs, qint64 toMs);
    // When the balance runs out at the current rate, if it does within ~100 years.
    static std::optional<qint64> runsOutAt(const QList<OpenSegment> &segments, qint64 balanceMicros,
                                           qint64 nowMs);

    // Compute cost (posted + unposted) per instance of a user at `atMs`.
    QHash<QString, qint64> costsOf(const QString &userId, qint64 atMs);
    // Compute and storage cost (posted + unposted) per instance of a user at `atMs`.
    QHash<QString, Costs> costsByInstance(const QString &userId, qint64 atMs);
    // What has been posted (charged, written-off part included) per instance and kind: of
    // every instance of `userId`, or of the one instance `instanceId` when it is given.
    QHash<QString, Costs> postedByInstance(const QString &userId, const QString &instanceId = {});
    // Adds what `segments` owe unposted at `atMs` to `costs` (snapshots' segments left out).
    static void addUnposted(QHash<QString, Costs> &costs, const QList<OpenSegment> &segments,
                            qint64 atMs);

    // Posts a checkpoint charge for each open segment (either kind) whose last posting is at
    // least postingInterval old. With `markSeen`, also records every open compute segment as
    // seen running at `nowMs` (for runtimes whose instances cannot outlive the provider, being
    // up is being seen; container runtimes mark what a listing confirmed with markSeen()).
    void accrue(qint64 nowMs, bool markSeen = true);
    // Records that these instances' open compute segments were confirmed running at `atMs`.
    void markSeen(const QStringList &instanceIds, qint64 atMs);
    // Writes every sighting newer than its row's last_seen_at (inside a Transaction).
    void writeSightings();
    // The last moment a segment is known to have run: its newest sighting, written or not.
    static qint64 lastSighting(const OpenSegment &segment)
    {
        return std::max(segment.lastSeenAtMs, segment.seenAtMs);
    }
    // Posts what every open segment of `userId` owes up to `atMs` (a period boundary).
    void checkpointUser(const QString &userId, qint64 atMs);

    // Ends an open compute segment after a crash: at its last_seen time, the last moment we
    // know it ran. (A stopped instance's disk needs no sighting: its storage runs on.)
    qint64 closeSegmentAtLastSeen(const QString &instanceId);

private:
    // What a posting pass reads once for all of its postings (the names they describe, by
    // ownerKey; each user's balance and headroom), carried as its own postings change them;
    // the postings and the segments' changes are written together at its end (writePass).
    struct PassState
    {
        QHash<QString, QString> names;
        QHash<QString, qint64> startBalances; // as read, before the pass
        QHash<QString, qint64> balances; // as the pass's postings leave them
        QHash<QString, std::optional<qint64>> headroom; // under the tightest spending limit
        QList<Ledger::Posting> postings;
        struct SegmentCharge
        {
            qint64 id = 0;
            qint64 owedMicros = 0;
            qint64 writtenOffMicros = 0;
            qint64 chargedUntilMs = 0;
        };
        QList<SegmentCharge> segmentCharges;
    };
    qint64 postCharge(const OpenSegment &segment, qint64 untilMs, bool closing,
                      const QString &why = {}, PassState *pass = nullptr);
    Ledger::Posting describePosting(const OpenSegment &segment, qint64 untilMs, qint64 charge,
                                    qint64 owed, bool limited, const QString &why,
                                    const QHash<QString, QString> *names);
    void writePass(const PassState &pass, qint64 nowMs);
    QHash<QString, QString> namesOf(const QList<OpenSegment> &segments);
    // Open segments by user, then id (the table's order); loaded on first use and again after
    // a rollback, so they always equal the rows the transaction sees. Each user's in one
    // array: every tick walks them all, and at 100 000 segments a walk from tree node to tree
    // node was a cache miss a step (the tick grew twice as fast as the count).
    using OpenByUser = std::map<QString, std::vector<OpenSegment>>;
    OpenByUser &open();
    // The first of `segments` (sorted by id) whose id is not below `id`.
    static std::vector<OpenSegment>::iterator byId(std::vector<OpenSegment> &segments, qint64 id);
    void keepOpened(const QVariant &insertId, const OpenSegment &segment);
    // The open segment an instance (its own: at most one) or a snapshot has, if any.
    OpenSegment *openOfOwner(const QString &ownerKey);
    static QString ownerKey(const OpenSegment &segment);

    OpenByUser m_open;
    QHash<QString, std::pair<QString, qint64>> m_byOwner; // ownerKey → user, segment id
    bool m_loaded = false;
    quint64 m_loadedAfterRollbacks = 0;
    qint64 m_sightingsWrittenAtMs = 0; // when the ticks' sightings were last written

    Database &m_db;
    Bookkeeper &m_books;
    qint64 m_postingIntervalMs;
    const SpendingLimits *m_limits = nullptr;
    std::function<bool(const QString &)> m_hostedHere; // null: every instance is this one's
    std::unique_ptr<RawChunkedStatement> m_chargeSegments; // writePass's, prepared on first use
    QHash<QString, QString> m_names; // ownerKey → name, for the owners of open segments
};

} // namespace cardhour::sim
