// A seeded random walk over create / stop / start / terminate / top-up / advance / restart,
// checking after every step that the money adds up, at several storage prices (a stopped
// instance's disk is billed apart from compute).
#include "ServiceFixture.h"
#include "billing/Pricing.h"
#include "core/Json.h"

#include <QHash>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSqlQuery>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestBillingInvariants : public QObject
{
    Q_OBJECT
private:
    // Returns the first broken invariant, or an empty string.
    static QString check(ServiceFixture &f, const QStringList &users)
    {
        if (const QString problem = f.ledger->verify(); !problem.isEmpty())
            return problem;
        for (const QString &user : users) {
            if (f.ledger->balance(user) < 0)
                return u"negative balance"_s;
            // What was charged to the user is exactly what their segments owed, less what was
            // written off when the money ran out: compute and storage each on their own.
            for (const QString &kind : {u"compute"_s, u"storage"_s}) {
                const qint64 charged =
                    -f.db.scalar(u"SELECT COALESCE(SUM(amount_micros), 0) FROM ledger_txns"
                                 " WHERE user_id = ? AND kind = ?"_s,
                                 {user, kind})
                         .toLongLong();
                const qint64 owed =
                    f.db.scalar(u"SELECT COALESCE(SUM(charged_micros - written_off_micros), 0)"
                                " FROM segments WHERE user_id = ? AND kind = ?"_s,
                                {user, kind})
                        .toLongLong();
                if (charged != owed)
                    return u"user %1: ledger charged %2 for %3, segments owed %4"_s.arg(user)
                        .arg(charged)
                        .arg(kind)
                        .arg(owed);
            }
            // Storage postings go to the storage revenue account, compute to compute.
            const int misfiled = f.db.scalar(u"SELECT COUNT(*) FROM ledger_txns t"
                                             " JOIN ledger_entries e ON e.txn_id = t.id"
                                             " WHERE t.user_id = ? AND e.account LIKE 'revenue:%'"
                                             " AND e.account != 'revenue:' || t.kind"_s,
                                             {user})
                                     .toInt();
            if (misfiled != 0)
                return u"user %1: %2 postings on the wrong revenue account"_s.arg(user).arg(
                    misfiled);
            // Write-offs happen only where the balance hit zero, and are tiny (rounding of
            // several segments reaching the last micro-yuan at the same millisecond).
            const qint64 writtenOff =
                f.db.scalar(u"SELECT COALESCE(SUM(written_off_micros), 0) FROM segments"
                            " WHERE user_id = ?"_s,
                            {user})
                    .toLongLong();
            if (writtenOff > 100
                    * f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE user_id = ?"_s, {user})
                          .toLongLong())
                return u"user %1: %2 written off"_s.arg(user).arg(writtenOff);
            // Every closed segment was charged exactly its whole-length cost (floored once).
            QSqlQuery closed =
                f.db.exec(u"SELECT started_at, ended_at, rate_micros_per_hour, charged_micros"
                          " FROM segments WHERE user_id = ? AND ended_at IS NOT NULL"_s,
                          {user});
            while (closed.next()) {
                const qint64 cost = pricing::segmentCost(closed.value(1).toLongLong()
                                                             - closed.value(0).toLongLong(),
                                                         closed.value(2).toLongLong());
                if (cost != closed.value(3).toLongLong())
                    return u"closed segment charged %1, costs %2"_s
                        .arg(closed.value(3).toLongLong())
                        .arg(cost);
            }
        }
        // Running instances and open compute segments correspond one to one.
        const int running =
            f.db.scalar(u"SELECT COUNT(*) FROM instances WHERE state = 'running'"_s).toInt();
        const int open =
            f.db.scalar(
                    u"SELECT COUNT(*) FROM segments WHERE ended_at IS NULL AND kind = 'compute'"_s)
                .toInt();
        if (running != open)
            return u"%1 running instances but %2 open compute segments"_s.arg(running).arg(open);
        const int orphan =
            f.db.scalar(
                    u"SELECT COUNT(*) FROM segments s JOIN instances i ON i.id = s.instance_id"
                    " WHERE s.ended_at IS NULL AND s.kind = 'compute' AND i.state != 'running'"_s)
                .toInt();
        if (orphan != 0)
            return u"open compute segment on an instance that is not running"_s;
        // Storage is billed only for stopping and stopped instances, and for each of them
        // whenever the disk has a price and the owner has money.
        const int strayStorage =
            f.db.scalar(u"SELECT COUNT(*) FROM segments s JOIN instances i ON i.id = s.instance_id"
                        " WHERE s.ended_at IS NULL AND s.kind = 'storage'"
                        " AND i.state NOT IN ('stopping','stopped')"_s)
                .toInt();
        if (strayStorage != 0)
            return u"open storage segment on an instance that is not stopped"_s;
        const int unbilled =
            f.db.scalar(u"SELECT COUNT(*) FROM instances i JOIN users u ON u.id = i.user_id"
                        " WHERE i.state IN ('stopping','stopped') AND u.balance_micros > 0"
                        " AND NOT EXISTS (SELECT 1 FROM segments s WHERE s.instance_id = i.id"
                        " AND s.ended_at IS NULL)"_s)
                .toInt();
        if (f.catalog.storagePricePerGibHourMicros() > 0 && unbilled != 0)
            return u"%1 stopped instances with money left but no storage billing"_s.arg(unbilled);
        if (f.catalog.storagePricePerGibHourMicros() == 0
            && f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE kind = 'storage'"_s).toInt() != 0)
            return u"storage segments with a free disk"_s;
        for (const GpuType &gpu : f.catalog.gpus()) {
            const int held =
                f.db.scalar(u"SELECT COALESCE(SUM(gpu_count), 0) FROM instances WHERE gpu_type = ?"
                            " AND state IN ('creating','starting','running','stopping')"_s,
                            {gpu.id})
                    .toInt();
            if (held > gpu.capacity)
                return u"%1: %2 cards held, capacity %3"_s.arg(gpu.id).arg(held).arg(gpu.capacity);
        }
        return {};
    }

private Q_SLOTS:
    void randomWalk_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<qint64>("storagePrice"); // micro-yuan per GiB-hour
        for (quint32 seed : {1u, 7u, 42u, 2026u, 31337u})
            QTest::newRow(qPrintable(u"seed %1"_s.arg(seed))) << seed << qint64(200);
        // A free disk, and one dear enough (0.5-2 yuan/h) that storage alone empties balances.
        for (quint32 seed : {3u, 99u}) {
            QTest::newRow(qPrintable(u"seed %1, free storage"_s.arg(seed))) << seed << qint64(0);
            QTest::newRow(qPrintable(u"seed %1, dear storage"_s.arg(seed)))
                << seed << qint64(10'000);
        }
    }

    void randomWalk()
    {
        QFETCH(quint32, seed);
        QFETCH(qint64, storagePrice);
        QRandomGenerator rng(seed);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"walk.sqlite"_s);
        const QString catalogDir = ServiceFixture::writeCatalog(dir.path(), storagePrice);
        auto f = std::make_unique<ServiceFixture>(path, 30'000, catalogDir);
        const QStringList users{f->signUp(u"u1@example.com"_s), f->signUp(u"u2@example.com"_s),
                                f->signUp(u"u3@example.com"_s)};
        const QStringList gpus{u"rtx4090"_s, u"rtx3090"_s, u"h100-80g"_s};
        const QList<int> counts{1, 2, 4, 8};
        int refusals = 0;
        int actions = 0;

        for (int step = 0; step < 300; ++step) {
            const QString user = users.at(rng.bounded(users.size()));
            const QJsonArray mine = f->service->list(user, false);
            const QString someId = mine.isEmpty()
                ? QString()
                : mine.at(rng.bounded(mine.size())).toObject().value(u"id"_s).toString();
            try {
                switch (rng.bounded(9)) {
                case 0:
                case 1: {
                    f->service->create(
                        user,
                        ServiceFixture::request(u"walk"_s, gpus.at(rng.bounded(gpus.size())),
                                                counts.at(rng.bounded(counts.size()))));
                    break;
                }
                case 2:
                    if (!someId.isEmpty())
                        f->service->stop(user, someId);
                    break;
                case 3:
                    if (!someId.isEmpty())
                        f->service->start(user, someId);
                    break;
                case 4:
                    if (!someId.isEmpty() && rng.bounded(3) == 0)
                        f->service->terminate(user, someId);
                    break;
                case 5: {
                    Transaction tx(f->db);
                    Ledger::Posting topup;
                    topup.kind = Ledger::Kind::Topup;
                    topup.userId = user;
                    topup.amountMicros = 1'000'000 * (1 + rng.bounded(5));
                    topup.description = u"walk top-up"_s;
                    f->books->post(topup, f->clock.nowMs());
                    f->service->resumeStorageBilling(user); // as the top-up route does
                    tx.commit();
                    break;
                }
                case 6:
                case 7: {
                    // A stopped instance's compute cost stays put while time passes.
                    QHash<QString, qint64> stoppedCost;
                    for (const QString &owner : users) {
                        for (const QJsonValue &v : f->service->list(owner, false)) {
                            if (v.toObject().value(u"state"_s).toString() == u"stopped"_s)
                                stoppedCost.insert(
                                    v.toObject().value(u"id"_s).toString(),
                                    v.toObject().value(u"cost_micros"_s).toInteger());
                        }
                    }
                    f->advanceSeconds(1 + rng.bounded(1800));
                    for (const QString &owner : users) {
                        for (const QJsonValue &v : f->service->list(owner, false)) {
                            const QString id = v.toObject().value(u"id"_s).toString();
                            QVERIFY2(!stoppedCost.contains(id)
                                         || v.toObject().value(u"cost_micros"_s).toInteger()
                                             == stoppedCost.value(id),
                                     qPrintable(
                                         u"step %1: a stopped instance's compute cost moved"_s.arg(
                                             step)));
                        }
                    }
                    break;
                }
                case 8:
                    if (rng.bounded(4) == 0) { // the provider restarts (as after a crash)
                        const qint64 now = f->clock.nowMs();
                        f.reset();
                        f = std::make_unique<ServiceFixture>(path, 30'000, catalogDir);
                        f->clock.setMs(now + rng.bounded(120'000));
                        f->service->reconcile();
                    }
                    break;
                }
                ++actions;
            } catch (const ApiError &error) {
                ++refusals; // 402/409 are expected outcomes of a random walk
                QVERIFY2(
                    error.status() == 402 || error.status() == 409,
                    qPrintable(u"unexpected %1 %2"_s.arg(error.status()).arg(error.message())));
            }
            QCoreApplication::processEvents(); // let the runtime move instances along
            QCoreApplication::processEvents();
            const QString problem = check(*f, users);
            QVERIFY2(problem.isEmpty(), qPrintable(u"step %1: %2"_s.arg(step).arg(problem)));
        }
        QVERIFY(actions > 100);
        const qint64 storagePostings =
            f->db.scalar(u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage'"_s).toLongLong();
        if (storagePrice > 0)
            QVERIFY(storagePostings > 0); // the walk did exercise stopped instances
        else
            QCOMPARE(storagePostings, 0);
        qInfo(
            "seed %u, storage %lld: %d actions, %d refusals, %lld storage postings (%lld capped at "
            "a zero"
            " balance), %lld written off",
            seed, storagePrice, actions, refusals, storagePostings,
            f->db
                .scalar(
                    u"SELECT COUNT(*) FROM ledger_txns WHERE kind = 'storage' AND balance_after_micros = 0"_s)
                .toLongLong(),
            f->db.scalar(u"SELECT COALESCE(SUM(written_off_micros), 0) FROM segments"_s)
                .toLongLong());
    }
};

QTEST_GUILESS_MAIN(TestBillingInvariants)
#include "tst_billinginvariants.moc"
