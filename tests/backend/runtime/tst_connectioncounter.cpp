// ConnectionCounter: established connections to each running box's sshd and apps, from its
// kernel tables; boxes that are not running or cannot be read are left out.
#include "FakeEngine.h"
#include "runtime/ConnectionCounter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestConnectionCounter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsRunningBoxes();
    void nothingToCount();
    void readsTheBoxsTablesWithoutTheEngine();
};

namespace {
// sshd listening; two sessions in; an app's forward (local port 8888, 0x22B8).
const QByteArray kTables =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
    "   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n"
    "   1: 6402000A:0016 0202000A:A1B2 01 00000000:00000000 00:00000000 00000000     0\n"
    "   2: 6402000A:0016 0202000A:A1B3 01 00000000:00000000 00:00000000 00000000     0\n"
    "   3: 0100007F:22B8 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0\n"
    "counted\n";
} // namespace

void TestConnectionCounter::countsRunningBoxes()
{
    FakeEngine engine;
    engine.answer(u"exec c1"_s, FakeEngine::ok(kTables));
    engine.answer(u"exec c2"_s, FakeEngine::ok(kTables));
    engine.answer(u"exec c3"_s, FakeEngine::failed("no such container")); // printed no tables
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    cache.remember(container(u"c2"_s, u"i-2"_s, true));
    cache.remember(container(u"c3"_s, u"i-3"_s, true));
    cache.remember(container(u"c4"_s, u"i-4"_s, false));
    cache.setAppPorts(u"i-2"_s, {8888});
    ConnectionCounter counter(engine, cache);
    QSignalSpy counted(&counter, &ConnectionCounter::counted);
    counter.count({u"i-1"_s, u"i-2"_s, u"i-3"_s, u"i-4"_s, u"unknown"_s});
    QTRY_COMPARE(counted.size(), 1);
    QCOMPARE((counted.at(0).at(0).value<QHash<QString, int>>()),
             (QHash<QString, int>{{u"i-1"_s, 2}, {u"i-2"_s, 3}}));
    QCOMPARE(engine.count(u"exec"_s), 3); // the stopped box is not asked
}

void TestConnectionCounter::nothingToCount()
{
    FakeEngine engine;
    ContainerCache cache;
    ConnectionCounter counter(engine, cache);
    QSignalSpy counted(&counter, &ConnectionCounter::counted);
    counter.count({u"i-1"_s});
    QCOMPARE(counted.size(), 0); // later, as always
    QTRY_COMPARE(counted.size(), 1);
    QVERIFY((counted.at(0).at(0).value<QHash<QString, int>>().isEmpty()));
    QVERIFY(engine.calls.isEmpty());
}

void TestConnectionCounter::readsTheBoxsTablesWithoutTheEngine()
{
    // A box whose cgroup (v2 layout) holds this test's own process: its tables are this
    // process's network namespace's, where one connection to an "app" port is open.
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const QString id(64, u'a');
    const QString folder = root.filePath(u"machine.slice/libpod-"_s + id + u".scope"_s);
    QVERIFY(QDir().mkpath(folder));
    QFile stat(folder + u"/cpu.stat"_s);
    QVERIFY(stat.open(QIODevice::WriteOnly));
    stat.write("usage_usec 1\n");
    stat.close();
    QFile procs(folder + u"/cgroup.procs"_s);
    QVERIFY(procs.open(QIODevice::WriteOnly));
    procs.write(QByteArray::number(QCoreApplication::applicationPid()) + '\n');
    procs.close();
    QTcpServer app;
    QVERIFY(app.listen(QHostAddress::LocalHost));
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, app.serverPort());
    QVERIFY(client.waitForConnected(5000));
    QTRY_VERIFY(app.hasPendingConnections());

    FakeEngine engine; // answers nothing: an `exec` would count nothing
    ContainerCache cache;
    cache.remember(container(id, u"i-1"_s, true));
    cache.setAppPorts(u"i-1"_s, {app.serverPort()});
    ConnectionCounter counter(engine, cache, nullptr, root.path());
    QSignalSpy counted(&counter, &ConnectionCounter::counted);
    counter.count({u"i-1"_s});
    QCOMPARE(counted.size(), 0); // later, as always
    QTRY_COMPARE(counted.size(), 1);
    QCOMPARE((counted.at(0).at(0).value<QHash<QString, int>>()),
             (QHash<QString, int>{{u"i-1"_s, 1}})); // the app's side; the client's is not its port
    QCOMPARE(engine.count(u"exec"_s), 0);
}

QTEST_GUILESS_MAIN(TestConnectionCounter)
#include "tst_connectioncounter.moc"
