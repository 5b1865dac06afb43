#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Database;

// Double-entry ledger. Every posting is one transaction row plus entries that sum to zero:
// the user's account ("user:<id>") against a counter account. The user's cached balance
// (users.balance_micros) is updated in the same SQL transaction, so it always equals the sum
// of the user's entries. This class reads the books; Bookkeeper is the only one that writes them.
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
    Ledger(const Ledger &) = delete;
    Ledger &operator=(const Ledger &) = delete;

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

    // What an instance was charged for time after its termination and not yet refunded (charges
    // whose period ends after `terminated_at`, their part after it, less the refunds posted for
    // it), by kind. Snapshot fees, which rightly outlive their instance, are left out.
    struct BilledAfterTermination
    {
        QString instanceId;
        QString userId;
        Kind kind = Kind::Compute;
        qint64 terminatedAtMs = 0;
        qint64 billedUntilMs = 0; // the latest period end charged
        qint64 unrefundedMicros = 0; // > 0
    };
    QList<BilledAfterTermination> billedAfterTermination();

private:
    Database &m_db;
};

} // namespace cardhour::sim
