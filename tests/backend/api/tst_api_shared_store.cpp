// Two provider processes on one PostgreSQL database (the scratch cluster of
// tests/backend/postgres.cmake), each running its own hosts in-process, serving the same
// accounts: what one launches the other lists, bills and stops; each one's event stream shows
// both; a provider killed mid-posting loses nothing and bills nothing twice; a thousand
// launches at once across both never lend a card twice.
#include "SimProcess.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QTest>
#include <QUuid>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

QJsonObject spec(const QString &gpuType, int count = 1)
{
    return {{u"gpu_type"_s, gpuType}, {u"gpu_count"_s, count}, {u"image"_s, u"base"_s}};
}

QString stateOn(SimProcess &sim, const QString &token, const QString &id)
{
    return sim.authedGet(token, u"/v1/instances/"_s + id).value(u"state"_s).toString();
}

// The compute postings of one instance, oldest first.
QList<QJsonObject> computeOf(const QJsonArray &postings, const QString &instanceId)
{
    QList<QJsonObject> compute;
    for (const QJsonValue &v : postings) {
        const QJsonObject p = v.toObject();
        if (p.value(u"kind"_s).toString() == u"compute"_s
            && p.value(u"instance_id"_s).toString() == instanceId)
            compute.prepend(p);
    }
    return compute;
}

// Empty if each of the instance's postings starts where the one before ended (nothing
// billed twice, no period skipped) or, across a stop (`runs`: more than one run), no earlier;
// else what is wrong.
QString contiguityProblem(const QList<QJsonObject> &compute, bool runs = false)
{
    for (qsizetype i = 1; i < compute.size(); ++i) {
        const QString end = compute.at(i - 1).value(u"period_end"_s).toString();
        const QString start = compute.at(i).value(u"period_start"_s).toString();
        if (runs ? isoToMs(start) < isoToMs(end) : start != end)
            return u"posting %1 starts at %2, the one before ends at %3"_s.arg(i).arg(start, end);
    }
    return {};
}

// Empty if the postings, oldest first, add up: each one's balance_after is the one before's
// plus its amount, and none below zero (the ledger's own check is a test-clock route, and
// these providers run on real time); else what is wrong.
QString ledgerProblem(const QJsonArray &newestFirst)
{
    qint64 balance = 0;
    for (qsizetype i = newestFirst.size() - 1; i >= 0; --i) {
        const QJsonObject p = newestFirst.at(i).toObject();
        balance += p.value(u"amount_micros"_s).toInteger();
        const qint64 after = p.value(u"balance_after_micros"_s).toInteger();
        if (after != balance || after < 0)
            return u"posting %1 says %2 after it, the postings add up to %3"_s
                .arg(p.value(u"seq"_s).toInteger())
                .arg(after)
                .arg(balance);
    }
    return {};
}

} // namespace

class TestApiSharedStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void hostsAreServedByEitherProvider();
    void eventStreamsShowBothProviders();
    void killMidPostingLosesNothingAndBillsNothingTwice();
    void concurrentLaunchesNeverExceedCapacity();
    void idempotencyKeyHoldsAcrossProviders();

private:
    bool startBoth(const QStringList &extra = {});

    QString m_token; // the account the test function used, checked in cleanup()
    QString m_server;
    QString m_store;
    SimProcess *m_a = nullptr;
    SimProcess *m_b = nullptr;
};

void TestApiSharedStore::initTestCase()
{
    m_server = SimProcess::postgresServer();
    if (m_server.isEmpty())
        QSKIP("no PostgreSQL server (run through ctest: the postgres_cluster fixture)");
}

void TestApiSharedStore::init()
{
    // A schema of its own for each test function: the two providers share it.
    m_store = SimProcess::postgresStore(m_server, QUuid::createUuid().toString(QUuid::Id128));
    delete m_a;
    delete m_b;
    m_a = new SimProcess(this);
    m_b = new SimProcess(this);
}

bool TestApiSharedStore::startBoth(const QStringList &extra)
{
    // Real time: the two processes' clocks must agree (a test clock is one process's).
    const QStringList args =
        QStringList{u"--store"_s, m_store, u"--posting-interval"_s, u"1"_s} + extra;
    if (!m_a->start(args)) {
        qWarning("provider A: %s", qPrintable(m_a->lastError()));
        return false;
    }
    if (!m_b->start(args)) {
        qWarning("provider B: %s", qPrintable(m_b->lastError()));
        return false;
    }
    return true;
}

void TestApiSharedStore::cleanup()
{
    for (SimProcess *sim : {m_a, m_b}) {
        if (sim && sim->isRunning() && !m_token.isEmpty())
            QCOMPARE(ledgerProblem(sim->allPostings(m_token)), QString());
    }
    m_token.clear();
    for (SimProcess *sim : {m_a, m_b}) {
        if (sim && sim->isRunning())
            QVERIFY(sim->terminate());
    }
}

void TestApiSharedStore::hostsAreServedByEitherProvider()
{
    QVERIFY(startBoth());
    const QString token = m_a->signUp(u"shared@example.com"_s);
    m_token = token;
    QVERIFY2(!token.isEmpty(), qPrintable(m_a->lastError()));
    // The account signed up through A logs in through B.
    QCOMPARE(m_b->authedGet(token, u"/v1/me"_s).status, 200);

    const QString id = m_a->createRunning(token, spec(u"rtx4090"_s));
    QVERIFY(!id.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(stateOn(*m_b, token, id), u"running"_s, 10000);
    QVERIFY(m_b->authedGet(token, u"/v1/instances"_s).array().size() == 1);
    // Billed while it runs on A, and B's ledger shows it.
    QTRY_VERIFY_WITH_TIMEOUT(computeOf(m_b->allPostings(token), id).size() >= 2, 15000);

    // Stopped through B: A's host stops, its compute billing ends, its disk is billed.
    const Reply stop = m_b->authedPost(token, u"/v1/instances/%1/stop"_s.arg(id));
    QVERIFY2(stop.status / 100 == 2, stop.describe().constData());
    QTRY_COMPARE_WITH_TIMEOUT(stateOn(*m_a, token, id), u"stopped"_s, 10000);
    const QList<QJsonObject> billed = computeOf(m_a->allPostings(token), id);
    QCOMPARE(contiguityProblem(billed), QString());

    // Started again through B, it runs there now; terminated through A, it is gone from both.
    const Reply start = m_b->authedPost(token, u"/v1/instances/%1/start"_s.arg(id));
    QVERIFY2(start.status / 100 == 2, start.describe().constData());
    QTRY_COMPARE_WITH_TIMEOUT(stateOn(*m_a, token, id), u"running"_s, 10000);
    const Reply gone = m_a->authedDelete(token, u"/v1/instances/"_s + id);
    QVERIFY2(gone.status / 100 == 2, gone.describe().constData());
    QTRY_COMPARE_WITH_TIMEOUT(stateOn(*m_b, token, id), u"terminated"_s, 10000);
    QCOMPARE(contiguityProblem(computeOf(m_b->allPostings(token), id), true), QString());
}

void TestApiSharedStore::eventStreamsShowBothProviders()
{
    QVERIFY(startBoth());
    const QString token = m_a->signUp(u"events@example.com"_s);
    m_token = token;
    QVERIFY(!token.isEmpty());
    SseClient onA;
    SseClient onB;
    QVERIFY(onA.open(m_a->port(), token));
    QVERIFY(onB.open(m_b->port(), token));

    const QString launchedOnA = m_a->createRunning(token, spec(u"rtx4090"_s));
    const QString launchedOnB = m_b->createRunning(token, spec(u"l40s"_s));
    QVERIFY(!launchedOnA.isEmpty() && !launchedOnB.isEmpty());
    for (SseClient *stream : {&onA, &onB}) {
        QTRY_VERIFY_WITH_TIMEOUT(stream->hasInstanceState(launchedOnA, u"running"_s), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(stream->hasInstanceState(launchedOnB, u"running"_s), 10000);
    }
    QVERIFY(m_a->authedPost(token, u"/v1/instances/%1/stop"_s.arg(launchedOnB)).status / 100 == 2);
    QTRY_VERIFY_WITH_TIMEOUT(onB.hasInstanceState(launchedOnB, u"stopped"_s), 10000);
}

void TestApiSharedStore::killMidPostingLosesNothingAndBillsNothingTwice()
{
    QVERIFY(startBoth());
    const QString token = m_a->signUp(u"crash@example.com"_s);
    m_token = token;
    QVERIFY(!token.isEmpty());
    QStringList onA;
    QStringList onB;
    for (const QString &gpu : {u"rtx4090"_s, u"l40s"_s, u"a100-80g"_s})
        onA.append(m_a->createRunning(token, spec(gpu)));
    for (const QString &gpu : {u"rtx6000ada"_s, u"h100-80g"_s})
        onB.append(m_b->createRunning(token, spec(gpu)));
    QVERIFY(!onA.contains(QString()) && !onB.contains(QString()));

    // Every second each provider posts its own hosts; A dies in one of its passes (a kill
    // at any moment lands before, inside or after a posting transaction).
    QTRY_VERIFY_WITH_TIMEOUT(computeOf(m_b->allPostings(token), onA.first()).size() >= 3, 20000);
    m_a->kill();
    const qint64 killedAtMs = QDateTime::currentMSecsSinceEpoch();
    const QJsonArray beforeRestart = m_b->allPostings(token);
    // B goes on billing its own hosts (the dead one's locks went with its connection) and
    // bills none of A's: they died with A.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const QList<QJsonObject> b = computeOf(m_b->allPostings(token), onB.first());
            return !b.isEmpty()
                && isoToMs(b.last().value(u"period_end"_s).toString()) > killedAtMs + 1000;
        }(),
        20000);
    QCOMPARE(ledgerProblem(m_b->allPostings(token)), QString());

    QVERIFY2(m_a->restart(), qPrintable(m_a->lastError()));
    const QJsonArray postings = m_a->allPostings(token);
    // Nothing acknowledged before the kill is lost.
    QVERIFY(postings.size() >= beforeRestart.size());
    for (const QString &id : std::as_const(onA)) {
        QTRY_COMPARE_WITH_TIMEOUT(stateOn(*m_a, token, id), u"stopped"_s, 10000);
        const QList<QJsonObject> compute = computeOf(postings, id);
        QVERIFY(!compute.isEmpty());
        QCOMPARE(contiguityProblem(compute), QString());
        // Billed up to A's last sighting, not a millisecond of the time it was dead.
        QVERIFY(isoToMs(compute.last().value(u"period_end"_s).toString()) <= killedAtMs);
    }
    for (const QString &id : std::as_const(onB)) {
        QCOMPARE(stateOn(*m_a, token, id), u"running"_s);
        QCOMPARE(contiguityProblem(computeOf(postings, id)), QString());
    }
}

void TestApiSharedStore::concurrentLaunchesNeverExceedCapacity()
{
    QVERIFY(startBoth());
    const QString token = m_a->signUp(u"capacity@example.com"_s);
    m_token = token;
    QVERIFY(!token.isEmpty());
    int capacity = 0;
    for (const QJsonValue &v : m_a->authedGet(token, u"/v1/catalog/gpus"_s).array())
        if (v.toObject().value(u"id"_s).toString() == u"rtx4090"_s)
            capacity = v.toObject().value(u"available"_s).toInt();
    QVERIFY(capacity > 0);

    constexpr int kLaunches = 1000;
    const QByteArray body = QJsonDocument(spec(u"rtx4090"_s)).toJson(QJsonDocument::Compact);
    QList<QPair<quint16, QByteArray>> requests;
    for (int i = 0; i < kLaunches; ++i)
        requests.append({(i % 2 ? m_b : m_a)->port(),
                         rawRequest("POST", u"/v1/instances"_s, body, SimProcess::bearer(token))});
    const QList<Reply> replies = SimProcess::sendConcurrently(requests, 240000);
    QHash<int, int> statuses;
    QSet<QString> launched;
    for (const Reply &r : replies) {
        QVERIFY2(r.status != 0, qPrintable(r.networkError));
        ++statuses[r.status];
        if (r.status == 202)
            launched.insert(r.value(u"id"_s).toString());
        else
            QVERIFY2(r.status == 409 && r.errorCode() == u"not_enough_gpus"_s,
                     r.describe().constData());
    }
    // Every card lent once: as many launches as cards, each a different instance.
    QCOMPARE(statuses.value(202), capacity);
    QCOMPARE(launched.size(), capacity);
    for (SimProcess *sim : {m_a, m_b}) {
        const QJsonArray listed = sim->authedGet(token, u"/v1/instances"_s).array();
        QCOMPARE(listed.size(), capacity);
        for (const QJsonValue &v : sim->authedGet(token, u"/v1/catalog/gpus"_s).array())
            if (v.toObject().value(u"id"_s).toString() == u"rtx4090"_s)
                QCOMPARE(v.toObject().value(u"available"_s).toInt(), 0);
    }
}

void TestApiSharedStore::idempotencyKeyHoldsAcrossProviders()
{
    QVERIFY(startBoth());
    const QString token = m_a->signUp(u"idempotent@example.com"_s);
    m_token = token;
    QVERIFY(!token.isEmpty());
    // One launch, asked for twenty times at once with one key, half through each provider.
    Headers headers = SimProcess::bearer(token);
    headers.append({"Idempotency-Key"_ba, "one-launch"_ba});
    const QByteArray body = QJsonDocument(spec(u"l40s"_s)).toJson(QJsonDocument::Compact);
    QList<QPair<quint16, QByteArray>> requests;
    for (int i = 0; i < 20; ++i)
        requests.append(
            {(i % 2 ? m_b : m_a)->port(), rawRequest("POST", u"/v1/instances"_s, body, headers)});
    const QList<Reply> replies = SimProcess::sendConcurrently(requests, 60000);
    int replayed = 0;
    for (const Reply &r : replies) {
        QVERIFY2(r.status == 202, r.describe().constData());
        QCOMPARE(r.body, replies.first().body);
        replayed += r.header("idempotent-replayed") == "true" ? 1 : 0;
    }
    QCOMPARE(replayed, replies.size() - 1);
    for (SimProcess *sim : {m_a, m_b})
        QCOMPARE(sim->authedGet(token, u"/v1/instances"_s).array().size(), 1);
}

QTEST_GUILESS_MAIN(TestApiSharedStore)
#include "tst_api_shared_store.moc"
