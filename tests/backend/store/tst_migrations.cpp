// Migrations over a database written by an older cardhour-sim: the schema moves, the data stays.
#include "ServiceFixture.h"
#include "store/Migrations.h"

#include <QSqlDatabase>
#include <QSqlError>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
// Writes `path` as cardhour-sim at schema `version` would have, then closes it.
void createAtVersion(const QString &path, int version, const QStringList &data)
{
    const QString connection = u"old-schema"_s;
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, connection);
        raw.setDatabaseName(path);
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec(
            u"CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
            " applied_at TEXT NOT NULL)"_s));
        for (const migrations::Migration &migration : migrations::all()) {
            if (migration.version > version)
                break;
            for (const QString &statement : migration.statements)
                QVERIFY2(q.exec(statement), qPrintable(q.lastError().text()));
            QVERIFY(q.exec(
                u"INSERT INTO schema_version VALUES (%1, 'old', 'then')"_s.arg(migration.version)));
        }
        for (const QString &statement : data)
            QVERIFY2(q.exec(statement), qPrintable(statement + u": "_s + q.lastError().text()));
        raw.close();
    }
    QSqlDatabase::removeDatabase(connection);
}
} // namespace

class TestMigrations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void version5AddsStorageBilling()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"v4.sqlite"_s);
        const qint64 t = kStartMs - 3'600'000;
        createAtVersion(
            path, 4,
            {
                u"INSERT INTO users(id, email, password_hash, balance_micros, created_at) VALUES ('u', 'u@example.com', 'x', 9998417, 0)"_s,
                u"INSERT INTO ledger_txns(id, uuid, user_id, kind, amount_micros, "
                u"balance_after_micros, description, created_at)"
                " VALUES (1, 'a', 'u', 'trial_credit', 10000000, 10000000, 'credit', 0),"
                " (2, 'b', 'u', 'compute', -1583, 9998417, 'run', %1)"_s.arg(t),
                u"INSERT INTO ledger_entries(txn_id, account, amount_micros) VALUES (1, 'user:u', "
                u"10000000),"
                " (1, 'grant:trial', -10000000), (2, 'user:u', -1583), (2, 'revenue:compute', 1583)"_s,
                u"INSERT INTO instances(id, user_id, name, state, state_reason, gpu_type, "
                u"gpu_count, image,"
                " price_per_hour_micros, created_at, updated_at) VALUES"
                " ('stopped', 'u', 'old', 'stopped', 'stopped_by_user', 'rtx4090', 1, 'base', 1900000, 0, %1)"_s
                    .arg(t),
                u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour, started_at, "
                u"ended_at, last_seen_at,"
                " charged_micros, charged_until) VALUES ('stopped', 'u', 1900000, %1, %2, %2, 1583, %2)"_s
                    .arg(t - 3000)
                    .arg(t),
            });
        if (QTest::currentTestFailed())
            return;

        ServiceFixture f(path); // opens the file: migration 5 runs
        QCOMPARE(f.db.schemaVersion(), migrations::all().last().version);
        QCOMPARE(f.db.scalar(u"SELECT kind FROM segments"_s).toString(), u"compute"_s);
        QCOMPARE(f.db.scalar(u"SELECT charged_micros FROM segments"_s).toLongLong(), 1583);
        QVERIFY(f.db.scalar(u"SELECT disk_gib FROM instances WHERE id = 'stopped'"_s).isNull());
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
        // The new constraints hold: one kind or the other, one open segment per instance.
        QVERIFY_THROWS_EXCEPTION(
            DbError,
            f.db.exec(u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour,"
                      " started_at, last_seen_at, charged_until, kind)"
                      " VALUES ('stopped', 'u', 1, 0, 0, 0, 'disk')"_s));
        f.db.exec(u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour, started_at, "
                  u"last_seen_at,"
                  " charged_until, kind) VALUES ('stopped', 'u', 1, 0, 0, 0, 'storage')"_s);
        QVERIFY_THROWS_EXCEPTION(
            DbError,
            f.db.exec(u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour,"
                      " started_at, last_seen_at, charged_until)"
                      " VALUES ('stopped', 'u', 1, 0, 0, 0)"_s));
        f.db.exec(u"DELETE FROM segments WHERE kind = 'storage'"_s);

        // An instance stopped before the fee existed has the catalog's disk, and its disk is
        // billed from the first tick after the upgrade, not for the time before.
        const QJsonObject before = f.service->get(u"u"_s, u"stopped"_s);
        QCOMPARE(before.value(u"retention"_s).toObject().value(u"storage_gib"_s).toInteger(), 50);
        QCOMPARE(before.value(u"cost_micros"_s).toInteger(), 1583);
        QCOMPARE(before.value(u"storage_cost_micros"_s).toInteger(), 0);
        f.service->tick();
        f.advanceSeconds(3600);
        const QJsonObject after = f.service->get(u"u"_s, u"stopped"_s);
        QCOMPARE(after.value(u"cost_micros"_s).toInteger(), 1583);
        QCOMPARE(after.value(u"storage_cost_micros"_s).toInteger(), 50 * 200);
        QCOMPARE(f.ledger->balance(u"u"_s), 10'000'000 - 1583 - 50 * 200);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void version6AddsTelemetryAndDatasets()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"v5.sqlite"_s);
        createAtVersion(
            path, 5,
            {
                u"INSERT INTO users(id, email, password_hash, balance_micros, created_at) VALUES ('u', 'u@example.com', 'x', 10000000, 0)"_s,
                u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image, "
                u"price_per_hour_micros,"
                " created_at, updated_at) VALUES ('i', 'u', 'kept', 'stopped', 'rtx4090', 2, 'base', 3800000, 0, 0)"_s,
            });
        Database db;
        db.open(path);
        QCOMPARE(db.schemaVersion(), migrations::all().last().version);
        // The instance is still there, and the new tables take rows tied to it.
        QCOMPARE(db.scalar(u"SELECT name FROM instances WHERE id = 'i'"_s).toString(), u"kept"_s);
        db.exec(
            u"INSERT INTO telemetry_minutes(instance_id, minute_ms, cpu_percent, memory_mib, gpus)"
            " VALUES ('i', 60000, 150.5, 1024, '[[75,100,60,300],[70,90,58,290]]')"_s);
        db.exec(
            u"INSERT INTO instance_datasets(instance_id, name, path) VALUES ('i', 'demo', '/srv/demo')"_s);
        QCOMPARE(db.scalar(u"SELECT COUNT(*) FROM telemetry_minutes"_s).toInt(), 1);
        QCOMPARE(
            db.scalar(u"SELECT path FROM instance_datasets WHERE instance_id = 'i'"_s).toString(),
            u"/srv/demo"_s);
        // A dataset is named once per instance.
        QVERIFY_THROWS_EXCEPTION(DbError,
                                 db.exec(u"INSERT INTO instance_datasets(instance_id, name, path)"
                                         " VALUES ('i', 'demo', '/elsewhere')"_s));
    }

    void version7AddsSnapshotsBilledBesideTheInstance()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"v6.sqlite"_s);
        createAtVersion(
            path, 6,
            {
                u"INSERT INTO users(id, email, password_hash, balance_micros, created_at) VALUES ('u', 'u@example.com', 'x', 10000000, 0)"_s,
                u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image, "
                u"price_per_hour_micros,"
                " created_at, updated_at) VALUES ('i', 'u', 'kept', 'stopped', 'rtx4090', 1, 'base', 1900000, 0, 0)"_s,
                u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour, started_at, "
                u"last_seen_at, charged_until,"
                " kind) VALUES ('i', 'u', 10000, 0, 0, 0, 'storage')"_s,
            });
        Database db;
        db.open(path);
        QCOMPARE(db.schemaVersion(), migrations::all().last().version);
        // The stopped disk's open segment is kept; a snapshot of that instance is billed beside it.
        QCOMPARE(
            db.scalar(
                  u"SELECT COUNT(*) FROM segments WHERE ended_at IS NULL AND snapshot_id IS NULL"_s)
                .toInt(),
            1);
        db.exec(u"INSERT INTO snapshots(id, user_id, instance_id, name, state, image, gpu_type, "
                u"gpu_count, created_at)"
                " VALUES ('s', 'u', 'i', 'snap', 'ready', 'base', 'rtx4090', 1, 0)"_s);
        db.exec(
            u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour, started_at, "
            u"last_seen_at,"
            " charged_until, kind, snapshot_id) VALUES ('i', 'u', 200, 0, 0, 0, 'storage', 's')"_s);
        // Still one open segment per instance of its own, and one per snapshot.
        QVERIFY_THROWS_EXCEPTION(
            DbError,
            db.exec(u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour,"
                    " started_at, last_seen_at, charged_until, kind)"
                    " VALUES ('i', 'u', 1, 0, 0, 0, 'compute')"_s));
        QVERIFY_THROWS_EXCEPTION(
            DbError,
            db.exec(u"INSERT INTO segments(instance_id, user_id, rate_micros_per_hour,"
                    " started_at, last_seen_at, charged_until, kind, snapshot_id)"
                    " VALUES ('i', 'u', 1, 0, 0, 0, 'storage', 's')"_s));
        // A snapshot must name a real instance and a known state.
        QVERIFY_THROWS_EXCEPTION(
            DbError,
            db.exec(u"INSERT INTO snapshots(id, user_id, instance_id, name, state, image,"
                    " gpu_type, gpu_count, created_at)"
                    " VALUES ('t', 'u', 'nope', 'x', 'ready', 'base', 'rtx4090', 1, 0)"_s));
        QVERIFY_THROWS_EXCEPTION(
            DbError,
            db.exec(u"INSERT INTO snapshots(id, user_id, instance_id, name, state, image,"
                    " gpu_type, gpu_count, created_at)"
                    " VALUES ('t', 'u', 'i', 'x', 'half', 'base', 'rtx4090', 1, 0)"_s));
    }

    void version8NumbersLentCards()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"v7.sqlite"_s);
        createAtVersion(
            path, 7,
            {
                u"INSERT INTO users(id, email, password_hash, balance_micros, created_at) VALUES ('u', 'u@example.com', 'x', 10000000, 0)"_s,
                u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image, "
                u"price_per_hour_micros,"
                " created_at, updated_at) VALUES ('i', 'u', 'kept', 'stopped', 'rtx4090', 2, 'base', 3800000, 0, 0)"_s,
            });
        Database db;
        db.open(path);
        QVERIFY(db.schemaVersion() >= 8);
        // Instances from before have no numbered cards (a start lends them some).
        QCOMPARE(db.scalar(u"SELECT COUNT(*) FROM instance_cards"_s).toInt(), 0);
        db.exec(
            u"INSERT INTO instance_cards(instance_id, gpu_type, card) VALUES ('i', 'rtx4090', 0)"_s);
        // A card is held once per instance, and card numbers are never negative.
        QVERIFY_THROWS_EXCEPTION(DbError,
                                 db.exec(u"INSERT INTO instance_cards(instance_id, gpu_type, card)"
                                         " VALUES ('i', 'rtx4090', 0)"_s));
        QVERIFY_THROWS_EXCEPTION(DbError,
                                 db.exec(u"INSERT INTO instance_cards(instance_id, gpu_type, card)"
                                         " VALUES ('i', 'rtx4090', -1)"_s));
    }

    void version11NamesTheSnapshotOfItsFees()
    {
        // Fees posted before: a snapshot's (its segment names it), a stopped disk's, a top-up.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"v10.sqlite"_s);
        createAtVersion(
            path, 10,
            {
                u"INSERT INTO users(id, email, password_hash, balance_micros, created_at) VALUES ('u', 'u@example.com', 'x', 9999700, 0)"_s,
                u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image, "
                u"price_per_hour_micros,"
                " created_at, updated_at) VALUES ('i', 'u', 'kept', 'stopped', 'rtx4090', 1, 'base', 1900000, 0, 0)"_s,
                u"INSERT INTO snapshots(id, user_id, instance_id, name, state, image, gpu_type, "
                u"gpu_count, created_at)"
                " VALUES ('s', 'u', 'i', 'snap', 'ready', 'base', 'rtx4090', 1, 0)"_s,
                u"INSERT INTO segments(id, instance_id, user_id, rate_micros_per_hour, started_at, "
                u"last_seen_at, charged_until, kind, snapshot_id)"
                " VALUES (1, 'i', 'u', 200, 0, 0, 0, 'storage', 's'),"
                " (2, 'i', 'u', 100, 0, 0, 0, 'storage', NULL)"_s,
                u"INSERT INTO ledger_txns(id, uuid, user_id, kind, amount_micros, "
                u"balance_after_micros, segment_id, description, created_at)"
                " VALUES (1, 'a', 'u', 'topup', 10000000, 10000000, NULL, 'top-up', 0),"
                " (2, 'b', 'u', 'storage', -200, 9999800, 1, 'Snapshot storage: snap', 1),"
                " (3, 'c', 'u', 'storage', -100, 9999700, 2, 'Storage while stopped', 2)"_s,
            });
        Database db;
        db.open(path);
        QCOMPARE(db.schemaVersion(), migrations::all().last().version);
        QCOMPARE(db.scalar(u"SELECT snapshot_id FROM ledger_txns WHERE id = 2"_s).toString(),
                 u"s"_s);
        QVERIFY(db.scalar(u"SELECT snapshot_id FROM ledger_txns WHERE id = 3"_s).isNull());
        QVERIFY(db.scalar(u"SELECT snapshot_id FROM ledger_txns WHERE id = 1"_s).isNull());
    }
};

QTEST_GUILESS_MAIN(TestMigrations)
#include "tst_migrations.moc"
