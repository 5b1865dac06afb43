// A seeded random walk over create / stop / start / terminate / top-up / advance / restart,
// checking after every step that the money adds up.
#include "ServiceFixture.h"

#include "billing/Pricing.h"
#include "core/Json.h"

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
            // written off when the money ran out.
            const qint64 charged = -f.db.scalar(u"SELECT COALESCE(SUM(amount_micros), 0) FROM ledger_txns"
                                                " WHERE user_id = ? AND kind = 'compute'"_s, {user}).toLongLong();
            const qint64 owed = f.db.scalar(u"SELECT COALESCE(SUM(charged_micros - written_off_micros), 0)"
                                            " FROM segments WHERE user_id = ?"_s, {user}).toLongLong();
            if (charged != owed)
                return u"user %1: ledger charged %2, segments owed %3"_s.arg(user).arg(charged).arg(owed);
            // Write-offs happen only where the balance hit zero, and are tiny (rounding of
            // several segments reaching the last micro-yuan at the same millisecond).
            const qint64 writtenOff = f.db.scalar(u"SELECT COALESCE(SUM(written_off_micros), 0) FROM segments"
                                                  " WHERE user_id = ?"_s, {user}).toLongLong();
            if (writtenOff > 100 * f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE user_id = ?"_s, {user}).toLongLong())
                return u"user %1: %2 written off"_s.arg(user).arg(writtenOff);
            // Every closed segment was charged exactly its whole-length cost (floored once).
            QSqlQuery closed = f.db.exec(u"SELECT started_at, ended_at, rate_micros_per_hour, charged_micros"
                                         " FROM segments WHERE user_id = ? AND ended_at IS NOT NULL"_s, {user});
            while (closed.next()) {
                const qint64 cost = pricing::segmentCost(closed.value(1).toLongLong() - closed.value(0).toLongLong(),
                                                         closed.value(2).toLongLong());
                if (cost != closed.value(3).toLongLong())
                    return u"closed segment charged %1, costs %2"_s.arg(closed.value(3).toLongLong()).arg(cost);
            }
        }
        // Running instances and open segments correspond one to one.
        const int running = f.db.scalar(u"SELECT COUNT(*) FROM instances WHERE state = 'running'"_s).toInt();
        const int open = f.db.scalar(u"SELECT COUNT(*) FROM segments WHERE ended_at IS NULL"_s).toInt();
        if (running != open)
            return u"%1 running instances but %2 open segments"_s.arg(running).arg(open);
        const int orphan = f.db.scalar(u"SELECT COUNT(*) FROM segments s JOIN instances i ON i.id = s.instance_id"
                                       " WHERE s.ended_at IS NULL AND i.state != 'running'"_s).toInt();
        if (orphan != 0)
            return u"open segment on an instance that is not running"_s;
        for (const GpuType &gpu : f.catalog.gpus()) {
            const int held = f.db.scalar(u"SELECT COALESCE(SUM(gpu_count), 0) FROM instances WHERE gpu_type = ?"
                                         " AND state IN ('creating','starting','running','stopping')"_s,
                                         {gpu.id}).toInt();
            if (held > gpu.capacity)
                return u"%1: %2 cards held, capacity %3"_s.arg(gpu.id).arg(held).arg(gpu.capacity);
        }
        return {};
    }

private Q_SLOTS:
    void randomWalk_data()
    {
        QTest::addColumn<quint32>("seed");
        for (quint32 seed : {1u, 7u, 42u, 2026u, 31337u})
            QTest::newRow(qPrintable(u"seed %1"_s.arg(seed))) << seed;
    }

    void randomWalk()
    {
        QFETCH(quint32, seed);
        QRandomGenerator rng(seed);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"walk.sqlite"_s);
        auto f = std::make_unique<ServiceFixture>(path, 30'000);
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
                    f->service->create(user, ServiceFixture::request(u"walk"_s, gpus.at(rng.bounded(gpus.size())),
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
                    f->ledger->post(topup, f->clock.nowMs());
                    tx.commit();
                    break;
                }
                case 6:
                case 7:
                    f->advanceSeconds(1 + rng.bounded(1800));
                    break;
                case 8:
                    if (rng.bounded(4) == 0) { // the provider restarts (as after a crash)
                        const qint64 now = f->clock.nowMs();
                        f.reset();
                        f = std::make_unique<ServiceFixture>(path, 30'000);
                        f->clock.setMs(now + rng.bounded(120'000));
                        f->service->reconcile();
                    }
                    break;
                }
                ++actions;
            } catch (const ApiError &error) {
                ++refusals; // 402/409 are expected outcomes of a random walk
                QVERIFY2(error.status() == 402 || error.status() == 409,
                         qPrintable(u"unexpected %1 %2"_s.arg(error.status()).arg(error.message())));
            }
            QCoreApplication::processEvents(); // let the runtime move instances along
            QCoreApplication::processEvents();
            const QString problem = check(*f, users);
            QVERIFY2(problem.isEmpty(), qPrintable(u"step %1: %2"_s.arg(step).arg(problem)));
        }
        QVERIFY(actions > 100);
        qInfo("seed %u: %d actions, %d refusals", seed, actions, refusals);
    }
};

QTEST_GUILESS_MAIN(TestBillingInvariants)
#include "tst_billinginvariants.moc"
