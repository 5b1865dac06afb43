// BillingTick: the tick stops a run at the millisecond its owner's balance runs out, keeps out
// of a caller's transaction, and makes a policy's timed stop at its own millisecond.
#include "SpendingFixture.h"
#include "service/BillingTick.h"

#include <QTest>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestBillingTick : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRunStopsWhereTheBalanceRunsOut()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"out@example.com"_s); // 10 yuan of trial credit
        const QString id = f.launch(user, u"rtx4090"_s, 1); // 1.9 yuan an hour
        f.advanceSeconds(6 * 3600); // past the 5.26 hours the credit pays for
        QCOMPARE(f.state(user, id), u"stopped"_s);
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state_reason"_s].toString(), u"balance_exhausted"_s);
        QCOMPARE(view[u"cost_micros"_s].toInteger(), 10'000'000); // to the last micro-yuan
        QCOMPARE(f.ledger->balance(user), 0);
        QVERIFY2(f.ledger->verify().isEmpty(), qPrintable(f.ledger->verify()));
    }

    void noTickInsideACallersTransaction()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"inside@example.com"_s);
        const QString id = f.launch(user, u"rtx4090"_s, 1);
        f.clock.advanceMs(6 * 3600 * 1000);
        {
            Transaction tx(f.db);
            f.instances->billingTick().tick(); // a rollback could not undo its runtime calls
            QCOMPARE(f.state(user, id), u"running"_s);
        }
        f.instances->billingTick().tick();
        SpendingFixture::settle();
        QCOMPARE(f.state(user, id), u"stopped"_s);
    }

    void aTimedStopIsMadeAtItsMillisecond()
    {
        SpendingFixture f;
        const QString user = f.signUp(u"timed@example.com"_s);
        StopPolicy policy;
        policy.stopAtMs = f.clock.nowMs() + 90'500;
        const QString id = f.launch(user, u"rtx4090"_s, 1, policy);
        BillingTick &tick = f.instances->billingTick();
        QVERIFY(!tick.stopFor(u"no-such-id"_s, f.clock.nowMs(), u"test"_s));
        f.advanceSeconds(120);
        const QJsonObject view = f.instances->get(user, id);
        QCOMPARE(view[u"state_reason"_s].toString(), u"max_duration"_s);
        QCOMPARE(view[u"cost_micros"_s].toInteger(), 90'500LL * 1'900'000 / 3'600'000);
    }
};

QTEST_GUILESS_MAIN(TestBillingTick)
#include "tst_billingtick.moc"
