// HTTP integration tests of the storage fee: a stopped instance's disk is billed apart from
// compute, from the stop request until a start request or terminate, against the real
// cardhour-sim on the test clock.
#include "SimProcess.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kTrialCredit = 10'000'000;
constexpr qint64 kMsPerHour = 3'600'000;
constexpr qint64 kRtx4090 = 1'900'000; // per hour
constexpr qint64 kDisk4090 = 50; // GiB

qint64 cost(qint64 ms, qint64 ratePerHour)
{
    return (ms / kMsPerHour) * ratePerHour + (ms % kMsPerHour) * ratePerHour / kMsPerHour;
}

// First millisecond after a segment's start at which it owes `balance`.
qint64 exhaustionMs(qint64 rate, qint64 balance)
{
    qint64 lo = 0;
    qint64 hi = 1;
    while (cost(hi, rate) < balance)
        hi *= 2;
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (cost(mid, rate) >= balance)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc())
        .toString(u"yyyy-MM-ddTHH:mm:ss.zzzZ"_s);
}

QList<QJsonObject> postingsOfKind(const QJsonArray &postings, const QString &kind)
{
    QList<QJsonObject> result;
    for (const QJsonValue &v : postings) {
        if (v.toObject().value(u"kind"_s).toString() == kind)
            result.append(v.toObject());
    }
    return result;
}

qint64 sumOf(const QList<QJsonObject> &postings)
{
    qint64 sum = 0;
    for (const QJsonObject &p : postings)
        sum += p.value(u"amount_micros"_s).toInteger();
    return sum;
}

} // namespace

class TestApiStorage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup();
    void cleanupTestCase();

    void catalogStatesTheDisk();
    void storageWhileStopped();
    void terminateFromStoppedEndsTheFee();
    void exhaustionWhileStoppedKeepsTheInstance();
    void freeStorageMakesNoPostings();

private:
    // A fresh provider on the test clock, with the built-in catalog at another storage price
    // when `storagePrice` >= 0, and one signed-up user.
    bool startFresh(qint64 storagePrice = -1);
    // Creates an rtx4090 instance, runs it 3 s and stops it; returns its id.
    QString runThreeSecondsAndStop();
    QJsonObject instance(const QString &id)
    {
        return m_sim->authedGet(m_token, u"/v1/instances/"_s + id).object();
    }
    QJsonObject summary() { return m_sim->authedGet(m_token, u"/v1/billing/summary"_s).object(); }
    qint64 balance()
    {
        return m_sim->authedGet(m_token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger();
    }
    qint64 now() { return m_sim->get(u"/v1/_test/clock"_s).value(u"now_ms"_s).toInteger(); }

    std::unique_ptr<QTemporaryDir> m_catalogDir;
    std::unique_ptr<SimProcess> m_sim;
    QString m_token;
};

bool TestApiStorage::startFresh(qint64 storagePrice)
{
    QStringList args{u"--test-clock"_s};
    if (storagePrice >= 0) {
        m_catalogDir = std::make_unique<QTemporaryDir>();
        const QDir source(QStringLiteral(CARDHOUR_SOURCE_CATALOG));
        for (const QString &name : {u"gpus.json"_s, u"images.json"_s}) {
            QFile in(source.filePath(name));
            if (!in.open(QIODevice::ReadOnly))
                return false;
            QJsonObject document = QJsonDocument::fromJson(in.readAll()).object();
            if (name == u"gpus.json"_s)
                document.insert(u"storage_price_per_gib_hour_micros"_s, storagePrice);
            QFile out(m_catalogDir->filePath(name));
            if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(document).toJson()) < 0)
                return false;
        }
        args << u"--catalog"_s << m_catalogDir->path();
    }
    m_sim = std::make_unique<SimProcess>();
    if (!m_sim->start(args)) {
        qWarning("%s", qPrintable(m_sim->lastError()));
        return false;
    }
    m_token = m_sim->signUp(u"storage@example.com"_s);
    return !m_token.isEmpty();
}

QString TestApiStorage::runThreeSecondsAndStop()
{
    const QString id = m_sim->createRunning(
        m_token, {{u"gpu_type"_s, u"rtx4090"_s}, {u"gpu_count"_s, 1}, {u"image"_s, u"base"_s}});
    if (id.isEmpty() || !m_sim->advance(3))
        return {};
    if (m_sim->authedPost(m_token, u"/v1/instances/%1/stop"_s.arg(id)).status != 202)
        return {};
    return id;
}

void TestApiStorage::cleanup()
{
    if (m_sim && m_sim->isRunning())
        QCOMPARE(m_sim->verifyLedger(), QString());
}

void TestApiStorage::cleanupTestCase()
{
    m_sim.reset();
}

void TestApiStorage::catalogStatesTheDisk()
{
    QVERIFY(startFresh());
    const Reply gpus = m_sim->authedGet(m_token, u"/v1/catalog/gpus"_s);
    QCOMPARE(gpus.status, 200);
    QVERIFY(!gpus.array().isEmpty());
    for (const QJsonValue &v : gpus.array()) {
        const QJsonObject gpu = v.toObject();
        const qint64 disk = gpu.value(u"disk_gib"_s).toInteger();
        QVERIFY2(disk >= 50, qPrintable(gpu.value(u"id"_s).toString()));
        QCOMPARE(gpu.value(u"storage_price_per_gib_hour_micros"_s).toInteger(), 200);
        QCOMPARE(gpu.value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger(), disk * 200);
        if (gpu.value(u"id"_s).toString() == u"rtx4090"_s)
            QCOMPARE(disk, kDisk4090);
    }
}

void TestApiStorage::storageWhileStopped()
{
    QVERIFY(startFresh());
    const qint64 rate = kDisk4090 * 200; // 10 000 micro-yuan per hour
    const QString id = runThreeSecondsAndStop();
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    const qint64 stoppedAt = now();
    const qint64 compute = cost(3000, kRtx4090); // 1583
    QJsonObject stopped = m_sim->waitForState(m_token, id, u"stopped"_s);
    QCOMPARE(stopped.value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), compute);
    QCOMPARE(stopped.value(u"storage_rate_micros_per_hour"_s).toInteger(), rate);
    QVERIFY(stopped.value(u"running_since"_s).isNull());
    const QJsonObject retention = stopped.value(u"retention"_s).toObject();
    QCOMPARE(retention.value(u"billed_while_running"_s).toArray(), QJsonArray{u"compute"_s});
    QCOMPARE(retention.value(u"billed_while_stopped"_s).toArray(), QJsonArray{u"storage"_s});
    QCOMPARE(retention.value(u"billed_while_failed"_s).toArray(), QJsonArray{});
    QCOMPARE(retention.value(u"storage_gib"_s).toInteger(), kDisk4090);
    QCOMPARE(retention.value(u"storage_price_per_gib_hour_micros"_s).toInteger(), 200);
    QCOMPARE(retention.value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger(), rate);
    QCOMPARE(retention.value(u"deleted_when_balance_runs_out"_s).toBool(true), false);

    // The summary counts the disk in the spend rate and in when the money runs out.
    QJsonObject s = summary();
    QCOMPARE(s.value(u"spend_rate_micros_per_hour"_s).toInteger(), rate);
    QCOMPARE(s.value(u"compute_spend_rate_micros_per_hour"_s).toInteger(), 0);
    QCOMPARE(s.value(u"storage_spend_rate_micros_per_hour"_s).toInteger(), rate);
    QCOMPARE(s.value(u"runs_out_at"_s).toString(),
             iso(stoppedAt + exhaustionMs(rate, kTrialCredit - compute)));
    QCOMPARE(
        m_sim->authedGet(m_token, u"/v1/me"_s).value(u"spend_rate_micros_per_hour"_s).toInteger(),
        rate);

    // An hour later: compute has not moved, the disk cost an hour of storage.
    QVERIFY(m_sim->advance(3600));
    stopped = instance(id);
    QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), compute);
    QCOMPARE(stopped.value(u"storage_cost_micros"_s).toInteger(), rate);
    QCOMPARE(balance(), kTrialCredit - compute - rate);
    s = summary();
    QCOMPARE(s.value(u"compute_cost_micros"_s).toInteger(), compute);
    QCOMPARE(s.value(u"storage_cost_micros"_s).toInteger(), rate);
    const QJsonObject entry = s.value(u"instances"_s).toArray().at(0).toObject();
    QCOMPARE(entry.value(u"cost_micros"_s).toInteger(), compute);
    QCOMPARE(entry.value(u"storage_cost_micros"_s).toInteger(), rate);
    QCOMPARE(entry.value(u"spend_rate_micros_per_hour"_s).toInteger(), rate);

    // The ledger shows storage apart: its own kind and revenue account, the instance, the rate.
    const QJsonArray postings = m_sim->allPostings(m_token);
    const QList<QJsonObject> storage = postingsOfKind(postings, u"storage"_s);
    QVERIFY(!storage.isEmpty());
    QCOMPARE(sumOf(storage), -rate);
    QCOMPARE(sumOf(postingsOfKind(postings, u"compute"_s)), -compute);
    for (const QJsonObject &p : storage) {
        QCOMPARE(p.value(u"instance_id"_s).toString(), id);
        QCOMPARE(p.value(u"rate_micros_per_hour"_s).toInteger(), rate);
        QCOMPARE(p.value(u"entries"_s).toArray().at(1).toObject().value(u"account"_s).toString(),
                 u"revenue:storage"_s);
    }
    QCOMPARE(storage.last().value(u"period_start"_s).toString(), iso(stoppedAt));
    QCOMPARE(storage.first().value(u"period_end"_s).toString(), iso(stoppedAt + kMsPerHour));

    // Start ends the fee at the request; the new run is compute again.
    QVERIFY(m_sim->advance(0.5));
    const Reply start = m_sim->authedPost(m_token, u"/v1/instances/%1/start"_s.arg(id));
    QVERIFY2(start.status == 202, start.describe().constData());
    const qint64 storageTotal = cost(kMsPerHour + 500, rate);
    QCOMPARE(start.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
    QCOMPARE(start.value(u"storage_cost_micros"_s).toInteger(), storageTotal);
    QCOMPARE(m_sim->waitForState(m_token, id, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);
    QVERIFY(m_sim->advance(60));
    const QJsonObject running = instance(id);
    QCOMPARE(running.value(u"storage_cost_micros"_s).toInteger(), storageTotal);
    QCOMPARE(running.value(u"cost_micros"_s).toInteger(), compute + cost(60'000, kRtx4090));
    QCOMPARE(summary().value(u"storage_spend_rate_micros_per_hour"_s).toInteger(), 0);
    QCOMPARE(balance(), kTrialCredit - compute - cost(60'000, kRtx4090) - storageTotal);
}

void TestApiStorage::terminateFromStoppedEndsTheFee()
{
    QVERIFY(startFresh());
    const QString id = runThreeSecondsAndStop();
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    QVERIFY(m_sim->advance(600.25));
    const Reply gone = m_sim->authedDelete(m_token, u"/v1/instances/"_s + id);
    QCOMPARE(gone.status, 200);
    const qint64 storage = cost(600'250, 10'000);
    QCOMPARE(gone.value(u"storage_cost_micros"_s).toInteger(), storage);
    QCOMPARE(gone.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(instance(id).value(u"storage_cost_micros"_s).toInteger(), storage);
    QCOMPARE(summary().value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(summary().value(u"runs_out_at"_s).isNull());
    QCOMPARE(balance(), kTrialCredit - cost(3000, kRtx4090) - storage);
}

void TestApiStorage::exhaustionWhileStoppedKeepsTheInstance()
{
    // At 0.01 yuan per GiB-hour an rtx4090's 50 GiB cost 0.5 yuan an hour: about 20 hours.
    QVERIFY(startFresh(10'000));
    const qint64 rate = kDisk4090 * 10'000;
    const QString id = runThreeSecondsAndStop();
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    const qint64 stoppedAt = now();
    const qint64 left = kTrialCredit - cost(3000, kRtx4090);
    const qint64 runsOut = stoppedAt + exhaustionMs(rate, left);
    QCOMPARE(summary().value(u"runs_out_at"_s).toString(), iso(runsOut));

    QVERIFY(m_sim->advance(100 * 3600)); // far past it, in one jump
    QCOMPARE(balance(), 0);
    const QJsonObject stopped = instance(id);
    QCOMPARE(stopped.value(u"state"_s).toString(), u"stopped"_s); // kept, not deleted
    QCOMPARE(stopped.value(u"state_reason"_s).toString(), u"stopped_by_user"_s);
    QCOMPARE(stopped.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
    QCOMPARE(stopped.value(u"storage_cost_micros"_s).toInteger(),
             left); // 500 000/h: never past a micro
    QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), cost(3000, kRtx4090));
    const QList<QJsonObject> storage = postingsOfKind(m_sim->allPostings(m_token), u"storage"_s);
    QCOMPARE(storage.first().value(u"period_end"_s).toString(), iso(runsOut));
    QCOMPARE(storage.first().value(u"balance_after_micros"_s).toInteger(), 0);
    QVERIFY(summary().value(u"runs_out_at"_s).isNull());

    const Reply refused = m_sim->authedPost(m_token, u"/v1/instances/%1/start"_s.arg(id));
    QCOMPARE(refused.status, 402);
    QCOMPARE(refused.errorCode(), u"insufficient_balance"_s);

    // A top-up resumes the fee from the top-up's moment.
    QCOMPARE(m_sim->authedPost(m_token, u"/v1/billing/topup"_s, {{u"amount_micros"_s, 2'000'000}})
                 .status,
             201);
    QCOMPARE(instance(id).value(u"storage_rate_micros_per_hour"_s).toInteger(), rate);
    QVERIFY(m_sim->advance(3600));
    QCOMPARE(instance(id).value(u"storage_cost_micros"_s).toInteger(), left + rate);
    QCOMPARE(balance(), 2'000'000 - rate);
}

void TestApiStorage::freeStorageMakesNoPostings()
{
    QVERIFY(startFresh(0));
    const QString id = runThreeSecondsAndStop();
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim->lastError()));
    QVERIFY(m_sim->advance(10 * 3600));
    const QJsonObject stopped = instance(id);
    QCOMPARE(stopped.value(u"storage_cost_micros"_s).toInteger(), 0);
    QCOMPARE(stopped.value(u"storage_rate_micros_per_hour"_s).toInteger(), 0);
    const QJsonObject retention = stopped.value(u"retention"_s).toObject();
    QCOMPARE(retention.value(u"billed_while_stopped"_s).toArray(), QJsonArray{});
    QCOMPARE(retention.value(u"storage_gib"_s).toInteger(), kDisk4090);
    QCOMPARE(retention.value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger(), 0);
    QVERIFY(postingsOfKind(m_sim->allPostings(m_token), u"storage"_s).isEmpty());
    QCOMPARE(balance(), kTrialCredit - cost(3000, kRtx4090));
    const QJsonObject s = summary();
    QCOMPARE(s.value(u"storage_cost_micros"_s).toInteger(), 0);
    QCOMPARE(s.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(s.value(u"runs_out_at"_s).isNull());
}

QTEST_GUILESS_MAIN(TestApiStorage)
#include "tst_api_storage.moc"
