// HTTP integration tests of the catalog and /v1/instances: lifecycle, capacity, balance
// checks, idempotency, isolation between users and racing transitions, against the real
// cardhour-sim process (a fresh one, on fresh data, for every test function).
#include "SimProcess.h"

#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kTrialCredit = 10'000'000;
constexpr qint64 kRtx4090Rate = 1'900'000;

QJsonObject spec(const QString &gpuType, int count = 1, const QString &image = u"base"_s)
{
    return {{u"gpu_type"_s, gpuType}, {u"gpu_count"_s, count}, {u"image"_s, image}};
}

QList<int> sortedStatuses(const QList<Reply> &replies)
{
    QList<int> statuses;
    for (const Reply &r : replies)
        statuses.append(r.status);
    std::sort(statuses.begin(), statuses.end());
    return statuses;
}

} // namespace

class TestApiInstances : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void cleanupTestCase();

    void catalogGpus_data();
    void catalogGpus();
    void catalogImages();
    void availabilityFollowsInstances();

    void lifecycle();
    void illegalTransitions_data();
    void illegalTransitions();
    void createRejectsBadRequests_data();
    void createRejectsBadRequests();
    void notEnoughCards_data();
    void notEnoughCards();
    void capacityIsSharedBetweenUsers();
    void insufficientBalance();

    void idempotentCreate();
    void idempotencyKeyValidation_data();
    void idempotencyKeyValidation();
    void failedRequestsAreNotRemembered();
    void idempotentStop();

    void otherUsersInstancesAreNotFound_data();
    void otherUsersInstancesAreNotFound();

    void racingRequests_data();
    void racingRequests();

    void notBilledWhileStarting();
    void failedLaunch();
    void terminateWhileStarting();

private:
    QString tokenB();
    int available(const QString &gpuType);
    QString instanceState(const QString &token, const QString &id);
    // Creates an instance of A and brings it to `state` (running, stopped, terminated,
    // failed or starting; starting leaves the runtime held).
    QString instanceIn(const QString &state);

    SimProcess *m_sim = nullptr;
    QByteArray m_function;
    QString m_tokenA;
    QString m_tokenB;
};

void TestApiInstances::init()
{
    // A fresh provider on fresh data for every test function (sign-ups cost a password
    // hash each, so data rows share one unless they fill the cards up).
    const QByteArray function = QTest::currentTestFunction();
    const bool freshPerRow = function == "notEnoughCards" || function == "racingRequests";
    if (m_sim && m_sim->isRunning() && function == m_function && !freshPerRow)
        return;
    delete m_sim;
    m_function = function;
    m_sim = new SimProcess(this);
    QVERIFY2(m_sim->start({u"--test-clock"_s}), qPrintable(m_sim->lastError()));
    m_tokenA = m_sim->signUp(u"instances.a@example.com"_s);
    QVERIFY2(!m_tokenA.isEmpty(), qPrintable(m_sim->lastError()));
    m_tokenB.clear();
}

void TestApiInstances::cleanup()
{
    if (m_sim && m_sim->isRunning())
        QCOMPARE(m_sim->verifyLedger(), QString());
}

void TestApiInstances::cleanupTestCase()
{
    delete m_sim;
    m_sim = nullptr;
}

QString TestApiInstances::tokenB()
{
    if (m_tokenB.isEmpty())
        m_tokenB = m_sim->signUp(u"instances.b@example.com"_s);
    return m_tokenB;
}

int TestApiInstances::available(const QString &gpuType)
{
    const Reply reply = m_sim->authedGet(m_tokenA, u"/v1/catalog/gpus"_s);
    for (const QJsonValue &v : reply.array()) {
        if (v.toObject().value(u"id"_s).toString() == gpuType)
            return v.toObject().value(u"available"_s).toInt(-1);
    }
    return -1;
}

QString TestApiInstances::instanceState(const QString &token, const QString &id)
{
    return m_sim->authedGet(token, u"/v1/instances/"_s + id).value(u"state"_s).toString();
}

QString TestApiInstances::instanceIn(const QString &state)
{
    if (state == u"failed"_s)
        m_sim->post(u"/v1/_test/runtime/fail-next"_s, QJsonObject{{u"reason"_s, u"simulated"_s}});
    if (state == u"starting"_s)
        m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, true}});
    const Reply created = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s));
    if (created.status != 202)
        return {};
    const QString id = created.value(u"id"_s).toString();
    const QString reached = state == u"failed"_s || state == u"starting"_s ? state : u"running"_s;
    const bool reachedIt =
        m_sim->waitForState(m_tokenA, id, reached).value(u"state"_s).toString() == reached;
    if (state == u"starting"_s) // only this launch stays held; later ones run
        m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, false}});
    if (!reachedIt)
        return {};
    if (state == u"stopped"_s) {
        if (m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(id)).status != 202)
            return {};
        if (m_sim->waitForState(m_tokenA, id, u"stopped"_s).value(u"state"_s).toString()
            != u"stopped"_s)
            return {};
    } else if (state == u"terminated"_s) {
        if (m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + id).status != 200)
            return {};
    }
    return id;
}

// ---- catalog --------------------------------------------------------------------------------

void TestApiInstances::catalogGpus_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("vramMib");
    QTest::addColumn<qint64>("price");
    QTest::newRow("rtx4090") << u"rtx4090"_s << 24564 << qint64(1'900'000);
    QTest::newRow("rtx6000ada") << u"rtx6000ada"_s << 49140 << qint64(1'900'000);
    QTest::newRow("rtx3090") << u"rtx3090"_s << 24576 << qint64(1'300'000);
    QTest::newRow("l40s") << u"l40s"_s << 46068 << qint64(3'600'000);
    QTest::newRow("a100-80g") << u"a100-80g"_s << 81920 << qint64(7'500'000);
    QTest::newRow("h100-80g") << u"h100-80g"_s << 81559 << qint64(15'000'000);
}

void TestApiInstances::catalogGpus()
{
    QFETCH(QString, id);
    QFETCH(int, vramMib);
    QFETCH(qint64, price);
    const Reply reply = m_sim->authedGet(m_tokenA, u"/v1/catalog/gpus"_s);
    QCOMPARE(reply.status, 200);
    // Six cards, and the A100's and H100's six MIG slices each.
    QCOMPARE(reply.array().size(), 6 + 2 * 6);
    QJsonObject gpu;
    for (const QJsonValue &v : reply.array()) {
        if (v.toObject().value(u"id"_s).toString() == id)
            gpu = v.toObject();
    }
    QVERIFY2(!gpu.isEmpty(), qPrintable(id));
    QCOMPARE(gpu.value(u"vram_mib"_s).toInt(), vramMib);
    QCOMPARE(gpu.value(u"price_per_hour_micros"_s).toInteger(), price);
    QCOMPARE(gpu.value(u"capacity"_s).toInt(), 8);
    QCOMPARE(gpu.value(u"available"_s).toInt(), 8);
    QCOMPARE(gpu.value(u"simulated"_s).toBool(), true);
    QVERIFY(!gpu.value(u"name"_s).toString().isEmpty());
    QVERIFY(!gpu.value(u"description"_s).toString().isEmpty());
}

void TestApiInstances::catalogImages()
{
    const Reply reply = m_sim->authedGet(m_tokenA, u"/v1/catalog/images"_s);
    QCOMPARE(reply.status, 200);
    QStringList ids;
    for (const QJsonValue &v : reply.array())
        ids.append(v.toObject().value(u"id"_s).toString());
    QCOMPARE(ids, (QStringList{u"base"_s, u"pytorch"_s, u"jupyter"_s, u"ocr"_s, u"speech"_s}));
    const QJsonObject jupyter = reply.array().at(2).toObject();
    const QJsonArray apps = jupyter.value(u"apps"_s).toArray();
    QCOMPARE(apps.size(), 1);
    QCOMPARE(apps.at(0).toObject().value(u"port"_s).toInt(), 8888);
}

void TestApiInstances::availabilityFollowsInstances()
{
    const Reply two = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, 2));
    QCOMPARE(two.status, 202);
    QCOMPARE(available(u"rtx4090"_s), 6); // held from `creating` on
    const QString twoId = two.value(u"id"_s).toString();
    const QString fourId = m_sim->createRunning(m_tokenA, spec(u"rtx6000ada"_s, 4));
    QVERIFY2(!fourId.isEmpty(), qPrintable(m_sim->lastError()));
    QCOMPARE(m_sim->waitForState(m_tokenA, twoId, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);
    QCOMPARE(available(u"rtx4090"_s), 6);
    QCOMPARE(available(u"rtx6000ada"_s), 4);
    QCOMPARE(available(u"h100-80g"_s), 8);

    QCOMPARE(m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(twoId)).status, 202);
    QTRY_COMPARE_WITH_TIMEOUT(available(u"rtx4090"_s), 8, 10000);
    QCOMPARE(instanceState(m_tokenA, twoId), u"stopped"_s);

    QCOMPARE(m_sim->authedPost(m_tokenA, u"/v1/instances/%1/start"_s.arg(twoId)).status, 202);
    QCOMPARE(available(u"rtx4090"_s), 6);
    QCOMPARE(m_sim->waitForState(m_tokenA, twoId, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);

    QCOMPARE(m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + twoId).status, 200);
    QCOMPARE(available(u"rtx4090"_s), 8);
    QCOMPARE(m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + fourId).status, 200);
    QCOMPARE(available(u"rtx6000ada"_s), 8);
}

// ---- lifecycle ------------------------------------------------------------------------------

void TestApiInstances::lifecycle()
{
    QJsonObject body = spec(u"rtx4090"_s, 2, u"pytorch"_s);
    body.insert(u"name"_s, u"  my training box  "_s);
    const Reply created = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, body);
    QVERIFY2(created.status == 202, created.describe().constData());
    const QJsonObject c = created.object();
    const QString id = c.value(u"id"_s).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(c.value(u"state"_s).toString(), u"creating"_s);
    QVERIFY(c.value(u"state_reason"_s).isNull());
    QCOMPARE(c.value(u"name"_s).toString(), u"my training box"_s);
    QCOMPARE(c.value(u"gpu_type"_s).toString(), u"rtx4090"_s);
    QCOMPARE(c.value(u"gpu_name"_s).toString(), u"NVIDIA GeForce RTX 4090"_s);
    QCOMPARE(c.value(u"gpu_count"_s).toInt(), 2);
    QCOMPARE(c.value(u"image"_s).toString(), u"pytorch"_s);
    QCOMPARE(c.value(u"price_per_hour_micros"_s).toInteger(), 2 * kRtx4090Rate);
    QCOMPARE(c.value(u"cost_micros"_s).toInteger(), 0);
    QVERIFY(c.value(u"running_since"_s).isNull());
    QVERIFY(c.value(u"terminated_at"_s).isNull());
    QVERIFY(c.value(u"ssh"_s).isNull());
    QCOMPARE(c.value(u"ssh_key_ids"_s).toArray(), QJsonArray());
    QCOMPARE(c.value(u"runtime"_s).toString(), u"inprocess"_s);
    QVERIFY(isoToMs(c.value(u"created_at"_s).toString()) > 0);

    const QJsonObject running = m_sim->waitForState(m_tokenA, id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    QVERIFY(running.value(u"state_reason"_s).isNull());
    QVERIFY(isoToMs(running.value(u"running_since"_s).toString()) > 0);
    QCOMPARE(running.value(u"created_at"_s), c.value(u"created_at"_s));

    const Reply list = m_sim->authedGet(m_tokenA, u"/v1/instances"_s);
    QCOMPARE(list.status, 200);
    QCOMPARE(list.array().size(), 1);
    QCOMPARE(list.array().at(0).toObject().value(u"id"_s).toString(), id);

    const Reply stop = m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(id));
    QVERIFY2(stop.status == 202, stop.describe().constData());
    QCOMPARE(stop.value(u"state"_s).toString(), u"stopping"_s);
    QCOMPARE(stop.value(u"state_reason"_s).toString(), u"stopped_by_user"_s);
    QVERIFY(stop.value(u"running_since"_s).isNull());
    const QJsonObject stopped = m_sim->waitForState(m_tokenA, id, u"stopped"_s);
    QCOMPARE(stopped.value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(stopped.value(u"state_reason"_s).toString(), u"stopped_by_user"_s);
    // Every change moves updated_at on, also while the test clock stands still (all of these
    // in one millisecond): a client keeps the view with the later updated_at.
    const auto updatedAt = [](const QJsonObject &o) {
        return isoToMs(o.value(u"updated_at"_s).toString());
    };
    QVERIFY2(updatedAt(running) > updatedAt(c),
             qPrintable(running.value(u"updated_at"_s).toString()));
    QVERIFY(updatedAt(stop.object()) > updatedAt(running));
    QVERIFY(updatedAt(stopped) > updatedAt(stop.object()));

    const Reply start = m_sim->authedPost(m_tokenA, u"/v1/instances/%1/start"_s.arg(id));
    QVERIFY2(start.status == 202, start.describe().constData());
    QCOMPARE(start.value(u"state"_s).toString(), u"starting"_s);
    QVERIFY(start.value(u"state_reason"_s).isNull());
    QCOMPARE(m_sim->waitForState(m_tokenA, id, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);

    const QJsonObject again = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id).object();
    QVERIFY(updatedAt(again) > updatedAt(stopped));
    const Reply removed = m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + id);
    QVERIFY2(removed.status == 200, removed.describe().constData());
    QVERIFY(updatedAt(removed.object()) > updatedAt(again));
    QCOMPARE(removed.value(u"state"_s).toString(), u"terminated"_s);
    QCOMPARE(removed.value(u"state_reason"_s).toString(), u"terminated_by_user"_s);
    QVERIFY(isoToMs(removed.value(u"terminated_at"_s).toString()) > 0);

    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size(), 0);
    const Reply all = m_sim->authedGet(m_tokenA, u"/v1/instances?include_terminated=true"_s);
    QCOMPARE(all.array().size(), 1);
    QCOMPARE(all.array().at(0).toObject().value(u"state"_s).toString(), u"terminated"_s);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances?include_terminated=1"_s).array().size(), 1);
    const Reply one = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);
    QCOMPARE(one.status, 200);
    QCOMPARE(one.value(u"state"_s).toString(), u"terminated"_s);
    // Stays terminated once the runtime has cleaned up.
    QTest::qWait(50);
    QCOMPARE(instanceState(m_tokenA, id), u"terminated"_s);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances/no-such-instance"_s).status, 404);
}

void TestApiInstances::illegalTransitions_data()
{
    QTest::addColumn<QString>("state");
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("action"); // path suffix after the id
    QTest::newRow("start a running one") << u"running"_s << "POST"_ba << u"/start"_s;
    QTest::newRow("stop a stopped one") << u"stopped"_s << "POST"_ba << u"/stop"_s;
    QTest::newRow("stop a starting one") << u"starting"_s << "POST"_ba << u"/stop"_s;
    QTest::newRow("start a starting one") << u"starting"_s << "POST"_ba << u"/start"_s;
    QTest::newRow("stop a failed one") << u"failed"_s << "POST"_ba << u"/stop"_s;
    QTest::newRow("stop a terminated one") << u"terminated"_s << "POST"_ba << u"/stop"_s;
    QTest::newRow("start a terminated one") << u"terminated"_s << "POST"_ba << u"/start"_s;
    QTest::newRow("delete twice") << u"terminated"_s << "DELETE"_ba << QString();
}

void TestApiInstances::illegalTransitions()
{
    QFETCH(QString, state);
    QFETCH(QByteArray, method);
    QFETCH(QString, action);
    const QString id = instanceIn(state);
    QVERIFY2(!id.isEmpty(), qPrintable(u"could not bring an instance to "_s + state));
    const Reply before = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);
    const Reply reply = m_sim->request(method, u"/v1/instances/%1%2"_s.arg(id, action),
                                       QByteArray(), SimProcess::bearer(m_tokenA));
    QVERIFY2(reply.status == 409, reply.describe().constData());
    QCOMPARE(reply.errorCode(), u"illegal_transition"_s);
    const Reply after = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);
    QCOMPARE(after.value(u"state"_s), before.value(u"state"_s));
    QCOMPARE(after.value(u"state_reason"_s), before.value(u"state_reason"_s));
    if (state == u"starting"_s) {
        QCOMPARE(m_sim->post(u"/v1/_test/runtime/release"_s, QJsonObject()).status, 204);
        QCOMPARE(m_sim->waitForState(m_tokenA, id, u"running"_s).value(u"state"_s).toString(),
                 u"running"_s);
    }
}

void TestApiInstances::createRejectsBadRequests_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("code");
    QTest::newRow("unknown gpu_type")
        << R"({"gpu_type":"rtx9090","image":"base"})"_ba << u"unknown_gpu_type"_s;
    QTest::newRow("gpu_type wrong case")
        << R"({"gpu_type":"RTX4090","image":"base"})"_ba << u"unknown_gpu_type"_s;
    QTest::newRow("unknown image")
        << R"({"gpu_type":"rtx4090","image":"windows"})"_ba << u"unknown_image"_s;
    QTest::newRow("gpu_count 3") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":3})"_ba
                                 << u"invalid_gpu_count"_s;
    QTest::newRow("gpu_count 5") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":5})"_ba
                                 << u"invalid_gpu_count"_s;
    QTest::newRow("gpu_count 7") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":7})"_ba
                                 << u"invalid_gpu_count"_s;
    QTest::newRow("gpu_count 0") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":0})"_ba
                                 << u"invalid_field"_s;
    QTest::newRow("gpu_count 9") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":9})"_ba
                                 << u"invalid_field"_s;
    QTest::newRow("gpu_count 16") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":16})"_ba
                                  << u"invalid_field"_s;
    QTest::newRow("gpu_count -1") << R"({"gpu_type":"rtx4090","image":"base","gpu_count":-1})"_ba
                                  << u"invalid_field"_s;
    QTest::newRow("gpu_count 1.5")
        << R"({"gpu_type":"rtx4090","image":"base","gpu_count":1.5})"_ba << u"invalid_field"_s;
    QTest::newRow("gpu_count string")
        << R"({"gpu_type":"rtx4090","image":"base","gpu_count":"2"})"_ba << u"invalid_field"_s;
    QTest::newRow("gpu_count null")
        << R"({"gpu_type":"rtx4090","image":"base","gpu_count":null})"_ba << u"invalid_field"_s;
    QTest::newRow("missing gpu_type") << R"({"image":"base"})"_ba << u"invalid_field"_s;
    QTest::newRow("missing image") << R"({"gpu_type":"rtx4090"})"_ba << u"invalid_field"_s;
    QTest::newRow("gpu_type number")
        << R"({"gpu_type":4090,"image":"base"})"_ba << u"invalid_field"_s;
    QTest::newRow("empty name") << R"({"gpu_type":"rtx4090","image":"base","name":""})"_ba
                                << u"invalid_field"_s;
    QTest::newRow("blank name") << R"({"gpu_type":"rtx4090","image":"base","name":"   "})"_ba
                                << u"invalid_field"_s;
    QTest::newRow("name of 65") << QByteArray(R"({"gpu_type":"rtx4090","image":"base","name":")"
                                              + QByteArray(65, 'n') + "\"}")
                                << u"invalid_field"_s;
    QTest::newRow("name with control")
        << R"({"gpu_type":"rtx4090","image":"base","name":"a\u0007b"})"_ba << u"invalid_field"_s;
    QTest::newRow("ssh_key_ids not array")
        << R"({"gpu_type":"rtx4090","image":"base","ssh_key_ids":"k"})"_ba << u"invalid_field"_s;
    QTest::newRow("unknown field")
        << R"({"gpu_type":"rtx4090","image":"base","region":"cn"})"_ba << u"unknown_field"_s;
    QTest::newRow("bad json") << R"({"gpu_type":"rtx4090",)"_ba << u"invalid_json"_s;
    QTest::newRow("json array") << R"(["rtx4090"])"_ba << u"invalid_json"_s;
    QTest::newRow("empty body") << QByteArray() << u"invalid_json"_s;
}

void TestApiInstances::createRejectsBadRequests()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, code);
    const Reply reply = m_sim->authedPostRaw(m_tokenA, u"/v1/instances"_s, body,
                                             {{"Content-Type"_ba, "application/json"_ba}});
    QVERIFY2(reply.status == 400, reply.describe().constData());
    QCOMPARE(reply.errorCode(), code);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances?include_terminated=true"_s).array().size(),
             0);
    QCOMPARE(available(u"rtx4090"_s), 8);
}

void TestApiInstances::notEnoughCards_data()
{
    QTest::addColumn<QList<int>>("granted");
    QTest::addColumn<int>("refused");
    QTest::newRow("8 then 8") << QList<int>{8} << 8;
    QTest::newRow("8 then 1") << QList<int>{8} << 1;
    QTest::newRow("4 and 4 then 1") << QList<int>{4, 4} << 1;
    QTest::newRow("4, 2, 1 then 2") << QList<int>{4, 2, 1} << 2;
}

void TestApiInstances::notEnoughCards()
{
    QFETCH(QList<int>, granted);
    QFETCH(int, refused);
    QStringList ids;
    int held = 0;
    for (const int count : granted) {
        const Reply reply =
            m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, count));
        QVERIFY2(reply.status == 202, reply.describe().constData());
        ids.append(reply.value(u"id"_s).toString());
        held += count;
    }
    QCOMPARE(available(u"rtx4090"_s), 8 - held);
    const Reply reply =
        m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, refused));
    QVERIFY2(reply.status == 409, reply.describe().constData());
    QCOMPARE(reply.errorCode(), u"not_enough_gpus"_s);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size(), ids.size());
    // Other types are not affected.
    const Reply other =
        m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx6000ada"_s, refused));
    QVERIFY2(other.status == 202, other.describe().constData());
    // Cards come back when the first instance goes.
    QCOMPARE(m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + ids.first()).status, 200);
    const Reply retry =
        m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, refused));
    QVERIFY2(retry.status == 202, retry.describe().constData());
}

void TestApiInstances::capacityIsSharedBetweenUsers()
{
    const QString b = tokenB();
    QVERIFY(!b.isEmpty());
    const Reply big = m_sim->authedPost(b, u"/v1/instances"_s, spec(u"l40s"_s, 8));
    QVERIFY2(big.status == 202, big.describe().constData());
    const Reply refused = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"l40s"_s, 1));
    QCOMPARE(refused.status, 409);
    QCOMPARE(refused.errorCode(), u"not_enough_gpus"_s);
    QCOMPARE(available(u"l40s"_s), 0);
    QCOMPARE(m_sim->waitForState(b, big.value(u"id"_s).toString(), u"running"_s)
                 .value(u"state"_s)
                 .toString(),
             u"running"_s);
    QCOMPARE(
        m_sim->authedPost(b, u"/v1/instances/%1/stop"_s.arg(big.value(u"id"_s).toString())).status,
        202);
    QTRY_COMPARE_WITH_TIMEOUT(available(u"l40s"_s), 8, 10000);
    const Reply now = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"l40s"_s, 8));
    QVERIFY2(now.status == 202, now.describe().constData());
    // B's stopped instance cannot start while A holds every card.
    const Reply start =
        m_sim->authedPost(b, u"/v1/instances/%1/start"_s.arg(big.value(u"id"_s).toString()));
    QCOMPARE(start.status, 409);
    QCOMPARE(start.errorCode(), u"not_enough_gpus"_s);
}

void TestApiInstances::insufficientBalance()
{
    // 8 × H100 at 120 yuan/h for 4.5 minutes costs exactly 9 yuan: 1 yuan is left.
    const QString big = m_sim->createRunning(m_tokenA, spec(u"h100-80g"_s, 8));
    QVERIFY2(!big.isEmpty(), qPrintable(m_sim->lastError()));
    QVERIFY(m_sim->advance(270));
    QCOMPARE(m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(big)).status, 202);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(),
             1'000'000);
    QCOMPARE(m_sim->waitForState(m_tokenA, big, u"stopped"_s).value(u"cost_micros"_s).toInteger(),
             9'000'000);

    // One minute of 8 × H100 is 2 yuan.
    const Reply restart = m_sim->authedPost(m_tokenA, u"/v1/instances/%1/start"_s.arg(big));
    QVERIFY2(restart.status == 402, restart.describe().constData());
    QCOMPARE(restart.errorCode(), u"insufficient_balance"_s);
    QCOMPARE(instanceState(m_tokenA, big), u"stopped"_s);
    const Reply again = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"h100-80g"_s, 8));
    QVERIFY2(again.status == 402, again.describe().constData());
    QCOMPARE(again.errorCode(), u"insufficient_balance"_s);
    QCOMPARE(available(u"h100-80g"_s), 8);
    // The stopped H100's disk is billed too (40 000 micro-yuan/h): terminated, it costs nothing
    // more (no time passed since the stop, so its storage cost is 0).
    const Reply terminated = m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + big);
    QCOMPARE(terminated.value(u"storage_cost_micros"_s).toInteger(), 0);

    // One minute of 8 × A100 (60 yuan/h) is exactly the 1 yuan left: allowed.
    const QString exact = m_sim->createRunning(m_tokenA, spec(u"a100-80g"_s, 8));
    QVERIFY2(!exact.isEmpty(), qPrintable(m_sim->lastError()));
    // With that one running, even a 1.3 yuan/h card is one minute too many.
    const Reply small = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx3090"_s, 1));
    QVERIFY2(small.status == 402, small.describe().constData());
    QCOMPARE(small.errorCode(), u"insufficient_balance"_s);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size(), 1);
    QCOMPARE(m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(exact)).status, 202);
}

// ---- idempotency ----------------------------------------------------------------------------

void TestApiInstances::idempotentCreate()
{
    const Headers key{{"Idempotency-Key"_ba, "create-7f3a"_ba}};
    const QByteArray body =
        R"({"gpu_type":"rtx4090","image":"base","gpu_count":1,"name":"once"})"_ba;
    const Reply first = m_sim->authedPostRaw(m_tokenA, u"/v1/instances"_s, body, key);
    QVERIFY2(first.status == 202, first.describe().constData());
    QVERIFY(!first.hasHeader("idempotent-replayed"));
    const QString id = first.value(u"id"_s).toString();
    QCOMPARE(m_sim->waitForState(m_tokenA, id, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);

    // Same key, same request (other spacing and field order): the first response, again.
    const QByteArray sameBody =
        R"({ "name": "once", "gpu_count": 1, "image": "base", "gpu_type": "rtx4090" })"_ba;
    const Reply replay = m_sim->authedPostRaw(m_tokenA, u"/v1/instances"_s, sameBody, key);
    QCOMPARE(replay.status, 202);
    QCOMPARE(replay.body, first.body);
    QCOMPARE(replay.header("idempotent-replayed"), "true"_ba);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances?include_terminated=true"_s).array().size(),
             1);
    QCOMPARE(available(u"rtx4090"_s), 7);

    // Same key, other request.
    const Reply other = m_sim->authedPostRaw(
        m_tokenA, u"/v1/instances"_s,
        R"({"gpu_type":"rtx4090","image":"base","gpu_count":2,"name":"once"})"_ba, key);
    QVERIFY2(other.status == 422, other.describe().constData());
    QCOMPARE(other.errorCode(), u"idempotency_key_reused"_s);
    // The key is per route too: the same key on another path is another request.
    const Reply otherPath =
        m_sim->authedPostRaw(m_tokenA, u"/v1/instances/%1/stop"_s.arg(id), QByteArray(), key);
    QCOMPARE(otherPath.status, 422);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size(), 1);
    QCOMPARE(instanceState(m_tokenA, id), u"running"_s);

    // Another user's keys are their own.
    const QString b = tokenB();
    QVERIFY(!b.isEmpty());
    const Reply ofB = m_sim->authedPostRaw(b, u"/v1/instances"_s, body, key);
    QVERIFY2(ofB.status == 202, ofB.describe().constData());
    QVERIFY(!ofB.hasHeader("idempotent-replayed"));
    QVERIFY(ofB.value(u"id"_s).toString() != id);
    QCOMPARE(m_sim->authedGet(b, u"/v1/instances"_s).array().size(), 1);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size(), 1);
    const Reply replayB = m_sim->authedPostRaw(b, u"/v1/instances"_s, body, key);
    QCOMPARE(replayB.body, ofB.body);
    QCOMPARE(available(u"rtx4090"_s), 6);
}

void TestApiInstances::idempotencyKeyValidation_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<int>("status");
    QTest::newRow("255 characters") << QByteArray(255, 'k') << 202;
    QTest::newRow("visible punctuation") << "a!~:/?#[]@"_ba << 202;
    QTest::newRow("256 characters") << QByteArray(256, 'k') << 400;
    QTest::newRow("empty") << QByteArray() << 400;
    QTest::newRow("inner space") << "two words"_ba << 400;
    QTest::newRow("non-ascii") << "cl\xc3\xa9"_ba << 400;
}

void TestApiInstances::idempotencyKeyValidation()
{
    QFETCH(QByteArray, key);
    QFETCH(int, status);
    const qsizetype before = m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size();
    const QByteArray request = rawRequest(
        "POST", u"/v1/instances"_s, R"({"gpu_type":"rtx3090","image":"base"})"_ba,
        {{"Authorization"_ba, "Bearer "_ba + m_tokenA.toLatin1()}, {"Idempotency-Key"_ba, key}});
    const Reply reply = m_sim->rawFrom(QHostAddress::LocalHost, request);
    QVERIFY2(reply.status == status, reply.describe().constData());
    if (status == 400) {
        QCOMPARE(reply.errorCode(), u"invalid_idempotency_key"_s);
        QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/instances"_s).array().size(), before);
    }
}

void TestApiInstances::failedRequestsAreNotRemembered()
{
    const QString blocker = m_sim->createRunning(m_tokenA, spec(u"rtx4090"_s, 8));
    QVERIFY2(!blocker.isEmpty(), qPrintable(m_sim->lastError()));
    const Headers key{{"Idempotency-Key"_ba, "retry-me"_ba}};
    const Reply refused =
        m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, 4), key);
    QCOMPARE(refused.status, 409);
    QCOMPARE(m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + blocker).status, 200);
    // The 409 was not stored: the retry with the same key does the work now.
    const Reply retried =
        m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, 4), key);
    QVERIFY2(retried.status == 202, retried.describe().constData());
    QVERIFY(!retried.hasHeader("idempotent-replayed"));
    const Reply replay =
        m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, 4), key);
    QCOMPARE(replay.status, 202);
    QCOMPARE(replay.value(u"id"_s), retried.value(u"id"_s));
    QCOMPARE(available(u"rtx4090"_s), 4);
}

void TestApiInstances::idempotentStop()
{
    const QString id = m_sim->createRunning(m_tokenA, spec(u"rtx4090"_s));
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    const Headers key{{"Idempotency-Key"_ba, "stop-1"_ba}};
    const Reply first = m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(id), {}, key);
    QCOMPARE(first.status, 202);
    QCOMPARE(m_sim->waitForState(m_tokenA, id, u"stopped"_s).value(u"state"_s).toString(),
             u"stopped"_s);
    // A retried stop (the client never saw the answer) gets the answer, not a 409.
    const Reply retry = m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(id), {}, key);
    QCOMPARE(retry.status, 202);
    QCOMPARE(retry.body, first.body);
    QCOMPARE(retry.header("idempotent-replayed"), "true"_ba);
    // Without the key it is a new request, and an illegal one.
    QCOMPARE(m_sim->authedPost(m_tokenA, u"/v1/instances/%1/stop"_s.arg(id)).status, 409);
}

// ---- isolation ------------------------------------------------------------------------------

void TestApiInstances::otherUsersInstancesAreNotFound_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("state");
    QTest::newRow("get running") << "GET"_ba << QString() << u"running"_s;
    QTest::newRow("stop running") << "POST"_ba << u"/stop"_s << u"running"_s;
    QTest::newRow("delete running") << "DELETE"_ba << QString() << u"running"_s;
    QTest::newRow("get stopped") << "GET"_ba << QString() << u"stopped"_s;
    QTest::newRow("start stopped") << "POST"_ba << u"/start"_s << u"stopped"_s;
    QTest::newRow("delete stopped") << "DELETE"_ba << QString() << u"stopped"_s;
    QTest::newRow("get terminated") << "GET"_ba << QString() << u"terminated"_s;
}

void TestApiInstances::otherUsersInstancesAreNotFound()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, suffix);
    QFETCH(QString, state);
    const QString id = instanceIn(state);
    QVERIFY(!id.isEmpty());
    const QString b = tokenB();
    QVERIFY(!b.isEmpty());
    const Reply before = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);

    const Reply reply = m_sim->request(method, u"/v1/instances/%1%2"_s.arg(id, suffix),
                                       QByteArray(), SimProcess::bearer(b));
    QVERIFY2(reply.status == 404, reply.describe().constData());
    QCOMPARE(reply.errorCode(), u"not_found"_s);
    QVERIFY(!reply.body.contains(id.toLatin1()));
    // Same answer as for an id that does not exist at all.
    const Reply missing = m_sim->request(
        method, u"/v1/instances/%1%2"_s.arg(u"00000000-0000-4000-8000-000000000000"_s, suffix),
        QByteArray(), SimProcess::bearer(b));
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.body, reply.body);

    QCOMPARE(m_sim->authedGet(b, u"/v1/instances"_s).array().size(), 0);
    QCOMPARE(m_sim->authedGet(b, u"/v1/instances?include_terminated=true"_s).array().size(), 0);
    QCOMPARE(m_sim->authedGet(b, u"/v1/billing/summary"_s).value(u"instances"_s).toArray().size(),
             0);
    const Reply after = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);
    QCOMPARE(after.value(u"state"_s), before.value(u"state"_s));
    QCOMPARE(after.value(u"updated_at"_s), before.value(u"updated_at"_s));
}

// ---- races ----------------------------------------------------------------------------------

void TestApiInstances::racingRequests_data()
{
    QTest::addColumn<QString>("setup"); // state of the instance, or "none"
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<QList<int>>("statuses"); // sorted
    QTest::newRow("two stops") << u"running"_s << "POST /stop"_ba
                               << "POST /stop"_ba << QList<int>{202, 409};
    QTest::newRow("two deletes") << u"running"_s << "DELETE"_ba
                                 << "DELETE"_ba << QList<int>{200, 409};
    QTest::newRow("two starts") << u"stopped"_s << "POST /start"_ba
                                << "POST /start"_ba << QList<int>{202, 409};
    QTest::newRow("two creates for the last 8 cards") << u"none"_s << "CREATE 8"_ba
                                                      << "CREATE 8"_ba << QList<int>{202, 409};
    QTest::newRow("two creates, one idempotency key") << u"none"_s << "CREATE key"_ba
                                                      << "CREATE key"_ba << QList<int>{202, 202};
}

void TestApiInstances::racingRequests()
{
    QFETCH(QString, setup);
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, second);
    QFETCH(QList<int>, statuses);
    const QString id = setup == u"none"_s ? QString() : instanceIn(setup);
    QVERIFY(setup == u"none"_s || !id.isEmpty());
    const auto build = [&](const QByteArray &what) {
        Headers headers{{"Authorization"_ba, "Bearer "_ba + m_tokenA.toLatin1()}};
        if (what == "POST /stop")
            return rawRequest("POST", u"/v1/instances/%1/stop"_s.arg(id), {}, headers);
        if (what == "POST /start")
            return rawRequest("POST", u"/v1/instances/%1/start"_s.arg(id), {}, headers);
        if (what == "DELETE")
            return rawRequest("DELETE", u"/v1/instances/"_s + id, {}, headers);
        if (what == "CREATE key")
            headers.append({"Idempotency-Key"_ba, "race-key"_ba});
        return rawRequest("POST", u"/v1/instances"_s,
                          QJsonDocument(spec(u"rtx4090"_s, what == "CREATE 8" ? 8 : 1))
                              .toJson(QJsonDocument::Compact),
                          headers);
    };
    const QList<Reply> replies = m_sim->sendConcurrently({build(first), build(second)});
    QCOMPARE(replies.size(), 2);
    for (const Reply &r : replies)
        QVERIFY2(r.status != 0, qPrintable(r.networkError));
    QCOMPARE(sortedStatuses(replies), statuses);
    for (const Reply &r : replies) {
        if (r.status == 409 && first != "CREATE 8")
            QCOMPARE(r.errorCode(), u"illegal_transition"_s);
        if (r.status == 409 && first == "CREATE 8")
            QCOMPARE(r.errorCode(), u"not_enough_gpus"_s);
    }

    const QJsonArray all =
        m_sim->authedGet(m_tokenA, u"/v1/instances?include_terminated=true"_s).array();
    if (first == "CREATE key") {
        QCOMPARE(all.size(), 1);
        QCOMPARE(replies.at(0).body, replies.at(1).body);
    } else if (first == "CREATE 8") {
        QCOMPARE(all.size(), 1);
        QCOMPARE(available(u"rtx4090"_s), 0);
    } else if (first == "DELETE" || second == "DELETE") {
        QCOMPARE(instanceState(m_tokenA, id), u"terminated"_s);
    } else if (first == "POST /stop") {
        QCOMPARE(m_sim->waitForState(m_tokenA, id, u"stopped"_s).value(u"state"_s).toString(),
                 u"stopped"_s);
    } else {
        QCOMPARE(m_sim->waitForState(m_tokenA, id, u"running"_s).value(u"state"_s).toString(),
                 u"running"_s);
    }
}

// ---- runtime ----------------------------------------------------------------------------------

void TestApiInstances::notBilledWhileStarting()
{
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, true}}).status, 204);
    const Reply created = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s));
    QCOMPARE(created.status, 202);
    const QString id = created.value(u"id"_s).toString();
    QCOMPARE(m_sim->waitForState(m_tokenA, id, u"starting"_s).value(u"state"_s).toString(),
             u"starting"_s);

    QVERIFY(m_sim->advance(3600));
    const Reply starting = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);
    QCOMPARE(starting.value(u"state"_s).toString(), u"starting"_s);
    QCOMPARE(starting.value(u"cost_micros"_s).toInteger(), 0);
    QVERIFY(starting.value(u"running_since"_s).isNull());
    const Reply me = m_sim->authedGet(m_tokenA, u"/v1/me"_s);
    QCOMPARE(me.value(u"balance_micros"_s).toInteger(), kTrialCredit);
    QCOMPARE(me.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QCOMPARE(m_sim->allPostings(m_tokenA).size(), 1); // the trial credit only
    QCOMPARE(available(u"rtx4090"_s), 7); // but the card is taken

    QCOMPARE(m_sim->post(u"/v1/_test/runtime/release"_s, QJsonObject()).status, 204);
    const QJsonObject running = m_sim->waitForState(m_tokenA, id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    QCOMPARE(running.value(u"cost_micros"_s).toInteger(), 0);
    QVERIFY(m_sim->advance(60));
    // One minute at 1.9 yuan/h: floor(60000 × 1900000 / 3600000) = 31666.
    QCOMPARE(
        m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id).value(u"cost_micros"_s).toInteger(),
        31'666);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(),
             kTrialCredit - 31'666);
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, false}}).status, 204);
}

void TestApiInstances::failedLaunch()
{
    const QString reason = u"GPU 3 fell off the bus"_s;
    QCOMPARE(
        m_sim->post(u"/v1/_test/runtime/fail-next"_s, QJsonObject{{u"reason"_s, reason}}).status,
        204);
    const Reply created = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, 2));
    QCOMPARE(created.status, 202);
    const QString id = created.value(u"id"_s).toString();
    const QJsonObject failed = m_sim->waitForState(m_tokenA, id, u"failed"_s);
    QCOMPARE(failed.value(u"state"_s).toString(), u"failed"_s);
    QCOMPARE(failed.value(u"state_reason"_s).toString(), reason);
    QCOMPARE(failed.value(u"cost_micros"_s).toInteger(), 0);
    QVERIFY(failed.value(u"running_since"_s).isNull());
    QCOMPARE(available(u"rtx4090"_s), 8);
    QVERIFY(m_sim->advance(600));
    QCOMPARE(
        m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id).value(u"cost_micros"_s).toInteger(),
        0);
    QCOMPARE(m_sim->authedGet(m_tokenA, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(),
             kTrialCredit);
    QCOMPARE(m_sim->allPostings(m_tokenA).size(), 1);

    // Only the next launch fails; the failed instance can be started again.
    const Reply start = m_sim->authedPost(m_tokenA, u"/v1/instances/%1/start"_s.arg(id));
    QVERIFY2(start.status == 202, start.describe().constData());
    QCOMPARE(m_sim->waitForState(m_tokenA, id, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);
    QCOMPARE(available(u"rtx4090"_s), 6);
    QCOMPARE(m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + id).status, 200);
}

void TestApiInstances::terminateWhileStarting()
{
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, true}}).status, 204);
    const Reply created = m_sim->authedPost(m_tokenA, u"/v1/instances"_s, spec(u"rtx4090"_s, 4));
    const QString id = created.value(u"id"_s).toString();
    QCOMPARE(m_sim->waitForState(m_tokenA, id, u"starting"_s).value(u"state"_s).toString(),
             u"starting"_s);
    QCOMPARE(m_sim->authedDelete(m_tokenA, u"/v1/instances/"_s + id).status, 200);
    QCOMPARE(available(u"rtx4090"_s), 8);
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/release"_s, QJsonObject()).status, 204);
    QVERIFY(m_sim->advance(60));
    // The held launch finishing later must not bring it back.
    QTest::qWait(100);
    const Reply after = m_sim->authedGet(m_tokenA, u"/v1/instances/"_s + id);
    QCOMPARE(after.value(u"state"_s).toString(), u"terminated"_s);
    QCOMPARE(after.value(u"cost_micros"_s).toInteger(), 0);
    QCOMPARE(available(u"rtx4090"_s), 8);
    QCOMPARE(m_sim->post(u"/v1/_test/runtime/hold"_s, QJsonObject{{u"hold"_s, false}}).status, 204);
}

QTEST_GUILESS_MAIN(TestApiInstances)
#include "tst_api_instances.moc"
