// InstanceRecords: whose an instance is, its state changed only by compare-and-swap, the cards
// held, the disk, resources and app token the runtime is given.
#include "ServiceFixture.h"
#include "core/ApiError.h"

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

class TestInstanceRecords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compareAndSwapWinsOnce()
    {
        ServiceFixture f;
        const QString user = f.signUp(u"cas@example.com"_s);
        const QString id = f.create(user, u"box"_s);
        InstanceRecords &records = f.service->records();
        QCOMPARE(records.stateOf(id), u"creating"_s);
        QCOMPARE(records.cardsHeld(u"rtx4090"_s), 1);
        const qint64 before =
            f.db.scalar(u"SELECT updated_at FROM instances WHERE id = ?"_s, {id}).toLongLong();
        QVERIFY(records.compareAndSwap(id, {u"creating"_s}, u"failed"_s, u"test"_s, before));
        QVERIFY(!records.compareAndSwap(id, {u"creating"_s}, u"running"_s, {}, before));
        QCOMPARE(records.stateOf(id), u"failed"_s);
        QCOMPARE(records.cardsHeld(u"rtx4090"_s), 0); // a failed instance holds none
        // updated_at moves at every change, even within one millisecond.
        QVERIFY(f.db.scalar(u"SELECT updated_at FROM instances WHERE id = ?"_s, {id}).toLongLong()
                > before);
    }

    void anotherUsersInstanceIsNotFound()
    {
        ServiceFixture f;
        const QString owner = f.signUp(u"owner@example.com"_s);
        const QString other = f.signUp(u"other@example.com"_s);
        const QString id = f.create(owner, u"box"_s);
        QCOMPARE(f.service->records().requireState(owner, id), u"creating"_s);
        QCOMPARE(f.service->records().ownerOf(id), owner);
        try {
            f.service->records().requireState(other, id);
            QFAIL("another user's instance was found");
        } catch (const ApiError &error) {
            QCOMPARE(error.status(), 404);
        }
        QVERIFY(f.service->records().stateOf(u"no-such-id"_s).isEmpty());
    }

    void diskResourcesAndSpec()
    {
        ServiceFixture f;
        InstanceRecords &records = f.service->records();
        QCOMPARE(records.diskGibOf(u"rtx4090"_s, QVariant(QMetaType(QMetaType::LongLong))), 50);
        QCOMPARE(records.diskGibOf(u"rtx4090"_s, 7), 7);
        const InstanceRecords::Resources one = records.resourcesFor(u"rtx4090"_s, 1);
        QVERIFY(one.cpus > 0);
        QVERIFY(one.memoryMib > 0);
        QVERIFY(records.resourcesFor(u"rtx4090"_s, 2).cpus >= one.cpus);
        const QString user = f.signUp(u"spec@example.com"_s);
        const QString id = f.create(user, u"box"_s);
        const InstanceSpec spec = records.specFor(id);
        QCOMPARE(spec.instanceId, id);
        QCOMPARE(spec.ownerId, user);
        QCOMPARE(spec.gpuType, u"rtx4090"_s);
        QCOMPARE(spec.diskGib, 50);
        QCOMPARE(spec.appToken, records.appTokenOf(id, 1)); // the first launch
    }

    void appTokensFollowTheKeyAndEachStart()
    {
        ServiceFixture f;
        InstanceRecords &records = f.service->records();
        records.setAppTokenKey("key one"_ba);
        const QString token = records.appTokenOf(u"i1"_s, 1);
        QCOMPARE(token.size(), 48); // 24 bytes, hex
        QCOMPARE(records.appTokenOf(u"i1"_s, 1), token);
        QVERIFY(records.appTokenOf(u"i2"_s, 1) != token);
        QVERIFY(records.appTokenOf(u"i1"_s, 2) != token); // the next start's
        records.setAppTokenKey("key two"_ba);
        QVERIFY(records.appTokenOf(u"i1"_s, 1) != token);
    }
};

QTEST_GUILESS_MAIN(TestInstanceRecords)
#include "tst_instancerecords.moc"
