#pragma once

// The provider's services wired over a real SQLite file, a manual clock and the in-process
// runtime: what the unit tests of the state machine and billing drive directly.

#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "runtime/InProcessRuntime.h"
#include "service/Accounts.h"
#include "service/Catalog.h"
#include "service/EventBus.h"
#include "service/InstanceService.h"
#include "service/SshKeys.h"
#include "store/Database.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace cardhour::sim::testing {

constexpr qint64 kStartMs = 1'790'000'000'000; // a fixed moment in 2026

struct ServiceFixture
{
    explicit ServiceFixture(const QString &path = {}, qint64 postingIntervalMs = 60'000)
        : clock(kStartMs), catalog(Catalog::load())
    {
        db.open(path.isEmpty() ? dir.filePath(QStringLiteral("sim.sqlite")) : path);
        ledger = std::make_unique<Ledger>(db);
        meter = std::make_unique<Meter>(db, *ledger, postingIntervalMs);
        // Small scrypt parameters: these tests are about money, not password cost.
        accounts = std::make_unique<Accounts>(db, *ledger, clock, PasswordHasher({1u << 10, 8, 1}));
        keys = std::make_unique<SshKeys>(db, clock);
        service = std::make_unique<InstanceService>(db, *ledger, *meter, catalog, *keys, runtime, events, clock);
    }

    QString signUp(const QString &email)
    {
        return accounts->signUp(email, QStringLiteral("password123")).userId;
    }

    QString state(const QString &userId, const QString &id)
    {
        return service->get(userId, id).value(QStringLiteral("state")).toString();
    }

    qint64 cost(const QString &userId, const QString &id)
    {
        return service->get(userId, id).value(QStringLiteral("cost_micros")).toInteger();
    }

    static InstanceService::CreateRequest request(const QString &name, const QString &gpu = QStringLiteral("rtx4090"),
                                                  int count = 1)
    {
        InstanceService::CreateRequest request;
        request.name = name;
        request.gpuType = gpu;
        request.gpuCount = count;
        request.image = QStringLiteral("base");
        return request;
    }

    // Creates an instance without waiting for it.
    QString create(const QString &userId, const QString &name)
    {
        return service->create(userId, request(name)).value(QStringLiteral("id")).toString();
    }

    // Creates an instance and lets the runtime bring it to `running`.
    QString createRunning(const QString &userId, const QString &gpu = QStringLiteral("rtx4090"), int count = 1)
    {
        const QString id = service->create(userId, request(QStringLiteral("test"), gpu, count))
                               .value(QStringLiteral("id")).toString();
        [&] { QTRY_COMPARE(state(userId, id), QStringLiteral("running")); }();
        return id;
    }

    void advanceSeconds(qint64 seconds)
    {
        clock.advanceMs(seconds * 1000);
        service->tick();
    }

    QTemporaryDir dir;
    ManualClock clock;
    Catalog catalog;
    Database db;
    InProcessRuntime runtime;
    EventBus events;
    std::unique_ptr<Ledger> ledger;
    std::unique_ptr<Meter> meter;
    std::unique_ptr<Accounts> accounts;
    std::unique_ptr<SshKeys> keys;
    std::unique_ptr<InstanceService> service;
};

} // namespace cardhour::sim::testing
