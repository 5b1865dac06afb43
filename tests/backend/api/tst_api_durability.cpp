// Durability of the provider's state across SIGKILL and SIGTERM: the real cardhour-sim is
// killed in the middle of a run (and while requests are in flight) and restarted on the
// same data directory. Whatever it acknowledged must still be there, and the ledger must
// still add up.
#include "SimProcess.h"

#include <QEventLoop>
#include <QHash>
#include <QRandomGenerator>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <tuple>
#include <utility>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kTrialCredit = 10'000'000;
constexpr int kLanes = 4; // clients sending at once in killWhileRequestsAreInFlight
constexpr int kOpsPerLane = 25; // requests each
const QString kPassword = u"correct horse battery"_s;

qint64 cost(qint64 ms, qint64 ratePerHour)
{
    return (ms / 3'600'000) * ratePerHour + (ms % 3'600'000) * ratePerHour / 3'600'000;
}

QJsonObject spec(const QString &gpuType, int count = 1)
{
    return {{u"gpu_type"_s, gpuType}, {u"gpu_count"_s, count}, {u"image"_s, u"base"_s}};
}

QHash<qint64, QJsonObject> bySeq(const QJsonArray &postings)
{
    QHash<qint64, QJsonObject> map;
    for (const QJsonValue &v : postings)
        map.insert(v.toObject().value(u"seq"_s).toInteger(), v.toObject());
    return map;
}

qint64 sumOfKind(const QJsonArray &postings, const QString &kind)
{
    qint64 sum = 0;
    for (const QJsonValue &p : postings) {
        if (p.toObject().value(u"kind"_s).toString() == kind)
            sum += p.toObject().value(u"amount_micros"_s).toInteger();
    }
    return sum;
}

qint64 sumOfAmounts(const QJsonArray &postings)
{
    qint64 sum = 0;
    for (const QJsonValue &v : postings)
        sum += v.toObject().value(u"amount_micros"_s).toInteger();
    return sum;
}

struct User
{
    QString email;
    QString token;
    QString id;
};

} // namespace

class TestApiDurability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void restartKeepsEverything_data();
    void restartKeepsEverything();
    void secondProviderOnSameDataIsRefused();
    void killWhileRequestsAreInFlight();

private:
    User signUp(SimProcess &sim, const QString &email);
};

User TestApiDurability::signUp(SimProcess &sim, const QString &email)
{
    const Reply reply = sim.post(u"/v1/auth/signup"_s,
                                 QJsonObject{{u"email"_s, email}, {u"password"_s, kPassword}});
    if (reply.status != 201)
        return {};
    return {email, reply.value(u"token"_s).toString(),
            reply.value(u"user"_s).toObject().value(u"id"_s).toString()};
}

void TestApiDurability::restartKeepsEverything_data()
{
    QTest::addColumn<bool>("sigkill");
    QTest::newRow("SIGKILL in the middle of a run") << true;
    QTest::newRow("SIGTERM") << false;
}

void TestApiDurability::restartKeepsEverything()
{
    QFETCH(bool, sigkill);
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));
    const User a = signUp(sim, u"durable.a@example.com"_s);
    const User b = signUp(sim, u"durable.b@example.com"_s);
    QVERIFY(!a.token.isEmpty() && !b.token.isEmpty());

    // A: a top-up with a key, one instance run 10 s and stopped, one running.
    const Headers key{{"Idempotency-Key"_ba, "durable-topup"_ba}};
    const Reply topup = sim.authedPost(a.token, u"/v1/billing/topup"_s,
                                       QJsonObject{{u"amount_micros"_s, 3'000'000}}, key);
    QCOMPARE(topup.status, 201);
    const QString stoppedId = sim.createRunning(a.token, spec(u"rtx3090"_s));
    QVERIFY2(!stoppedId.isEmpty(), qPrintable(sim.lastError()));
    QVERIFY(sim.advance(10));
    QCOMPARE(sim.authedPost(a.token, u"/v1/instances/%1/stop"_s.arg(stoppedId)).status, 202);
    QCOMPARE(sim.waitForState(a.token, stoppedId, u"stopped"_s).value(u"state"_s).toString(),
             u"stopped"_s);
    const qint64 stoppedCost = cost(10'000, 1'300'000);

    const QString runningA = sim.createRunning(a.token, spec(u"rtx4090"_s));
    const QString runningB = sim.createRunning(b.token, spec(u"l40s"_s, 2));
    QVERIFY2(!runningA.isEmpty() && !runningB.isEmpty(), qPrintable(sim.lastError()));
    // 150 s: a checkpoint is posted. Then 30 s more that are metered but not yet posted:
    // the provider saw them (last tick), so they are owed after the restart too.
    QVERIFY(sim.advance(150));
    QVERIFY(sim.advance(30));
    const qint64 costA = cost(180'000, 1'900'000);
    const qint64 costB = cost(180'000, 7'200'000);
    QCOMPARE(
        sim.authedGet(a.token, u"/v1/instances/"_s + runningA).value(u"cost_micros"_s).toInteger(),
        costA);

    const QJsonArray ledgerA = sim.allPostings(a.token);
    const QJsonArray ledgerB = sim.allPostings(b.token);
    const QJsonArray instancesA =
        sim.authedGet(a.token, u"/v1/instances?include_terminated=true"_s).array();
    QCOMPARE(instancesA.size(), 2);
    QCOMPARE(sim.verifyLedger(), QString());

    if (sigkill) {
        sim.kill();
        QCOMPARE(sim.exitStatus(), QProcess::CrashExit);
    } else {
        QVERIFY2(sim.terminate(), qPrintable(sim.lastError()));
        QCOMPARE(sim.exitCode(), 0);
    }
    QVERIFY2(sim.restart(), qPrintable(sim.lastError()));
    QCOMPARE(sim.verifyLedger(), QString());

    // Tokens survive; log-in works.
    QCOMPARE(sim.authedGet(a.token, u"/v1/me"_s).value(u"id"_s).toString(), a.id);
    QCOMPARE(sim.authedGet(b.token, u"/v1/me"_s).value(u"id"_s).toString(), b.id);
    QCOMPARE(sim.post(u"/v1/auth/login"_s,
                      QJsonObject{{u"email"_s, a.email}, {u"password"_s, kPassword}})
                 .status,
             200);

    // Every committed posting is still there, unchanged.
    for (const auto &[user, before] : {std::pair{a, ledgerA}, std::pair{b, ledgerB}}) {
        const QJsonArray after = sim.allPostings(user.token);
        const QHash<qint64, QJsonObject> afterBySeq = bySeq(after);
        for (const QJsonValue &p : before) {
            const qint64 seq = p.toObject().value(u"seq"_s).toInteger();
            QVERIFY2(afterBySeq.contains(seq),
                     qPrintable(u"posting %1 of %2 is gone"_s.arg(seq).arg(user.email)));
            QCOMPARE(afterBySeq.value(seq), p.toObject());
        }
        // Anything new is the settlement of the run the provider lost.
        for (const QJsonValue &p : after) {
            if (bySeq(before).contains(p.toObject().value(u"seq"_s).toInteger()))
                continue;
            QCOMPARE(p.toObject().value(u"kind"_s).toString(), u"compute"_s);
        }
        // Balances equal the ledger.
        const qint64 balance =
            sim.authedGet(user.token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger();
        QCOMPARE(balance, sumOfAmounts(after));
        QCOMPARE(sim.authedGet(user.token, u"/v1/billing/ledger"_s)
                     .value(u"balance_micros"_s)
                     .toInteger(),
                 balance);
    }

    // Every instance still exists; the running ones were stopped by the restart and billed
    // up to the last tick the provider saw (180 s), not a millisecond more.
    const QJsonArray afterA =
        sim.authedGet(a.token, u"/v1/instances?include_terminated=true"_s).array();
    QCOMPARE(afterA.size(), instancesA.size());
    for (qsizetype i = 0; i < afterA.size(); ++i) {
        QCOMPARE(afterA.at(i).toObject().value(u"id"_s),
                 instancesA.at(i).toObject().value(u"id"_s));
        QCOMPARE(afterA.at(i).toObject().value(u"name"_s),
                 instancesA.at(i).toObject().value(u"name"_s));
        QCOMPARE(afterA.at(i).toObject().value(u"created_at"_s),
                 instancesA.at(i).toObject().value(u"created_at"_s));
    }
    const QJsonObject stopped = sim.authedGet(a.token, u"/v1/instances/"_s + stoppedId).object();
    QCOMPARE(stopped.value(u"state"_s).toString(), u"stopped"_s);
    QCOMPARE(stopped.value(u"state_reason"_s).toString(), u"stopped_by_user"_s);
    QCOMPARE(stopped.value(u"cost_micros"_s).toInteger(), stoppedCost);
    for (const auto &[user, id, expected] :
         {std::tuple{a, runningA, costA}, std::tuple{b, runningB, costB}}) {
        const QJsonObject o = sim.authedGet(user.token, u"/v1/instances/"_s + id).object();
        QCOMPARE(o.value(u"state"_s).toString(), u"stopped"_s);
        QCOMPARE(o.value(u"state_reason"_s).toString(), u"provider_restarted"_s);
        QCOMPARE(o.value(u"cost_micros"_s).toInteger(), expected);
        QVERIFY(o.value(u"running_since"_s).isNull());
    }
    // The stopped instance's disk (50 GiB, 10 000 micro-yuan/h) is billed from its stop: the
    // checkpoint at 150 s is posted and kept. The instances the restart stopped are billed for
    // their disks from the end of their runs. (The restarted provider's test clock starts
    // again at the real time, so what accrues after the restart is read back, not assumed.)
    const qint64 storageOfStopped = stopped.value(u"storage_cost_micros"_s).toInteger();
    QVERIFY(storageOfStopped >= cost(150'000, 10'000));
    QVERIFY(-sumOfKind(sim.allPostings(a.token), u"storage"_s) >= cost(150'000, 10'000));
    qint64 storageOfRestarted[2] = {0, 0};
    int n = 0;
    for (const auto &[user, id, rate] :
         {std::tuple{a, runningA, 10'000}, std::tuple{b, runningB, 20'000}}) {
        const QJsonObject o = sim.authedGet(user.token, u"/v1/instances/"_s + id).object();
        QCOMPARE(o.value(u"storage_rate_micros_per_hour"_s).toInteger(), rate);
        storageOfRestarted[n++] = o.value(u"storage_cost_micros"_s).toInteger();
    }
    QCOMPARE(sim.authedGet(a.token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(),
             kTrialCredit + 3'000'000 - stoppedCost - costA - storageOfStopped
                 - storageOfRestarted[0]);
    QCOMPARE(sim.authedGet(b.token, u"/v1/me"_s).value(u"balance_micros"_s).toInteger(),
             kTrialCredit - costB - storageOfRestarted[1]);
    // Cards of the lost runs are free again.
    const QJsonArray gpus = sim.authedGet(a.token, u"/v1/catalog/gpus"_s).array();
    for (const QJsonValue &g : gpus) // whole cards (8 a type) and MIG slices alike
        QCOMPARE(g.toObject().value(u"available"_s).toInt(),
                 g.toObject().value(u"capacity"_s).toInt());

    // The idempotency record survived: the retried top-up is answered, not paid twice.
    const Reply retried = sim.authedPost(a.token, u"/v1/billing/topup"_s,
                                         QJsonObject{{u"amount_micros"_s, 3'000'000}}, key);
    QCOMPARE(retried.status, 201);
    QCOMPARE(retried.body, topup.body);
    QCOMPARE(retried.header("idempotent-replayed"), "true"_ba);

    // And the provider works on: the stopped instance starts and runs again.
    QCOMPARE(sim.authedPost(a.token, u"/v1/instances/%1/start"_s.arg(runningA)).status, 202);
    QCOMPARE(sim.waitForState(a.token, runningA, u"running"_s).value(u"state"_s).toString(),
             u"running"_s);
    QCOMPARE(sim.verifyLedger(), QString());
}

void TestApiDurability::secondProviderOnSameDataIsRefused()
{
    SimProcess first;
    QVERIFY2(first.start({u"--test-clock"_s}), qPrintable(first.lastError()));
    QProcess second;
    second.start(SimProcess::binaryPath(),
                 {u"--listen"_s, u"127.0.0.1:0"_s, u"--data"_s, first.dataDir(), u"--test-clock"_s,
                  u"--runtime"_s, u"inprocess"_s});
    QVERIFY(second.waitForFinished(30000));
    QVERIFY(second.exitCode() != 0);
    const QByteArray err = second.readAllStandardError();
    QVERIFY2(err.contains("another cardhour-sim"), err.constData());
    QVERIFY(!second.readAllStandardOutput().contains("listening"));
    // The first one is unharmed.
    QCOMPARE(first.get(u"/v1/health"_s).status, 200);
    // After a SIGKILL the stale lock does not keep the data locked.
    first.kill();
    QVERIFY2(first.restart(), qPrintable(first.lastError()));
    QCOMPARE(first.get(u"/v1/health"_s).status, 200);
}

void TestApiDurability::killWhileRequestsAreInFlight()
{
    // Four clients each run a sequence of 25 requests (sign-ups, instance creations and
    // keyed top-ups), all at once; after a random number of answers the provider is killed
    // with SIGKILL while the other clients' requests are in flight.
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s}), qPrintable(sim.lastError()));

    // CARDHOUR_TEST_SEED=<n> replays a run; the seed of each run is printed.
    bool seeded = false;
    const quint32 fixedSeed = qEnvironmentVariable("CARDHOUR_TEST_SEED").toUInt(&seeded);
    const quint32 seed = seeded ? fixedSeed : QRandomGenerator::global()->generate();
    QRandomGenerator random(seed);
    const int killAfter = int(random.bounded(10, 70)); // answers before the kill...
    const int killDelayMs = int(random.bounded(0, 25)); // ...and this long after it
    qInfo("seed %u: SIGKILL %d ms after answer %d of %d", seed, killDelayMs, killAfter,
          kLanes * kOpsPerLane);

    struct Topup
    {
        QString token;
        QByteArray key;
        qint64 amount = 0;
        bool acknowledged = false;
        QJsonObject posting;
    };
    struct Lane
    {
        int index = 0;
        int op = 0;
        User user;
    };
    QList<User> users; // acknowledged sign-ups
    QList<QPair<QString, QString>> instances; // acknowledged creates: token, id
    QList<Topup> topups; // every keyed top-up sent
    int answers = 0;
    bool killed = false;
    int inFlightAtKill = 0;
    int inFlight = 0;
    QList<Lane> lanes(kLanes);
    const QStringList gpuTypes{u"rtx4090"_s, u"rtx6000ada"_s, u"rtx3090"_s,
                               u"l40s"_s,    u"a100-80g"_s,   u"h100-80g"_s};

    QEventLoop loop;
    QTimer killTimer;
    killTimer.setSingleShot(true);
    connect(&killTimer, &QTimer::timeout, &loop, [&] {
        inFlightAtKill = inFlight;
        killed = true;
        sim.kill();
        loop.quit();
    });
    std::function<void(Lane &)> next;
    next = [&](Lane &lane) {
        if (killed || lane.op >= kOpsPerLane) {
            if (!killed && std::all_of(lanes.cbegin(), lanes.cend(), [](const Lane &l) {
                    return l.op >= kOpsPerLane;
                }))
                loop.quit();
            return;
        }
        const int op = lane.op++;
        const int serial = lane.index * 1000 + op;
        QNetworkReply *reply = nullptr;
        enum class Kind {
            SignUp,
            Create,
            Topup
        };
        Kind kind = Kind::SignUp;
        int topupIndex = -1;
        if (op % 12 == 0 || lane.user.token.isEmpty()) {
            kind = Kind::SignUp;
            const QString email = u"lane%1.op%2@example.com"_s.arg(lane.index).arg(op);
            lane.user = User{email, {}, {}};
            reply =
                sim.send("POST", u"/v1/auth/signup"_s,
                         QJsonDocument(QJsonObject{{u"email"_s, email}, {u"password"_s, kPassword}})
                             .toJson(),
                         {});
        } else if (op % 2 == 1) {
            kind = Kind::Create;
            reply = sim.send("POST", u"/v1/instances"_s,
                             QJsonDocument(spec(gpuTypes.at(serial % gpuTypes.size()))).toJson(),
                             SimProcess::bearer(lane.user.token));
        } else {
            kind = Kind::Topup;
            Topup t;
            t.token = lane.user.token;
            t.key = "inflight-"_ba + QByteArray::number(serial);
            t.amount = 1'000'000 + serial; // unique, so each can be found in the ledger
            topups.append(t);
            topupIndex = int(topups.size() - 1);
            reply = sim.send("POST", u"/v1/billing/topup"_s,
                             QJsonDocument(QJsonObject{{u"amount_micros"_s, t.amount}}).toJson(),
                             SimProcess::bearer(t.token) + Headers{{"Idempotency-Key"_ba, t.key}});
        }
        ++inFlight;
        const int laneIndex = lane.index;
        connect(reply, &QNetworkReply::finished, &loop, [&, reply, kind, topupIndex, laneIndex] {
            --inFlight;
            const Reply r = SimProcess::toReply(reply);
            reply->deleteLater();
            Lane &l = lanes[laneIndex];
            // A 2xx was only sent after its transaction committed: it counts even if it is
            // read after the kill.
            if (kind == Kind::SignUp && r.status == 201) {
                l.user.token = r.value(u"token"_s).toString();
                l.user.id = r.value(u"user"_s).toObject().value(u"id"_s).toString();
                users.append(l.user);
            } else if (kind == Kind::Create && r.status == 202) {
                instances.append({l.user.token, r.value(u"id"_s).toString()});
            } else if (kind == Kind::Topup && r.status == 201) {
                topups[topupIndex].acknowledged = true;
                topups[topupIndex].posting = r.value(u"posting"_s).toObject();
            }
            if (killed)
                return;
            if (++answers == killAfter)
                killTimer.start(killDelayMs); // the lanes go on sending until SIGKILL comes
            next(l);
        });
    };
    for (int i = 0; i < kLanes; ++i) {
        lanes[i].index = i;
        next(lanes[i]);
    }
    QTimer::singleShot(120'000, &loop, &QEventLoop::quit);
    loop.exec();
    QVERIFY2(killed || answers >= killAfter, "the clients stalled before the kill");
    killTimer.stop();
    if (!killed) { // every lane finished within the delay: kill it idle
        killed = true;
        sim.kill();
    }
    QVERIFY(!sim.isRunning());
    // Let the replies of the dead connections finish (they fail), and count late 2xx.
    QTest::qWait(200);
    qInfo("killed with %d request(s) in flight; %lld sign-ups, %lld creates, %lld top-ups "
          "acknowledged",
          inFlightAtKill, qlonglong(users.size()), qlonglong(instances.size()),
          qlonglong(std::count_if(topups.cbegin(), topups.cend(),
                                  [](const Topup &t) { return t.acknowledged; })));
    QVERIFY(!users.isEmpty());

    QVERIFY2(sim.restart(), qPrintable(sim.lastError()));
    QCOMPARE(sim.verifyLedger(), QString());

    for (const User &user : std::as_const(users)) {
        const Reply me = sim.authedGet(user.token, u"/v1/me"_s);
        QVERIFY2(me.status == 200,
                 qPrintable(user.email + u": "_s + QString::fromUtf8(me.describe())));
        QCOMPARE(me.value(u"id"_s).toString(), user.id);
        QCOMPARE(me.value(u"email"_s).toString(), user.email);
        const QJsonArray postings = sim.allPostings(user.token);
        QCOMPARE(me.value(u"balance_micros"_s).toInteger(), sumOfAmounts(postings));
        QCOMPARE(postings.last().toObject().value(u"kind"_s).toString(), u"trial_credit"_s);
    }
    for (const auto &[token, id] : std::as_const(instances)) {
        const Reply instance = sim.authedGet(token, u"/v1/instances/"_s + id);
        QVERIFY2(instance.status == 200, instance.describe().constData());
        const QString state = instance.value(u"state"_s).toString();
        QVERIFY2(state == u"stopped"_s || state == u"failed"_s, qPrintable(state));
        QCOMPARE(instance.value(u"state_reason"_s).toString(), u"provider_restarted"_s);
        QCOMPARE(instance.value(u"cost_micros"_s).toInteger(), 0); // the clock never moved
    }
    // Every top-up: acknowledged ones are in the ledger exactly once; after retrying every
    // key (acknowledged or not) each amount is there exactly once.
    for (const Topup &t : std::as_const(topups)) {
        const QHash<qint64, QJsonObject> postings = bySeq(sim.allPostings(t.token));
        if (t.acknowledged) {
            const qint64 seq = t.posting.value(u"seq"_s).toInteger();
            QVERIFY2(postings.contains(seq), t.key.constData());
            QCOMPARE(postings.value(seq), t.posting);
        }
        const Reply retry = sim.authedPost(t.token, u"/v1/billing/topup"_s,
                                           QJsonObject{{u"amount_micros"_s, t.amount}},
                                           {{"Idempotency-Key"_ba, t.key}});
        QVERIFY2(retry.status == 201, retry.describe().constData());
        if (t.acknowledged) {
            QCOMPARE(retry.header("idempotent-replayed"), "true"_ba);
            QCOMPARE(retry.value(u"posting"_s).toObject(), t.posting);
        }
        int copies = 0;
        for (const QJsonValue &p : sim.allPostings(t.token))
            copies += p.toObject().value(u"amount_micros"_s).toInteger() == t.amount ? 1 : 0;
        QVERIFY2(copies == 1,
                 qPrintable(u"%1: %2 postings of %3"_s.arg(QString::fromLatin1(t.key))
                                .arg(copies)
                                .arg(t.amount)));
    }
    QCOMPARE(sim.verifyLedger(), QString());
}

QTEST_GUILESS_MAIN(TestApiDurability)
#include "tst_api_durability.moc"
