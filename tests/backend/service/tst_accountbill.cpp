// AccountBill: the live bill (the posted balance net of what is owed), top-ups, and the bill's
// movement told only after the commit of what moved it.
#include "ServiceFixture.h"
#include "core/ApiError.h"

#include <QSignalSpy>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestAccountBill : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theLiveBalanceNetsWhatRunsOwe()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"live@example.com"_s);
        const QString id = f.createRunning(user);
        AccountBill &bill = f.service->bill();
        QCOMPARE(bill.spendRate(user), 1'900'000);
        f.clock.advanceMs(3600 * 1000); // an hour, not posted yet
        const qint64 posted = f.ledger->balance(user);
        QCOMPARE(bill.liveBalance(user), posted - 1'900'000);
        const AccountBill::LiveAccount live = bill.liveAccount(user, posted);
        QCOMPARE(live.balanceMicros, posted - 1'900'000);
        QCOMPARE(live.spendRatePerHourMicros, 1'900'000);
        const QJsonObject summary = bill.billingSummary(user);
        QCOMPARE(summary[u"ledger_balance_micros"_s].toInteger(), posted);
        QCOMPARE(summary[u"balance_micros"_s].toInteger(), posted - 1'900'000);
        QCOMPARE(summary[u"compute_cost_micros"_s].toInteger(), 1'900'000);
        QCOMPARE(summary[u"instances"_s][0][u"instance_id"_s].toString(), id);
    }

    void aTopUpIsToldAfterItsCommitAndNeverForARollback()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"topup@example.com"_s);
        const qint64 before = f.ledger->balance(user);
        QSignalSpy moved(f.books.get(), &Bookkeeper::billMoved);
        {
            Transaction outer(f.db); // as an idempotent route holds one
            const QJsonObject posting = f.service->bill().topUp(user, 5'000'000);
            QCOMPARE(posting[u"kind"_s].toString(), u"topup"_s);
            QCOMPARE(posting[u"amount_micros"_s].toInteger(), 5'000'000);
            QCOMPARE(moved.size(), 0);
        } // rolled back
        QCOMPARE(moved.size(), 0);
        QCOMPARE(f.ledger->balance(user), before);
        f.service->bill().topUp(user, 5'000'000);
        QCOMPARE(moved.size(), 1);
        QCOMPARE(moved.at(0).at(0).toString(), user);
        QCOMPARE(f.ledger->balance(user), before + 5'000'000);
    }

    void aTopUpStopsAtAMillionYuan()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"rich@example.com"_s);
        constexpr qint64 kLargest = 100'000LL * 1'000'000; // the catalog's largest top-up
        for (int i = 0; i < 9; ++i)
            f.service->bill().topUp(user, kLargest);
        try {
            f.service->bill().topUp(user, kLargest); // past 1 000 000 yuan by the trial credit
            QFAIL("a balance above a million yuan was accepted");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 400);
            QCOMPARE(error.code(), u"balance_limit"_s);
        }
    }
};

QTEST_GUILESS_MAIN(TestAccountBill)
#include "tst_accountbill.moc"
