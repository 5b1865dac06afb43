// AppWatcher: an app counts once its port listens in the box and, where the image has curl,
// once it answers HTTP; each is reported once; the watch ends with the instance.
#include "FakeEngine.h"
#include "runtime/AppWatcher.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestAppWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listeningIsEnoughWithoutCurl();
    void waitsForAnHttpAnswer();
    void endsWithTheInstance();
};

namespace {

const QByteArray kHeader =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n";
// Listening on 127.0.0.1:8888 (0x22B8) and on 0.0.0.0:7860 (0x1EB4).
const QByteArray kJupyter =
    "   1: 0100007F:22B8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n";
const QByteArray kGradio =
    "   2: 00000000:1EB4 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0\n";

} // namespace

void TestAppWatcher::listeningIsEnoughWithoutCurl()
{
    FakeEngine engine;
    engine.answer(u"exec c1"_s, FakeEngine::ok(kHeader + kJupyter + kGradio));
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    AppWatcher apps(engine, cache);
    QSignalSpy answered(&apps, &AppWatcher::appAnswered);
    apps.watch(u"i-1"_s, u"c1"_s, {{u"jupyter"_s, 8888}, {u"gradio"_s, 7860}});
    QTRY_COMPARE(answered.size(), 2);
    QCOMPARE(answered.at(0).at(0).toString(), u"i-1"_s);
    QCOMPARE(answered.at(0).at(1).toString(), u"jupyter"_s);
    QCOMPARE(answered.at(1).at(1).toString(), u"gradio"_s);
    QVERIFY(!apps.isWatching(u"i-1"_s));
    // The probe asks for the pending ports in one `exec`.
    const QStringList exec = engine.first(u"exec c1"_s).args;
    QVERIFY2(exec.last().contains(u"for p in 8888 7860;"_s), qPrintable(exec.last()));
    QCOMPARE(engine.first(u"exec"_s).timeoutMs, 5000);
}

void TestAppWatcher::waitsForAnHttpAnswer()
{
    FakeEngine engine;
    // First look: listening, but the server is still loading (curl could not connect: 000).
    engine.once(u"exec c1"_s, FakeEngine::ok(kHeader + kJupyter + "answer 8888 000\n"));
    engine.answer(u"exec c1"_s, FakeEngine::ok(kHeader + kJupyter + "answer 8888 302\n"));
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    AppWatcher apps(engine, cache);
    QSignalSpy answered(&apps, &AppWatcher::appAnswered);
    apps.watch(u"i-1"_s, u"c1"_s, {{u"jupyter"_s, 8888}});
    QTRY_COMPARE(engine.count(u"exec"_s), 1);
    QTest::qWait(50);
    QCOMPARE(answered.size(), 0);
    QVERIFY(apps.isWatching(u"i-1"_s));
    QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 1, 3000); // the next look, half a second later
    QCOMPARE(engine.count(u"exec"_s), 2);
}

void TestAppWatcher::endsWithTheInstance()
{
    FakeEngine engine;
    engine.answer(u"exec c1"_s, FakeEngine::ok(kHeader));
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, true));
    AppWatcher apps(engine, cache);
    QSignalSpy answered(&apps, &AppWatcher::appAnswered);
    apps.watch(u"i-1"_s, u"c1"_s, {{u"jupyter"_s, 8888}});
    QTRY_COMPARE(engine.count(u"exec"_s), 1);
    cache.setRunning(u"i-1"_s, false); // stopped: the next look ends the watch
    QTRY_VERIFY_WITH_TIMEOUT(!apps.isWatching(u"i-1"_s), 3000);
    QCOMPARE(engine.count(u"exec"_s), 1);
    // stopWatching ends one at once; no apps or no container: nothing is watched.
    cache.setRunning(u"i-1"_s, true);
    apps.watch(u"i-1"_s, u"c1"_s, {{u"jupyter"_s, 8888}});
    QVERIFY(apps.isWatching(u"i-1"_s));
    apps.stopWatching(u"i-1"_s);
    QVERIFY(!apps.isWatching(u"i-1"_s));
    apps.watch(u"i-1"_s, u"c1"_s, {});
    apps.watch(u"i-2"_s, QString(), {{u"jupyter"_s, 8888}});
    QVERIFY(!apps.isWatching(u"i-1"_s));
    QVERIFY(!apps.isWatching(u"i-2"_s));
    QTest::qWait(50);
    QCOMPARE(answered.size(), 0);
}

QTEST_GUILESS_MAIN(TestAppWatcher)
#include "tst_appwatcher.moc"
