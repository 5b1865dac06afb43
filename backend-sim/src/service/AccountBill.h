#pragma once

#include "billing/Meter.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

namespace cardhour::sim {

class Bookkeeper;
class Catalog;
class Clock;
class Database;
class EventBus;
class PrivateModels;
class StorageFees;

// A user's bill as the API shows it: the posted balance net of what running instances, kept
// disks and snapshots and private models owe but is not posted yet, the spend rate, the runway;
// top-ups; and the SSE `billing` event, sent whenever the Bookkeeper says (after a commit) that
// the user's bill moved. No other code publishes that event.
class AccountBill : public QObject
{
    Q_OBJECT
public:
    AccountBill(Database &db, Bookkeeper &books, Meter &meter, const Catalog &catalog,
                StorageFees &storage, EventBus &events, const Clock &clock,
                QObject *parent = nullptr);
    // The private models' storage fees count too (none without a model library).
    void setModels(PrivateModels *models) { m_models = models; }

    // POST /v1/billing/topup: credits `amountMicros` (within the account's and the balance's
    // limits) and resumes the storage fees an empty balance paused, inside the caller's
    // transaction if there is one. Returns the posting as the ledger shows it.
    QJsonObject topUp(const QString &userId, qint64 amountMicros);

    // Balance net of what is owed but not posted yet; never below zero.
    qint64 liveBalance(const QString &userId);
    // What all of that costs per hour now.
    qint64 spendRate(const QString &userId);
    // Both from one pass over the open segments, with the posted balance the caller read
    // (GET /v1/me keeps it between writes).
    struct LiveAccount
    {
        qint64 balanceMicros = 0;
        qint64 spendRatePerHourMicros = 0;
    };
    LiveAccount liveAccount(const QString &userId, qint64 postedBalanceMicros);
    // GET /v1/billing/summary.
    QJsonObject billingSummary(const QString &userId);

private:
    // The private models' storage fees of `userId`.
    QList<Meter::OpenSegment> modelFeesOf(const QString &userId);
    // The summary's per-instance rows and its totals of compute and storage cost.
    struct InstanceCosts;
    InstanceCosts instanceCosts(const QString &userId, const QList<Meter::OpenSegment> &open,
                                const QHash<QString, qint64> &storageRates, qint64 nowMs);
    // On the Bookkeeper's billMoved: the user's clients get the new bill.
    void publish(const QString &userId);

    Database &m_db;
    Bookkeeper &m_books;
    Meter &m_meter;
    const Catalog &m_catalog;
    StorageFees &m_storage;
    EventBus &m_events;
    const Clock &m_clock;
    PrivateModels *m_models = nullptr;
};

} // namespace cardhour::sim
