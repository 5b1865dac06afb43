#include "Ledger.h"

#include "core/Json.h"
#include "store/Database.h"

#include <QSqlQuery>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Ledger::Ledger(Database &db) : m_db(db) {}

QString Ledger::kindName(Kind kind)
{
    switch (kind) {
    case Kind::TrialCredit:
        return u"trial_credit"_s;
    case Kind::Topup:
        return u"topup"_s;
    case Kind::Compute:
        return u"compute"_s;
    case Kind::Storage:
        return u"storage"_s;
    case Kind::ModelStorage:
        return u"model_storage"_s;
    }
    return u"unknown"_s;
}

QString Ledger::userAccount(const QString &userId)
{
    return u"user:"_s + userId;
}

qint64 Ledger::balance(const QString &userId)
{
    return m_db.scalar(u"SELECT balance_micros FROM users WHERE id = ?"_s, {userId}).toLongLong();
}

qint64 Ledger::sumOfEntries(const QString &userId)
{
    return m_db
        .scalar(u"SELECT COALESCE(SUM(amount_micros), 0) FROM ledger_entries WHERE account = ?"_s,
                {userAccount(userId)})
        .toLongLong();
}

QJsonArray Ledger::page(const QString &userId, qint64 beforeSeq, int limit)
{
    QSqlQuery q = m_db.exec(
        u"SELECT t.id, t.uuid, t.kind, t.amount_micros, t.balance_after_micros, t.instance_id,"
        " t.period_start, t.period_end, t.description, t.created_at, s.rate_micros_per_hour,"
        " t.snapshot_id, k.name FROM ledger_txns t LEFT JOIN segments s ON s.id = t.segment_id"
        " LEFT JOIN snapshots k ON k.id = t.snapshot_id"
        " WHERE t.user_id = ? AND (? = 0 OR t.id < ?) ORDER BY t.id DESC LIMIT ?"_s,
        {userId, beforeSeq, beforeSeq, limit});
    QJsonArray postings;
    while (q.next()) {
        const qint64 txnId = q.value(0).toLongLong();
        QJsonArray entries;
        QSqlQuery e = m_db.exec(
            u"SELECT account, amount_micros FROM ledger_entries WHERE txn_id = ? ORDER BY id"_s,
            {txnId});
        while (e.next()) {
            QString account = e.value(0).toString();
            if (account.startsWith(u"user:"_s))
                account = u"user"_s; // the caller's own account; its id is theirs to know
            entries.append(QJsonObject{{u"account"_s, account},
                                       {u"amount_micros"_s, e.value(1).toLongLong()}});
        }
        QJsonObject posting{
            {u"seq"_s, txnId},
            {u"id"_s, q.value(1).toString()},
            {u"kind"_s, q.value(2).toString()},
            {u"amount_micros"_s, q.value(3).toLongLong()},
            {u"balance_after_micros"_s, q.value(4).toLongLong()},
            {u"instance_id"_s,
             q.value(5).isNull() ? QJsonValue() : QJsonValue(q.value(5).toString())},
            {u"period_start"_s,
             q.value(6).isNull() ? QJsonValue()
                                 : QJsonValue(json::isoTime(q.value(6).toLongLong()))},
            {u"period_end"_s,
             q.value(7).isNull() ? QJsonValue()
                                 : QJsonValue(json::isoTime(q.value(7).toLongLong()))},
            {u"rate_micros_per_hour"_s,
             q.value(10).isNull() ? QJsonValue() : QJsonValue(q.value(10).toLongLong())},
            {u"snapshot_id"_s,
             q.value(11).isNull() ? QJsonValue() : QJsonValue(q.value(11).toString())},
            // Its name as the user gave it, deleted snapshots' too (statements name them).
            {u"snapshot_name"_s,
             q.value(12).isNull() ? QJsonValue() : QJsonValue(q.value(12).toString())},
            {u"description"_s, q.value(8).toString()},
            {u"created_at"_s, json::isoTime(q.value(9).toLongLong())},
            {u"entries"_s, entries},
        };
        postings.append(posting);
    }
    return postings;
}

QString Ledger::verify()
{
    QSqlQuery unbalanced = m_db.exec(
        u"SELECT txn_id, SUM(amount_micros) FROM ledger_entries GROUP BY txn_id HAVING SUM(amount_micros) != 0 LIMIT 1"_s);
    if (unbalanced.next())
        return u"transaction %1 does not balance (sum %2)"_s.arg(unbalanced.value(0).toLongLong())
            .arg(unbalanced.value(1).toLongLong());
    QSqlQuery orphan = m_db.exec(
        u"SELECT t.id FROM ledger_txns t WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.txn_id = t.id) LIMIT 1"_s);
    if (orphan.next())
        return u"transaction %1 has no entries"_s.arg(orphan.value(0).toLongLong());

    QSqlQuery users = m_db.exec(u"SELECT id, balance_micros FROM users"_s);
    while (users.next()) {
        const QString userId = users.value(0).toString();
        const qint64 cached = users.value(1).toLongLong();
        const qint64 sum = sumOfEntries(userId);
        if (cached != sum)
            return u"user %1: cached balance %2 != sum of entries %3"_s.arg(userId).arg(cached).arg(
                sum);
        qint64 replay = 0;
        QSqlQuery txns =
            m_db.exec(u"SELECT t.id, e.amount_micros, t.balance_after_micros FROM ledger_txns t"
                      " JOIN ledger_entries e ON e.txn_id = t.id AND e.account = ?"
                      " WHERE t.user_id = ? ORDER BY t.id"_s,
                      {userAccount(userId), userId});
        while (txns.next()) {
            replay += txns.value(1).toLongLong();
            if (replay != txns.value(2).toLongLong())
                return u"user %1: replay gives %2 after transaction %3, recorded %4"_s.arg(userId)
                    .arg(replay)
                    .arg(txns.value(0).toLongLong())
                    .arg(txns.value(2).toLongLong());
            if (replay < 0)
                return u"user %1: balance below zero after transaction %2"_s.arg(userId).arg(
                    txns.value(0).toLongLong());
        }
        if (replay != cached)
            return u"user %1: replayed balance %2 != cached %3"_s.arg(userId).arg(replay).arg(
                cached);
    }
    // No charge may follow a termination unless it is refunded.
    if (const QList<BilledAfterTermination> unrefunded = billedAfterTermination();
        !unrefunded.isEmpty()) {
        const BilledAfterTermination &late = unrefunded.first();
        return u"instance %1: %2 micro-yuan of %3 billed for time after its termination at %4"
               " (up to %5) are not refunded"_s.arg(late.instanceId)
                   .arg(late.unrefundedMicros)
                   .arg(kindName(late.kind), json::isoTime(late.terminatedAtMs),
                        json::isoTime(late.billedUntilMs));
    }
    return {};
}

QList<Ledger::BilledAfterTermination> Ledger::billedAfterTermination()
{
    // Charges (< 0) and refunds (> 0) of terminated instances whose period ends after the
    // termination: a refund's period starts at it.
    QSqlQuery q = m_db.exec(
        u"SELECT t.instance_id, t.user_id, t.kind, i.terminated_at, t.amount_micros,"
        " t.period_start, t.period_end FROM instances i JOIN ledger_txns t ON t.instance_id = i.id"
        " WHERE i.state = 'terminated' AND i.terminated_at IS NOT NULL"
        " AND t.snapshot_id IS NULL AND t.kind IN ('compute', 'storage')"
        " AND t.period_end > i.terminated_at ORDER BY t.instance_id, t.kind, t.id"_s);
    QList<BilledAfterTermination> found;
    BilledAfterTermination current;
    const auto flush = [&] {
        if (current.unrefundedMicros > 0)
            found.append(current);
    };
    while (q.next()) {
        const QString id = q.value(0).toString();
        const Kind kind = q.value(2).toString() == u"storage"_s ? Kind::Storage : Kind::Compute;
        if (id != current.instanceId || kind != current.kind) {
            flush();
            current = {id, q.value(1).toString(), kind, q.value(3).toLongLong(), 0, 0};
        }
        const qint64 amount = q.value(4).toLongLong();
        const qint64 start = q.value(5).toLongLong();
        const qint64 end = q.value(6).toLongLong();
        current.billedUntilMs = std::max(current.billedUntilMs, end);
        if (amount > 0) {
            current.unrefundedMicros -= amount;
            continue;
        }
        // The part of the charge after the termination, in proportion to its period.
        const qint64 after = end - std::max(start, current.terminatedAtMs);
        current.unrefundedMicros += end > start ? static_cast<qint64>(std::floor(
                                        static_cast<long double>(-amount) * after / (end - start)))
                                                : -amount;
    }
    flush();
    return found;
}

} // namespace cardhour::sim
