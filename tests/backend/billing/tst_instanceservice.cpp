#include "ServiceFixture.h"

#include "billing/Pricing.h"
#include "core/Json.h"

#include <QJsonArray>
#include <QThread>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

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
        f.advanceSeconds(3600); // an hour after stop: nothing more is billed
        const qint64 expected = 3 * 1'900'000 / 3600; // 1583, floored once over the whole run
        QCOMPARE(f.cost(user, id), expected);
        QCOMPARE(f.ledger->balance(user), Accounts::kTrialCreditMicros - expected);
        QCOMPARE(f.service->liveBalance(user), Accounts::kTrialCreditMicros - expected);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
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
            QCOMPARE(value.toObject(), f.service->get(user, value.toObject().value(u"id"_s).toString()));
        const QJsonArray live = f.service->list(user, false);
        QCOMPARE(live.size(), 2);
        QCOMPARE(live.at(0).toObject().value(u"id"_s).toString(), running);
        QCOMPARE(live.at(1).toObject().value(u"id"_s).toString(), stopped);
        QVERIFY(!live.at(0).toObject().value(u"running_since"_s).isNull());
        QVERIFY(live.at(1).toObject().value(u"running_since"_s).isNull());
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
        QCOMPARE(names, (QStringList{u"image"_s, u"container"_s, u"ready"_s})); // no sshd in-process
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
        QCOMPARE(again.value(u"stages"_s).toArray().size(), 2); // container, ready
    }

    void resourcesFollowTheCatalogScaledToTheHost()
    {
        ServiceFixture f;
        const GpuType gpu = *f.catalog.gpu(u"rtx4090"_s);
        const InstanceService::Resources two = f.service->resourcesFor(u"rtx4090"_s, 2);
        QCOMPARE(two.cpus, std::min(2 * gpu.cpusPerCard, static_cast<double>(QThread::idealThreadCount())));
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
        const std::optional<qint64> predicted =
            Meter::runsOutAt(f.meter->openSegmentsOf(user), f.ledger->balance(user), f.clock.nowMs());
        QVERIFY(predicted);
        // The predicted moment is the first millisecond at which the run costs the balance.
        const qint64 runMs = *predicted - started;
        QVERIFY(instances * pricing::segmentCost(runMs, rate / instances) >= Accounts::kTrialCreditMicros
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
        QCOMPARE(f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE ended_at = ?"_s, {*predicted}).toInt(), instances);
        qint64 totalCost = 0;
        for (const QString &id : std::as_const(ids))
            totalCost += f.cost(user, id);
        QVERIFY(totalCost >= Accounts::kTrialCreditMicros); // owed; what exceeds the balance is written off
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
        for (const auto &action : {&InstanceService::get, &InstanceService::stop, &InstanceService::start,
                                   &InstanceService::terminate}) {
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
        QCOMPARE(f.service->get(user, id).value(u"state_reason"_s).toString(), u"image pull failed"_s);
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
        QCOMPARE(instance.value(u"cost_micros"_s).toInteger(), pricing::segmentCost(125'000, 1'900'000));
        QCOMPARE(again.ledger->balance(user), Accounts::kTrialCreditMicros - pricing::segmentCost(125'000, 1'900'000));
        QVERIFY(again.ledger->verify().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestInstanceService)
#include "tst_instanceservice.moc"
