// Statement: a calendar month of the ledger in a stated time zone, totals by kind and host, the
// balances either side; integer micro-yuan throughout.
#include "billing/Statement.h"

#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::core::Posting;
using cardhour::core::Statement;
using cardhour::core::StatementCategory;

namespace {

Posting posting(qint64 seq, const QString &kind, qint64 amount, qint64 balanceAfter,
                const QString &utc, const QString &instance = {}, const QString &description = {},
                const QString &snapshot = {})
{
    Posting p;
    p.seq = seq;
    p.kind = kind;
    p.amountMicros = amount;
    p.balanceAfterMicros = balanceAfter;
    p.createdAt = QDateTime::fromString(utc, Qt::ISODate);
    p.instanceId = instance;
    p.description = description;
    p.snapshotId = snapshot;
    return p;
}

// Newest first, as the ledger pages come. Balances replay the amounts.
QList<Posting> ledger()
{
    return {
        posting(8, u"compute"_s, -500'000, 108'099'999, u"2026-12-01T00:30:00Z"_s, u"a"_s),
        posting(7, u"storage"_s, -1, 108'599'999, u"2026-11-30T15:59:59Z"_s, u"b"_s,
                u"Storage while stopped: b, 1 s at 0.01 yuan/h"_s),
        posting(6, u"storage"_s, -250'000, 108'600'000, u"2026-11-20T10:00:00Z"_s, u"a"_s,
                u"Snapshot storage: s1, 3600 s at 0.25 yuan/h"_s, u"snap-1"_s),
        posting(5, u"compute"_s, -3'009'600, 108'850'000, u"2026-11-10T08:00:00Z"_s, u"b"_s),
        posting(4, u"compute"_s, -1'900'000, 111'859'600, u"2026-11-03T08:00:00Z"_s, u"a"_s),
        posting(3, u"topup"_s, 100'000'000, 113'759'600, u"2026-11-02T08:00:00Z"_s),
        posting(2, u"compute"_s, -240'400, 13'759'600, u"2026-10-31T16:00:01Z"_s, u"a"_s),
        posting(1, u"trial_credit"_s, 14'000'000, 14'000'000, u"2026-10-01T00:00:00Z"_s),
    };
}

} // namespace

class TestStatement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void monthInUtc()
    {
        const Statement s = Statement::build(ledger(), 2026, 11, QTimeZone::utc());
        QCOMPARE(s.start, QDateTime(QDate(2026, 11, 1), QTime(0, 0), QTimeZone::utc()));
        QCOMPARE(s.end, QDateTime(QDate(2026, 12, 1), QTime(0, 0), QTimeZone::utc()));
        QCOMPARE(s.postings.size(), 5); // seq 3 to 7; seq 2 is 31 Oct in UTC
        QCOMPARE(s.postings.first().seq, 3);
        QCOMPARE(s.postings.last().seq, 7);
        QCOMPARE(s.openingBalanceMicros, 13'759'600);
        QCOMPARE(s.closingBalanceMicros, 108'599'999);
        QCOMPARE(s.computeMicros, 1'900'000 + 3'009'600);
        QCOMPARE(s.storageMicros, 1);
        QCOMPARE(s.snapshotMicros, 250'000);
        QCOMPARE(s.creditMicros, 100'000'000);
        QCOMPARE(s.expectedClosingMicros(), s.closingBalanceMicros);
        QCOMPARE(s.snapshots.size(), 1);
        QCOMPARE(s.snapshots[0].snapshotId, u"snap-1"_s);
        QCOMPARE(s.snapshots[0].instanceId, u"a"_s);
        QCOMPARE(s.snapshots[0].micros, 250'000);
    }

    void snapshotsOfOneHostApart()
    {
        // Two snapshots of one host with the same words in their descriptions: each its own
        // line, by its id; together the host's snapshot total.
        const QList<Posting> all{
            posting(4, u"storage"_s, -300, 9'999'000, u"2026-11-03T00:00:00Z"_s, u"a"_s,
                    u"Snapshot storage: nightly"_s, u"snap-2"_s),
            posting(3, u"storage"_s, -200, 9'999'300, u"2026-11-02T00:00:00Z"_s, u"a"_s,
                    u"Snapshot storage: nightly"_s, u"snap-1"_s),
            posting(2, u"storage"_s, -500, 9'999'500, u"2026-11-01T12:00:00Z"_s, u"a"_s,
                    u"Snapshot storage: nightly"_s, u"snap-1"_s),
            posting(1, u"topup"_s, 10'000'000, 10'000'000, u"2026-11-01T00:00:00Z"_s),
        };
        const Statement s = Statement::build(all, 2026, 11, QTimeZone::utc());
        QCOMPARE(s.snapshots.size(), 2);
        QCOMPARE(s.snapshots[0].snapshotId, u"snap-1"_s);
        QCOMPARE(s.snapshots[0].micros, 700);
        QCOMPARE(s.snapshots[1].snapshotId, u"snap-2"_s);
        QCOMPARE(s.snapshots[1].micros, 300);
        QCOMPARE(s.hosts.size(), 1);
        QCOMPARE(s.hosts[0].snapshotMicros, 1000);
        QCOMPARE(s.snapshotMicros, 1000);
        QCOMPARE(s.storageMicros, 0);
        // Without the ledger's snapshot_name, a snapshot is its id; with it, its name.
        QCOMPARE(s.snapshots[0].label(), u"snap-1"_s);
        QList<Posting> named = all;
        named[1].snapshotName = u"nightly"_s;
        QCOMPARE(Statement::build(named, 2026, 11, QTimeZone::utc()).snapshots[0].label(),
                 u"nightly"_s);
    }

    void monthInShanghaiMovesTheBoundaries()
    {
        // 31 Oct 16:00:01 UTC is 1 Nov 00:00:01 in Shanghai; 30 Nov 15:59:59 UTC is still
        // November there, 1 Dec 00:30 UTC is 08:30 on 1 Dec.
        const QTimeZone shanghai("Asia/Shanghai");
        QVERIFY(shanghai.isValid());
        const Statement oct = Statement::build(ledger(), 2026, 10, shanghai);
        QCOMPARE(oct.postings.size(), 1);
        QCOMPARE(oct.closingBalanceMicros, 14'000'000);
        const Statement nov = Statement::build(ledger(), 2026, 11, shanghai);
        QCOMPARE(nov.start.toString(Qt::ISODate), u"2026-10-31T16:00:00Z"_s);
        QCOMPARE(nov.postings.size(), 6);
        QCOMPARE(nov.postings.first().seq, 2);
        QCOMPARE(nov.openingBalanceMicros, 14'000'000);
        QCOMPARE(nov.computeMicros, 240'400 + 1'900'000 + 3'009'600);
        QCOMPARE(nov.expectedClosingMicros(), nov.closingBalanceMicros);
        const Statement dec = Statement::build(ledger(), 2026, 12, shanghai);
        QCOMPARE(dec.postings.size(), 1);
        QCOMPARE(dec.openingBalanceMicros, 108'599'999);
        QCOMPARE(dec.computeMicros, 500'000);
    }

    void totalsByHost()
    {
        const Statement s = Statement::build(ledger(), 2026, 11, QTimeZone("Asia/Shanghai"));
        QCOMPARE(s.hosts.size(), 2);
        QCOMPARE(s.hosts[0].instanceId, u"a"_s);
        QCOMPARE(s.hosts[0].computeMicros, 240'400 + 1'900'000);
        QCOMPARE(s.hosts[0].snapshotMicros, 250'000);
        QCOMPARE(s.hosts[0].storageMicros, 0);
        QCOMPARE(s.hosts[1].instanceId, u"b"_s);
        QCOMPARE(s.hosts[1].totalMicros(), 3'009'600 + 1);
        qint64 sum = 0;
        for (const auto &host : s.hosts)
            sum += host.totalMicros();
        QCOMPARE(sum, s.chargesMicros());
    }

    void emptyMonthCarriesTheBalance()
    {
        const Statement s = Statement::build(ledger(), 2027, 3, QTimeZone::utc());
        QVERIFY(s.postings.isEmpty());
        QCOMPARE(s.openingBalanceMicros, 108'099'999);
        QCOMPARE(s.closingBalanceMicros, 108'099'999);
        QCOMPARE(s.chargesMicros(), 0);
        const Statement before = Statement::build(ledger(), 2020, 1, QTimeZone::utc());
        QCOMPARE(before.openingBalanceMicros, 0);
        QCOMPARE(before.closingBalanceMicros, 0);
    }

    void categories()
    {
        QCOMPARE(Statement::categoryOf(posting(1, u"compute"_s, -1, 0, u"2026-01-01T00:00:00Z"_s)),
                 StatementCategory::Compute);
        // The snapshot id tells them apart, not the words of the description.
        QCOMPARE(Statement::categoryOf(posting(1, u"storage"_s, -1, 0, u"2026-01-01T00:00:00Z"_s,
                                               u"a"_s, u"Storage: x"_s, u"snap-x"_s)),
                 StatementCategory::Snapshots);
        QCOMPARE(Statement::categoryOf(posting(1, u"storage"_s, -1, 0, u"2026-01-01T00:00:00Z"_s,
                                               u"a"_s, u"Snapshot storage: x"_s)),
                 StatementCategory::Storage);
        QCOMPARE(Statement::categoryOf(posting(1, u"refund"_s, 1, 0, u"2026-01-01T00:00:00Z"_s)),
                 StatementCategory::Other);
    }

    void months()
    {
        QCOMPARE(Statement::monthsWithPostings(ledger(), QTimeZone::utc()),
                 (QList<int>{202612, 202611, 202610}));
        QCOMPARE(Statement::monthsWithPostings(ledger(), QTimeZone("Asia/Shanghai")),
                 (QList<int>{202612, 202611, 202610}));
        QVERIFY(Statement::monthsWithPostings({}, QTimeZone::utc()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestStatement)
#include "tst_statement.moc"
