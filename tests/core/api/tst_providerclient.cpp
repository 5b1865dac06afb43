// ProviderClient against a real cardhour-sim (--test-clock, in-process runtime): every route
// the client uses, and the error paths the UI has to word.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;
using cardhour::test::awaitState;
using cardhour::test::SimProcess;
using cardhour::test::testPublicKey;

class TestProviderClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void health();
    void signUpLogInMeLogOut();
    void authErrors_data();
    void authErrors();
    void catalog();
    void sshKeys();
    void instanceLifecycle();
    void instanceKeys();
    void createIsIdempotent();
    void snapshotsRoundTrip();
    void unknownInstance_data();
    void unknownInstance();
    void illegalTransition();
    void insufficientBalance();
    void billing();
    void ledgerPages();
    void topUpValidation();
    void unauthorizedEmitsSessionExpired();
    void abortCancels();
    void noBaseUrl();
    void timeout();
    void invalidJson();
    void providerDown();

private:
    // Signs up a fresh account on `client` and gives it the token.
    QString signUp(ProviderClient &client);
    void configure(ProviderClient &client) { client.setBaseUrl(m_sim.baseUrl()); }

    SimProcess m_sim;
    int m_accounts = 0;
};

void TestProviderClient::initTestCase()
{
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
}

QString TestProviderClient::signUp(ProviderClient &client)
{
    configure(client);
    const QString email = u"user%1@example.com"_s.arg(++m_accounts);
    const auto session = await(client.signUp(email, u"correct horse battery"_s));
    if (!session.ok)
        qWarning("sign-up failed: %s", session.why());
    client.setToken(session.ok ? session.value->token : QString());
    return client.token();
}

void TestProviderClient::health()
{
    ProviderClient client;
    configure(client);
    const auto health = await(client.health());
    QVERIFY2(health.ok, health.why());
    QCOMPARE(health.value->status, u"ok"_s);
    QCOMPARE(health.value->service, u"cardhour-sim"_s);
    QVERIFY(health.value->testClock);
    QVERIFY(health.value->time.isValid());
    QVERIFY(!health.value->version.isEmpty());
}

void TestProviderClient::signUpLogInMeLogOut()
{
    ProviderClient client;
    configure(client);
    const auto created = await(client.signUp(u"Alice@Example.com"_s, u"correct horse battery"_s));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(created.status, 201);
    QCOMPARE(created.value->user.email, u"alice@example.com"_s);
    QCOMPARE(created.value->balanceMicros, 10'000'000);
    QCOMPARE(created.value->token.size(), 43);
    QVERIFY(created.idempotencyKey.isEmpty()); // sign-up moves no money the client could repeat

    const auto loggedIn = await(client.logIn(u"alice@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(loggedIn.ok, loggedIn.why());
    QCOMPARE(loggedIn.value->user.id, created.value->user.id);
    QVERIFY(loggedIn.value->token != created.value->token);

    client.setToken(loggedIn.value->token);
    const auto me = await(client.me());
    QVERIFY2(me.ok, me.why());
    QCOMPARE(me.value->id, created.value->user.id);
    QCOMPARE(me.value->email, u"alice@example.com"_s);
    QCOMPARE(me.value->balanceMicros, 10'000'000);
    QCOMPARE(me.value->spendRateMicrosPerHour, 0);
    QVERIFY(me.value->createdAt.isValid());

    const auto out = await(client.logOut());
    QVERIFY2(out.ok, out.why());
    QCOMPARE(out.status, 204);
    const auto after = await(client.me());
    QVERIFY(!after.ok);
    QCOMPARE(after.error.httpStatus, 401);

    // The first token was not revoked by logging out the second.
    client.setToken(created.value->token);
    QVERIFY(await(client.me()).ok);
}

void TestProviderClient::authErrors_data()
{
    QTest::addColumn<bool>("signUp");
    QTest::addColumn<QString>("email");
    QTest::addColumn<QString>("password");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");

    QTest::newRow("wrong password") << false << u"taken@example.com"_s << u"not the password"_s
                                    << 401 << u"invalid_credentials"_s;
    QTest::newRow("unknown e-mail")
        << false << u"nobody@example.com"_s << u"whatever1"_s << 401 << u"invalid_credentials"_s;
    QTest::newRow("duplicate e-mail")
        << true << u"TAKEN@example.com"_s << u"another password"_s << 409 << u"email_taken"_s;
    QTest::newRow("weak password")
        << true << u"weak@example.com"_s << u"short"_s << 400 << u"weak_password"_s;
    QTest::newRow("invalid e-mail")
        << true << u"not-an-address"_s << u"long enough"_s << 400 << u"invalid_email"_s;
}

void TestProviderClient::authErrors()
{
    QFETCH(bool, signUp);
    QFETCH(QString, email);
    QFETCH(QString, password);
    QFETCH(int, status);
    QFETCH(QString, code);

    ProviderClient client;
    configure(client);
    static bool seeded = false;
    if (!seeded) {
        QVERIFY(await(client.signUp(u"taken@example.com"_s, u"the real password"_s)).ok);
        seeded = true;
    }
    QSignalSpy expired(&client, &ProviderClient::sessionExpired);
    const auto result =
        await(signUp ? client.signUp(email, password) : client.logIn(email, password));
    QVERIFY(result.done);
    QVERIFY(!result.ok);
    QCOMPARE(result.error.kind, ApiError::Kind::Http);
    QCOMPARE(result.error.httpStatus, status);
    QCOMPARE(result.error.code, code);
    QVERIFY(!result.error.message.isEmpty());
    QVERIFY(!result.error.userMessage().isEmpty());
    // A wrong password is not an expired session: no token was sent.
    QCOMPARE(expired.count(), 0);
}

void TestProviderClient::catalog()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto gpus = await(client.gpuTypes());
    QVERIFY2(gpus.ok, gpus.why());
    QVERIFY(!gpus.value->isEmpty());
    const GpuType &first = gpus.value->first();
    QCOMPARE(first.id, u"rtx4090"_s);
    QCOMPARE(first.pricePerHourMicros, 1'900'000);
    QVERIFY(first.vramMib > 0);
    QVERIFY(first.capacity >= first.available);
    QVERIFY(first.simulated);

    const auto images = await(client.images());
    QVERIFY2(images.ok, images.why());
    QVERIFY(!images.value->isEmpty());
    QCOMPARE(images.value->first().id, u"base"_s);
    QVERIFY(!images.value->first().sshUser.isEmpty());
}

void TestProviderClient::sshKeys()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto added = await(client.addSshKey(u"laptop"_s, testPublicKey()));
    QVERIFY2(added.ok, added.why());
    QCOMPARE(added.status, 201);
    QVERIFY(!added.idempotencyKey.isEmpty());
    QCOMPARE(added.value->name, u"laptop"_s);
    QCOMPARE(added.value->type, u"ssh-ed25519"_s);
    QVERIFY(added.value->fingerprintSha256.startsWith(u"SHA256:"_s));

    const auto duplicate = await(client.addSshKey(u"again"_s, testPublicKey()));
    QCOMPARE(duplicate.error.httpStatus, 409);
    QCOMPARE(duplicate.error.code, u"duplicate_ssh_key"_s);
    const auto invalid = await(client.addSshKey(u"bad"_s, u"ssh-ed25519 not-base64"_s));
    QCOMPARE(invalid.error.httpStatus, 400);
    QCOMPARE(invalid.error.code, u"invalid_ssh_key"_s);

    const auto list = await(client.sshKeys());
    QVERIFY2(list.ok, list.why());
    QCOMPARE(list.value->size(), 1);
    QCOMPARE(list.value->first().id, added.value->id);

    QCOMPARE(await(client.deleteSshKey(added.value->id)).status, 204);
    const auto again = await(client.deleteSshKey(added.value->id));
    QCOMPARE(again.error.httpStatus, 404);
    QCOMPARE(again.error.code, u"not_found"_s);
    QVERIFY(await(client.sshKeys()).value->isEmpty());
}

void TestProviderClient::instanceLifecycle()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    NewInstance request;
    request.name = u"train-1"_s;
    request.gpuType = u"rtx4090"_s;
    request.gpuCount = 2;
    request.image = u"base"_s;
    const auto created = await(client.createInstance(request));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(created.status, 202);
    QVERIFY(!created.idempotencyKey.isEmpty());
    QCOMPARE(created.value->name, u"train-1"_s);
    QCOMPARE(created.value->gpuCount, 2);
    QCOMPARE(created.value->pricePerHourMicros, 3'800'000);
    QVERIFY(created.value->state == InstanceState::Creating
            || created.value->state == InstanceState::Starting
            || created.value->state == InstanceState::Running);
    const QString id = created.value->id;

    const std::optional<Instance> running = awaitState(client, id, InstanceState::Running);
    QVERIFY(running);
    QVERIFY(running->runningSince.isValid());
    QVERIFY(running->launch.requestedAt.isValid());
    QVERIFY(running->launch.reached(u"ready"_s));
    QVERIFY(running->launch.readyMs.has_value());
    QCOMPARE(running->runtime, u"inprocess"_s);
    QVERIFY(!running->ssh.has_value()); // the in-process runtime has no endpoint
    QVERIFY(running->retention.billedWhileRunning.contains(u"compute"_s));

    // Telemetry: the in-process runtime measures nothing, but the route answers in shape.
    const auto metrics = await(client.metrics(id, running->runningSince, 5));
    QVERIFY2(metrics.ok, metrics.why());
    QCOMPARE(metrics.value->instanceId, id);
    QCOMPARE(metrics.value->stepSeconds, 5);
    const auto noMetrics = await(client.metrics(u"no-such-instance"_s));
    QCOMPARE(noMetrics.status, 404);

    const auto listed = await(client.instances());
    QVERIFY2(listed.ok, listed.why());
    QCOMPARE(listed.value->size(), 1);
    QCOMPARE(listed.value->first().id, id);

    QVERIFY(m_sim.advance(3600));
    const auto afterHour = await(client.instance(id));
    QCOMPARE(afterHour.value->costMicros, 3'800'000);

    const auto stopping = await(client.stopInstance(id));
    QVERIFY2(stopping.ok, stopping.why());
    QCOMPARE(stopping.status, 202);
    QCOMPARE(stopping.value->stateReason, u"stopped_by_user"_s);
    QVERIFY(awaitState(client, id, InstanceState::Stopped));

    const auto starting = await(client.startInstance(id));
    QVERIFY2(starting.ok, starting.why());
    QVERIFY(awaitState(client, id, InstanceState::Running));

    const auto terminated = await(client.terminateInstance(id));
    QVERIFY2(terminated.ok, terminated.why());
    QCOMPARE(terminated.value->state, InstanceState::Terminated);
    QCOMPARE(terminated.value->stateReason, u"terminated_by_user"_s);
    QVERIFY(terminated.value->terminatedAt.isValid());

    QVERIFY(await(client.instances()).value->isEmpty());
    const auto all = await(client.instances(true));
    QCOMPARE(all.value->size(), 1);
    QCOMPARE(all.value->first().state, InstanceState::Terminated);
}

void TestProviderClient::instanceKeys()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto key1 = await(client.addSshKey(u"one"_s, testPublicKey(0)));
    const auto key2 = await(client.addSshKey(u"two"_s, testPublicKey(1)));
    QVERIFY(key1.ok && key2.ok);
    NewInstance request{{}, u"rtx3090"_s, 1, u"base"_s, {key1.value->id}, {}};
    const auto created = await(client.createInstance(request));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(created.value->sshKeyIds, QStringList{key1.value->id});
    QVERIFY(created.value->name.startsWith(u"rtx3090-"_s)); // the provider names it

    const auto added = await(client.addInstanceKey(created.value->id, key2.value->id));
    QVERIFY2(added.ok, added.why());
    QVERIFY(added.value->sshKeyIds.contains(key2.value->id));
    const auto removed = await(client.removeInstanceKey(created.value->id, key1.value->id));
    QVERIFY2(removed.ok, removed.why());
    QCOMPARE(removed.value->sshKeyIds, QStringList{key2.value->id});
    const auto notInstalled = await(client.removeInstanceKey(created.value->id, key1.value->id));
    QCOMPARE(notInstalled.error.httpStatus, 404);
    const auto unknownKey = await(client.addInstanceKey(created.value->id, u"no-such-key"_s));
    QCOMPARE(unknownKey.error.httpStatus, 400);
    QCOMPARE(unknownKey.error.code, u"unknown_ssh_key"_s);
}

void TestProviderClient::createIsIdempotent()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const QString key = ProviderClient::newIdempotencyKey();
    const NewInstance request{u"once"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    const auto first = await(client.createInstance(request, key));
    QVERIFY2(first.ok, first.why());
    QVERIFY(!first.replayed);
    QCOMPARE(first.idempotencyKey, key);
    // A retry with the same key (say, after a lost answer) creates nothing new.
    const auto retry = await(client.createInstance(request, key));
    QVERIFY2(retry.ok, retry.why());
    QVERIFY(retry.replayed);
    QCOMPARE(retry.value->id, first.value->id);
    QCOMPARE(await(client.instances()).value->size(), 1);
    // The same key for a different request is refused.
    const NewInstance other{u"twice"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    const auto reused = await(client.createInstance(other, key));
    QCOMPARE(reused.error.httpStatus, 422);
    QCOMPARE(reused.error.code, u"idempotency_key_reused"_s);
}

void TestProviderClient::snapshotsRoundTrip()
{
    // The in-process runtime snapshots its instances' stand-in folders; real disks are
    // tst_api_snapshots' (podman). Here: what the client sends and reads.
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto created =
        await(client.createInstance(NewInstance{u"src"_s, u"rtx4090"_s, 2, u"base"_s, {}, {}}));
    QVERIFY2(created.ok, created.why());
    QVERIFY(awaitState(client, created.value->id, InstanceState::Running));

    const auto taken = await(client.createSnapshot(created.value->id, u"before"_s));
    QVERIFY2(taken.ok, taken.why());
    QCOMPARE(taken.status, 202);
    QCOMPARE(taken.value->name, u"before"_s);
    QCOMPARE(taken.value->instanceId, created.value->id);
    QCOMPARE(taken.value->gpuCount, 2);
    std::optional<Snapshot> ready;
    QTRY_VERIFY((ready = await(client.snapshot(taken.value->id)).value)
                && ready->state != u"creating"_s);
    QVERIFY2(ready->isReady(), qPrintable(ready->state + u' ' + ready->stateReason));
    QVERIFY(ready->sizeBytes && ready->diskBytes && ready->workspaceBytes);
    QVERIFY(ready->readyAt.isValid());
    QVERIFY(ready->storageRateMicrosPerHour > 0);
    const auto listed = await(client.snapshots());
    QVERIFY2(listed.ok, listed.why());
    QCOMPARE(listed.value->size(), 1);

    SnapshotRestore restore;
    restore.snapshotId = ready->id;
    const auto restored = await(client.restoreSnapshot(restore));
    QVERIFY2(restored.ok, restored.why());
    QCOMPARE(restored.value->snapshotId, ready->id);
    QCOMPARE(restored.value->gpuType, u"rtx4090"_s);
    QCOMPARE(restored.value->gpuCount, 2); // the snapshot's, as none was asked for
    const auto inUse = await(client.deleteSnapshot(ready->id));
    QCOMPARE(inUse.error.httpStatus, 409);
    QCOMPARE(inUse.error.code, u"snapshot_in_use"_s);
    QVERIFY(await(client.terminateInstance(restored.value->id)).ok);
    const auto deleted = await(client.deleteSnapshot(ready->id));
    QVERIFY2(deleted.ok, deleted.why());
    QCOMPARE(deleted.value->state, u"deleted"_s);
    QCOMPARE(await(client.snapshot(ready->id)).error.httpStatus, 404);
    QVERIFY(await(client.snapshots()).value->isEmpty());
    const auto unknown = await(client.restoreSnapshot(restore));
    QCOMPARE(unknown.error.httpStatus, 400);
    QCOMPARE(unknown.error.code, u"unknown_snapshot"_s);
}

void TestProviderClient::unknownInstance_data()
{
    QTest::addColumn<QString>("operation");
    QTest::newRow("get") << u"get"_s;
    QTest::newRow("stop") << u"stop"_s;
    QTest::newRow("start") << u"start"_s;
    QTest::newRow("terminate") << u"terminate"_s;
    QTest::newRow("remove key") << u"removeKey"_s;
}

void TestProviderClient::unknownInstance()
{
    QFETCH(QString, operation);
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const QString id = u"00000000-0000-4000-8000-000000000000"_s;
    cardhour::test::Outcome<Instance> result;
    if (operation == u"get"_s)
        result = await(client.instance(id));
    else if (operation == u"stop"_s)
        result = await(client.stopInstance(id));
    else if (operation == u"start"_s)
        result = await(client.startInstance(id));
    else if (operation == u"terminate"_s)
        result = await(client.terminateInstance(id));
    else
        result = await(client.removeInstanceKey(id, u"whatever"_s));
    QVERIFY(result.done);
    QCOMPARE(result.error.kind, ApiError::Kind::Http);
    QCOMPARE(result.error.httpStatus, 404);
    QCOMPARE(result.error.code, u"not_found"_s);
}

void TestProviderClient::illegalTransition()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto created = await(client.createInstance({{}, u"rtx4090"_s, 1, u"base"_s, {}, {}}));
    QVERIFY2(created.ok, created.why());
    QVERIFY(awaitState(client, created.value->id, InstanceState::Running));
    const auto start = await(client.startInstance(created.value->id));
    QCOMPARE(start.error.httpStatus, 409);
    QCOMPARE(start.error.code, u"illegal_transition"_s);
    QVERIFY(!start.error.userMessage().isEmpty());
}

void TestProviderClient::insufficientBalance()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto created = await(client.createInstance({{}, u"rtx4090"_s, 1, u"base"_s, {}, {}}));
    QVERIFY2(created.ok, created.why());
    QVERIFY(awaitState(client, created.value->id, InstanceState::Running));
    // 10 yuan at 1.9 yuan an hour lasts about 5.3 hours; the provider then stops it.
    QVERIFY(m_sim.advance(6 * 3600));
    const std::optional<Instance> stopped =
        awaitState(client, created.value->id, InstanceState::Stopped);
    QVERIFY(stopped);
    QCOMPARE(stopped->stateReason, u"balance_exhausted"_s);
    const auto again = await(client.createInstance({{}, u"rtx4090"_s, 1, u"base"_s, {}, {}}));
    QCOMPARE(again.error.httpStatus, 402);
    QCOMPARE(again.error.code, u"insufficient_balance"_s);
    const auto restart = await(client.startInstance(created.value->id));
    QCOMPARE(restart.error.httpStatus, 402);
}

void TestProviderClient::billing()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto before = await(client.billingSummary());
    QVERIFY2(before.ok, before.why());
    QCOMPARE(before.value->balanceMicros, 10'000'000);
    QCOMPARE(before.value->spendRateMicrosPerHour, 0);
    QVERIFY(!before.value->runsOutAt.isValid());
    QVERIFY(before.value->asOf.isValid());

    const auto created = await(client.createInstance({{}, u"rtx4090"_s, 1, u"base"_s, {}, {}}));
    QVERIFY(awaitState(client, created.value->id, InstanceState::Running));
    QVERIFY(m_sim.advance(1800));
    const auto running = await(client.billingSummary());
    QCOMPARE(running.value->spendRateMicrosPerHour, 1'900'000);
    QCOMPARE(running.value->balanceMicros, 10'000'000 - 950'000);
    QVERIFY(running.value->runsOutAt.isValid());
    QCOMPARE(running.value->instances.size(), 1);
    QCOMPARE(running.value->instances.first().costMicros, 950'000);
    QCOMPARE(running.value->instances.first().state, InstanceState::Running);

    const QString key = ProviderClient::newIdempotencyKey();
    const auto topUp = await(client.topUp(5'000'000, key));
    QVERIFY2(topUp.ok, topUp.why());
    QCOMPARE(topUp.status, 201);
    QCOMPARE(topUp.value->posting.kind, u"topup"_s);
    QCOMPARE(topUp.value->posting.amountMicros, 5'000'000);
    QCOMPARE(topUp.value->balanceMicros, 15'000'000 - 950'000);
    const auto replay = await(client.topUp(5'000'000, key));
    QVERIFY(replay.replayed);
    QCOMPARE(replay.value->posting.id, topUp.value->posting.id);
    QCOMPARE(await(client.me()).value->balanceMicros, 15'000'000 - 950'000);
}

void TestProviderClient::ledgerPages()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    QVERIFY(await(client.topUp(1'000'000)).ok);
    QVERIFY(await(client.topUp(2'000'000)).ok);
    const auto page1 = await(client.ledger(2));
    QVERIFY2(page1.ok, page1.why());
    QCOMPARE(page1.value->postings.size(), 2);
    QCOMPARE(page1.value->postings.at(0).amountMicros, 2'000'000); // newest first
    QCOMPARE(page1.value->balanceMicros, 13'000'000);
    QVERIFY(page1.value->nextBefore.has_value());
    const Posting &posting = page1.value->postings.at(0);
    QVERIFY(posting.entries.size() >= 2);
    qint64 sum = 0;
    for (const LedgerEntry &entry : posting.entries)
        sum += entry.amountMicros;
    QCOMPARE(sum, 0);

    const auto page2 = await(client.ledger(2, *page1.value->nextBefore));
    QVERIFY2(page2.ok, page2.why());
    QCOMPARE(page2.value->postings.size(), 1);
    QCOMPARE(page2.value->postings.at(0).kind, u"trial_credit"_s);
    QVERIFY(!page2.value->nextBefore.has_value());

    const auto bad = await(client.ledger(0));
    QCOMPARE(bad.error.httpStatus, 400);
    QCOMPARE(bad.error.code, u"invalid_query"_s);
}

void TestProviderClient::topUpValidation()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    const auto tooSmall = await(client.topUp(1));
    QCOMPARE(tooSmall.error.httpStatus, 400);
    QCOMPARE(tooSmall.error.code, u"invalid_field"_s);
    const auto largest = await(client.topUp(100'000'000'000));
    QVERIFY(largest.ok); // 100 000 yuan is the most one top-up may add
    // With the trial credit, nine of them come to just over 900 000 yuan; a tenth would pass
    // the 1 000 000 yuan limit.
    for (int i = 0; i < 8; ++i)
        QVERIFY(await(client.topUp(100'000'000'000)).ok);
    const auto overLimit = await(client.topUp(100'000'000'000));
    QCOMPARE(overLimit.error.httpStatus, 400);
    QCOMPARE(overLimit.error.code, u"balance_limit"_s);
}

void TestProviderClient::unauthorizedEmitsSessionExpired()
{
    ProviderClient client;
    configure(client);
    client.setToken(u"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"_s);
    QSignalSpy expired(&client, &ProviderClient::sessionExpired);
    const auto me = await(client.me());
    QCOMPARE(me.error.httpStatus, 401);
    QCOMPARE(me.error.code, u"unauthorized"_s);
    QVERIFY(me.error.isUnauthorized());
    QCOMPARE(expired.count(), 1);

    // A 401 to a token the client no longer holds does not end the new session.
    auto *late = client.me();
    client.setToken(u"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"_s);
    QCOMPARE(await(late).error.httpStatus, 401);
    QCOMPARE(expired.count(), 1);
}

void TestProviderClient::abortCancels()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    auto *reply = client.instances();
    bool finished = false;
    ApiError error;
    reply->onFinished(this, [&](const Reply<QList<Instance>> &r) {
        finished = true;
        error = r.error();
    });
    reply->abort();
    QVERIFY(finished); // at once
    QCOMPARE(error.kind, ApiError::Kind::Cancelled);
}

void TestProviderClient::noBaseUrl()
{
    ProviderClient client;
    auto *reply = client.health();
    bool finished = false;
    reply->onFinished(this, [&finished](const Reply<Health> &) { finished = true; });
    QVERIFY(!finished); // never inside the call
    const auto result = await(reply);
    QCOMPARE(result.error.kind, ApiError::Kind::Network);
}

void TestProviderClient::timeout()
{
    // A server that accepts the connection and never answers.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    ProviderClient client;
    client.setBaseUrl(QUrl(u"http://127.0.0.1:%1"_s.arg(silent.serverPort())));
    client.setTimeoutMs(200);
    const auto result = await(client.health());
    QVERIFY(result.done);
    QCOMPARE(result.error.kind, ApiError::Kind::Timeout);
    QVERIFY(result.error.isUnreachable());
    QVERIFY(!result.error.userMessage().isEmpty());
}

void TestProviderClient::invalidJson()
{
    // A server on the provider's address that answers 200 with something that is not JSON
    // (a captive portal, a wrong program on the port).
    QTcpServer wrong;
    QVERIFY(wrong.listen(QHostAddress::LocalHost));
    connect(&wrong, &QTcpServer::newConnection, this, [&wrong] {
        QTcpSocket *socket = wrong.nextPendingConnection();
        connect(socket, &QTcpSocket::readyRead, socket, [socket] {
            socket->readAll();
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n"
                          "Connection: close\r\n\r\n<html></html>");
            socket->disconnectFromHost();
        });
    });
    ProviderClient client;
    client.setBaseUrl(QUrl(u"http://127.0.0.1:%1"_s.arg(wrong.serverPort())));
    const auto result = await(client.health());
    QCOMPARE(result.error.kind, ApiError::Kind::InvalidJson);
    QCOMPARE(result.error.httpStatus, 200);
}

void TestProviderClient::providerDown()
{
    ProviderClient client;
    QVERIFY(!signUp(client).isEmpty());
    QSignalSpy expired(&client, &ProviderClient::sessionExpired);
    m_sim.kill();
    const auto me = await(client.me());
    QVERIFY(me.done);
    QCOMPARE(me.error.kind, ApiError::Kind::Network);
    QVERIFY(me.error.isUnreachable());
    QVERIFY(!me.error.detail.isEmpty());
    QCOMPARE(expired.count(), 0);
    QVERIFY2(m_sim.restart(), qPrintable(m_sim.lastError()));
}

QTEST_GUILESS_MAIN(TestProviderClient)
#include "tst_providerclient.moc"
