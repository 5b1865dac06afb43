// The meter on its own, over a real SQLite file: compute and storage segments, their exact
// cost, checkpoint postings, and the balance running out at an exact millisecond.
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Meter.h"
#include "billing/Pricing.h"
#include "store/Database.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace cardhour::sim;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kT0 = 1'790'000'000'000;

struct Books
{
    explicit Books(qint64 postingIntervalMs = 60'000)
    {
        db.open(dir.filePath(u"meter.sqlite"_s));
        ledger = std::make_unique<Ledger>(db);
        books = std::make_unique<Bookkeeper>(db, *ledger);
        meter = std::make_unique<Meter>(db, *books, postingIntervalMs);
    }

    // A user with `balance` and an instance of theirs.
    void addUser(const QString &userId, qint64 balance)
    {
        Transaction tx(db);
        db.exec(u"INSERT INTO users(id, email, password_hash, created_at) VALUES (?,?,'x',0)"_s,
                {userId, userId + u"@example.com"_s});
        Ledger::Posting credit;
        credit.kind = Ledger::Kind::TrialCredit;
        credit.userId = userId;
        credit.amountMicros = balance;
        credit.description = u"credit"_s;
        books->post(credit, kT0);
        tx.commit();
    }
    void addInstance(const QString &instanceId, const QString &userId)
    {
        db.exec(u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image, "
                u"price_per_hour_micros,"
                " created_at, updated_at) VALUES (?,?,?,'stopped','rtx4090',1,'base',0,0,0)"_s,
                {instanceId, userId, instanceId});
    }
    void open(const QString &instanceId, const QString &userId, qint64 rate, Meter::Kind kind,
              qint64 atMs = kT0)
    {
        Transaction tx(db);
        meter->openSegment(instanceId, userId, rate, atMs, kind);
        tx.commit();
    }
    void accrue(qint64 atMs)
    {
        Transaction tx(db);
        meter->accrue(atMs);
        tx.commit();
    }
    qint64 close(const QString &instanceId, qint64 atMs, Meter::Kind kind)
    {
        Transaction tx(db);
        const qint64 posted = meter->closeSegment(instanceId, atMs, kind);
        tx.commit();
        return posted;
    }
    qint64 lastSeenAt(const QString &instanceId)
    {
        return db.scalar(u"SELECT last_seen_at FROM segments WHERE instance_id = ?"_s, {instanceId})
            .toLongLong();
    }
    qint64 postedOfKind(const QString &kind)
    {
        return -db.scalar(
                      u"SELECT COALESCE(SUM(amount_micros), 0) FROM ledger_txns WHERE kind = ?"_s,
                      {kind})
                    .toLongLong();
    }

    QTemporaryDir dir;
    Database db;
    std::unique_ptr<Ledger> ledger;
    std::unique_ptr<Bookkeeper> books;
    std::unique_ptr<Meter> meter;
};
} // namespace

class TestMeter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void descriptionSaysTheMillisecondsBilled_data()
    {
        QTest::addColumn<qint64>("lengthMs");
        QTest::addColumn<QString>("says");
        QTest::newRow("5.999 s") << qint64(5'999) << u", 5.999 s at "_s;
        QTest::newRow("6 s") << qint64(6'000) << u", 6 s at "_s;
        QTest::newRow("61.5 s") << qint64(61'500) << u", 61.5 s at "_s;
        QTest::newRow("0.05 s") << qint64(50) << u", 0.05 s at "_s;
        QTest::newRow("10.01 s") << qint64(10'010) << u", 10.01 s at "_s;
        QTest::newRow("100 s") << qint64(100'000) << u", 100 s at "_s;
    }
    void descriptionSaysTheMillisecondsBilled()
    {
        QFETCH(qint64, lengthMs);
        QFETCH(QString, says);
        Books b;
        b.addUser(u"u"_s, 1'000'000'000);
        b.addInstance(u"i"_s, u"u"_s);
        b.open(u"i"_s, u"u"_s, 1'900'000, Meter::Kind::Compute);
        QVERIFY(b.close(u"i"_s, kT0 + lengthMs, Meter::Kind::Compute) > 0);
        const QString description =
            b.db.scalar(u"SELECT description FROM ledger_txns WHERE kind = 'compute'"_s).toString();
        QVERIFY2(description.contains(says), qPrintable(description));
    }
    // The checkpoint pass names each posting's instance from the names kept with the open
    // segments: read when a segment opens, and with the segments by a meter that starts on
    // them (a restart). A name with "%2" in it stays as it is.
    void checkpointsNameTheirInstance()
    {
        Books b;
        b.addUser(u"u"_s, 1'000'000'000);
        b.db.exec(u"INSERT INTO instances(id, user_id, name, state, gpu_type, gpu_count, image,"
                  " price_per_hour_micros, created_at, updated_at) VALUES"
                  " ('i', 'u', 'box %2 of %1', 'running', 'rtx4090', 1, 'base', 0, 0, 0)"_s);
        b.open(u"i"_s, u"u"_s, 1'900'000, Meter::Kind::Compute);
        b.accrue(kT0 + 61'000);
        b.meter = std::make_unique<Meter>(b.db, *b.books, 60'000); // a restart
        b.accrue(kT0 + 122'000);
        QSqlQuery q =
            b.db.exec(u"SELECT description FROM ledger_txns WHERE kind = 'compute' ORDER BY id"_s);
        QStringList descriptions;
        while (q.next())
            descriptions.append(q.value(0).toString());
        QCOMPARE(descriptions.size(), 2);
        for (const QString &description : std::as_const(descriptions))
            QVERIFY2(description.startsWith(u"Compute: box %2 of %1, 61 s at 1.900000 yuan/h"_s),
                     qPrintable(description));
    }
    void storageCheckpointsAddUpToTheWhole_data()
    {
        QTest::addColumn<qint64>("rate"); // micro-yuan per hour
        QTest::addColumn<qint64>("intervalMs"); // posting interval
        QTest::addColumn<qint64>("stepMs"); // how often the meter ticks
        QTest::addColumn<qint64>("lengthMs"); // how long the instance stays stopped
        QTest::newRow("50 GiB, 1 min postings")
            << qint64(10'000) << qint64(60'000) << qint64(1'000) << qint64(3'600'000);
        QTest::newRow("200 GiB, odd ticks")
            << qint64(40'000) << qint64(60'000) << qint64(7'777) << qint64(5'432'109);
        QTest::newRow("1 GiB at 1 micro")
            << qint64(1) << qint64(30'000) << qint64(999) << qint64(7'300'001);
        QTest::newRow("dear disk, long stop")
            << qint64(655'360'000) << qint64(60'000) << qint64(59'999) << qint64(9 * 3'600'000 + 1);
    }
    void storageCheckpointsAddUpToTheWhole()
    {
        QFETCH(qint64, rate);
        QFETCH(qint64, intervalMs);
        QFETCH(qint64, stepMs);
        QFETCH(qint64, lengthMs);
        Books b(intervalMs);
        b.addUser(u"u"_s, 1'000'000'000'000);
        b.addInstance(u"i"_s, u"u"_s);
        b.open(u"i"_s, u"u"_s, rate, Meter::Kind::Storage);
        for (qint64 t = kT0 + stepMs; t < kT0 + lengthMs; t += stepMs)
            b.accrue(t);
        const int checkpoints =
            b.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"_s).toInt();
        b.close(u"i"_s, kT0 + lengthMs, Meter::Kind::Storage);
        const qint64 whole = pricing::segmentCost(lengthMs, rate);
        QCOMPARE(b.postedOfKind(u"storage"_s), whole); // never a sum of rounded ticks
        QCOMPARE(b.postedOfKind(u"compute"_s), 0);
        QVERIFY(checkpoints >= 2); // the whole was paid in instalments
        QCOMPARE(b.db.scalar(u"SELECT charged_micros FROM segments"_s).toLongLong(), whole);
        QCOMPARE(
            b.db.scalar(u"SELECT COUNT(*) FROM ledger_entries WHERE account = 'revenue:storage'"_s)
                .toInt(),
            b.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"_s).toInt());
        QCOMPARE(
            b.db.scalar(u"SELECT COUNT(*) FROM ledger_entries WHERE account = 'revenue:compute'"_s)
                .toInt(),
            0);
        QVERIFY2(b.ledger->verify().isEmpty(), qPrintable(b.ledger->verify()));
        // The ledger page shows the storage rate and period of each posting.
        const QJsonObject newest = b.ledger->page(u"u"_s, 0, 1).at(0).toObject();
        if (whole > 0) {
            QCOMPARE(newest.value(u"kind"_s).toString(), u"storage"_s);
            QCOMPARE(newest.value(u"rate_micros_per_hour"_s).toInteger(), rate);
            QVERIFY(newest.value(u"description"_s)
                        .toString()
                        .startsWith(u"Storage while stopped: i,"_s));
        }
    }

    void storageExhaustionIsExact_data()
    {
        QTest::addColumn<qint64>("balance");
        QTest::addColumn<qint64>("rate");
        QTest::newRow("10 yuan at 50 GiB") << qint64(10'000'000) << qint64(10'000);
        QTest::newRow("1 micro at 200 GiB") << qint64(1) << qint64(40'000);
        QTest::newRow("faster than a micro per ms") << qint64(9'999'999) << qint64(655'360'000);
    }
    void storageExhaustionIsExact()
    {
        QFETCH(qint64, balance);
        QFETCH(qint64, rate);
        Books b(1'000);
        b.addUser(u"u"_s, balance);
        b.addInstance(u"i"_s, u"u"_s);
        b.open(u"i"_s, u"u"_s, rate, Meter::Kind::Storage);
        const std::optional<qint64> at =
            Meter::runsOutAt(b.meter->openSegmentsOf(u"u"_s), balance, kT0);
        QVERIFY(at);
        // The first millisecond at which the whole stop costs the whole balance.
        QVERIFY(pricing::segmentCost(*at - kT0, rate) >= balance);
        QVERIFY(pricing::segmentCost(*at - kT0 - 1, rate) < balance);
        // A checkpoint halfway changes nothing: what is posted and what is not count alike.
        const qint64 halfway = kT0 + (*at - kT0) / 2;
        if (halfway - kT0 >= 1'000)
            b.accrue(halfway);
        const QList<Meter::OpenSegment> open = b.meter->openSegmentsOf(u"u"_s);
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().kind, Meter::Kind::Storage);
        const qint64 left = b.ledger->balance(u"u"_s);
        QVERIFY(!Meter::exhaustionTime(open, left, kT0, *at - 1));
        QCOMPARE(Meter::exhaustionTime(open, left, kT0, *at).value_or(-1), *at);

        b.close(u"i"_s, *at, Meter::Kind::Storage);
        QCOMPARE(b.ledger->balance(u"u"_s), 0); // capped: never below zero
        const qint64 owed = pricing::segmentCost(*at - kT0, rate);
        QCOMPARE(b.db.scalar(u"SELECT charged_micros FROM segments"_s).toLongLong(), owed);
        QCOMPARE(b.db.scalar(u"SELECT written_off_micros FROM segments"_s).toLongLong(),
                 owed - balance);
        QVERIFY(owed - balance
                <= rate / pricing::kMsPerHour + 1); // at most one millisecond's worth
        QVERIFY2(b.ledger->verify().isEmpty(), qPrintable(b.ledger->verify()));
    }

    // The posting pass binds through SQLite's own API: a statement SQLite refuses fails the
    // pass with SQLite's message, and its transaction leaves nothing half-written.
    void aRefusedPassWritesNothing()
    {
        Books b;
        b.addUser(u"u"_s, 100'000'000);
        for (const QString &id : {u"a"_s, u"b"_s, u"c"_s}) {
            b.addInstance(id, u"u"_s);
            b.open(id, u"u"_s, 1'900'000, Meter::Kind::Compute);
        }
        const auto count = [&b](const QString &sql) { return b.db.scalar(sql).toLongLong(); };
        const qint64 txns = count(u"SELECT COUNT(*) FROM ledger_txns"_s);
        const qint64 entries = count(u"SELECT COUNT(*) FROM ledger_entries"_s);
        b.db.exec(u"CREATE TRIGGER refuse_entries BEFORE INSERT ON ledger_entries"
                  " BEGIN SELECT RAISE(ABORT, 'entries refused here'); END"_s);
        try {
            b.accrue(kT0 + 120'000);
            QFAIL("the pass went through");
        } catch (const DbError &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(u"entries refused here"_s),
                     error.what());
        }
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger_txns"_s), txns);
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger_entries"_s), entries);
        QCOMPARE(count(u"SELECT COUNT(*) FROM segments WHERE charged_until <> started_at"_s), 0);
        QCOMPARE(count(u"SELECT balance_micros FROM users"_s), 100'000'000);
        // With the trigger gone the same pass posts, on the statements kept from the first.
        b.db.exec(u"DROP TRIGGER refuse_entries"_s);
        b.accrue(kT0 + 120'000);
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger_txns"_s), txns + 3);
        QCOMPARE(b.postedOfKind(u"compute"_s), 3 * pricing::segmentCost(120'000, 1'900'000));
        QVERIFY2(b.ledger->verify().isEmpty(), qPrintable(b.ledger->verify()));
    }

    void kindsAreKeptApart()
    {
        Books b;
        b.addUser(u"u"_s, 100'000'000);
        b.addInstance(u"running"_s, u"u"_s);
        b.addInstance(u"stopped"_s, u"u"_s);
        b.open(u"running"_s, u"u"_s, 1'900'000, Meter::Kind::Compute);
        b.open(u"stopped"_s, u"u"_s, 10'000, Meter::Kind::Storage);
        // One open segment per instance, whatever its kind.
        {
            Transaction tx(b.db);
            QVERIFY_THROWS_EXCEPTION(
                DbError, b.meter->openSegment(u"stopped"_s, u"u"_s, 1, kT0, Meter::Kind::Compute));
        }
        b.accrue(kT0 + 120'000);
        const qint64 at = kT0 + 150'000;
        const QHash<QString, Meter::Costs> costs = b.meter->costsByInstance(u"u"_s, at);
        QCOMPARE(costs.value(u"running"_s).computeMicros, pricing::segmentCost(150'000, 1'900'000));
        QCOMPARE(costs.value(u"running"_s).storageMicros, 0);
        QCOMPARE(costs.value(u"stopped"_s).computeMicros, 0);
        QCOMPARE(costs.value(u"stopped"_s).storageMicros, pricing::segmentCost(150'000, 10'000));
        // costsOf is compute, as it always was.
        const QHash<QString, qint64> compute = b.meter->costsOf(u"u"_s, at);
        QCOMPARE(compute.value(u"running"_s), pricing::segmentCost(150'000, 1'900'000));
        QCOMPARE(compute.value(u"stopped"_s), 0);
        // Closing one kind leaves the other alone.
        QCOMPARE(b.close(u"stopped"_s, at, Meter::Kind::Compute), 0);
        QVERIFY(b.meter->openSegmentOf(u"stopped"_s, Meter::Kind::Storage));
        QVERIFY(!b.meter->openSegmentOf(u"stopped"_s, Meter::Kind::Compute));
        QCOMPARE(b.meter->openSegmentsOfInstance(u"running"_s).size(), 1);
        QCOMPARE(b.postedOfKind(u"compute"_s), pricing::segmentCost(120'000, 1'900'000));
        QCOMPARE(b.postedOfKind(u"storage"_s), pricing::segmentCost(120'000, 10'000));
    }

    void sightingsAreForRunsOnly()
    {
        // A crash ends a run at its last sighting; a stopped instance's disk needs none.
        Books b;
        b.addUser(u"u"_s, 100'000'000);
        b.addInstance(u"running"_s, u"u"_s);
        b.addInstance(u"stopped"_s, u"u"_s);
        b.open(u"running"_s, u"u"_s, 3'600'000, Meter::Kind::Compute);
        b.open(u"stopped"_s, u"u"_s, 3'600'000, Meter::Kind::Storage);
        {
            Transaction tx(b.db);
            b.meter->markSeen({u"running"_s, u"stopped"_s}, kT0 + 5'000);
            QCOMPARE(b.meter->closeSegmentAtLastSeen(u"running"_s), 5'000);
            QCOMPARE(b.meter->closeSegmentAtLastSeen(u"stopped"_s), 0);
            tx.commit();
        }
        QVERIFY(b.meter->openSegmentOf(u"stopped"_s, Meter::Kind::Storage));
        QCOMPARE(b.meter->openSegmentOf(u"stopped"_s, Meter::Kind::Storage)->lastSeenAtMs, kT0);
    }

    void sightingsReachTheTableInBatches()
    {
        // The ticks see a run every second; last_seen_at hears of it every
        // kSightingsWriteIntervalMs. A provider killed in between is billed up to the last
        // sighting written, once; one stopped cleanly writes the rest first.
        constexpr qint64 kInterval = Meter::kSightingsWriteIntervalMs;
        Books b;
        b.addUser(u"u"_s, 100'000'000);
        b.addInstance(u"run"_s, u"u"_s);
        b.open(u"run"_s, u"u"_s, 3'600'000, Meter::Kind::Compute); // 1 micro-yuan a millisecond
        const auto lastSeenInTable = [&b] { return b.lastSeenAt(u"run"_s); };
        b.accrue(kT0 + 1'000); // the first tick writes
        QCOMPARE(lastSeenInTable(), kT0 + 1'000);
        for (qint64 t = kT0 + 2'000; t < kT0 + 1'000 + kInterval; t += 1'000)
            b.accrue(t);
        const qint64 lastTick = kT0 + kInterval;
        QCOMPARE(lastSeenInTable(), kT0 + 1'000);
        QCOMPARE(b.meter->openSegmentOf(u"run"_s)->seenAtMs, lastTick);
        QCOMPARE(Meter::lastSighting(*b.meter->openSegmentOf(u"run"_s)), lastTick);
        {
            // What a provider restarted after a kill -9 reads: the table alone.
            Meter recovered(b.db, *b.books);
            Transaction tx(b.db);
            QCOMPARE(recovered.closeSegmentAtLastSeen(u"run"_s), 1'000);
            QCOMPARE(recovered.closeSegmentAtLastSeen(u"run"_s), 0);
            tx.commit();
        }
        b.meter.reset(); // the dead provider's meter: it must not touch the closed segment
        QCOMPARE(lastSeenInTable(), kT0 + 1'000);
        QCOMPARE(b.postedOfKind(u"compute"_s), 1'000);
        QCOMPARE(b.ledger->verify(), QString());

        Books clean;
        clean.addUser(u"u"_s, 100'000'000);
        clean.addInstance(u"run"_s, u"u"_s);
        clean.open(u"run"_s, u"u"_s, 3'600'000, Meter::Kind::Compute);
        for (qint64 t = kT0 + 1'000; t <= kT0 + 5'000; t += 1'000)
            clean.accrue(t);
        QCOMPARE(clean.db.scalar(u"SELECT last_seen_at FROM segments"_s).toLongLong(), kT0 + 1'000);
        clean.meter.reset();
        QCOMPARE(clean.db.scalar(u"SELECT last_seen_at FROM segments"_s).toLongLong(), kT0 + 5'000);
    }

    void aPostingTickWritesEverySighting()
    {
        // One tick both posts (for a run due its checkpoint) and writes sightings: the posted
        // run's last_seen_at moves with its posting, the other's with the sightings; both end
        // at the tick, as a provider killed right after it finds them.
        Books b;
        b.addUser(u"u"_s, 100'000'000);
        b.addInstance(u"due"_s, u"u"_s);
        b.addInstance(u"young"_s, u"u"_s);
        b.open(u"due"_s, u"u"_s, 3'600'000, Meter::Kind::Compute);
        b.open(u"young"_s, u"u"_s, 3'600'000, Meter::Kind::Compute, kT0 + 30'000);
        const qint64 tick = kT0 + 60'000; // the first's checkpoint, not yet the second's
        b.accrue(tick);
        QCOMPARE(b.postedOfKind(u"compute"_s), 60'000);
        QCOMPARE(b.lastSeenAt(u"due"_s), tick);
        QCOMPARE(b.lastSeenAt(u"young"_s), tick);
        QCOMPARE(b.db.scalar(u"SELECT charged_until FROM segments WHERE instance_id = 'young'"_s)
                     .toLongLong(),
                 kT0 + 30'000);
        QCOMPARE(b.ledger->verify(), QString());
    }
};

QTEST_GUILESS_MAIN(TestMeter)
#include "tst_meter.moc"
