// UsageSampler: containers whose cgroup this host cannot read are measured with one `stats`
// call for all; a failed call leaves them out.
#include "FakeEngine.h"
#include "runtime/UsageSampler.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::container;
using test::FakeEngine;

class TestUsageSampler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statsForContainersWithoutCgroup();
    void failedStatsLeavesThemOut();
    void nothingRunning();
};

void TestUsageSampler::statsForContainersWithoutCgroup()
{
    FakeEngine engine;
    // No cgroup on this host has these ids: each one comes from `stats` (podman's raw numbers,
    // long ids of which the listing printed a prefix, and the other way round).
    engine.answer(u"stats"_s,
                  FakeEngine::ok("feedc0de0001aaaa 263468963 1712128 18956156928\n"
                                 "feedc0de0002 9438577085 921600 1073741824\n"));
    ContainerCache cache;
    cache.remember(container(u"feedc0de0001"_s, u"i-1"_s, true));
    cache.remember(container(u"feedc0de0002bbbb"_s, u"i-2"_s, true));
    cache.remember(container(u"feedc0de0003"_s, u"i-3"_s, false));
    UsageSampler sampler(engine, cache);
    QSignalSpy sampled(&sampler, &UsageSampler::sampled);
    sampler.sample();
    QTRY_COMPARE(sampled.size(), 1);
    const auto usage = sampled.at(0).at(0).value<QHash<QString, ResourceUsage>>();
    QCOMPARE(usage.size(), 2);
    QCOMPARE(usage.value(u"i-1"_s).cpuNanos, 263468963LL);
    QCOMPARE(usage.value(u"i-2"_s).memoryBytes, 921600LL);
    QCOMPARE(usage.value(u"i-2"_s).memoryLimitBytes, 1073741824LL);
    QCOMPARE(engine.count(u"stats"_s), 1);
    QCOMPARE(engine.first(u"stats"_s).args, cli::statsArgs(cli::Engine::Podman));
}

void TestUsageSampler::failedStatsLeavesThemOut()
{
    FakeEngine engine;
    engine.answer(u"stats"_s, FakeEngine::failed("cannot connect"));
    ContainerCache cache;
    cache.remember(container(u"feedc0de0001"_s, u"i-1"_s, true));
    UsageSampler sampler(engine, cache);
    QSignalSpy sampled(&sampler, &UsageSampler::sampled);
    sampler.sample();
    sampler.sample(); // while one `stats` is under way, no second one
    QCOMPARE(sampled.size(), 1);
    QTRY_COMPARE(sampled.size(), 2);
    QVERIFY((sampled.at(1).at(0).value<QHash<QString, ResourceUsage>>().isEmpty()));
    QCOMPARE(engine.count(u"stats"_s), 1);
}

void TestUsageSampler::nothingRunning()
{
    FakeEngine engine;
    ContainerCache cache;
    cache.remember(container(u"c1"_s, u"i-1"_s, false));
    UsageSampler sampler(engine, cache);
    QSignalSpy sampled(&sampler, &UsageSampler::sampled);
    sampler.sample();
    QCOMPARE(sampled.size(), 1);
    QVERIFY(engine.calls.isEmpty());
}

QTEST_GUILESS_MAIN(TestUsageSampler)
#include "tst_usagesampler.moc"
