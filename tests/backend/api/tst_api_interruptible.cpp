// Interruptible hosts against the real cardhour-sim (in-process runtime, test clock): the
// cheaper price the catalog derives, the notice (SSE event, the file in the box, the
// instance's deadline), the stop billed to the exact millisecond of the deadline, an on-demand
// launch that takes the cards of the newest interruptible host, and the restart once the
// cards are free again.
#include "SimProcess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestApiInterruptible : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void catalogOffersTheCheaperClass();
    void noticeThenStopAtTheDeadline();
    void onlyRunningInterruptibleHostsAreInterrupted();
    void onDemandLaunchTakesTheNewestInterruptible();
    void restartsWhenCardsReturn();

private:
    QString launch(const QJsonObject &extra, int cards = 1);
    QJsonObject instance(const QString &id)
    {
        return m_sim->authedGet(m_token, u"/v1/instances/"_s + id).object();
    }
    Reply interrupt(const QString &id, int noticeSeconds)
    {
        return m_sim->request("POST", u"/v1/_test/instances/%1/interrupt"_s.arg(id),
                              QJsonObject{{u"notice_seconds"_s, noticeSeconds}});
    }
    // The interruptible share of the price, from the catalog the provider was built with.
    static int interruptiblePercent();

    SimProcess *m_sim = nullptr;
    QString m_token;
};

void TestApiInterruptible::init()
{
    delete m_sim;
    m_sim = new SimProcess(this);
    QVERIFY2(m_sim->start({u"--test-clock"_s}), qPrintable(m_sim->lastError()));
    m_token = m_sim->signUp(u"spot@example.com"_s);
    QVERIFY2(!m_token.isEmpty(), qPrintable(m_sim->lastError()));
}

void TestApiInterruptible::cleanup()
{
    if (m_sim && m_sim->isRunning())
        QCOMPARE(m_sim->verifyLedger(), QString());
}

int TestApiInterruptible::interruptiblePercent()
{
    QFile file(QStringLiteral(CARDHOUR_SOURCE_CATALOG) + u"/gpus.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QJsonObject catalog = QJsonDocument::fromJson(file.readAll()).object();
    return catalog[u"interruptible"_s][u"price_percent"_s].toInt(-1);
}

QString TestApiInterruptible::launch(const QJsonObject &extra, int cards)
{
    QJsonObject body{
        {u"gpu_type"_s, u"rtx4090"_s}, {u"gpu_count"_s, cards}, {u"image"_s, u"base"_s}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    return m_sim->createRunning(m_token, body);
}

void TestApiInterruptible::catalogOffersTheCheaperClass()
{
    const int percent = interruptiblePercent();
    QVERIFY(percent > 0 && percent < 100);
    const QJsonArray gpus = m_sim->authedGet(m_token, u"/v1/catalog/gpus"_s).array();
    QVERIFY(!gpus.isEmpty());
    qint64 rtx4090 = 0;
    for (const QJsonValue &gpu : gpus) {
        const qint64 price = gpu[u"price_per_hour_micros"_s].toInteger();
        QCOMPARE(gpu[u"interruptible_price_per_hour_micros"_s].toInteger(-1),
                 (price * percent + 50) / 100);
        QVERIFY(gpu[u"interruption_notice_seconds"_s].toInt(-1) >= 0);
        if (gpu[u"id"_s] == u"rtx4090"_s)
            rtx4090 = gpu[u"interruptible_price_per_hour_micros"_s].toInteger();
    }
    const QString id = launch({{u"price_class"_s, u"interruptible"_s}}, 2);
    QVERIFY(!id.isEmpty());
    const QJsonObject view = instance(id);
    QCOMPARE(view[u"price_class"_s].toString(), u"interruptible"_s);
    QCOMPARE(view[u"price_per_hour_micros"_s].toInteger(), 2 * rtx4090);
    QVERIFY(view[u"interruption_at"_s].isNull());

    const Reply bad = m_sim->authedPost(
        m_token, u"/v1/instances"_s,
        {{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}, {u"price_class"_s, u"spot"_s}});
    QCOMPARE(bad.status, 400);
    const Reply restartOnDemand = m_sim->authedPost(m_token, u"/v1/instances"_s,
                                                    {{u"gpu_type"_s, u"rtx4090"_s},
                                                     {u"image"_s, u"base"_s},
                                                     {u"restart_when_available"_s, true}});
    QCOMPARE(restartOnDemand.status, 400);
}

void TestApiInterruptible::noticeThenStopAtTheDeadline()
{
    const QString id = launch({{u"price_class"_s, u"interruptible"_s}});
    QVERIFY(!id.isEmpty());
    SseClient events;
    QVERIFY(events.open(m_sim->port(), m_token));
    const qint64 runningSince = isoToMs(instance(id)[u"running_since"_s].toString());
    QVERIFY(m_sim->advance(5.25)); // a deadline that is not on a whole second of the run
    const qint64 noticeAt = m_sim->get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger();

    const Reply given = interrupt(id, 30);
    QVERIFY2(given.status == 200, given.describe().constData());
    const qint64 deadline = noticeAt + 30'000;
    QCOMPARE(isoToMs(given.value(u"interruption_at"_s).toString()), deadline);
    QCOMPARE(given.value(u"state"_s).toString(), u"running"_s);

    // The event, with the deadline.
    QTRY_VERIFY(!events.eventsOfType("instance.interruption_notice").isEmpty());
    const QJsonObject notice = events.eventsOfType("instance.interruption_notice").first().json();
    QCOMPARE(notice[u"instance_id"_s].toString(), id);
    QCOMPARE(isoToMs(notice[u"interruption_at"_s].toString()), deadline);
    QCOMPARE(notice[u"notice_seconds"_s].toInt(), 30);

    // The file a job in the box polls (the in-process runtime's stand-in for the box's disk).
    QFile file(m_sim->dataDir()
               + u"/inprocess/%1/disk/run/cardhour/notices/interruption"_s.arg(id));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const QByteArray content = file.readAll();
    QVERIFY2(content.contains("interruption_at_epoch_ms=" + QByteArray::number(deadline) + '\n'),
             content.constData());
    QVERIFY(content.contains("notice_seconds=30\n"));

    // Before the deadline it runs on; the clock moving well past it stops it at the deadline.
    QVERIFY(m_sim->advance(29));
    QCOMPARE(instance(id)[u"state"_s].toString(), u"running"_s);
    QVERIFY(m_sim->advance(60));
    const QJsonObject stopped = m_sim->waitForState(m_token, id, u"stopped"_s);
    QCOMPARE(stopped[u"state"_s].toString(), u"stopped"_s);
    QCOMPARE(stopped[u"state_reason"_s].toString(), u"interrupted"_s);
    QVERIFY(stopped[u"interruption_at"_s].isNull());
    const qint64 rate = stopped[u"price_per_hour_micros"_s].toInteger();
    // Billed to the millisecond of the deadline, not to the tick that noticed it.
    QCOMPARE(stopped[u"cost_micros"_s].toInteger(), rate * (deadline - runningSince) / 3'600'000);
    // Its disk is kept and billed as a stopped one's.
    QVERIFY(stopped[u"storage_rate_micros_per_hour"_s].toInteger() > 0);
    QTRY_VERIFY(events.hasInstanceState(id, u"stopped"_s));

    // A start is a new run: no notice left in the box.
    const Reply started = m_sim->authedPost(m_token, u"/v1/instances/%1/start"_s.arg(id));
    QVERIFY2(started.status == 200 || started.status == 202, started.describe().constData());
    QCOMPARE(m_sim->waitForState(m_token, id, u"running"_s)[u"state"_s].toString(), u"running"_s);
    QVERIFY(!QFile::exists(file.fileName()));
}

void TestApiInterruptible::onlyRunningInterruptibleHostsAreInterrupted()
{
    const QString onDemand = launch({});
    QVERIFY(!onDemand.isEmpty());
    QCOMPARE(interrupt(onDemand, 10).status, 409);
    QCOMPARE(interrupt(u"no-such-instance"_s, 10).status, 404);
    const QString spot = launch({{u"price_class"_s, u"interruptible"_s}});
    QVERIFY(!spot.isEmpty());
    QCOMPARE(interrupt(spot, 3601).status, 400);
    // No notice: stopped at once, at this very millisecond.
    const qint64 runningSince = isoToMs(instance(spot)[u"running_since"_s].toString());
    QVERIFY(m_sim->advance(7.5));
    const qint64 at = m_sim->get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger();
    QVERIFY(interrupt(spot, 0).status == 200);
    const QJsonObject stopped = m_sim->waitForState(m_token, spot, u"stopped"_s);
    QCOMPARE(stopped[u"state_reason"_s].toString(), u"interrupted"_s);
    QCOMPARE(stopped[u"cost_micros"_s].toInteger(),
             stopped[u"price_per_hour_micros"_s].toInteger() * (at - runningSince) / 3'600'000);
    QCOMPARE(interrupt(spot, 0).status, 409); // stopped
}

void TestApiInterruptible::onDemandLaunchTakesTheNewestInterruptible()
{
    const QString older = launch({{u"price_class"_s, u"interruptible"_s}}, 4);
    QVERIFY(!older.isEmpty());
    QVERIFY(m_sim->advance(60));
    const QString newer = launch({{u"price_class"_s, u"interruptible"_s}}, 4);
    QVERIFY(!newer.isEmpty());
    QVERIFY(m_sim->advance(60));
    SseClient events;
    QVERIFY(events.open(m_sim->port(), m_token));

    // Another interruptible launch takes nobody's cards.
    const Reply refused = m_sim->authedPost(m_token, u"/v1/instances"_s,
                                            {{u"gpu_type"_s, u"rtx4090"_s},
                                             {u"gpu_count"_s, 2},
                                             {u"image"_s, u"base"_s},
                                             {u"price_class"_s, u"interruptible"_s}});
    QCOMPARE(refused.status, 409);

    const qint64 newerSince = isoToMs(instance(newer)[u"running_since"_s].toString());
    const qint64 at = m_sim->get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger();
    const QString onDemand = launch({}, 2);
    QVERIFY(!onDemand.isEmpty());
    const QJsonObject taken = m_sim->waitForState(m_token, newer, u"stopped"_s);
    // Billed to the millisecond its cards were taken.
    QCOMPARE(taken[u"cost_micros"_s].toInteger(),
             taken[u"price_per_hour_micros"_s].toInteger() * (at - newerSince) / 3'600'000);
    QCOMPARE(taken[u"state"_s].toString(), u"stopped"_s);
    QCOMPARE(taken[u"state_reason"_s].toString(), u"interrupted"_s);
    QCOMPARE(instance(older)[u"state"_s].toString(), u"running"_s);
    QTRY_VERIFY(!events.eventsOfType("instance.interruption_notice").isEmpty());
    const QJsonObject notice = events.eventsOfType("instance.interruption_notice").first().json();
    QCOMPARE(notice[u"instance_id"_s].toString(), newer);
    QCOMPARE(notice[u"reason"_s].toString(), u"capacity"_s);
    QCOMPARE(notice[u"notice_seconds"_s].toInt(), 0);
}

void TestApiInterruptible::restartsWhenCardsReturn()
{
    const QString spot =
        launch({{u"price_class"_s, u"interruptible"_s}, {u"restart_when_available"_s, true}}, 8);
    QVERIFY(!spot.isEmpty());
    QVERIFY(instance(spot)[u"restart_when_available"_s].toBool());
    const QString onDemand = launch({}, 8);
    QVERIFY(!onDemand.isEmpty());
    QCOMPARE(m_sim->waitForState(m_token, spot, u"stopped"_s)[u"state"_s].toString(), u"stopped"_s);
    // The cards are taken: it stays stopped however long the clock runs.
    QVERIFY(m_sim->advance(120));
    QCOMPARE(instance(spot)[u"state"_s].toString(), u"stopped"_s);

    SseClient events;
    QVERIFY(events.open(m_sim->port(), m_token));
    const Reply gone = m_sim->authedDelete(m_token, u"/v1/instances/"_s + onDemand);
    QVERIFY2(gone.status == 200 || gone.status == 202, gone.describe().constData());
    QVERIFY(m_sim->advance(1)); // the next tick sees the cards free
    QCOMPARE(m_sim->waitForState(m_token, spot, u"running"_s)[u"state"_s].toString(), u"running"_s);
    QTRY_VERIFY(!events.eventsOfType("instance.auto_restart").isEmpty());
    QCOMPARE(events.eventsOfType("instance.auto_restart").first().json()[u"instance_id"_s], spot);
}

QTEST_GUILESS_MAIN(TestApiInterruptible)
#include "tst_api_interruptible.moc"
