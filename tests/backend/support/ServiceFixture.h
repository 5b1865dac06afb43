#pragma once

// The provider's services wired over a real SQLite file, a manual clock and the in-process
// runtime: what the unit tests of the state machine and billing drive directly.

#include "billing/Bookkeeper.h"
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

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace cardhour::sim::testing {

constexpr qint64 kStartMs = 1'790'000'000'000; // a fixed moment in 2026

struct ServiceFixture
{
    // `catalogDir`: a catalog of its own (see writeCatalog), else the built-in one.
    explicit ServiceFixture(const QString &path = {}, qint64 postingIntervalMs = 60'000,
                            const QString &catalogDir = {})
        : clock(kStartMs),
          catalog(catalogDir.isEmpty() ? Catalog::load() : Catalog::load(catalogDir))
    {
        db.open(path.isEmpty() ? dir.filePath(QStringLiteral("sim.sqlite")) : path);
        ledger = std::make_unique<Ledger>(db);
        books = std::make_unique<Bookkeeper>(db, *ledger);
        meter = std::make_unique<Meter>(db, *books, postingIntervalMs);
        // Small scrypt parameters: these tests are about money, not password cost.
        accounts = std::make_unique<Accounts>(db, *books, clock, PasswordHasher({1u << 10, 8, 1}));
        keys = std::make_unique<SshKeys>(db, clock);
        service = std::make_unique<InstanceService>(db, *books, *meter, catalog, *keys, runtime,
                                                    events, clock);
    }

    // Writes the built-in catalog into `dir` with another storage price; returns `dir`.
    static QString writeCatalog(const QString &dir, qint64 storagePricePerGibHourMicros)
    {
        Catalog::load(); // registers the built-in resources
        for (const QString &name : {QStringLiteral("gpus.json"), QStringLiteral("images.json")}) {
            QFile in(QStringLiteral(":/catalog/") + name);
            if (!in.open(QIODevice::ReadOnly))
                qFatal("cannot read the built-in catalog");
            QJsonObject document = QJsonDocument::fromJson(in.readAll()).object();
            if (name == QStringLiteral("gpus.json"))
                document.insert(QStringLiteral("storage_price_per_gib_hour_micros"),
                                storagePricePerGibHourMicros);
            QFile out(dir + u'/' + name);
            if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(document).toJson()) < 0)
                qFatal("cannot write a test catalog");
        }
        return dir;
    }

    qint64 storageCost(const QString &userId, const QString &id)
    {
        return service->get(userId, id).value(QStringLiteral("storage_cost_micros")).toInteger();
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

    static InstanceService::CreateRequest
    request(const QString &name, const QString &gpu = QStringLiteral("rtx4090"), int count = 1)
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
    QString createRunning(const QString &userId, const QString &gpu = QStringLiteral("rtx4090"),
                          int count = 1)
    {
        const QString id = service->create(userId, request(QStringLiteral("test"), gpu, count))
                               .value(QStringLiteral("id"))
                               .toString();
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
    std::unique_ptr<Bookkeeper> books;
    std::unique_ptr<Meter> meter;
    std::unique_ptr<Accounts> accounts;
    std::unique_ptr<SshKeys> keys;
    std::unique_ptr<InstanceService> service;
};

} // namespace cardhour::sim::testing
