#include "ServiceFixture.h"
#include "billing/Pricing.h"
#include "core/Json.h"

#include <QJsonArray>
#include <QThread>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
// The built-in catalog's storage price, micro-yuan per GiB-hour.
constexpr qint64 kStoragePrice = 200;

qint64 sumOfKind(ServiceFixture &f, const QString &userId, const QString &kind)
{
    return f.db
        .scalar(
            u"SELECT COALESCE(SUM(amount_micros), 0) FROM ledger_txns WHERE user_id = ? AND kind = ?"_s,
            {userId, kind})
        .toLongLong();
}

void topUp(ServiceFixture &f, const QString &userId, qint64 amount)
{
    // As POST /v1/billing/topup does: the posting, and the paused storage fees resumed.
    Transaction tx(f.db);
    Ledger::Posting posting;
    posting.kind = Ledger::Kind::Topup;
    posting.userId = userId;
    posting.amountMicros = amount;
    posting.description = u"test top-up"_s;
    f.books->post(posting, f.clock.nowMs());
    f.service->resumeStorageBilling(userId);
    tx.commit();
}
} // namespace

class TestInstanceService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void threeSecondsThenStop()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"a@example.com"_s);
        const QString id = f.createRunning(user);
        f.advanceSeconds(3);
        f.service->stop(user, id);
        f.advanceSeconds(3600); // an hour after stop: no more compute, an hour of its disk
        const qint64 expected = 3 * 1'900'000 / 3600; // 1583, floored once over the whole run
        const qint64 storage = 50 * kStoragePrice; // 50 GiB for one hour
        QCOMPARE(f.cost(user, id), expected);
        QCOMPARE(f.storageCost(user, id), storage);
        QCOMPARE(f.ledger->balance(user), Accounts::kTrialCreditMicros - expected - storage);
        QCOMPARE(f.service->liveBalance(user), Accounts::kTrialCreditMicros - expected - storage);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void storageWhileStopped_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("diskGib");
        QTest::newRow("rtx4090, 50 GiB") << u"rtx4090"_s << qint64(50);
        QTest::newRow("l40s, 100 GiB") << u"l40s"_s << qint64(100);
        QTest::newRow("h100, 200 GiB") << u"h100-80g"_s << qint64(200);
    }
    void storageWhileStopped()
    {
        QFETCH(QString, gpu);
        QFETCH(qint64, diskGib);
        const qint64 rate = diskGib * kStoragePrice;
        ServiceFixture f;
        const QString user = f.signUp(u"storage@example.com"_s);
        const QString id = f.createRunning(user, gpu);
        const qint64 price = f.service->get(user, id).value(u"price_per_hour_micros"_s).toInteger();
        f.advanceSeconds(3);
        const QJsonObject stopped = f.service->stop(user, id);
        const qint64 compute = pricing::segmentCost(3000, price);
        QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), compute);
        QCOMPARE(stopped.value(u"storage_rate_micros_per_hour"_s).toInteger(), rate);
        QCOMPARE(f.service->spendRate(user), rate);
        const QJsonObject retention = stopped.value(u"retention"_s).toObject();
        QCOMPARE(retention.value(u"billed_while_stopped"_s).toArray(), QJsonArray{u"storage"_s});
        QCOMPARE(retention.value(u"storage_gib"_s).toInteger(), diskGib);
        QCOMPARE(retention.value(u"storage_price_per_gib_hour_micros"_s).toInteger(),
                 kStoragePrice);
        QCOMPARE(retention.value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger(), rate);

        f.advanceSeconds(3600);
        QCOMPARE(f.cost(user, id), compute); // compute does not move while stopped
        QCOMPARE(f.storageCost(user, id), pricing::segmentCost(3'600'000, rate));
        QCOMPARE(f.storageCost(user, id), rate);
        QCOMPARE(sumOfKind(f, user, u"storage"_s), -rate);
        QCOMPARE(sumOfKind(f, user, u"compute"_s), -compute);
        QCOMPARE(
            f.db.scalar(u"SELECT COUNT(*) FROM ledger_entries WHERE account = 'revenue:storage'"_s)
                .toInt(),
            f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"_s).toInt());
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);

        // Start closes the storage segment at the start request, to the millisecond.
        f.clock.advanceMs(1234);
        const qint64 startedAt = f.clock.nowMs();
        const QJsonObject starting = f.service->start(user, id);
        QCOMPARE(starting.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
        const qint64 storage = pricing::segmentCost(3'601'234, rate);
        QCOMPARE(starting.value(u"storage_cost_micros"_s).toInteger(), storage);
        QCOMPARE(
            f.db.scalar(
                    u"SELECT ended_at FROM segments WHERE instance_id = ? AND kind = 'storage'"_s,
                    {id})
                .toLongLong(),
            startedAt);
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        f.advanceSeconds(60);
        const qint64 minute = pricing::segmentCost(60'000, price);
        QCOMPARE(f.storageCost(user, id), storage);
        QCOMPARE(f.cost(user, id), compute + minute);
        QCOMPARE(f.ledger->balance(user),
                 Accounts::kTrialCreditMicros - compute - minute - storage);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void terminateFromStoppedClosesStorage()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"terminate@example.com"_s);
        const QString id = f.createRunning(user);
        f.service->stop(user, id);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        f.clock.advanceMs(600'500);
        const QJsonObject terminated = f.service->terminate(user, id);
        const qint64 storage = pricing::segmentCost(600'500, 50 * kStoragePrice);
        QCOMPARE(terminated.value(u"storage_cost_micros"_s).toInteger(), storage);
        QCOMPARE(terminated.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
        f.advanceSeconds(3600);
        QCOMPARE(f.storageCost(user, id), storage);
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE ended_at IS NULL"_s).toInt(), 0);
        QCOMPARE(f.ledger->balance(user), Accounts::kTrialCreditMicros - storage);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void storageExhaustionKeepsTheInstanceStopped()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"empty@example.com"_s);
        const QString id = f.createRunning(user, u"h100-80g"_s); // 200 GiB: 40 000 micro-yuan/h
        f.advanceSeconds(3);
        f.service->stop(user, id);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        const std::optional<qint64> predicted = Meter::runsOutAt(
            f.meter->openSegmentsOf(user), f.ledger->balance(user), f.clock.nowMs());
        QVERIFY(predicted);
        QCOMPARE(json::isoTimeOrNull(predicted),
                 f.service->billingSummary(user).value(u"runs_out_at"_s));
        f.advanceSeconds(1000 * 3600); // far past the end of the money, in one jump

        QCOMPARE(f.ledger->balance(user), 0);
        const QJsonObject instance = f.service->get(user, id);
        QCOMPARE(instance.value(u"state"_s).toString(),
                 u"stopped"_s); // stays stopped, nothing deleted
        QCOMPARE(instance.value(u"state_reason"_s).toString(), u"stopped_by_user"_s);
        QCOMPARE(instance.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0); // paused
        QCOMPARE(
            instance.value(u"retention"_s).toObject().value(u"deleted_when_balance_runs_out"_s),
            QJsonValue(false));
        QCOMPARE(
            f.db.scalar(u"SELECT ended_at FROM segments WHERE kind = 'storage'"_s).toLongLong(),
            *predicted);
        // At 40 000 micro-yuan/h the cost grows by at most one micro-yuan per millisecond: the
        // segment reaches the balance exactly, and nothing is written off.
        QCOMPARE(f.db.scalar(u"SELECT written_off_micros FROM segments WHERE kind = 'storage'"_s)
                     .toLongLong(),
                 0);
        QCOMPARE(f.storageCost(user, id) + f.cost(user, id), Accounts::kTrialCreditMicros);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
        try {
            f.service->start(user, id);
            QFAIL("start with a zero balance must be refused");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 402);
        }
        // A top-up resumes the fee from that moment.
        const qint64 before = f.storageCost(user, id);
        topUp(f, user, 1'000'000);
        QCOMPARE(f.service->get(user, id).value(u"storage_rate_micros_per_hour"_s).toInteger(),
                 40'000);
        f.advanceSeconds(3600);
        QCOMPARE(f.storageCost(user, id), before + 40'000);
        QCOMPARE(f.ledger->balance(user), 1'000'000 - 40'000);
    }

    void freeStorageMakesNoPostings()
    {
        QTemporaryDir catalogDir;
        ServiceFixture f({}, 60'000, ServiceFixture::writeCatalog(catalogDir.path(), 0));
        const QString user = f.signUp(u"free@example.com"_s);
        const QString id = f.createRunning(user);
        f.advanceSeconds(3);
        const QJsonObject stopped = f.service->stop(user, id);
        const QJsonObject retention = stopped.value(u"retention"_s).toObject();
        QCOMPARE(retention.value(u"billed_while_stopped"_s).toArray(), QJsonArray{});
        QCOMPARE(retention.value(u"storage_gib"_s).toInteger(), 50);
        QCOMPARE(retention.value(u"storage_price_per_gib_hour_micros"_s).toInteger(), 0);
        QCOMPARE(retention.value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger(), 0);
        f.advanceSeconds(10 * 3600);
        QCOMPARE(f.cost(user, id), 1583);
        QCOMPARE(f.storageCost(user, id), 0);
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE kind = 'storage'"_s).toInt(), 0);
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"_s).toInt(),
                 0);
        QCOMPARE(f.ledger->balance(user), Accounts::kTrialCreditMicros - 1583);
        QCOMPARE(f.service->spendRate(user), 0);
    }

    void failedStartIsNotBilledForStorage()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"failed@example.com"_s);
        const QString id = f.createRunning(user);
        f.service->stop(user, id);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        f.advanceSeconds(60);
        f.runtime.failNext(u"container vanished"_s);
        f.service->start(user, id);
        QTRY_COMPARE(f.state(user, id), u"failed"_s);
        const QJsonObject failed = f.service->get(user, id);
        QCOMPARE(failed.value(u"retention"_s).toObject().value(u"billed_while_failed"_s).toArray(),
                 QJsonArray{});
        const qint64 storage = pricing::segmentCost(60'000, 50 * kStoragePrice);
        f.advanceSeconds(3600);
        QCOMPARE(f.storageCost(user, id), storage);
        QCOMPARE(f.service->spendRate(user), 0);
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE ended_at IS NULL"_s).toInt(), 0);
    }

    void listMatchesGet()
    {
        // list() loads every instance's details in a few queries; each must be what get() says.
        ServiceFixture f;
        const QString user = f.signUp(u"list@example.com"_s);
        const QString other = f.signUp(u"other@example.com"_s);
        f.createRunning(other);
        const QString running = f.createRunning(user);
        const QString stopped = f.createRunning(user, u"l40s"_s);
        f.advanceSeconds(90);
        f.service->stop(user, stopped);
        const QString gone = f.createRunning(user, u"rtx3090"_s);
        f.service->terminate(user, gone);
        f.advanceSeconds(125);
        const QJsonArray all = f.service->list(user, true);
        QCOMPARE(all.size(), 3);
        for (const QJsonValue &value : all)
            QCOMPARE(value.toObject(),
                     f.service->get(user, value.toObject().value(u"id"_s).toString()));
        const QJsonArray live = f.service->list(user, false);
        QCOMPARE(live.size(), 2);
        QCOMPARE(live.at(0).toObject().value(u"id"_s).toString(), running);
        QCOMPARE(live.at(1).toObject().value(u"id"_s).toString(), stopped);
        QVERIFY(!live.at(0).toObject().value(u"running_since"_s).isNull());
        QVERIFY(live.at(1).toObject().value(u"storage_cost_micros"_s).toInteger() > 0);
    }

    void launchStagesAreRecorded()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"stages@example.com"_s);
        f.runtime.setHold(true);
        const QString id = f.create(user, u"staged"_s);
        QTRY_COMPARE(f.state(user, id), u"starting"_s);
        f.clock.advanceMs(1234); // the runtime takes its time before the instance is ready
        f.runtime.setHold(false);
        f.runtime.release();
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        const QJsonObject launch = f.service->get(user, id).value(u"launch"_s).toObject();
        QStringList names;
        for (const QJsonValue &stage : launch.value(u"stages"_s).toArray())
            names.append(stage.toObject().value(u"name"_s).toString());
        // No sshd in-process; the box is checked after it is ready, before it is billed.
        QCOMPARE(names, (QStringList{u"image"_s, u"container"_s, u"ready"_s, u"hardware_check"_s}));
        QCOMPARE(launch.value(u"ready_ms"_s).toInteger(), 1234);
        // Without containers nothing survives a stop, and the API says so.
        const QJsonObject retention = f.service->get(user, id).value(u"retention"_s).toObject();
        QVERIFY(retention.value(u"stop_keeps"_s).toArray().isEmpty());
        QCOMPARE(retention.value(u"stop_releases"_s).toArray(), QJsonArray{u"gpu_cards"_s});

        // A start is a new launch with its own stages.
        f.service->stop(user, id);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        f.service->start(user, id);
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        const QJsonObject again = f.service->get(user, id).value(u"launch"_s).toObject();
        QCOMPARE(again.value(u"ready_ms"_s).toInteger(), 0);
        QCOMPARE(again.value(u"stages"_s).toArray().size(), 3); // container, ready, hardware_check
    }

    void resourcesFollowTheCatalogScaledToTheHost()
    {
        ServiceFixture f;
        const GpuType gpu = *f.catalog.gpu(u"rtx4090"_s);
        const InstanceService::Resources two = f.service->resourcesFor(u"rtx4090"_s, 2);
        QCOMPARE(two.cpus,
                 std::min(2 * gpu.cpusPerCard, static_cast<double>(QThread::idealThreadCount())));
        QVERIFY(two.memoryMib > 0 && two.memoryMib <= 2 * gpu.memoryMibPerCard);
        const InstanceService::Resources one = f.service->resourcesFor(u"rtx4090"_s, 1);
        QVERIFY(one.cpus <= two.cpus && one.memoryMib <= two.memoryMib);
        QCOMPARE(f.service->resourcesFor(u"no-such-gpu"_s, 1).cpus, 0.0);
    }

    void notBilledWhileStarting()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"b@example.com"_s);
        f.runtime.setHold(true);
        const QString id = f.create(user, u"held"_s);
        QTRY_COMPARE(f.state(user, id), u"starting"_s);
        f.advanceSeconds(3600);
        QCOMPARE(f.cost(user, id), 0);
        QCOMPARE(f.ledger->balance(user), Accounts::kTrialCreditMicros);
        f.runtime.setHold(false);
        f.runtime.release();
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        f.advanceSeconds(60);
        QCOMPARE(f.cost(user, id), 1'900'000 / 60);
    }

    void exhaustionStopsAtExactlyZero_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("instances");
        QTest::newRow("one rtx4090") << u"rtx4090"_s << 1 << 1;
        QTest::newRow("two rtx4090 x2") << u"rtx4090"_s << 2 << 2;
        QTest::newRow("h100 x4") << u"h100-80g"_s << 4 << 1;
        QTest::newRow("three rtx3090") << u"rtx3090"_s << 1 << 3;
    }
    void exhaustionStopsAtExactlyZero()
    {
        QFETCH(QString, gpu);
        QFETCH(int, count);
        QFETCH(int, instances);
        ServiceFixture f;
        const QString user = f.signUp(u"c@example.com"_s);
        QStringList ids;
        for (int i = 0; i < instances; ++i)
            ids.append(f.createRunning(user, gpu, count));
        const qint64 started = f.clock.nowMs();
        const qint64 rate = f.service->spendRate(user);
        const std::optional<qint64> predicted = Meter::runsOutAt(
            f.meter->openSegmentsOf(user), f.ledger->balance(user), f.clock.nowMs());
        QVERIFY(predicted);
        // The predicted moment is the first millisecond at which the run costs the balance.
        const qint64 runMs = *predicted - started;
        QVERIFY(instances * pricing::segmentCost(runMs, rate / instances)
                    >= Accounts::kTrialCreditMicros
                || rate % instances != 0);

        f.advanceSeconds(100 * 3600); // far past the end of the money, in one jump
        QCOMPARE(f.ledger->balance(user), 0);
        QCOMPARE(f.service->liveBalance(user), 0);
        for (const QString &id : std::as_const(ids)) {
            const QJsonObject instance = f.service->get(user, id);
            QVERIFY(instance.value(u"state"_s).toString() == u"stopping"_s
                    || instance.value(u"state"_s).toString() == u"stopped"_s);
            QCOMPARE(instance.value(u"state_reason"_s).toString(), u"balance_exhausted"_s);
        }
        // Every segment ended at the predicted millisecond, not at the end of the jump.
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE ended_at = ?"_s, {*predicted})
                     .toInt(),
                 instances);
        qint64 totalCost = 0;
        for (const QString &id : std::as_const(ids))
            totalCost += f.cost(user, id);
        QVERIFY(totalCost
                >= Accounts::kTrialCreditMicros); // owed; what exceeds the balance is written off
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
        // No new run can start with nothing left.
        for (const QString &id : std::as_const(ids))
            QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        try {
            f.service->start(user, ids.first());
            QFAIL("start with a zero balance must be refused");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 402);
        }
    }

    void compareAndSwapTransitions()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"d@example.com"_s);
        const QString id = f.createRunning(user);
        f.service->stop(user, id);
        try {
            f.service->stop(user, id); // the second of two stops loses
            QFAIL("second stop must be refused");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 409);
        }
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        f.service->start(user, id);
        QTRY_COMPARE(f.state(user, id), u"running"_s);
        f.service->terminate(user, id);
        QCOMPARE(f.state(user, id), u"terminated"_s);
        try {
            f.service->terminate(user, id);
            QFAIL("second terminate must be refused");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 409);
        }
    }

    void otherUsersSeeNothing()
    {
        ServiceFixture f;
        const QString alice = f.signUp(u"alice@example.com"_s);
        const QString bob = f.signUp(u"bob@example.com"_s);
        const QString id = f.createRunning(alice);
        QCOMPARE(f.service->list(bob, true).size(), 0);
        for (const auto &action : {&InstanceService::get, &InstanceService::stop,
                                   &InstanceService::start, &InstanceService::terminate}) {
            try {
                (f.service.get()->*action)(bob, id);
                QFAIL("another user's instance must be not found");
            } catch (const ApiError &error) {
                QCOMPARE(error.status(), 404);
            }
        }
        QCOMPARE(f.state(alice, id), u"running"_s);
    }

    void capacityIsShared()
    {
        ServiceFixture f;
        const QString alice = f.signUp(u"e@example.com"_s);
        const QString bob = f.signUp(u"f@example.com"_s);
        f.createRunning(alice, u"rtx4090"_s, 8);
        try {
            f.service->create(bob, ServiceFixture::request(u"one more"_s));
            QFAIL("no card is free");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 409);
        }
        const QJsonArray gpus = f.service->gpuCatalog();
        for (const QJsonValue &gpu : gpus) {
            if (gpu.toObject().value(u"id"_s).toString() == u"rtx4090"_s)
                QCOMPARE(gpu.toObject().value(u"available"_s).toInt(), 0);
        }
    }

    void failedLaunchIsNotBilled()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"g@example.com"_s);
        f.runtime.failNext(u"image pull failed"_s);
        const QString id = f.create(user, u"doomed"_s);
        QTRY_COMPARE(f.state(user, id), u"failed"_s);
        QCOMPARE(f.service->get(user, id).value(u"state_reason"_s).toString(),
                 u"image pull failed"_s);
        f.advanceSeconds(600);
        QCOMPARE(f.cost(user, id), 0);
        QCOMPARE(f.ledger->balance(user), Accounts::kTrialCreditMicros);
    }

    void restartSettlesAtLastSeen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"restart.sqlite"_s);
        QString user;
        QString id;
        qint64 lastSeen = 0;
        {
            ServiceFixture f(path);
            user = f.signUp(u"h@example.com"_s);
            id = f.createRunning(user);
            f.advanceSeconds(125); // one checkpoint posting at 60 s, another at 120 s
            lastSeen = f.clock.nowMs();
            f.clock.advanceMs(40'000); // the provider "dies" here: nobody saw these 40 s
        }
        ServiceFixture again(path);
        again.clock.setMs(lastSeen + 3'600'000);
        again.service->reconcile();
        const QJsonObject instance = again.service->get(user, id);
        QCOMPARE(instance.value(u"state"_s).toString(), u"stopped"_s);
        QCOMPARE(instance.value(u"state_reason"_s).toString(), u"provider_restarted"_s);
        QCOMPARE(instance.value(u"cost_micros"_s).toInteger(),
                 pricing::segmentCost(125'000, 1'900'000));
        QCOMPARE(again.ledger->balance(user),
                 Accounts::kTrialCreditMicros - pricing::segmentCost(125'000, 1'900'000));
        QVERIFY(again.ledger->verify().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestInstanceService)
#include "tst_instanceservice.moc"
