#include "Bookkeeper.h"

#include "core/Ids.h"
#include "store/Database.h"
#include "store/RawStatement.h"

#include <utility>

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

struct Bookkeeper::PassStatements
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

Bookkeeper::Bookkeeper(Database &db, Ledger &ledger, QObject *parent)
    : QObject(parent), m_db(db), m_ledger(ledger)
{}

Bookkeeper::~Bookkeeper() = default;

void Bookkeeper::noteBillMoved(const QString &userId)
{
    if (!m_db.inTransaction()) {
        Q_EMIT billMoved(userId); // written already: nothing to wait for
        return;
    }
    if (m_movedIn != m_db.transactionSerial()) {
        // The first move of this transaction (what an earlier one that rolled back left is
        // dropped): announced once it commits.
        m_moved.clear();
        m_isMoved.clear();
        m_movedIn = m_db.transactionSerial();
        m_db.afterCommit([this] { announceMoved(); });
    }
    if (!m_isMoved.contains(userId)) {
        m_isMoved.insert(userId, true);
        m_moved.append(userId);
    }
}

void Bookkeeper::announceMoved()
{
    const QStringList moved = std::exchange(m_moved, {});
    m_isMoved.clear();
    m_movedIn = 0;
    for (const QString &userId : moved)
        Q_EMIT billMoved(userId);
}

qint64 Bookkeeper::post(const Ledger::Posting &posting, qint64 nowMs,
                        std::optional<qint64> balanceBefore)
{
    if (!m_db.inTransaction())
        throw DbError("Bookkeeper::post outside a transaction");
    const qint64 before = balanceBefore ? *balanceBefore : m_ledger.balance(posting.userId);
    const qint64 after = before + posting.amountMicros;
    if (after < 0)
        throw DbError(u"posting of %1 would take the balance of %2 below zero (%3)"_s
                          .arg(posting.amountMicros)
                          .arg(posting.userId)
                          .arg(before)
                          .toStdString());
    const qint64 txnId = m_db.insertReturningId(
        u"INSERT INTO ledger_txns(uuid, user_id, kind, amount_micros, balance_after_micros,"
        " instance_id, segment_id, period_start, period_end, description, created_at,"
        " snapshot_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"_s,
        {ids::newTimeOrderedUuid(), posting.userId, Ledger::kindName(posting.kind),
         posting.amountMicros, after,
         posting.instanceId.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                      : QVariant(posting.instanceId),
         optionalInt(posting.segmentId), optionalInt(posting.periodStartMs),
         optionalInt(posting.periodEndMs), posting.description, nowMs,
         posting.snapshotId.isEmpty() ? QVariant(QMetaType(QMetaType::QString))
                                      : QVariant(posting.snapshotId)});
    m_db.write(
        u"INSERT INTO ledger_entries(txn_id, account, amount_micros) VALUES (?,?,?), (?,?,?)"_s,
        {txnId, Ledger::userAccount(posting.userId), posting.amountMicros, txnId,
         counterAccount(posting.kind), -posting.amountMicros});
    m_db.write(u"UPDATE users SET balance_micros = ? WHERE id = ?"_s, {after, posting.userId});
    noteBillMoved(posting.userId);
    return after;
}

QList<qint64> Bookkeeper::balancesAfter(const QList<Ledger::Posting> &postings,
                                        QHash<QString, qint64> &running)
{
    QList<qint64> after(postings.size());
    for (qsizetype i = 0; i < postings.size(); ++i) {
        const Ledger::Posting &p = postings.at(i);
        const auto known = running.find(p.userId);
        const qint64 before = known != running.end() ? *known : m_ledger.balance(p.userId);
        after[i] = before + p.amountMicros;
        if (after[i] < 0)
            throw DbError(
                u"posting of %1 would take the balance of %2 below zero (%3)"_s.arg(p.amountMicros)
                    .arg(p.userId)
                    .arg(before)
                    .toStdString());
        running.insert(p.userId, after[i]);
    }
    return after;
}

void Bookkeeper::postAll(const QList<Ledger::Posting> &postings, qint64 nowMs,
                         QHash<QString, qint64> &balances)
{
    if (!m_db.inTransaction())
        throw DbError("Bookkeeper::postAll outside a transaction");
    if (postings.isEmpty())
        return;
    QHash<QString, qint64> running = balances;
    const QList<qint64> after = balancesAfter(postings, running);
    // The transactions' ids are given here (the next ones AUTOINCREMENT would give: this is
    // the only writer), so that the entries can name them without reading each one back.
    const qint64 lastId = m_db.scalar(m_db.dialect().highestLedgerTxnId()).toLongLong();
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
            const Ledger::Posting &p = postings.at(i);
            const qint64 txnId = lastId + 1 + i;
            const int t = row * 13;
            txn.bind(t + 1, txnId);
            txn.bind(t + 2, ids::newTimeOrderedUuid());
            txn.bind(t + 3, p.userId);
            txn.bind(t + 4, Ledger::kindName(p.kind));
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
            entry.bind(e + 2, Ledger::userAccount(p.userId));
            entry.bind(e + 3, p.amountMicros);
            entry.bind(e + 4, txnId);
            entry.bind(e + 5, counterAccount(p.kind));
            entry.bind(e + 6, -p.amountMicros);
        }
        txn.run();
        entry.run();
    });
    if (const QString advance = m_db.dialect().advanceLedgerTxnIds(); !advance.isEmpty())
        m_db.scalar(advance, {lastId + postings.size()});
    for (auto it = running.cbegin(); it != running.cend(); ++it) {
        if (balances.value(it.key(), -1) == it.value())
            continue; // unchanged
        m_db.write(u"UPDATE users SET balance_micros = ? WHERE id = ?"_s, {it.value(), it.key()});
    }
    balances = running;
    for (const Ledger::Posting &p : postings)
        noteBillMoved(p.userId);
}

} // namespace cardhour::sim
