// SnapshotService with billing, over real SQLite and a manual clock. The runtime here records
// what it is asked and answers with the sizes a test sets: what the snapshot's files are is
// tst_api_snapshots' job (real podman); this test is about states, ownership and money.
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "core/Clock.h"
#include "core/Json.h"
#include "runtime/ContainerRuntime.h"
#include "runtime/InProcessRuntime.h"
#include "service/Accounts.h"
#include "service/Catalog.h"
#include "service/EventBus.h"
#include "service/InstanceService.h"
#include "service/SnapshotRules.h"
#include "service/SnapshotService.h"
#include "service/SshKeys.h"
#include "store/Database.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace cardhour::sim;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kStartMs = 1'790'000'000'000;
constexpr qint64 kGib = 1LL << 30;

// Instances become ready at once; snapshots are taken with `sizes` (or fail with `failWith`).
class RecordingRuntime final : public ContainerRuntime
{
public:
    QString name() const override { return u"recording"_s; }
    bool outlivesProvider() const override { return false; }
    void create(const InstanceSpec &spec) override
    {
        created.append(spec);
        QTimer::singleShot(0, this, [this, id = spec.instanceId] { Q_EMIT ready(id, {}); });
    }
    void start(const InstanceSpec &spec) override
    {
        QTimer::singleShot(0, this, [this, id = spec.instanceId] { Q_EMIT ready(id, {}); });
    }
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
        taken.append(spec);
        QTimer::singleShot(0, this, [this, id = spec.snapshotId] {
            if (failWith.isEmpty())
                Q_EMIT snapshotTaken(id, sizes);
            else
                Q_EMIT snapshotFailed(id, failWith);
        });
    }
    void removeSnapshot(const QString &id) override
    {
        removedSnapshots.append(id);
        QTimer::singleShot(0, this, [this, id] { Q_EMIT snapshotRemoved(id); });
    }

    SnapshotSizes sizes{kGib + 1, kGib, true}; // 2 GiB and a byte: billed as 3 GiB
    QString failWith;
    QList<InstanceSpec> created;
    QList<SnapshotSpec> taken;
    QStringList removedSnapshots;
};

template<typename Runtime>
struct Fixture
{
    Fixture() : clock(kStartMs), catalog(Catalog::load())
    {
        db.open(dir.filePath(u"sim.sqlite"_s));
        ledger = std::make_unique<Ledger>(db);
        books = std::make_unique<Bookkeeper>(db, *ledger);
        meter = std::make_unique<Meter>(db, *books);
        accounts = std::make_unique<Accounts>(db, *books, clock, PasswordHasher({1u << 10, 8, 1}));
        keys = std::make_unique<SshKeys>(db, clock);
        instances = std::make_unique<InstanceService>(db, *books, *meter, catalog, *keys, runtime,
                                                      events, clock);
        snapshots = std::make_unique<SnapshotService>(db, *meter, catalog, *instances, runtime,
                                                      events, clock);
    }
    QString signUp(const QString &email)
    {
        return accounts->signUp(email, u"password123"_s).userId;
    }
    QString createRunning(const QString &user, int count = 2)
    {
        InstanceService::CreateRequest request;
        request.name = u"src"_s;
        request.gpuType = u"rtx4090"_s;
        request.gpuCount = count;
        request.image = u"base"_s;
        const QString id = instances->create(user, request).value(u"id"_s).toString();
        [&] {
            QTRY_COMPARE(instances->get(user, id).value(u"state"_s).toString(), u"running"_s);
        }();
        return id;
    }
    QJsonObject snapshotReady(const QString &user, const QString &instanceId)
    {
        const QString id = snapshots->create(user, instanceId, u"snap"_s).value(u"id"_s).toString();
        [&] { QTRY_VERIFY(snapshots->get(user, id).value(u"state"_s) != u"creating"_s); }();
        return snapshots->get(user, id);
    }
    void advanceSeconds(qint64 seconds)
    {
        clock.advanceMs(seconds * 1000);
        instances->tick();
    }
    qint64 rows(const QString &table)
    {
        return db.scalar(u"SELECT COUNT(*) FROM "_s + table).toLongLong();
    }

    QTemporaryDir dir;
    ManualClock clock;
    Catalog catalog;
    Database db;
    Runtime runtime;
    EventBus events;
    std::unique_ptr<Ledger> ledger;
    std::unique_ptr<Bookkeeper> books;
    std::unique_ptr<Meter> meter;
    std::unique_ptr<Accounts> accounts;
    std::unique_ptr<SshKeys> keys;
    std::unique_ptr<InstanceService> instances;
    std::unique_ptr<SnapshotService> snapshots;
};

int statusOf(const std::function<void()> &call, QString *code = nullptr)
{
    try {
        call();
    } catch (const ApiError &error) {
        if (code)
            *code = error.code();
        return error.status();
    }
    return 0;
}
} // namespace

class TestSnapshotService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void billableGibRoundsUp()
    {
        QCOMPARE(snapshots::billableGib(0), 1);
        QCOMPARE(snapshots::billableGib(1), 1);
        QCOMPARE(snapshots::billableGib(kGib), 1);
        QCOMPARE(snapshots::billableGib(kGib + 1), 2);
        QCOMPARE(snapshots::billableGib(10 * kGib), 10);
    }

    void keptSnapshotIsBilledPerGibHour()
    {
        Fixture<RecordingRuntime> f;
        const QString user = f.signUp(u"a@example.com"_s);
        const QString id = f.createRunning(user);
        const QJsonObject snapshot = f.snapshotReady(user, id);
        QCOMPARE(snapshot.value(u"state"_s).toString(), u"ready"_s);
        QCOMPARE(snapshot.value(u"size_bytes"_s).toInteger(), 2 * kGib + 1);
        QCOMPARE(snapshot.value(u"paused_while_taken"_s), QJsonValue(true));
        QCOMPARE(snapshot.value(u"gpu_count"_s).toInt(), 2);
        QCOMPARE(snapshot.value(u"retention"_s).toObject().value(u"storage_gib"_s).toInteger(), 3);
        QCOMPARE(snapshot.value(u"storage_rate_micros_per_hour"_s).toInteger(), 3 * 200);
        QCOMPARE(f.runtime.taken.size(), 1);
        QCOMPARE(f.runtime.taken.first().image, u"base"_s);

        const qint64 computeBefore = f.instances->get(user, id).value(u"cost_micros"_s).toInteger();
        f.instances->stop(user, id); // its own disk and the snapshot, billed side by side
        QTRY_COMPARE(f.instances->get(user, id).value(u"state"_s).toString(), u"stopped"_s);
        const qint64 computeStopped =
            f.instances->get(user, id).value(u"cost_micros"_s).toInteger();
        QCOMPARE(computeStopped, computeBefore);
        f.advanceSeconds(3600);
        const QString sid = snapshot.value(u"id"_s).toString();
        QCOMPARE(f.snapshots->get(user, sid).value(u"storage_cost_micros"_s).toInteger(), 600);
        // The instance's disk fee is its own (50 GiB), not mixed with the snapshot's.
        QCOMPARE(f.instances->get(user, id).value(u"storage_cost_micros"_s).toInteger(), 50 * 200);
        const QJsonObject bill = f.instances->billingSummary(user);
        QCOMPARE(bill.value(u"snapshot_storage_cost_micros"_s).toInteger(), 600);
        QCOMPARE(bill.value(u"snapshot_storage_spend_rate_micros_per_hour"_s).toInteger(), 600);
        QCOMPARE(bill.value(u"storage_cost_micros"_s).toInteger(), 50 * 200 + 600);
        QCOMPARE(bill.value(u"storage_spend_rate_micros_per_hour"_s).toInteger(), 50 * 200 + 600);
        QCOMPARE(f.ledger->balance(user),
                 Accounts::kTrialCreditMicros - computeStopped - 50 * 200 - 600);
        QVERIFY(f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"
                            " AND description LIKE 'Snapshot storage: snap,%'"_s)
                    .toInt()
                >= 1);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
        // Each posting says which snapshot it charges for: the snapshot's fees name it, the
        // instance's own disk fee and its compute do not.
        qint64 snapshotFees = 0;
        qint64 otherStorage = 0;
        for (const QJsonValue &posting : f.ledger->page(user, 0, 100)) {
            if (posting[u"kind"_s] != u"storage"_s) {
                QVERIFY(posting[u"snapshot_id"_s].isNull());
                continue;
            }
            if (posting[u"snapshot_id"_s].isNull()) {
                otherStorage -= posting[u"amount_micros"_s].toInteger();
            } else {
                QCOMPARE(posting[u"snapshot_id"_s].toString(), sid);
                QCOMPARE(posting[u"instance_id"_s].toString(), id);
                snapshotFees -= posting[u"amount_micros"_s].toInteger();
            }
        }
        QCOMPARE(snapshotFees, 600);
        QCOMPARE(otherStorage, 50 * 200);

        // Outlives its instance, still billed; deleting ends the fee and removes its parts.
        f.instances->terminate(user, id);
        f.advanceSeconds(1800);
        QCOMPARE(f.snapshots->get(user, sid).value(u"storage_cost_micros"_s).toInteger(), 900);
        f.snapshots->remove(user, sid);
        QTRY_COMPARE(f.runtime.removedSnapshots, QStringList{sid});
        QTRY_VERIFY(
            !f.db.scalar(u"SELECT removed_at FROM snapshots WHERE id = ?"_s, {sid}).isNull());
        f.advanceSeconds(3600);
        QCOMPARE(f.meter->snapshotCosts(user, f.clock.nowMs()).value(sid), 900);
        QCOMPARE(f.instances->billingSummary(user)
                     .value(u"snapshot_storage_spend_rate_micros_per_hour"_s)
                     .toInteger(),
                 0);
        QCOMPARE(statusOf([&] { f.snapshots->get(user, sid); }), 404);
        QCOMPARE(f.snapshots->list(user).size(), 0);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void emptyBalancePausesTheFeeAndKeepsTheSnapshot()
    {
        Fixture<RecordingRuntime> f;
        f.runtime.sizes = SnapshotSizes{200 * kGib, 0, false}; // 40 000 micro-yuan/h
        const QString user = f.signUp(u"b@example.com"_s);
        const QString id = f.createRunning(user, 1);
        const QString sid = f.snapshotReady(user, id).value(u"id"_s).toString();
        f.instances->stop(user, id);
        QTRY_COMPARE(f.instances->get(user, id).value(u"state"_s).toString(), u"stopped"_s);
        f.advanceSeconds(1000 * 3600); // far past the end of the money
        QCOMPARE(f.ledger->balance(user), 0);
        QJsonObject kept = f.snapshots->get(user, sid);
        QCOMPARE(kept.value(u"state"_s).toString(), u"ready"_s); // kept, not deleted
        QCOMPARE(kept.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
        // No new snapshot on an empty balance, and nothing recorded for the refused one.
        QString code;
        QCOMPARE(statusOf([&] { f.snapshots->create(user, id, {}); }, &code), 402);
        QCOMPARE(code, u"insufficient_balance"_s);
        QCOMPARE(f.rows(u"snapshots"_s), 1);
        // A top-up resumes the fee from that moment.
        {
            Transaction tx(f.db);
            Ledger::Posting posting;
            posting.kind = Ledger::Kind::Topup;
            posting.userId = user;
            posting.amountMicros = 1'000'000;
            posting.description = u"test top-up"_s;
            f.books->post(posting, f.clock.nowMs());
            f.instances->resumeStorageBilling(user);
            tx.commit();
        }
        QCOMPARE(f.snapshots->get(user, sid).value(u"storage_rate_micros_per_hour"_s).toInteger(),
                 40'000);
        f.advanceSeconds(3600);
        // The stopped disk (50 GiB) resumed too: both fees from the top-up on.
        QCOMPARE(f.ledger->balance(user), 1'000'000 - 40'000 - 50 * 200);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void restoreTakesTheSnapshotsDefaults()
    {
        Fixture<RecordingRuntime> f;
        const QString user = f.signUp(u"d@example.com"_s);
        const QString id = f.createRunning(user, 2);
        const QString sid = f.snapshotReady(user, id).value(u"id"_s).toString();
        InstanceService::CreateRequest restore;
        restore.snapshotId = sid;
        restore.gpuCount = 0; // the snapshot's
        const QJsonObject restored = f.instances->create(user, restore);
        QCOMPARE(restored.value(u"snapshot_id"_s).toString(), sid);
        QCOMPARE(restored.value(u"gpu_type"_s).toString(), u"rtx4090"_s);
        QCOMPARE(restored.value(u"gpu_count"_s).toInt(), 2);
        QCOMPARE(restored.value(u"image"_s).toString(), u"base"_s);
        QCOMPARE(restored.value(u"name"_s).toString(), u"rtx4090-restored"_s);
        QTRY_COMPARE(f.runtime.created.size(), 2);
        QCOMPARE(f.runtime.created.last().snapshotId, sid);
        QCOMPARE(f.runtime.created.first().snapshotId, QString());
        // Deleting is refused while the restored instance lives.
        QString code;
        QCOMPARE(statusOf([&] { f.snapshots->remove(user, sid); }, &code), 409);
        QCOMPARE(code, u"snapshot_in_use"_s);
        // Another GPU count than the source's can be chosen.
        restore.gpuCount = 1;
        QCOMPARE(f.instances->create(user, restore).value(u"gpu_count"_s).toInt(), 1);
    }

    void badRequestsWriteNothing()
    {
        Fixture<RecordingRuntime> f;
        const QString alice = f.signUp(u"alice@example.com"_s);
        const QString bob = f.signUp(u"bob@example.com"_s);
        const QString id = f.createRunning(alice);
        QString code;
        QCOMPARE(statusOf([&] { f.snapshots->create(alice, u"nope"_s, {}); }), 404);
        QCOMPARE(statusOf([&] { f.snapshots->create(bob, id, {}); }), 404); // not "forbidden"
        f.runtime.failWith = u"commit failed: disk full"_s;
        const QJsonObject failed = f.snapshotReady(alice, id);
        QCOMPARE(failed.value(u"state"_s).toString(), u"failed"_s);
        QCOMPARE(failed.value(u"state_reason"_s).toString(), u"commit failed: disk full"_s);
        QCOMPARE(failed.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0); // never billed
        const QString failedId = failed.value(u"id"_s).toString();
        InstanceService::CreateRequest restore;
        restore.snapshotId = failedId;
        QCOMPARE(statusOf([&] { f.instances->create(alice, restore); }, &code), 409);
        QCOMPARE(code, u"snapshot_not_ready"_s);
        QCOMPARE(statusOf([&] { f.instances->create(bob, restore); }, &code), 400);
        QCOMPARE(code, u"unknown_snapshot"_s);
        QCOMPARE(statusOf([&] { f.snapshots->remove(bob, failedId); }), 404);
        QCOMPARE(f.rows(u"instances"_s), 1);
        f.instances->terminate(alice, id);
        QCOMPARE(statusOf([&] { f.snapshots->create(alice, id, {}); }, &code), 409);
        QCOMPARE(f.rows(u"snapshots"_s), 1);
        QCOMPARE(f.rows(u"segments WHERE snapshot_id IS NOT NULL"_s), 0);
        f.snapshots->remove(alice, failedId); // a failed one can be deleted (its leftovers go)
        QTRY_COMPARE(f.runtime.removedSnapshots, QStringList{failedId});
    }

    void unsupportedRuntimeRefusesUpFront()
    {
        Fixture<InProcessRuntime> f;
        const QString user = f.signUp(u"e@example.com"_s);
        InstanceService::CreateRequest request;
        request.name = u"x"_s;
        request.gpuType = u"rtx4090"_s;
        request.image = u"base"_s;
        const QString id = f.instances->create(user, request).value(u"id"_s).toString();
        QTRY_COMPARE(f.instances->get(user, id).value(u"state"_s).toString(), u"running"_s);
        QString code;
        QCOMPARE(statusOf([&] { f.snapshots->create(user, id, {}); }, &code), 409);
        QCOMPARE(code, u"snapshots_unsupported"_s);
        QCOMPARE(f.rows(u"snapshots"_s), 0);
    }

    void restartFailsSnapshotsLeftCreating()
    {
        Fixture<RecordingRuntime> f;
        const QString user = f.signUp(u"f@example.com"_s);
        const QString id = f.createRunning(user);
        const QString sid = f.snapshots->create(user, id, {}).value(u"id"_s).toString();
        f.snapshots->reconcile(); // as if the provider restarted before the runtime answered
        QCOMPARE(f.snapshots->get(user, sid).value(u"state"_s).toString(), u"failed"_s);
        QCOMPARE(f.snapshots->get(user, sid).value(u"state_reason"_s).toString(),
                 u"provider_restarted"_s);
        QTRY_VERIFY(f.runtime.removedSnapshots.contains(sid)); // half-made parts deleted
        QTest::qWait(10); // the late answer of the runtime changes nothing
        QCOMPARE(f.snapshots->get(user, sid).value(u"state"_s).toString(), u"failed"_s);
        QCOMPARE(f.rows(u"segments WHERE snapshot_id IS NOT NULL"_s), 0);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotService)
#include "tst_snapshotservice.moc"
