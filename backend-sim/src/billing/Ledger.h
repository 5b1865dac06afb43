#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace cardhour::sim {

class Database;

// Double-entry ledger. Every posting is one transaction row plus entries that sum to zero:
// the user's account ("user:<id>") against a counter account. The user's cached balance
// (users.balance_micros) is updated in the same SQL transaction, so it always equals the sum
// of the user's entries.
class Ledger
{
public:
    // Compute: a run of an instance; Storage: its disk while it is stopped. Each has its own
    // revenue account, so the ledger shows the two apart.
    enum class Kind {
        TrialCredit,
        Topup,
        Compute,
        Storage,
        ModelStorage // a private model kept in the model library
    };

    struct Posting
    {
        Kind kind = Kind::Compute;
        QString userId;
        qint64 amountMicros = 0; // as the user's balance sees it: credit > 0, charge < 0
        QString description;
        QString instanceId; // optional
        QString snapshotId; // a snapshot's fee: the snapshot charged for
        std::optional<qint64> segmentId;
        std::optional<qint64> periodStartMs;
        std::optional<qint64> periodEndMs;
    };

    explicit Ledger(Database &db);
    ~Ledger();
    Ledger(const Ledger &) = delete;
    Ledger &operator=(const Ledger &) = delete;

    // Must run inside a Transaction. Refuses (DbError) a posting that would take the balance
    // below zero: callers cap charges first. Returns the new balance. `balanceBefore`: the
    // balance() the caller read in this transaction with no posting since (saves reading it
    // again).
    qint64 post(const Posting &posting, qint64 nowMs,
                std::optional<qint64> balanceBefore = std::nullopt);

    // Posts many at once, in their order, as post() would one by one (inside a Transaction):
    // statements kept prepared and bound through SQLite's own API. `balances` holds each user's
    // balance() as read in this transaction with no posting since; it is left holding the
    // balances after. Refuses (DbError, nothing written) a posting that would go below zero.
    void postAll(const QList<Posting> &postings, qint64 nowMs, QHash<QString, qint64> &balances);

    qint64 balance(const QString &userId); // cached
    qint64 sumOfEntries(const QString &userId); // recomputed from the entries

    // Newest first; `beforeSeq` pages backwards (0 = from the newest). Returns at most `limit`.
    QJsonArray page(const QString &userId, qint64 beforeSeq, int limit);
    static QString kindName(Kind kind);
    static QString userAccount(const QString &userId);

    // Checks every invariant over the whole ledger: each transaction's entries sum to zero,
    // each user's cached balance equals the sum of their entries, and replaying every user's
    // postings in order gives each recorded balance_after. Returns a description of the first
    // violation, or an empty string.
    QString verify();

private:
    struct PassStatements; // postAll's, prepared on its first use

    Database &m_db;
    std::unique_ptr<PassStatements> m_pass;
};

} // namespace cardhour::sim
