// ContainerCache: the runtime's view of its containers, and how a listing that began before a
// local change leaves that change alone.
#include "FakeEngine.h"
#include "runtime/ContainerCache.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;

class TestContainerCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void remembersAndForgets();
    void listingKeepsNewerLocalChanges();
    void reservedPortsAndRunning();
    void appPortsGoWithTheContainer();
    void sshDirOutlivesTheContainer();
};

void TestContainerCache::remembersAndForgets()
{
    ContainerCache cache;
    QVERIFY(!cache.contains(u"i-1"_s));
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    QVERIFY(cache.contains(u"i-1"_s));
    QVERIFY(cache.isRunning(u"i-1"_s));
    QCOMPARE(cache.info(u"i-1"_s).containerId, u"c1"_s);
    cache.setRunning(u"i-1"_s, false);
    QVERIFY(!cache.isRunning(u"i-1"_s));
    QCOMPARE(cache.info(u"i-1"_s).state, u"exited"_s);
    cache.setRunning(u"i-1"_s, true);
    QCOMPARE(cache.info(u"i-1"_s).state, u"running"_s);
    cache.forget(u"i-1"_s);
    QVERIFY(!cache.contains(u"i-1"_s));
    QVERIFY(!cache.isRunning(u"i-1"_s));
}

void TestContainerCache::listingKeepsNewerLocalChanges()
{
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    cache.remember(container(u"c2"_s, u"i-2"_s, true));
    const quint64 listingBegan = cache.stamp();
    // While the listing ran: i-3 was made, i-2 removed, i-1 stopped.
    cache.remember(container(u"c3"_s, u"i-3"_s, true));
    cache.forget(u"i-2"_s);
    cache.setRunning(u"i-1"_s, false);
    // The listing saw i-1 running, i-2 still there, no i-3, and i-4 (made behind our back).
    cache.applyRefresh({container(u"c1"_s, u"i-1"_s, true), container(u"c2"_s, u"i-2"_s, true),
                        container(u"c4"_s, u"i-4"_s, false)},
                       listingBegan);
    QVERIFY(!cache.isRunning(u"i-1"_s));
    QVERIFY(!cache.contains(u"i-2"_s));
    QVERIFY(cache.contains(u"i-3"_s));
    QVERIFY(cache.contains(u"i-4"_s));
    // The next listing is the truth for all of them.
    cache.applyRefresh({container(u"c1"_s, u"i-1"_s, true)}, cache.stamp());
    QCOMPARE(cache.all().keys(), QStringList{u"i-1"_s});
    QVERIFY(cache.isRunning(u"i-1"_s));
}

void TestContainerCache::reservedPortsAndRunning()
{
    ContainerCache cache;
    QVERIFY(!cache.anyRunning());
    cache.remember(container(u"c1"_s, u"i-1"_s, false, 40022));
    QVERIFY(!cache.anyRunning());
    cache.remember(container(u"c2"_s, u"i-2"_s, true, 40023));
    QVERIFY(cache.anyRunning());
    QCOMPARE(cache.reservedPorts(), (QSet<int>{40022, 40023}));
    QCOMPARE(cache.runningById(), (QHash<QString, bool>{{u"i-1"_s, false}, {u"i-2"_s, true}}));
}

void TestContainerCache::appPortsGoWithTheContainer()
{
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    cache.setAppPorts(u"i-1"_s, {8888, 7860});
    QCOMPARE(cache.appPorts(u"i-1"_s), (QList<int>{8888, 7860}));
    cache.setRunning(u"i-1"_s, false);
    QCOMPARE(cache.appPorts(u"i-1"_s), (QList<int>{8888, 7860}));
    cache.forget(u"i-1"_s);
    QVERIFY(cache.appPorts(u"i-1"_s).isEmpty());
}

void TestContainerCache::sshDirOutlivesTheContainer()
{
    ContainerCache cache;
    cache.setSshDir(u"i-1"_s, u"/data/instances/i-1/ssh"_s);
    cache.forget(u"i-1"_s);
    QCOMPARE(cache.sshDir(u"i-1"_s), u"/data/instances/i-1/ssh"_s);
    cache.dropSshDir(u"i-1"_s);
    QVERIFY(cache.sshDir(u"i-1"_s).isEmpty());
}

QTEST_GUILESS_MAIN(TestContainerCache)
#include "tst_containercache.moc"
