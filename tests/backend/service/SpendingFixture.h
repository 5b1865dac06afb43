#pragma once

// The provider's services with spending limits and snapshots wired, over SQLite (a file, or
// ":memory:" for the random-sequence test), a manual clock and a runtime that answers at once
// (the next turn of the event loop): what the tests of caps and stop policies drive.

#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "billing/SpendingLimits.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "runtime/ContainerRuntime.h"
#include "service/Accounts.h"
#include "service/Catalog.h"
#include "service/EventBus.h"
#include "service/InstanceService.h"
#include "service/SnapshotService.h"
#include "service/SshKeys.h"
#include "store/Database.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

namespace cardhour::sim::testing {

// Instances are ready at once; snapshots are taken with a fixed size; the connections open into
// a box are what `connections` says (a box not in it is not counted).
class QuickRuntime final : public ContainerRuntime
{
public:
    void countConnections(const QStringList &instanceIds) override
    {
        QHash<QString, int> counted;
        for (const QString &id : instanceIds) {
            if (connections.contains(id))
                counted.insert(id, connections.value(id));
        }
        QTimer::singleShot(0, this, [this, counted] { Q_EMIT connectionsCounted(counted); });
    }
    QHash<QString, int> connections;

    QString name() const override { return QStringLiteral("quick"); }
    bool outlivesProvider() const override { return false; }
    void create(const InstanceSpec &spec) override { later(spec.instanceId, true); }
    void start(const InstanceSpec &spec) override { later(spec.instanceId, true); }
    void stop(const QString &id) override
    {
        QTimer::singleShot(0, this, [this, id] { Q_EMIT stopped(id); });
    }
    void remove(const QString &id) override
    {
        QTimer::singleShot(0, this, [this, id] { Q_EMIT removed(id); });
    }
    bool isRunning(const QString &) const override { return false; }
    QString snapshotsUnsupportedReason() const override { return {}; }
    void snapshot(const SnapshotSpec &spec) override
    {
        QTimer::singleShot(0, this, [this, id = spec.snapshotId] {
            Q_EMIT snapshotTaken(id, SnapshotSizes{7LL << 30, 3LL << 30, true});
        });
    }
    void removeSnapshot(const QString &id) override
    {
        QTimer::singleShot(0, this, [this, id] { Q_EMIT snapshotRemoved(id); });
    }

private:
    void later(const QString &id, bool)
    {
        QTimer::singleShot(0, this, [this, id] { Q_EMIT ready(id, {}); });
    }
};

struct SpendingFixture
{
    static constexpr qint64 kStartMs = 1'790'000'000'000; // 2026-09-21, a Monday

    explicit SpendingFixture(const QString &path = {}) : clock(kStartMs), catalog(Catalog::load())
    {
        db.open(path.isEmpty() ? dir.filePath(QStringLiteral("sim.sqlite")) : path);
        ledger = std::make_unique<Ledger>(db);
        books = std::make_unique<Bookkeeper>(db, *ledger);
        meter = std::make_unique<Meter>(db, *books);
        limits = std::make_unique<SpendingLimits>(db);
        meter->setSpendingLimits(limits.get());
        accounts = std::make_unique<Accounts>(db, *books, clock, PasswordHasher({1u << 4, 1, 1}));
        keys = std::make_unique<SshKeys>(db, clock);
        instances = std::make_unique<InstanceService>(db, *books, *meter, catalog, *keys, runtime,
                                                      events, clock);
        instances->setSpendingLimits(limits.get());
        snapshots = std::make_unique<SnapshotService>(db, *meter, catalog, *instances, runtime,
                                                      events, clock);
    }

    // Lets the runtime's answers arrive (two turns: the service's own, then the runtime's).
    static void settle()
    {
        for (int i = 0; i < 4; ++i)
            QCoreApplication::processEvents();
    }

    QString signUp(const QString &email)
    {
        return accounts->signUp(email, QStringLiteral("password123")).userId;
    }

    void topUp(const QString &userId, qint64 amount)
    {
        Transaction tx(db);
        Ledger::Posting posting;
        posting.kind = Ledger::Kind::Topup;
        posting.userId = userId;
        posting.amountMicros = amount;
        posting.description = QStringLiteral("test top-up");
        books->post(posting, clock.nowMs());
        instances->resumeStorageBilling(userId);
        tx.commit();
    }

    QString launch(const QString &userId, const QString &gpu, int count,
                   const StopPolicy &policy = {})
    {
        InstanceService::CreateRequest request;
        request.name = QStringLiteral("host");
        request.gpuType = gpu;
        request.gpuCount = count;
        request.image = QStringLiteral("base");
        request.stopPolicy = policy;
        const QString id =
            instances->create(userId, request).value(QStringLiteral("id")).toString();
        settle();
        return id;
    }

    QString state(const QString &userId, const QString &id)
    {
        return instances->get(userId, id).value(QStringLiteral("state")).toString();
    }

    void setMax(const QString &userId, SpendingLimits::Period period, std::optional<qint64> max,
                std::optional<qint64> alert = std::nullopt)
    {
        std::array<std::optional<InstanceService::LimitChange>, 3> changes;
        InstanceService::LimitChange change;
        change.maxGiven = true;
        change.maxMicros = max;
        change.alertGiven = true;
        change.alertMicros = alert;
        changes.at(static_cast<size_t>(period)) = change;
        instances->changeSpendingLimits(userId, changes);
    }

    qint64 postedIn(const QString &userId, SpendingLimits::Period period, qint64 atMs)
    {
        return limits->spentIn(userId, limits->windowAt(userId, period, atMs));
    }

    void advanceSeconds(qint64 seconds)
    {
        clock.advanceMs(seconds * 1000);
        instances->tick();
        settle();
    }

    QTemporaryDir dir;
    ManualClock clock;
    Catalog catalog;
    Database db;
    QuickRuntime runtime;
    EventBus events;
    std::unique_ptr<Ledger> ledger;
    std::unique_ptr<Bookkeeper> books;
    std::unique_ptr<Meter> meter;
    std::unique_ptr<SpendingLimits> limits;
    std::unique_ptr<Accounts> accounts;
    std::unique_ptr<SshKeys> keys;
    std::unique_ptr<InstanceService> instances;
    std::unique_ptr<SnapshotService> snapshots;
};

} // namespace cardhour::sim::testing
