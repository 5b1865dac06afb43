#include "Ledger.h"

#include "core/Ids.h"
#include "core/Json.h"
#include "store/Database.h"
#include "store/RawStatement.h"

#include <QHash>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
QString counterAccount(Ledger::Kind kind)
{
    switch (kind) {
    case Ledger::Kind::TrialCredit:
        return u"grant:trial"_s;
    case Ledger::Kind::Topup:
        return u"payments:sandbox-topup"_s;
    case Ledger::Kind::Compute:
        return u"revenue:compute"_s;
    case Ledger::Kind::Storage:
        return u"revenue:storage"_s;
    case Ledger::Kind::ModelStorage:
        return u"revenue:model-storage"_s;
    }
    return u"unknown"_s;
}

QVariant optionalInt(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}
} // namespace

struct Ledger::PassStatements
{
    explicit PassStatements(Database &db)
        : insertTxns(db,
                     [](int rows) {
                         return u"INSERT INTO ledger_txns(id, uuid, user_id, kind, amount_micros,"
                                " balance_after_micros, instance_id, segment_id, period_start,"
                                " period_end, description, created_at, snapshot_id) VALUES "_s
                             + Database::placeholderRows(rows, 13);
                     }),
          insertEntries(db, [](int rows) {
              return u"INSERT INTO ledger_entries(txn_id, account, amount_micros) VALUES "_s
                  + Database::placeholderRows(rows * 2, 3);
          })
    {}
    RawChunkedStatement insertTxns; // `rows` transactions
    RawChunkedStatement insertEntries; // their two entries each
};

Ledger::Ledger(Database &db) : m_db(db) {}

Ledger::~Ledger() = default;

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

qint64 Ledger::post(const Posting &posting, qint64 nowMs, std::optional<qint64> balanceBefore)
{
    if (!m_db.inTransaction())
        throw DbError("Ledger::post outside a transaction");
    const qint64 before = balanceBefore ? *balanceBefore : balance(posting.userId);
    const qint64 after = before + posting.amountMicros;
    if (after < 0)
        throw DbError(u"posting of %1 would take the balance of %2 below zero (%3)"_s
                          .arg(posting.amountMicros)
                          .arg(posting.userId)
                          .arg(before)
                          .toStdString());
    const Database::Written insert = m_db.write(
        u"INSERT INTO ledger_txns(uuid, user_id, kind, amount_micros, balance_after_micros,"
        " instance_id, segment_id, period_start, period_end, description, created_at,"
        " snapshot_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"_s,
        {ids::newTimeOrderedUuid(), posting.userId, kindName(posting.kind), posting.amountMicros,
         after,
         posting.instanceId.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                      : QVariant(posting.instanceId),
         optionalInt(posting.segmentId), optionalInt(posting.periodStartMs),
         optionalInt(posting.periodEndMs), posting.description, nowMs,
         posting.snapshotId.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                      : QVariant(posting.snapshotId)});
    const qint64 txnId = insert.lastInsertId.toLongLong();
    m_db.write(
        u"INSERT INTO ledger_entries(txn_id, account, amount_micros) VALUES (?,?,?), (?,?,?)"_s,
        {txnId, userAccount(posting.userId), posting.amountMicros, txnId,
         counterAccount(posting.kind), -posting.amountMicros});
    m_db.write(u"UPDATE users SET balance_micros = ? WHERE id = ?"_s, {after, posting.userId});
    return after;
}

void Ledger::postAll(const QList<Posting> &postings, qint64 nowMs, QHash<QString, qint64> &balances)
{
    if (!m_db.inTransaction())
        throw DbError("Ledger::postAll outside a transaction");
    if (postings.isEmpty())
        return;
    QList<qint64> after(postings.size());
    QHash<QString, qint64> running = balances;
    for (qsizetype i = 0; i < postings.size(); ++i) {
        const Posting &p = postings.at(i);
        const auto known = running.find(p.userId);
        const qint64 before = known != running.end() ? *known : balance(p.userId);
        after[i] = before + p.amountMicros;
        if (after[i] < 0)
            throw DbError(
                u"posting of %1 would take the balance of %2 below zero (%3)"_s.arg(p.amountMicros)
                    .arg(p.userId)
                    .arg(before)
                    .toStdString());
        running.insert(p.userId, after[i]);
    }
    // The transactions' ids are given here (the next ones AUTOINCREMENT would give: this is
    // the only writer), so that the entries can name them without reading each one back.
    const qint64 lastId =
        m_db.scalar(u"SELECT MAX(COALESCE((SELECT MAX(id) FROM ledger_txns), 0),"
                    " COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'ledger_txns'), 0))"_s)
            .toLongLong();
    if (!m_pass)
        m_pass = std::make_unique<PassStatements>(m_db);
    const auto bindOptional = [](RawStatement &statement, int position,
                                 const std::optional<qint64> &value) {
        if (value)
            statement.bind(position, *value);
        else
            statement.bindNull(position);
    };
    const auto bindOptionalText = [](RawStatement &statement, int position, const QString &text) {
        if (text.isEmpty())
            statement.bindNull(position);
        else
            statement.bind(position, text);
    };
    Database::inChunks(postings.size(), [&](qsizetype first, int rows) {
        RawStatement &txn = m_pass->insertTxns.forRows(rows);
        RawStatement &entry = m_pass->insertEntries.forRows(rows);
        for (int row = 0; row < rows; ++row) {
            const qsizetype i = first + row;
            const Posting &p = postings.at(i);
            const qint64 txnId = lastId + 1 + i;
            const int t = row * 13;
            txn.bind(t + 1, txnId);
            txn.bind(t + 2, ids::newTimeOrderedUuid());
            txn.bind(t + 3, p.userId);
            txn.bind(t + 4, kindName(p.kind));
            txn.bind(t + 5, p.amountMicros);
            txn.bind(t + 6, after.at(i));
            bindOptionalText(txn, t + 7, p.instanceId);
            bindOptional(txn, t + 8, p.segmentId);
            bindOptional(txn, t + 9, p.periodStartMs);
            bindOptional(txn, t + 10, p.periodEndMs);
            txn.bind(t + 11, p.description);
            txn.bind(t + 12, nowMs);
            bindOptionalText(txn, t + 13, p.snapshotId);
            const int e = row * 6;
            entry.bind(e + 1, txnId);
            entry.bind(e + 2, userAccount(p.userId));
            entry.bind(e + 3, p.amountMicros);
            entry.bind(e + 4, txnId);
            entry.bind(e + 5, counterAccount(p.kind));
            entry.bind(e + 6, -p.amountMicros);
        }
        txn.run();
        entry.run();
    });
    for (auto it = running.cbegin(); it != running.cend(); ++it) {
        if (balances.value(it.key(), -1) == it.value())
            continue; // unchanged
        m_db.write(u"UPDATE users SET balance_micros = ? WHERE id = ?"_s, {it.value(), it.key()});
    }
    balances = running;
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
        " t.snapshot_id FROM ledger_txns t LEFT JOIN segments s ON s.id = t.segment_id"
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
    return {};
}

} // namespace cardhour::sim
