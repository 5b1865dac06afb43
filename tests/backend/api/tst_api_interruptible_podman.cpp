// An interruption in a real container (podman): the notice a job polls for is in the box at
// /run/cardhour/notices/interruption with the deadline the API gave, the box stops at that
// deadline with /workspace kept, and a start brings the same /workspace back without the notice.
#include "PodmanApiTest.h"

#include <QJsonObject>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiInterruptiblePodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void noticeInTheBoxThenStopped();
};

void TestApiInterruptiblePodman::noticeInTheBoxThenStopped()
{
    SimProcess *sim = startSim({u"--test-clock"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"spot-box@example.com"_s);
    QVERIFY(!token.isEmpty());
    const KeyPair key = makeKey(u"spot"_s);
    const QString keyId = addKey(*sim, token, key);
    QVERIFY(!keyId.isEmpty());
    const QString id =
        create(*sim, token, {keyId}, QJsonObject{{u"price_class"_s, u"interruptible"_s}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(running[u"state"_s].toString(), u"running"_s);
    const QString knownHosts = knownHostsFor(running);
    const Cmd keep = ssh(running, knownHosts, key, u"echo kept > /workspace/mark && echo ok"_s);
    QVERIFY2(keep.ok(), qPrintable(keep.describe()));
    const Cmd before =
        ssh(running, knownHosts, key, u"test -e /run/cardhour/notices/interruption || echo none"_s);
    QVERIFY2(before.ok() && before.out.contains("none"), qPrintable(before.describe()));

    const Reply given = sim->request("POST", u"/v1/_test/instances/%1/interrupt"_s.arg(id),
                                     QJsonObject{{u"notice_seconds"_s, 60}});
    QVERIFY2(given.status == 200, given.describe().constData());
    const qint64 deadline = isoToMs(given.value(u"interruption_at"_s).toString());
    // What a job script does: source the file and read the deadline.
    const Cmd notice =
        ssh(running, knownHosts, key,
            u". /run/cardhour/notices/interruption && echo \"at=$interruption_at_epoch_ms\""_s);
    QVERIFY2(notice.ok(), qPrintable(notice.describe()));
    QVERIFY2(notice.out.contains("at=" + QByteArray::number(deadline)),
             qPrintable(notice.describe()));

    QVERIFY(sim->advance(61));
    const QJsonObject stopped = waitFor(*sim, token, id, u"stopped"_s, 60'000);
    QCOMPARE(stopped[u"state_reason"_s].toString(), u"interrupted"_s);
    QVERIFY(sim->authedPost(token, u"/v1/instances/%1/start"_s.arg(id)).status < 300);
    const QJsonObject again = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(again[u"state"_s].toString(), u"running"_s);
    const Cmd after =
        ssh(again, knownHostsFor(again), key,
            u"cat /workspace/mark; test -e /run/cardhour/notices/interruption || echo gone"_s);
    QVERIFY2(after.ok() && after.out.contains("kept") && after.out.contains("gone"),
             qPrintable(after.describe()));
}

QTEST_GUILESS_MAIN(TestApiInterruptiblePodman)
#include "tst_api_interruptible_podman.moc"
