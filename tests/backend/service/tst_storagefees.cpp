// StorageFees: a stopped instance's disk is billed from the stop, paused (never a debt) while
// the balance is empty, and resumed from the moment it can be paid again.
#include "ServiceFixture.h"
#include "service/StorageFees.h"

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestStorageFees : public QObject
{
    Q_OBJECT
private:
    static qint64 storageSegments(ServiceFixture &f, const QString &id)
    {
        return f.db
            .scalar(u"SELECT COUNT(*) FROM segments WHERE instance_id = ? AND kind = 'storage'"
                    " AND ended_at IS NULL"_s,
                    {id})
            .toLongLong();
    }

private Q_SLOTS:
    void pausedAtAnEmptyBalanceResumedAfterATopUp()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"fees@example.com"_s);
        const QString id = f.createRunning(user);
        f.service->stop(user, id);
        QTRY_COMPARE(f.state(user, id), u"stopped"_s);
        QCOMPARE(storageSegments(f, id), 1);
        StorageFees &fees = f.service->storageFees();
        {
            Transaction tx(f.db);
            fees.open(id, user, f.clock.nowMs()); // one is open already: nothing more
            tx.commit();
        }
        QCOMPARE(storageSegments(f, id), 1);
        // Spend the balance to nothing: the fee pauses where it runs out.
        f.advanceSeconds(10LL * 365 * 24 * 3600);
        QCOMPARE(f.ledger->balance(user), 0);
        QCOMPARE(storageSegments(f, id), 0);
        {
            Transaction tx(f.db);
            fees.open(id, user, f.clock.nowMs()); // nothing to pay it with
            tx.commit();
        }
        QCOMPARE(storageSegments(f, id), 0);
        const qint64 cost = f.storageCost(user, id);
        f.service->topUp(user, 1'000'000);
        QCOMPARE(storageSegments(f, id), 1); // from the top-up's moment
        f.advanceSeconds(3600);
        QCOMPARE(f.storageCost(user, id), cost + 50 * 200); // an hour of 50 GiB
        QVERIFY(!fees.pausedByLimit(user, f.clock.nowMs())); // no caps here
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void onlyAStoppedInstancesDiskIsBilled()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"running@example.com"_s);
        const QString id = f.createRunning(user);
        Transaction tx(f.db);
        f.service->storageFees().open(id, user, f.clock.nowMs());
        f.service->storageFees().resume(user);
        tx.commit();
        QCOMPARE(storageSegments(f, id), 0);
    }
};

QTEST_GUILESS_MAIN(TestStorageFees)
#include "tst_storagefees.moc"
