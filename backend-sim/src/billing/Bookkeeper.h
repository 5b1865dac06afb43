#pragma once

#include "Ledger.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace cardhour::sim {

class Database;

// The only writer of the books: every posting (a transaction row, its two entries, the user's
// cached balance) goes through here, inside the caller's transaction. It is also the one
// source of "this user's bill moved": what a posting, or a note of a change that moves the
// bill without one (a segment opened or closed, a fee begun), tells it is announced once per
// user after the outermost commit (billMoved), and never for a transaction that rolled back.
class Bookkeeper : public QObject
{
    Q_OBJECT
public:
    Bookkeeper(Database &db, Ledger &ledger, QObject *parent = nullptr);
    ~Bookkeeper() override;

    // Must run inside a Transaction. Refuses (DbError) a posting that would take the balance
    // below zero: callers cap charges first. Returns the new balance. `balanceBefore`: the
    // balance() the caller read in this transaction with no posting since (saves reading it
    // again).
    qint64 post(const Ledger::Posting &posting, qint64 nowMs,
                std::optional<qint64> balanceBefore = std::nullopt);

    // Posts many at once, in their order, as post() would one by one (inside a Transaction):
    // statements kept prepared and bound through SQLite's own API. `balances` holds each user's
    // balance() as read in this transaction with no posting since; it is left holding the
    // balances after. Refuses (DbError, nothing written) a posting that would go below zero.
    void postAll(const QList<Ledger::Posting> &postings, qint64 nowMs,
                 QHash<QString, qint64> &balances);

    // The user's bill moved without a posting (a rate began or ended, the clock moved it):
    // announced with the postings after the commit; at once outside a transaction.
    void noteBillMoved(const QString &userId);

    qint64 balance(const QString &userId) { return m_ledger.balance(userId); }
    Ledger &ledger() { return m_ledger; }

Q_SIGNALS:
    // After the commit of a transaction that moved `userId`'s bill: once per user.
    void billMoved(const QString &userId);

private:
    struct PassStatements; // postAll's, prepared on its first use
    // Each posting's balance after it, carried in `running` (each user's balance before them,
    // where known); DbError, before anything is written, for one that would go below zero.
    QList<qint64> balancesAfter(const QList<Ledger::Posting> &postings,
                                QHash<QString, qint64> &running);
    void announceMoved();

    Database &m_db;
    Ledger &m_ledger;
    std::unique_ptr<PassStatements> m_pass;
    QStringList m_moved; // in the order first moved, each once
    QHash<QString, bool> m_isMoved;
    quint64 m_movedIn = 0; // Database::transactionSerial() of m_moved (0: none pending)
};

} // namespace cardhour::sim
