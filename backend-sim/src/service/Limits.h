#pragma once

#include "Catalog.h"

#include <QJsonObject>
#include <QString>

namespace cardhour::sim {

class Database;

// What one account may hold or add (the catalog's `user_limits`), checked inside the caller's
// transaction before anything is written, so a refusal leaves nothing half made. Each refusal
// is `409 limit_reached` and names the limit, its value and what the account has now.
class Limits
{
public:
    Limits(Database &db, const UserLimits &limits) : m_db(db), m_limits(limits) {}

    // Room for one more instance (those not terminated count, failed ones too: they keep a disk).
    void requireInstanceRoom(const QString &userId) const;
    // Room for one more snapshot (those being taken or kept count).
    void requireSnapshotRoom(const QString &userId) const;
    // Whether a top-up of `amountMicros` stays within the per-payment and lifetime ceilings.
    void requireTopupRoom(const QString &userId, qint64 amountMicros) const;

    // GET /v1/limits: each limit with what the account uses of it now.
    QJsonObject usageJson(const QString &userId) const;

private:
    qint64 instancesHeld(const QString &userId) const;
    qint64 snapshotsHeld(const QString &userId) const;
    qint64 toppedUp(const QString &userId) const;

    Database &m_db;
    const UserLimits &m_limits;
};

} // namespace cardhour::sim
