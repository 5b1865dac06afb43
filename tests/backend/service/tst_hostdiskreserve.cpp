// HostDiskReserve: what the free space of the data directory's disk, less what a request is
// about to write, must leave; a refusal is 507 host_disk_full with the figures in `details`;
// a reserve of 0 refuses nothing; the real disk's free space is read by default.
#include "core/ApiError.h"
#include "service/HostDiskReserve.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestHostDiskReserve : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusesBelowTheReserve_data();
    void refusesBelowTheReserve();
    void refusalSaysWhy();
    void readsTheRealDisk();
};

void TestHostDiskReserve::refusesBelowTheReserve_data()
{
    QTest::addColumn<qint64>("free");
    QTest::addColumn<qint64>("reserve");
    QTest::addColumn<qint64>("more");
    QTest::addColumn<bool>("refused");
    QTest::newRow("well above") << 10'000LL << 1'000LL << 0LL << false;
    QTest::newRow("exactly the reserve left") << 2'000LL << 1'000LL << 1'000LL << false;
    QTest::newRow("the write would cross it") << 2'000LL << 1'000LL << 1'001LL << true;
    QTest::newRow("already below") << 999LL << 1'000LL << 0LL << true;
    QTest::newRow("no reserve kept") << 0LL << 0LL << 5'000LL << false;
    QTest::newRow("a negative size counts as nothing") << 1'000LL << 1'000LL << -50LL << false;
}

void TestHostDiskReserve::refusesBelowTheReserve()
{
    QFETCH(qint64, free);
    QFETCH(qint64, reserve);
    QFETCH(qint64, more);
    QFETCH(bool, refused);
    QString asked;
    const HostDiskReserve disk(u"/data"_s, reserve, [&](const QString &path) {
        asked = path;
        return free;
    });
    bool threw = false;
    try {
        disk.requireRoom(more, u"instances"_s);
    } catch (const ApiError &) {
        threw = true;
    }
    QCOMPARE(threw, refused);
    QCOMPARE(disk.json().value(u"accepting"_s).toBool(), reserve <= 0 || free >= reserve);
    if (reserve > 0)
        QCOMPARE(asked, u"/data"_s);
}

void TestHostDiskReserve::refusalSaysWhy()
{
    const HostDiskReserve disk(u"/data"_s, 2LL << 30, [](const QString &) { return 3LL << 30; });
    try {
        disk.requireRoom(1536LL << 20, u"uploads"_s);
        QFAIL("a write into the reserve was taken on");
    } catch (const ApiError &e) {
        QCOMPARE(e.status(), 507);
        QCOMPARE(e.code(), u"host_disk_full"_s);
        QVERIFY2(e.message().contains(u"3.0 GiB free, 2.0 GiB kept in reserve"_s),
                 qPrintable(e.message()));
        QVERIFY2(e.message().contains(u"no new uploads"_s), qPrintable(e.message()));
        QCOMPARE(e.details().value(u"free_bytes"_s).toInteger(), 3LL << 30);
        QCOMPARE(e.details().value(u"reserve_bytes"_s).toInteger(), 2LL << 30);
        QCOMPARE(e.details().value(u"needed_bytes"_s).toInteger(), 1536LL << 20);
    }
}

void TestHostDiskReserve::readsTheRealDisk()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const HostDiskReserve disk(dir.path(), 1);
    QVERIFY(disk.freeBytes() > 1);
    disk.requireRoom(0, u"instances"_s); // this machine's disk has a byte to spare
    const HostDiskReserve never(dir.path(), disk.freeBytes() + (1LL << 40));
    QVERIFY_THROWS_EXCEPTION(ApiError, never.requireRoom(0, u"instances"_s));
}

QTEST_GUILESS_MAIN(TestHostDiskReserve)

#include "tst_hostdiskreserve.moc"
