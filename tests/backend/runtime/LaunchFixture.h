#pragma once

// What the tests of a launch's parts share: a fake engine, the queue, the cache and
// LaunchSteps, and a launch whose op is current.

#include "FakeEngine.h"
#include "runtime/LaunchSteps.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace cardhour::sim::test {

struct LaunchFixture
{
    explicit LaunchFixture(cli::Engine engine = cli::Engine::Podman) : engine(engine) {}

    // A launch of instance `id` whose create op is in progress (its token current).
    std::shared_ptr<Launch> begin(const QString &id)
    {
        auto launch = std::make_shared<Launch>();
        launch->spec.instanceId = id;
        launch->spec.ownerId = QStringLiteral("u-1");
        launch->spec.image = QStringLiteral("base");
        launch->clock.start();
        queue.enqueue(id, InstanceOpQueue::Kind::Create,
                      [launch](quint64 token) { launch->token = token; });
        if (!QTest::qWaitFor([&launch] { return launch->token != 0; }))
            qFatal("the queue never ran the launch's op");
        return launch;
    }

    FakeEngine engine;
    InstanceOpQueue queue;
    ContainerCache cache;
    LaunchSteps steps{engine, queue, cache};
    QSignalSpy failed{&steps, &LaunchSteps::failed};
};

} // namespace cardhour::sim::test
