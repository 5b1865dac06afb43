// One account must not take the whole provider (issue 13, item 6): each per-account limit of
// the catalog's `user_limits` is reported by GET /v1/limits, and a request over it is refused
// with `409 limit_reached`, naming the limit and its value, with nothing created or posted.
// Performed for real against cardhour-sim (in-process runtime: no containers needed). And one
// limit that is the host's, not an account's: a disk below the provider's reserve (507).
#include "SimProcess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr int kInstances = 2;
constexpr qint64 kTopupMax = 3'000'000; // 3 yuan per top-up
constexpr qint64 kTopupsTotal = 5'000'000; // 5 yuan in all

// A copy of the built-in catalog with `limits` as its user_limits.
bool writeCatalog(const QString &dir, const QJsonObject &limits)
{
    const QDir source(QStringLiteral(CARDHOUR_SOURCE_CATALOG));
    for (const QString &name : {u"gpus.json"_s, u"images.json"_s}) {
        QFile in(source.filePath(name));
        if (!in.open(QIODevice::ReadOnly))
            return false;
        QJsonObject document = QJsonDocument::fromJson(in.readAll()).object();
        if (name == u"gpus.json"_s)
            document.insert(u"user_limits"_s, limits);
        QFile out(QDir(dir).filePath(name));
        if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(document).toJson()) <= 0)
            return false;
    }
    return true;
}

} // namespace

class TestSecLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_sim.terminate(); }

    void limitsAreReported();
    void instancesPerUser();
    void snapshotsPerUser();
    void topupCeilings();
    void badLimitsAreRefusedAtStart();
    void aNearlyFullHostDiskTakesOnNothingNew();

private:
    int count(const QString &token, const QString &path)
    {
        return int(m_sim.authedGet(token, path).array().size());
    }
    qint64 balance(const QString &token)
    {
        return m_sim.authedGet(token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(-1);
    }

    QTemporaryDir m_catalog;
    SimProcess m_sim;
};

void TestSecLimits::initTestCase()
{
    QVERIFY(m_catalog.isValid());
    QVERIFY(writeCatalog(m_catalog.path(),
                         QJsonObject{{u"instances"_s, kInstances},
                                     {u"snapshots"_s, 0},
                                     {u"topup_max_micros"_s, kTopupMax},
                                     {u"topups_total_max_micros"_s, kTopupsTotal}}));
    // A test clock: balances move only when told, so "no money moved" can be compared.
    QVERIFY2(m_sim.start({u"--catalog"_s, m_catalog.path(), u"--test-clock"_s}),
             qPrintable(m_sim.lastError()));
}

void TestSecLimits::limitsAreReported()
{
    const QString token = m_sim.signUp(u"reported@example.com"_s);
    QVERIFY(!token.isEmpty());
    const Reply r = m_sim.authedGet(token, u"/v1/limits"_s);
    QVERIFY2(r.status == 200, r.describe().constData());
    QCOMPARE(r.value(u"instances"_s).toObject().value(u"limit"_s).toInt(), kInstances);
    QCOMPARE(r.value(u"instances"_s).toObject().value(u"used"_s).toInt(), 0);
    QCOMPARE(r.value(u"snapshots"_s).toObject().value(u"limit"_s).toInt(), 0);
    QCOMPARE(r.value(u"topup_max_micros"_s).toInteger(), kTopupMax);
    QCOMPARE(r.value(u"topups_total"_s).toObject().value(u"limit"_s).toInteger(), kTopupsTotal);
    QCOMPARE(r.value(u"topups_total"_s).toObject().value(u"used"_s).toInteger(), 0);
    QVERIFY(r.value(u"pids_per_instance"_s).toInt() >= 64);
    // The in-process runtime keeps no disks and says so.
    const QJsonObject disk = r.value(u"disk"_s).toObject();
    QCOMPARE(disk.value(u"mechanism"_s).toString(), u"none"_s);
    QCOMPARE(disk.value(u"workspace_bounded"_s).toBool(true), false);
    QCOMPARE(disk.value(u"container_disk"_s).toString(), u"none"_s);
    QVERIFY(!disk.value(u"detail"_s).toString().isEmpty());
    QCOMPARE(m_sim.get(u"/v1/limits"_s).status, 401);
}

void TestSecLimits::instancesPerUser()
{
    const QString token = m_sim.signUp(u"instances@example.com"_s);
    const QString other = m_sim.signUp(u"neighbour@example.com"_s);
    QVERIFY(!token.isEmpty() && !other.isEmpty());
    const QJsonObject body{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}};
    QStringList ids;
    for (int i = 0; i < kInstances; ++i) {
        const Reply r = m_sim.authedPost(token, u"/v1/instances"_s, body);
        QVERIFY2(r.status == 202, r.describe().constData());
        ids.append(r.value(u"id"_s).toString());
    }
    const qint64 before = balance(token);
    const Reply over = m_sim.authedPost(token, u"/v1/instances"_s, body,
                                        {{"Idempotency-Key"_ba, "over-the-limit"_ba}});
    QVERIFY2(over.status == 409, over.describe().constData());
    QCOMPARE(over.errorCode(), u"limit_reached"_s);
    const QString message = over.value(u"error"_s).toObject().value(u"message"_s).toString();
    QVERIFY2(message.contains(u"user_limits.instances"_s) && message.contains(u"at most 2 "_s),
             qPrintable(message));
    // Nothing was made: no row, no card held, no money moved.
    QCOMPARE(count(token, u"/v1/instances?include_terminated=1"_s), kInstances);
    QCOMPARE(balance(token), before);
    QCOMPARE(m_sim.authedGet(token, u"/v1/limits"_s)
                 .value(u"instances"_s)
                 .toObject()
                 .value(u"used"_s)
                 .toInt(),
             kInstances);
    // Another account's limit is its own.
    QCOMPARE(m_sim.authedPost(other, u"/v1/instances"_s, body).status, 202);
    // A terminated instance no longer counts.
    QCOMPARE(m_sim.authedDelete(token, u"/v1/instances/"_s + ids.first()).status, 200);
    const Reply again = m_sim.authedPost(token, u"/v1/instances"_s, body);
    QVERIFY2(again.status == 202, again.describe().constData());
}

void TestSecLimits::snapshotsPerUser()
{
    // A limit of 0 snapshots: refused before anything is recorded (and before the runtime is
    // asked whether it can take one).
    const QString token = m_sim.signUp(u"snapshots@example.com"_s);
    QVERIFY(!token.isEmpty());
    const QString id = m_sim.createRunning(
        token, QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}});
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim.lastError()));
    const Reply r = m_sim.authedPost(token, u"/v1/instances/%1/snapshots"_s.arg(id));
    QVERIFY2(r.status == 409, r.describe().constData());
    QCOMPARE(r.errorCode(), u"limit_reached"_s);
    QVERIFY(r.value(u"error"_s)
                .toObject()
                .value(u"message"_s)
                .toString()
                .contains(u"user_limits.snapshots"_s));
    QCOMPARE(count(token, u"/v1/snapshots"_s), 0);
    // Another user's instance stays "not found", limit or not.
    const QString stranger = m_sim.signUp(u"stranger@example.com"_s);
    QCOMPARE(m_sim.authedPost(stranger, u"/v1/instances/%1/snapshots"_s.arg(id)).status, 404);
}

void TestSecLimits::topupCeilings()
{
    const QString token = m_sim.signUp(u"money@example.com"_s);
    QVERIFY(!token.isEmpty());
    const qint64 start = balance(token);
    auto topUp = [&](qint64 amount) {
        return m_sim.authedPost(token, u"/v1/billing/topup"_s,
                                QJsonObject{{u"amount_micros"_s, amount}});
    };
    const int postingsBefore =
        int(m_sim.authedGet(token, u"/v1/billing/ledger"_s).value(u"postings"_s).toArray().size());
    // Over the per-payment ceiling.
    const Reply tooBig = topUp(kTopupMax + 1);
    QVERIFY2(tooBig.status == 409, tooBig.describe().constData());
    QCOMPARE(tooBig.errorCode(), u"limit_reached"_s);
    QVERIFY(tooBig.value(u"error"_s)
                .toObject()
                .value(u"message"_s)
                .toString()
                .contains(u"user_limits.topup_max_micros"_s));
    QCOMPARE(balance(token), start);
    // Up to the total, then past it.
    QCOMPARE(topUp(kTopupMax).status, 201);
    QCOMPARE(topUp(kTopupsTotal - kTopupMax).status, 201);
    const Reply pastTotal = topUp(10'000);
    QVERIFY2(pastTotal.status == 409, pastTotal.describe().constData());
    QCOMPARE(pastTotal.errorCode(), u"limit_reached"_s);
    const QString message = pastTotal.value(u"error"_s).toObject().value(u"message"_s).toString();
    QVERIFY2(message.contains(u"user_limits.topups_total_max_micros"_s)
                 && message.contains(QString::number(kTopupsTotal)),
             qPrintable(message));
    // Nothing posted by the refusals.
    QCOMPARE(balance(token), start + kTopupsTotal);
    QCOMPARE(
        int(m_sim.authedGet(token, u"/v1/billing/ledger"_s).value(u"postings"_s).toArray().size()),
        postingsBefore + 2);
    QCOMPARE(m_sim.authedGet(token, u"/v1/limits"_s)
                 .value(u"topups_total"_s)
                 .toObject()
                 .value(u"used"_s)
                 .toInteger(),
             kTopupsTotal);
}

void TestSecLimits::badLimitsAreRefusedAtStart()
{
    // A catalog whose limits make no sense is refused with a message naming the member.
    for (const QJsonObject &limits :
         {QJsonObject{{u"instances"_s, 0}}, QJsonObject{{u"topup_max_micros"_s, -5}},
          QJsonObject{{u"instance"_s, 3}}}) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid() && writeCatalog(dir.path(), limits));
        QTemporaryDir data;
        QProcess sim;
        sim.setProcessChannelMode(QProcess::MergedChannels);
        sim.start(SimProcess::binaryPath(),
                  {u"--catalog"_s, dir.path(), u"--data"_s, data.path(), u"--listen"_s,
                   u"127.0.0.1:0"_s, u"--runtime"_s, u"inprocess"_s});
        QVERIFY(sim.waitForStarted(10'000));
        if (!sim.waitForFinished(20'000)) {
            sim.kill();
            QFAIL("cardhour-sim started with a bad user_limits");
        }
        const QString said = QString::fromUtf8(sim.readAll());
        QVERIFY2(sim.exitCode() != 0 && said.contains(limits.keys().first()), qPrintable(said));
    }
}

// Many free accounts together can fill any disk: below the reserve (here more than any disk
// has) launches and model uploads are refused with 507 and nothing is made or moved; the
// API, and everything that does not write, carries on.
void TestSecLimits::aNearlyFullHostDiskTakesOnNothingNew()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--disk-reserve"_s, u"1000000"_s}), qPrintable(sim.lastError()));
    const QString token = sim.signUp(u"full-disk@example.com"_s);
    QVERIFY(!token.isEmpty());
    const qint64 before =
        sim.authedGet(token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(-1);
    QVERIFY(before > 0);

    const Reply launch =
        sim.authedPost(token, u"/v1/instances"_s,
                       QJsonObject{{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}});
    QVERIFY2(launch.status == 507, launch.describe().constData());
    QCOMPARE(launch.errorCode(), u"host_disk_full"_s);
    const QJsonObject details = launch.value(u"error"_s).toObject().value(u"details"_s).toObject();
    QCOMPARE(details.value(u"reserve_bytes"_s).toInteger(), 1000000LL << 30);
    QVERIFY(details.value(u"free_bytes"_s).toInteger() > 0);
    QCOMPARE(sim.authedGet(token, u"/v1/instances?include_terminated=1"_s).array().size(), 0);

    const Reply upload = sim.authedPost(token, u"/v1/model-uploads"_s,
                                        QJsonObject{{u"name"_s, u"weights"_s},
                                                    {u"size_bytes"_s, 1024},
                                                    {u"sha256"_s, QString(64, u'0')}});
    QVERIFY2(upload.status == 507, upload.describe().constData());
    QCOMPARE(sim.authedGet(token, u"/v1/model-uploads"_s).array().size(), 0);

    QCOMPARE(sim.authedGet(token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(), before);
    const Reply limits = sim.authedGet(token, u"/v1/limits"_s);
    QCOMPARE(limits.value(u"host_disk"_s).toObject().value(u"accepting"_s).toBool(true), false);
    // The default keeps 2 GiB, which this machine's disk has: the suite's own sim accepts.
    QCOMPARE(m_sim.authedGet(m_sim.signUp(u"room@example.com"_s), u"/v1/limits"_s)
                 .value(u"host_disk"_s)
                 .toObject()
                 .value(u"accepting"_s)
                 .toBool(),
             true);
}

QTEST_GUILESS_MAIN(TestSecLimits)
#include "tst_sec_limits.moc"
