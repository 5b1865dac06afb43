#pragma once

#include "api/Models.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QTimeZone>

namespace cardhour::core {

// What a posting is on a statement: a snapshot's fee is a `storage` posting that names its
// snapshot (snapshot_id), a stopped host's disk one that does not.
enum class StatementCategory {
    Compute,
    Storage, // a stopped host's own disk
    Snapshots,
    Credit, // top-ups and the trial credit
    Other // a kind this client does not know; counted in the balance, not in a total
};

// One host's charges in the month, as positive micro-yuan.
struct StatementHost
{
    QString instanceId;
    qint64 computeMicros = 0;
    qint64 storageMicros = 0;
    qint64 snapshotMicros = 0;

    qint64 totalMicros() const { return computeMicros + storageMicros + snapshotMicros; }
};

// One kept snapshot's fees in the month, as positive micro-yuan.
struct StatementSnapshot
{
    QString snapshotId;
    QString instanceId; // the host it was taken of
    qint64 micros = 0;
    QString name; // its name as the ledger gives it; empty from providers that do not

    // The name where there is one, else the id.
    QString label() const { return name.isEmpty() ? snapshotId : name; }
};

// One calendar month of the ledger in one time zone: every posting made in it (by the time the
// provider posted it), the totals by kind and by host, and the balances on either side. All
// money is integer micro-yuan; nothing is rounded.
struct Statement
{
    int year = 0;
    int month = 0; // 1-12
    QTimeZone zone;
    QDateTime start; // the first instant of the month in `zone`
    QDateTime end; // the first instant of the next month (exclusive)

    qint64 openingBalanceMicros = 0; // after the last posting before `start` (0 if none)
    qint64 closingBalanceMicros = 0; // after the last posting of the month
    qint64 computeMicros = 0; // charges as positive amounts
    qint64 storageMicros = 0;
    qint64 snapshotMicros = 0;
    qint64 creditMicros = 0; // top-ups and trial credit
    qint64 otherMicros = 0; // signed, postings of kinds not known here

    QList<StatementHost> hosts; // by the order their first charge of the month was posted
    QList<StatementSnapshot> snapshots; // likewise, each snapshot apart
    QList<Posting> postings; // oldest first

    qint64 chargesMicros() const { return computeMicros + storageMicros + snapshotMicros; }
    // Opening + credits − charges + other: equals closingBalanceMicros for a whole ledger.
    qint64 expectedClosingMicros() const;

    // `all` in any order (the ledger pages come newest first).
    static Statement build(const QList<Posting> &all, int year, int month, const QTimeZone &zone);
    // The months (year * 100 + month, e.g. 202612) with at least one posting, newest first.
    static QList<int> monthsWithPostings(const QList<Posting> &all, const QTimeZone &zone);
    static StatementCategory categoryOf(const Posting &posting);
};

} // namespace cardhour::core
