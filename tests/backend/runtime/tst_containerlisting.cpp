// ContainerListing: `ps -a` by label into the cache, the blocking listing of start-up (which
// thaws a container left paused), and the refresh that follows the engine's events.
#include "FakeEngine.h"
#include "runtime/ContainerListing.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestContainerListing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refreshFillsTheCache();
    void failedListingChangesNothing();
    void refreshNowThawsPausedContainers();
    void eventsRefreshSoonOnce();
};

void TestContainerListing::refreshFillsTheCache()
{
    FakeEngine engine;
    engine.answer(u"ps -a"_s,
                  FakeEngine::ok(test::podmanPs({container(u"c1"_s, u"i-1"_s, true, 40022),
                                                 container(u"c2"_s, u"i-2"_s, false, 40023)})));
    ContainerCache cache;
    ContainerListing listing(engine, cache);
    QSignalSpy refreshed(&listing, &ContainerListing::refreshed);
    listing.refresh();
    QTRY_COMPARE(refreshed.size(), 1);
    QVERIFY(refreshed.at(0).at(1).toBool());
    QCOMPARE((refreshed.at(0).at(0).value<QHash<QString, bool>>()),
             (QHash<QString, bool>{{u"i-1"_s, true}, {u"i-2"_s, false}}));
    QCOMPARE(cache.info(u"i-1"_s).sshPort, 40022);
    // Only this provider's managed containers are asked for.
    const QString ps = engine.first(u"ps"_s).line();
    QVERIFY2(ps.contains(u"label=cardhour.managed=true"_s), qPrintable(ps));
    QVERIFY2(ps.contains(u"label=cardhour.provider=prov"_s), qPrintable(ps));
}

void TestContainerListing::failedListingChangesNothing()
{
    FakeEngine engine;
    engine.answer(u"ps"_s, FakeEngine::failed("cannot connect"));
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    ContainerListing listing(engine, cache);
    QSignalSpy refreshed(&listing, &ContainerListing::refreshed);
    listing.refresh();
    QTRY_COMPARE(refreshed.size(), 1);
    QVERIFY(!refreshed.at(0).at(1).toBool());
    QVERIFY(cache.isRunning(u"i-1"_s));
    QVERIFY(!listing.refreshNow(1000));
    QCOMPARE(refreshed.size(), 2);
    QVERIFY(cache.isRunning(u"i-1"_s));
}

void TestContainerListing::refreshNowThawsPausedContainers()
{
    FakeEngine engine;
    cli::ContainerInfo paused = container(u"c1"_s, u"i-1"_s, true);
    paused.state = u"paused"_s;
    engine.answer(
        u"ps -a"_s,
        FakeEngine::ok(test::podmanPs({paused, container(u"c2"_s, u"i-2"_s, true, 40023)})));
    ContainerCache cache;
    ContainerListing listing(engine, cache);
    QVERIFY(listing.refreshNow(1000));
    QCOMPARE(engine.count(u"unpause c1"_s), 1);
    QCOMPARE(engine.count(u"unpause"_s), 1);
    QVERIFY(cache.contains(u"i-1"_s));
    QVERIFY(cache.contains(u"i-2"_s));
}

void TestContainerListing::eventsRefreshSoonOnce()
{
    FakeEngine engine;
    engine.answer(u"ps -a"_s, FakeEngine::ok("[]"));
    ContainerCache cache;
    ContainerListing listing(engine, cache);
    QSignalSpy refreshed(&listing, &ContainerListing::refreshed);
    // A burst of events: one listing soon, and one more a second later (podman may send an
    // event before its listing shows it).
    listing.refreshSoon();
    listing.refreshSoon();
    listing.refreshSoon(true);
    QTRY_COMPARE(refreshed.size(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(refreshed.size(), 2, 3000);
    QTest::qWait(100);
    QCOMPARE(engine.count(u"ps"_s), 2);
}

QTEST_GUILESS_MAIN(TestContainerListing)
#include "tst_containerlisting.moc"
