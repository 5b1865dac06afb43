#pragma once

#include <QString>

namespace cardhour::sim {

class Bookkeeper;
class Catalog;
class Clock;
class Database;
class InstanceRecords;
class Meter;
class SpendingLimits;

// The fee for what is kept while nothing runs: a stopped instance's disk (from the stop request
// until a start request or terminate) and a ready snapshot. An empty balance or a reached
// spending cap pauses it rather than making a debt; nothing is deleted either way. Every call
// joins the caller's transaction.
class StorageFees
{
public:
    StorageFees(Database &db, Bookkeeper &books, Meter &meter, const Catalog &catalog,
                InstanceRecords &records, const Clock &clock);
    // The account's spending caps; without them, only the balance pauses fees.
    void setSpendingLimits(const SpendingLimits *limits) { m_limits = limits; }

    // Opens the storage segment of a stopped (or stopping) instance at `atMs`, unless its disk
    // is free, the balance is zero, a cap is reached or a segment is open already.
    void open(const QString &instanceId, const QString &userId, qint64 atMs);
    // Opens storage segments, from now, for the stopped instances and kept snapshots (of
    // `userId`, or of everyone) whose fee is paused although their owner can pay again.
    void resume(const QString &userId = {});
    // A reached cap pauses storage fees, as a zero balance does.
    bool pausedByLimit(const QString &userId, qint64 atMs) const;

private:
    // Snapshot fees resumed where a balance is positive and no cap is reached.
    void resumeSnapshotFees(const QString &userId, qint64 nowMs);

    Database &m_db;
    Bookkeeper &m_books;
    Meter &m_meter;
    const Catalog &m_catalog;
    InstanceRecords &m_records;
    const Clock &m_clock;
    const SpendingLimits *m_limits = nullptr;
};

} // namespace cardhour::sim
