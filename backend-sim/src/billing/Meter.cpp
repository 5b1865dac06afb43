#include "Meter.h"

#include "Bookkeeper.h"
#include "Ledger.h"
#include "Pricing.h"
#include "SpendingLimits.h"
#include "store/Database.h"
#include "store/RawStatement.h"

#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// With the owner's name (the instance's, or the snapshot's for a snapshot's fee) for the
// postings' descriptions.
const QString kSelectOpen =
    u"SELECT g.id, g.instance_id, g.user_id, g.rate_micros_per_hour, g.started_at,"
    " g.charged_micros, g.charged_until, g.last_seen_at, g.kind, g.snapshot_id,"
    " CASE WHEN g.snapshot_id IS NULL THEN i.name ELSE p.name END FROM segments g"
    " LEFT JOIN instances i ON i.id = g.instance_id LEFT JOIN snapshots p ON p.id = g.snapshot_id"
    " WHERE g.ended_at IS NULL"_s;

Meter::OpenSegment readSegment(const QSqlQuery &q)
{
    Meter::OpenSegment s;
    s.id = q.value(0).toLongLong();
    s.instanceId = q.value(1).toString();
    s.userId = q.value(2).toString();
    s.ratePerHourMicros = q.value(3).toLongLong();
    s.startedAtMs = q.value(4).toLongLong();
    s.chargedMicros = q.value(5).toLongLong();
    s.chargedUntilMs = q.value(6).toLongLong();
    s.lastSeenAtMs = s.seenAtMs = q.value(7).toLongLong();
    s.kind = q.value(8).toString() == u"storage"_s ? Meter::Kind::Storage : Meter::Kind::Compute;
    s.snapshotId = q.value(9).toString();
    return s;
}

} // namespace

Meter::Meter(Database &db, Bookkeeper &books, qint64 postingIntervalMs)
    : m_db(db), m_books(books), m_postingIntervalMs(postingIntervalMs)
{}

Meter::~Meter()
{
    // A clean stop keeps every sighting; only a kill -9 loses the unwritten ones.
    if (!m_loaded || m_db.inTransaction() || !m_db.handle().isOpen())
        return;
    try {
        Transaction tx(m_db);
        writeSightings();
        tx.commit();
    } catch (const std::exception &error) {
        qWarning("meter: could not write the last sightings: %s", error.what());
    }
}

QString Meter::kindName(Kind kind)
{
    return kind == Kind::Storage ? u"storage"_s : u"compute"_s;
}

Meter::OpenByUser &Meter::open()
{
    if (!m_loaded || m_loadedAfterRollbacks != m_db.rollbackCount()) {
        m_open.clear();
        m_byOwner.clear();
        m_db.forEachRow(kSelectOpen, {}, [this](const QSqlQuery &q) {
            OpenSegment s = readSegment(q);
            m_byOwner.insert(ownerKey(s), {s.userId, s.id});
            if (!q.value(10).isNull())
                m_names.insert(ownerKey(s), q.value(10).toString());
            m_open[s.userId].push_back(std::move(s));
        });
        for (auto &[user, segments] : m_open)
            std::sort(segments.begin(), segments.end(),
                      [](const OpenSegment &a, const OpenSegment &b) { return a.id < b.id; });
        m_loaded = true;
        m_loadedAfterRollbacks = m_db.rollbackCount();
    }
    return m_open;
}

void Meter::keepOpened(const QVariant &insertId, const OpenSegment &segment)
{
    OpenSegment kept = segment;
    kept.id = insertId.toLongLong();
    kept.chargedUntilMs = kept.lastSeenAtMs = kept.seenAtMs = kept.startedAtMs;
    m_byOwner.insert(ownerKey(kept), {kept.userId, kept.id});
    if (const QString key = ownerKey(kept); !m_names.contains(key)) {
        const QVariant name = kept.snapshotId.isEmpty()
            ? m_db.scalar(u"SELECT name FROM instances WHERE id = ?"_s, {kept.instanceId})
            : m_db.scalar(u"SELECT name FROM snapshots WHERE id = ?"_s, {kept.snapshotId});
        if (!name.isNull())
            m_names.insert(key, name.toString());
    }
    m_books.noteBillMoved(kept.userId); // a rate begins
    std::vector<OpenSegment> &ofUser = m_open[kept.userId];
    ofUser.insert(byId(ofUser, kept.id), std::move(kept)); // ids grow: nearly always the end
}

std::vector<Meter::OpenSegment>::iterator Meter::byId(std::vector<OpenSegment> &segments, qint64 id)
{
    return std::lower_bound(segments.begin(), segments.end(), id,
                            [](const OpenSegment &s, qint64 key) { return s.id < key; });
}

QString Meter::ownerKey(const OpenSegment &segment)
{
    return segment.snapshotId.isEmpty() ? segment.instanceId : u"snapshot:"_s + segment.snapshotId;
}

Meter::OpenSegment *Meter::openOfOwner(const QString &key)
{
    open();
    const auto owner = m_byOwner.constFind(key);
    if (owner == m_byOwner.cend())
        return nullptr;
    const auto user = m_open.find(owner->first);
    if (user == m_open.end())
        return nullptr;
    const auto segment = byId(user->second, owner->second);
    return segment == user->second.end() || segment->id != owner->second ? nullptr : &*segment;
}

void Meter::openSegment(const QString &instanceId, const QString &userId, qint64 ratePerHourMicros,
                        qint64 atMs, Kind kind)
{
    if (!openSegmentsOfInstance(instanceId).isEmpty())
        throw DbError("instance already has an open billing segment");
    const qint64 id = m_db.insertReturningId(
        u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour, started_at,"
        " last_seen_at, charged_micros, charged_until, kind) VALUES (?,?,?,?,?,0,?,?)"_s,
        {instanceId, userId, ratePerHourMicros, atMs, atMs, atMs, kindName(kind)});
    OpenSegment opened;
    opened.kind = kind;
    opened.instanceId = instanceId;
    opened.userId = userId;
    opened.ratePerHourMicros = ratePerHourMicros;
    opened.startedAtMs = atMs;
    keepOpened(id, opened);
}

qint64 Meter::unposted(const OpenSegment &segment, qint64 atMs)
{
    const qint64 owed = pricing::segmentCost(std::max<qint64>(0, atMs - segment.startedAtMs),
                                             segment.ratePerHourMicros);
    return std::max<qint64>(0, owed - segment.chargedMicros);
}

qint64 Meter::postCharge(const OpenSegment &segment, qint64 untilMs, bool closing,
                         const QString &why, PassState *pass)
{
    const qint64 owed = unposted(segment, untilMs);
    qint64 balance = 0;
    std::optional<qint64> room;
    if (pass) {
        // Read once per user and pass, then carried: the pass writes its postings at the end.
        if (const auto known = pass->balances.constFind(segment.userId);
            known != pass->balances.cend()) {
            balance = *known;
            room = pass->headroom.value(segment.userId);
        } else {
            balance = m_books.balance(segment.userId);
            room = m_limits ? m_limits->headroom(segment.userId, untilMs) : std::nullopt;
            pass->startBalances.insert(segment.userId, balance);
        }
    } else {
        balance = m_books.balance(segment.userId);
        room = m_limits ? m_limits->headroom(segment.userId, untilMs) : std::nullopt;
    }
    const bool limited = room && *room < balance;
    const qint64 charge = std::min(owed, limited ? *room : balance);
    if (charge > 0) {
        Ledger::Posting posting = describePosting(segment, untilMs, charge, owed, limited, why,
                                                  pass ? &pass->names : nullptr);
        if (pass)
            pass->postings.append(posting);
        else
            m_books.post(posting, untilMs, balance);
    }
    if (pass) {
        pass->balances.insert(segment.userId, balance - std::max<qint64>(0, charge));
        // Every window of a limit holds untilMs, so each one's headroom falls by the charge.
        pass->headroom.insert(segment.userId,
                              room ? std::optional<qint64>(*room - std::max<qint64>(0, charge))
                                   : std::nullopt);
        pass->segmentCharges.append({segment.id, owed, owed - charge, untilMs});
    } else {
        // Record the full amount owed as charged even when capped: the remainder is written
        // off, never carried as debt, and the next checkpoint must not ask for it again.
        m_db.write(u"UPDATE segments SET charged_micros = charged_micros + ?, written_off_micros"
                   " = written_off_micros + ?, charged_until = ?, last_seen_at ="
                   " MAX(last_seen_at, ?) WHERE id = ?"_s,
                   {owed, owed - charge, untilMs, untilMs, segment.id});
    }
    if (closing) {
        m_db.write(u"UPDATE segments SET ended_at = ? WHERE id = ?"_s, {untilMs, segment.id});
        m_books.noteBillMoved(segment.userId); // a rate ends, whatever it still owed
    }
    std::vector<OpenSegment> &ofUser = open()[segment.userId];
    if (const auto kept = byId(ofUser, segment.id);
        kept != ofUser.end() && kept->id == segment.id) {
        if (closing) {
            m_byOwner.remove(ownerKey(*kept));
            m_names.remove(ownerKey(*kept)); // read again if it opens one more
            ofUser.erase(kept);
        } else {
            kept->chargedMicros += owed;
            kept->chargedUntilMs = untilMs;
            kept->lastSeenAtMs = std::max(kept->lastSeenAtMs, untilMs);
            kept->seenAtMs = std::max(kept->seenAtMs, untilMs);
        }
    }
    if (ofUser.empty())
        m_open.erase(segment.userId);
    return charge;
}

void Meter::openSnapshotSegment(const QString &snapshotId, const QString &instanceId,
                                const QString &userId, qint64 ratePerHourMicros, qint64 atMs)
{
    if (openSegmentOfSnapshot(snapshotId))
        throw DbError("snapshot already has an open billing segment");
    const qint64 id = m_db.insertReturningId(
        u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour, started_at,"
        " last_seen_at, charged_micros, charged_until, kind, snapshot_id) VALUES (?,?,?,?,?,0,?,'storage',?)"_s,
        {instanceId, userId, ratePerHourMicros, atMs, atMs, atMs, snapshotId});
    OpenSegment opened;
    opened.kind = Kind::Storage;
    opened.instanceId = instanceId;
    opened.userId = userId;
    opened.ratePerHourMicros = ratePerHourMicros;
    opened.startedAtMs = atMs;
    opened.snapshotId = snapshotId;
    keepOpened(id, opened);
}

qint64 Meter::closeSnapshotSegment(const QString &snapshotId, qint64 atMs)
{
    const std::optional<OpenSegment> segment = openSegmentOfSnapshot(snapshotId);
    if (!segment)
        return 0;
    return postCharge(*segment, std::max(atMs, segment->chargedUntilMs), true);
}

std::optional<Meter::OpenSegment> Meter::openSegmentOfSnapshot(const QString &snapshotId)
{
    if (const OpenSegment *s = openOfOwner(u"snapshot:"_s + snapshotId))
        return *s;
    return std::nullopt;
}

QHash<QString, qint64> Meter::snapshotCosts(const QString &userId, qint64 atMs)
{
    QHash<QString, qint64> costs;
    QSqlQuery q = m_db.exec(u"SELECT snapshot_id, SUM(charged_micros) FROM segments WHERE"
                            " instance_id IN (SELECT id FROM instances WHERE user_id = ?)"
                            " AND user_id = ? AND snapshot_id IS NOT NULL GROUP BY snapshot_id"_s,
                            {userId, userId});
    while (q.next())
        costs[q.value(0).toString()] += q.value(1).toLongLong();
    for (const OpenSegment &s : openSegmentsOf(userId)) {
        if (!s.snapshotId.isEmpty())
            costs[s.snapshotId] += unposted(s, atMs);
    }
    return costs;
}

qint64 Meter::closeSegment(const QString &instanceId, qint64 atMs, Kind kind, const QString &why)
{
    const std::optional<OpenSegment> segment = openSegmentOf(instanceId, kind);
    if (!segment)
        return 0;
    return postCharge(*segment, std::max(atMs, segment->chargedUntilMs), true, why);
}

qint64 Meter::closeSegmentAtLastSeen(const QString &instanceId)
{
    const std::optional<OpenSegment> segment = openSegmentOf(instanceId, Kind::Compute);
    if (!segment)
        return 0;
    return postCharge(*segment, std::max(lastSighting(*segment), segment->chargedUntilMs), true);
}

QList<Meter::OpenSegment> Meter::openSegments()
{
    QList<OpenSegment> result;
    for (const auto &[user, segments] : open())
        result.append(QList<OpenSegment>(segments.cbegin(), segments.cend()));
    return result;
}

QStringList Meter::usersWithOpenSegments()
{
    QStringList users;
    for (const auto &[user, segments] : open()) {
        if (!segments.empty())
            users.append(user);
    }
    return users;
}

QList<Meter::OpenSegment> Meter::openSegmentsOf(const QString &userId)
{
    QList<OpenSegment> result;
    const OpenByUser &all = open();
    if (const auto it = all.find(userId); it != all.end())
        result = QList<OpenSegment>(it->second.cbegin(), it->second.cend());
    return result;
}

QList<Meter::OpenSegment> Meter::openSegmentsOfInstance(const QString &instanceId)
{
    if (const OpenSegment *s = openOfOwner(instanceId))
        return {*s};
    return {};
}

Meter::OpenTotals Meter::openTotalsOf(const QString &userId, qint64 atMs)
{
    OpenTotals totals;
    const OpenByUser &all = open();
    if (const auto it = all.find(userId); it != all.end()) {
        for (const OpenSegment &s : it->second) {
            totals.unpostedMicros += unposted(s, atMs);
            totals.ratePerHourMicros += s.ratePerHourMicros;
            ++totals.segments;
        }
    }
    return totals;
}

std::optional<Meter::OpenSegment> Meter::openSegmentOf(const QString &instanceId, Kind kind)
{
    for (const OpenSegment &s : openSegmentsOfInstance(instanceId)) {
        if (s.kind == kind)
            return s;
    }
    return std::nullopt;
}

std::optional<qint64> Meter::exhaustionTime(const QList<OpenSegment> &segments,
                                            qint64 balanceMicros, qint64 fromMs, qint64 toMs)
{
    if (segments.isEmpty())
        return std::nullopt;
    const auto owedAt = [&segments](qint64 t) {
        qint64 total = 0;
        for (const OpenSegment &s : segments)
            total += unposted(s, t);
        return total;
    };
    bool anyCharging = false;
    for (const OpenSegment &s : segments)
        anyCharging = anyCharging || s.ratePerHourMicros > 0;
    if (!anyCharging)
        return std::nullopt;
    const qint64 t = pricing::firstTimeReached(
        fromMs, toMs, [&](qint64 at) { return owedAt(at) >= balanceMicros; });
    if (t > toMs)
        return std::nullopt;
    return t;
}

std::optional<qint64> Meter::runsOutAt(const QList<OpenSegment> &segments, qint64 balanceMicros,
                                       qint64 nowMs)
{
    constexpr qint64 kHorizonMs = 100LL * 365 * 24 * pricing::kMsPerHour;
    return exhaustionTime(segments, balanceMicros, nowMs, nowMs + kHorizonMs);
}

QHash<QString, qint64> Meter::costsOf(const QString &userId, qint64 atMs)
{
    QHash<QString, qint64> compute;
    const QHash<QString, Costs> costs = costsByInstance(userId, atMs);
    for (auto it = costs.cbegin(); it != costs.cend(); ++it)
        compute.insert(it.key(), it.value().computeMicros);
    return compute;
}

QHash<QString, Meter::Costs> Meter::costsByInstance(const QString &userId, qint64 atMs)
{
    QHash<QString, Costs> costs = postedByInstance(userId);
    addUnposted(costs, openSegmentsOf(userId), atMs);
    return costs;
}

QHash<QString, Meter::Costs> Meter::postedByInstance(const QString &userId,
                                                     const QString &instanceId)
{
    QHash<QString, Costs> costs;
    QSqlQuery q = instanceId.isEmpty()
        // Through the user's instances (instances_by_user, then segments_by_instance): segments
        // have no index by user beyond the open ones, and a scan reads every user's history.
        ? m_db.exec(u"SELECT instance_id, kind, SUM(charged_micros) FROM segments WHERE instance_id"
                    " IN (SELECT id FROM instances WHERE user_id = ?) AND user_id = ?"
                    " AND snapshot_id IS NULL GROUP BY instance_id, kind"_s,
                    {userId, userId})
        : m_db.exec(
            u"SELECT instance_id, kind, SUM(charged_micros) FROM segments WHERE instance_id = ?"
            " AND snapshot_id IS NULL GROUP BY instance_id, kind"_s,
            {instanceId});
    while (q.next()) {
        Costs &c = costs[q.value(0).toString()];
        (q.value(1).toString() == u"storage"_s ? c.storageMicros : c.computeMicros) +=
            q.value(2).toLongLong();
    }
    return costs;
}

void Meter::addUnposted(QHash<QString, Costs> &costs, const QList<OpenSegment> &segments,
                        qint64 atMs)
{
    for (const OpenSegment &s : segments) {
        if (!s.snapshotId.isEmpty())
            continue;
        Costs &c = costs[s.instanceId];
        (s.kind == Kind::Storage ? c.storageMicros : c.computeMicros) += unposted(s, atMs);
    }
}

void Meter::markSeen(const QStringList &instanceIds, qint64 atMs)
{
    for (const QString &instanceId : instanceIds)
        m_db.write(
            u"UPDATE segments SET last_seen_at = ? WHERE instance_id = ? AND ended_at IS NULL"
            " AND kind = 'compute' AND last_seen_at < ?"_s,
            {atMs, instanceId, atMs});
    for (const QString &instanceId : instanceIds) {
        OpenSegment *s = openOfOwner(instanceId);
        if (s && s->kind == Kind::Compute && s->lastSeenAtMs < atMs)
            s->lastSeenAtMs = atMs;
        if (s && s->kind == Kind::Compute && s->seenAtMs < atMs)
            s->seenAtMs = atMs;
    }
}

void Meter::writeSightings()
{
    // One statement per distinct sighting time (one, after a tick), the ids as a JSON array.
    std::map<qint64, QStringList> idsBySighting;
    for (auto &[user, segments] : open()) {
        for (OpenSegment &s : segments) {
            if (s.kind == Kind::Compute && s.seenAtMs > s.lastSeenAtMs) {
                idsBySighting[s.seenAtMs].append(QString::number(s.id));
                s.lastSeenAtMs = s.seenAtMs;
            }
        }
    }
    for (const auto &[atMs, ids] : idsBySighting)
        m_db.write(u"UPDATE segments SET last_seen_at = ? WHERE id IN (SELECT CAST(value AS"
                   " BIGINT) FROM json_each(?)) AND ended_at IS NULL AND last_seen_at < ?"_s,
                   {atMs, QString(u'[' + ids.join(u',') + u']'), atMs});
}

void Meter::checkpointUser(const QString &userId, qint64 atMs)
{
    for (const OpenSegment &segment : openSegmentsOf(userId)) {
        if (m_hostedHere && segment.kind == Kind::Compute && !m_hostedHere(segment.instanceId))
            continue; // its provider posts it, up to when it last saw it run
        if (segment.chargedUntilMs < atMs)
            postCharge(segment, atMs, false);
    }
}

void Meter::accrue(qint64 nowMs, bool markSeen)
{
    // One walk of the open segments for both the sightings and what is due.
    QList<OpenSegment> segments; // copies: posting changes the kept ones
    for (auto &[user, ofUser] : open()) {
        for (OpenSegment &s : ofUser) {
            if (m_hostedHere && s.kind == Kind::Compute && !m_hostedHere(s.instanceId))
                continue; // another provider's host: its tick sees and posts it
            if (markSeen && s.kind == Kind::Compute && s.seenAtMs < nowMs)
                s.seenAtMs = nowMs;
            if (s.chargedUntilMs <= nowMs - m_postingIntervalMs)
                segments.append(s);
        }
    }
    if (!segments.isEmpty()) {
        PassState pass;
        pass.names = namesOf(segments);
        for (const OpenSegment &segment : segments)
            postCharge(segment, nowMs, false, {}, &pass);
        writePass(pass, nowMs);
    }
    // In memory each tick; in the table every kSightingsWriteIntervalMs of provider time (at
    // once again after a clock set back). After the pass: its own update moved last_seen_at of
    // every segment it posted to now, so only the others are written again (at 10 000
    // instances all posting at once, writing them all twice was a sixth of the pass).
    if (markSeen
        && (nowMs - m_sightingsWrittenAtMs >= kSightingsWriteIntervalMs
            || nowMs < m_sightingsWrittenAtMs)) {
        writeSightings();
        m_sightingsWrittenAtMs = nowMs;
    }
}

} // namespace cardhour::sim
