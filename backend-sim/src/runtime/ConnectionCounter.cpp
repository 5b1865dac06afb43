#include "ConnectionCounter.h"

#include "BoxNames.h"

#include <QSet>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr int kCountTimeoutMs = 5000;
} // namespace

ConnectionCounter::ConnectionCounter(EngineCommands &engine, const ContainerCache &cache,
                                     QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache)
{}

void ConnectionCounter::count(const QStringList &instanceIds)
{
    struct Count
    {
        QHash<QString, int> byInstance;
        int pending = 0;
    };
    auto count = std::make_shared<Count>();
    QList<std::pair<QString, QString>> boxes; // instance id, container id
    for (const QString &id : instanceIds) {
        const auto it = m_cache.all().constFind(id);
        if (it != m_cache.all().cend() && it->running && !it->containerId.isEmpty())
            boxes.append({id, it->containerId});
    }
    if (boxes.isEmpty()) {
        QTimer::singleShot(0, this, [this] { Q_EMIT counted({}); });
        return;
    }
    count->pending = int(boxes.size());
    for (const auto &entry : std::as_const(boxes)) {
        const QString instanceId = entry.first;
        const QString containerId = entry.second;
        QSet<int> ports{box::kSshPort};
        for (const int port : m_cache.appPorts(instanceId))
            ports.insert(port);
        // `cat` fails when the box has no IPv6 (no tcp6): what it printed still counts.
        m_engine.run(
            {u"exec"_s, containerId, u"sh"_s, u"-c"_s,
             u"cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; echo counted"_s},
            [this, count, instanceId, ports](const ProcessResult &result) {
                if (result.started && !result.timedOut && result.out.contains("counted"))
                    count->byInstance.insert(instanceId, cli::establishedTo(result.out, ports));
                if (--count->pending == 0)
                    Q_EMIT counted(count->byInstance);
            },
            kCountTimeoutMs);
    }
}

} // namespace cardhour::sim
