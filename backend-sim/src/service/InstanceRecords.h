#pragma once

#include "runtime/ContainerRuntime.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace cardhour::sim {

class Catalog;
class Database;

// The instances table as every part of the instance service reads it: whose an instance is,
// its state (changed only by a compare-and-swap on the current one), the cards its type has
// lent, and what the runtime is given to run it (its spec, resources and app token).
class InstanceRecords
{
public:
    InstanceRecords(Database &db, const Catalog &catalog);

    // The secret one-click app tokens are derived from (HMAC-SHA-256 of the instance id and its
    // launch number), so that the database holds none: SimServer keeps it in a 0600 file of the
    // data directory. Without one, a random key for this process's life.
    void setAppTokenKey(const QByteArray &key) { m_appTokenKey = key; }
    // The instance's app token for its `launchSeq`th start: a new one with every start, so a
    // token that leaked opens nothing once the owner stops and starts the host.
    QString appTokenOf(const QString &instanceId, qint64 launchSeq) const;

    // The provider process this one is (its data directory's id): several share a database
    // on PostgreSQL, each running its own instances.
    void setHostId(const QString &hostId) { m_hostId = hostId; }
    const QString &hostId() const { return m_hostId; }
    // Records that this process runs the instance (at create and at each start).
    void claimHost(const QString &instanceId);
    // SQL condition on instances (alias-free) that holds for the rows this process runs.
    static QString hostedHereSql()
    {
        return QStringLiteral("(host_provider IS NULL OR host_provider = ?)");
    }

    // The instance's state, if it is the user's; ApiError 404 otherwise (never 403).
    QString requireState(const QString &userId, const QString &instanceId);
    QString stateOf(const QString &instanceId); // empty: no such row
    QString ownerOf(const QString &instanceId); // empty: no such row
    // UPDATE … SET state = `to` WHERE id AND state IN (`from`); true if this call won.
    bool compareAndSwap(const QString &instanceId, const QStringList &from, const QString &to,
                        const QString &reason, qint64 nowMs);
    // The states in which an instance holds its GPU cards, as an SQL list.
    static const QString &holdingStatesSql();
    int cardsHeld(const QString &gpuType);

    // The disk an instance was given: `recorded` (instances.disk_gib), else its type's size.
    qint64 diskGibOf(const QString &gpuType, const QVariant &recorded) const;
    struct Resources
    {
        double cpus = 0;
        qint64 memoryMib = 0;
        int pidsLimit = 0; // processes (the catalog's pids_limit_per_instance)
    };
    // CPU and memory limits of an instance: the GPU type's host spec, scaled to this machine.
    Resources resourcesFor(const QString &gpuType, int gpuCount) const;
    // What the runtime is asked to create or start.
    InstanceSpec specFor(const QString &instanceId);

private:
    Database &m_db;
    const Catalog &m_catalog;
    QString m_hostId;
    QByteArray m_appTokenKey; // see setAppTokenKey
};

} // namespace cardhour::sim
