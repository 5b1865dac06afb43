// InstanceNetworks: a network of each box's own (per-instance), one kept from an earlier try
// taken when its labels say it is this instance's, and never one that is not.
#include "LaunchFixture.h"
#include "runtime/InstanceNetworks.h"

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::FakeEngine;
using test::LaunchFixture;

class TestInstanceNetworks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runOption();
    void makesTheNetwork();
    void takesItsOwnExistingNetwork();
    void refusesSomeoneElsesNetwork();
    void removeToleratesAGoneNetwork();
};

void TestInstanceNetworks::runOption()
{
    LaunchFixture f;
    InstanceNetworks perInstance(f.steps, u"per-instance"_s);
    QVERIFY(perInstance.perInstance());
    QCOMPARE(perInstance.runOption(u"i-1"_s), u"cardhour-net-i-1"_s);
    InstanceNetworks slirp(f.steps, u"slirp4netns"_s);
    QVERIFY(!slirp.perInstance());
    QCOMPARE(slirp.runOption(u"i-1"_s), u"slirp4netns"_s);
    bool removed = false;
    slirp.remove(u"i-1"_s, [&] { removed = true; }); // none of its own: nothing to remove
    QVERIFY(removed);
    QVERIFY(f.engine.calls.isEmpty());
}

void TestInstanceNetworks::makesTheNetwork()
{
    LaunchFixture f(cli::Engine::Docker);
    InstanceNetworks networks(f.steps, u"per-instance"_s);
    auto launch = f.begin(u"i-1"_s);
    bool ready = false;
    networks.ensure(launch, [&] { ready = true; });
    QTRY_VERIFY(ready);
    QVERIFY(launch->networkReady);
    QCOMPARE(f.engine.lines(),
             QStringList{u"network create --label cardhour.managed=true --label "
                         "cardhour.instance=i-1 --label cardhour.owner=u-1 --label "
                         "cardhour.provider=prov cardhour-net-i-1"_s});
}

void TestInstanceNetworks::takesItsOwnExistingNetwork()
{
    LaunchFixture f(cli::Engine::Docker);
    f.engine.answer(u"network create"_s,
                    FakeEngine::failed("Error response from daemon: network with name "
                                       "cardhour-net-i-1 already exists"));
    f.engine.answer(
        u"network inspect"_s,
        FakeEngine::ok(
            R"([{"Name":"cardhour-net-i-1","Labels":{"cardhour.instance":"i-1","cardhour.provider":"prov"}}])"));
    InstanceNetworks networks(f.steps, u"per-instance"_s);
    auto launch = f.begin(u"i-1"_s);
    bool ready = false;
    networks.ensure(launch, [&] { ready = true; });
    QTRY_VERIFY(ready);
    QCOMPARE(f.failed.size(), 0);
}

void TestInstanceNetworks::refusesSomeoneElsesNetwork()
{
    LaunchFixture f(cli::Engine::Docker);
    f.engine.answer(u"network create"_s,
                    FakeEngine::failed("network with name cardhour-net-i-1 already exists"));
    // podman's own CLI writes "labels".
    f.engine.answer(
        u"network inspect"_s,
        FakeEngine::ok(
            R"([{"name":"cardhour-net-i-1","labels":{"cardhour.instance":"i-1","cardhour.provider":"other"}}])"));
    InstanceNetworks networks(f.steps, u"per-instance"_s);
    auto launch = f.begin(u"i-1"_s);
    bool ready = false;
    networks.ensure(launch, [&] { ready = true; });
    QTRY_COMPARE(f.failed.size(), 1);
    QVERIFY(!ready);
    QCOMPARE(f.failed.at(0).at(1).toString(),
             u"network cardhour-net-i-1 exists and does not belong to this instance"_s);
    // Any other failure of the create fails the launch with the engine's words.
    auto second = f.begin(u"i-2"_s);
    f.engine.once(u"network create"_s, FakeEngine::failed("permission denied", 125));
    networks.ensure(second, [&] { ready = true; });
    QTRY_COMPARE(f.failed.size(), 2);
    QCOMPARE(f.failed.at(1).at(1).toString(),
             u"docker network create failed (exit 125): permission denied"_s);
}

void TestInstanceNetworks::removeToleratesAGoneNetwork()
{
    LaunchFixture f(cli::Engine::Docker);
    f.engine.answer(u"network rm"_s, FakeEngine::failed("network cardhour-net-i-1 not found"));
    InstanceNetworks networks(f.steps, u"per-instance"_s);
    bool removed = false;
    networks.remove(u"i-1"_s, [&] { removed = true; });
    QTRY_VERIFY(removed);
    QCOMPARE(f.engine.lines(), QStringList{u"network rm cardhour-net-i-1"_s});
}

QTEST_GUILESS_MAIN(TestInstanceNetworks)
#include "tst_instancenetworks.moc"
