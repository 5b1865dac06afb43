// Reads never write, and what they say is what the ledger will post: at random moments of a
// seeded walk (test clock, odd milliseconds included) the live balance, each instance's costs
// (GET /v1/instances, as objects and as the kept bytes) and the bill's totals are compared with
// the postings that closing every open segment at that very moment makes (in a transaction
// rolled back afterwards, so the walk goes on as before), and the meter's open segments in
// memory with the rows of the table. The runs-out time is compared with the millisecond the
// tick stops the instances at.
#include "ServiceFixture.h"
#include "core/ApiError.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlQuery>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {

struct Live
{
    qint64 balance = 0;
    QHash<QString, Meter::Costs> costs; // per instance, from GET /v1/instances
    qint64 computeTotal = 0; // from the bill
    qint64 storageTotal = 0;
    QString problem; // a read that disagreed with another, or wrote
};

QString describe(const Meter::OpenSegment &s)
{
    return u"%1 %2 %3 %4 rate %5 start %6 charged %7 until %8 seen %9"_s.arg(s.id)
               .arg(s.instanceId, s.userId, Meter::kindName(s.kind))
               .arg(s.ratePerHourMicros)
               .arg(s.startedAtMs)
               .arg(s.chargedMicros)
               .arg(s.chargedUntilMs)
               .arg(s.lastSeenAtMs)
        + (s.snapshotId.isEmpty() ? QString() : u" snapshot "_s + s.snapshotId);
}

} // namespace

class TestLiveReads : public QObject
{
    Q_OBJECT
private:
    static Live read(ServiceFixture &f, const QString &user)
    {
        const quint64 before = f.db.writeVersion();
        Live live;
        live.balance = f.service->liveBalance(user);
        const QJsonArray list = f.service->list(user, true);
        const QJsonArray kept = QJsonDocument::fromJson(f.service->listJson(user, true)).array();
        if (kept != list)
            live.problem = u"the kept list differs from the list"_s;
        for (const QJsonValue &v : list) {
            const QJsonObject o = v.toObject();
            live.costs.insert(o.value(u"id"_s).toString(),
                              {o.value(u"cost_micros"_s).toInteger(),
                               o.value(u"storage_cost_micros"_s).toInteger()});
        }
        const QJsonObject bill = f.service->billingSummary(user);
        live.computeTotal = bill.value(u"compute_cost_micros"_s).toInteger();
        live.storageTotal = bill.value(u"storage_cost_micros"_s).toInteger()
            - bill.value(u"snapshot_storage_cost_micros"_s).toInteger();
        if (bill.value(u"balance_micros"_s).toInteger() != live.balance)
            live.problem = u"the bill's balance differs from the live balance"_s;
        if (f.db.writeVersion() != before)
            live.problem = u"a read wrote to the database"_s;
        return live;
    }

    // The meter's open segments in memory against the table's rows; empty when they agree.
    static QString compareWithTable(ServiceFixture &f)
    {
        QStringList table;
        QSqlQuery q = f.db.exec(
            u"SELECT id, instance_id, user_id, rate_micros_per_hour, started_at, charged_micros,"
            " charged_until, last_seen_at, kind, snapshot_id FROM segments WHERE ended_at IS NULL"
            " ORDER BY user_id, id"_s);
        while (q.next()) {
            Meter::OpenSegment s;
            s.id = q.value(0).toLongLong();
            s.instanceId = q.value(1).toString();
            s.userId = q.value(2).toString();
            s.ratePerHourMicros = q.value(3).toLongLong();
            s.startedAtMs = q.value(4).toLongLong();
            s.chargedMicros = q.value(5).toLongLong();
            s.chargedUntilMs = q.value(6).toLongLong();
            s.lastSeenAtMs = q.value(7).toLongLong();
            s.kind =
                q.value(8).toString() == u"storage"_s ? Meter::Kind::Storage : Meter::Kind::Compute;
            s.snapshotId = q.value(9).toString();
            table.append(describe(s));
        }
        QStringList memory;
        for (const Meter::OpenSegment &s : f.meter->openSegments())
            memory.append(describe(s));
        if (memory == table)
            return {};
        return u"memory:\n  %1\ntable:\n  %2"_s.arg(memory.join(u"\n  "_s), table.join(u"\n  "_s));
    }

    // Closes every open segment of `user` at now, as the ledger would post them, and compares
    // with `live`; rolls back. Empty when they agree.
    static QString postAndCompare(ServiceFixture &f, const QString &user, const Live &live)
    {
        const qint64 now = f.clock.nowMs();
        Transaction tx(f.db);
        for (const Meter::OpenSegment &s : f.meter->openSegmentsOf(user)) {
            if (!s.snapshotId.isEmpty())
                f.meter->closeSnapshotSegment(s.snapshotId, now);
            else
                f.meter->closeSegment(s.instanceId, now, s.kind);
        }
        if (!f.meter->openSegmentsOf(user).isEmpty())
            return u"segments left open after closing them all"_s;
        if (f.ledger->balance(user) != live.balance)
            return u"live balance %1, the ledger posts %2"_s.arg(live.balance)
                .arg(f.ledger->balance(user));
        const QHash<QString, Meter::Costs> posted = f.meter->postedByInstance(user);
        qint64 compute = 0;
        qint64 storage = 0;
        for (auto it = live.costs.cbegin(); it != live.costs.cend(); ++it) {
            const Meter::Costs p = posted.value(it.key());
            if (p.computeMicros != it->computeMicros || p.storageMicros != it->storageMicros)
                return u"instance %1: live cost %2 + %3 storage, posted %4 + %5"_s.arg(it.key())
                    .arg(it->computeMicros)
                    .arg(it->storageMicros)
                    .arg(p.computeMicros)
                    .arg(p.storageMicros);
            compute += p.computeMicros;
            storage += p.storageMicros;
        }
        if (compute != live.computeTotal || storage != live.storageTotal)
            return u"the bill's totals %1 + %2, postings %3 + %4"_s.arg(live.computeTotal)
                .arg(live.storageTotal)
                .arg(compute)
                .arg(storage);
        return {}; // tx rolls back
    }

private Q_SLOTS:
    void randomMoments_data()
    {
        QTest::addColumn<quint32>("seed");
        for (quint32 seed : {5u, 17u, 4242u})
            QTest::newRow(qPrintable(u"seed %1"_s.arg(seed))) << seed;
    }

    void randomMoments()
    {
        QFETCH(quint32, seed);
        QRandomGenerator rng(seed);
        QTemporaryDir dir;
        const QString catalogDir = ServiceFixture::writeCatalog(dir.path(), 2'000);
        ServiceFixture f(dir.filePath(u"live.sqlite"_s), 30'000, catalogDir);
        const QStringList users{f.signUp(u"a@example.com"_s), f.signUp(u"b@example.com"_s)};
        const QStringList gpus{u"rtx4090"_s, u"rtx3090"_s, u"h100-80g"_s};
        int compared = 0;
        int runsOutChecked = 0;
        for (int step = 0; step < 200; ++step) {
            const QString user = users.at(rng.bounded(users.size()));
            const QJsonArray mine = f.service->list(user, false);
            const QString someId = mine.isEmpty()
                ? QString()
                : mine.at(rng.bounded(mine.size())).toObject().value(u"id"_s).toString();
            try {
                switch (rng.bounded(7)) {
                case 0:
                    f.service->create(user,
                                      ServiceFixture::request(u"live"_s,
                                                              gpus.at(rng.bounded(gpus.size())),
                                                              1 + rng.bounded(2)));
                    break;
                case 1:
                    if (!someId.isEmpty())
                        f.service->stop(user, someId);
                    break;
                case 2:
                    if (!someId.isEmpty())
                        f.service->start(user, someId);
                    break;
                case 3:
                    if (!someId.isEmpty() && rng.bounded(3) == 0)
                        f.service->terminate(user, someId);
                    break;
                case 4: { // a tick that crosses the predicted runs-out moment stops there
                    const QJsonObject bill = f.service->billingSummary(user);
                    const QString runsOut = bill.value(u"runs_out_at"_s).toString();
                    f.clock.advanceMs(1 + rng.bounded(600'000));
                    const qint64 predicted = runsOut.isEmpty()
                        ? -1
                        : QDateTime::fromString(runsOut, Qt::ISODateWithMs).toMSecsSinceEpoch();
                    f.service->tick();
                    if (predicted >= 0 && predicted <= f.clock.nowMs()) {
                        const qint64 ended =
                            f.db.scalar(u"SELECT MAX(ended_at) FROM segments WHERE user_id = ?"_s,
                                        {user})
                                .toLongLong();
                        QCOMPARE(ended, predicted);
                        QCOMPARE(f.service->liveBalance(user), qint64(0));
                        ++runsOutChecked;
                    }
                    break;
                }
                default:
                    // Odd milliseconds: reads between ticks, as a client's are.
                    f.clock.advanceMs(rng.bounded(90'000));
                    if (rng.bounded(3) == 0)
                        f.service->tick();
                    break;
                }
            } catch (const ApiError &error) {
                QVERIFY2(error.status() == 402 || error.status() == 409,
                         qPrintable(error.message()));
            }
            for (int turn = 0; turn < 3; ++turn) // the runtime moves instances along
                QCoreApplication::processEvents();
            if (rng.bounded(4) == 0) { // a top-up now and then, so balances do not only fall
                Transaction tx(f.db);
                Ledger::Posting topup;
                topup.kind = Ledger::Kind::Topup;
                topup.userId = user;
                topup.amountMicros = 500'000 * (1 + rng.bounded(4));
                topup.description = u"live top-up"_s;
                f.books->post(topup, f.clock.nowMs());
                f.service->resumeStorageBilling(user);
                tx.commit();
            }
            const QString memory = compareWithTable(f);
            QVERIFY2(memory.isEmpty(), qPrintable(u"step %1: %2"_s.arg(step).arg(memory)));
            for (const QString &owner : users) {
                const Live live = read(f, owner);
                QVERIFY2(live.problem.isEmpty(),
                         qPrintable(u"step %1: %2"_s.arg(step).arg(live.problem)));
                const QString problem = postAndCompare(f, owner, live);
                QVERIFY2(problem.isEmpty(), qPrintable(u"step %1: %2"_s.arg(step).arg(problem)));
                // Rolled back: memory follows the table again, and reads say the same.
                const QString after = compareWithTable(f);
                QVERIFY2(after.isEmpty(), qPrintable(u"after rollback: %1"_s.arg(after)));
                QCOMPARE(f.service->liveBalance(owner), live.balance);
                ++compared;
            }
        }
        QVERIFY(compared >= 400);
        // The walk did bill: compute and storage were posted, at odd moments.
        QVERIFY(f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'compute'"_s).toInt()
                > 0);
        QVERIFY(f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"_s).toInt()
                > 0);
        qInfo("seed %u: %d moments compared, %d runs-out times met", seed, compared,
              runsOutChecked);
    }
};

QTEST_GUILESS_MAIN(TestLiveReads)
#include "tst_livereads.moc"
