#include "ConnectionCounter.h"

#include "BoxNames.h"

#include <QFile>
#include <QSet>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr int kCountTimeoutMs = 5000;
} // namespace

ConnectionCounter::ConnectionCounter(EngineCommands &engine, const ContainerCache &cache,
                                     QObject *parent, const QString &cgroupRoot)
    : QObject(parent), m_engine(engine), m_cache(cache), m_cgroups(cgroupRoot)
{}

std::optional<QByteArray> ConnectionCounter::readTables(const QString &containerId)
{
    const qint64 pid = m_cgroups.anyPid(containerId);
    if (pid <= 0)
        return std::nullopt;
    QFile tcp(u"/proc/%1/net/tcp"_s.arg(pid));
    if (!tcp.open(QIODevice::ReadOnly))
        return std::nullopt;
    QByteArray tables = tcp.readAll();
    QFile tcp6(u"/proc/%1/net/tcp6"_s.arg(pid)); // none without IPv6 in the box
    if (tcp6.open(QIODevice::ReadOnly))
        tables += tcp6.readAll();
    if (tables.isEmpty())
        return std::nullopt;
    return tables;
}

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
    count->pending = int(boxes.size()) + 1; // the last one ends after the loop
    const auto countedOne = [this, count] {
        if (--count->pending == 0)
            Q_EMIT counted(count->byInstance);
    };
    for (const auto &entry : std::as_const(boxes)) {
        const QString instanceId = entry.first;
        const QString containerId = entry.second;
        QSet<int> ports{box::kSshPort};
        for (const int port : m_cache.appPorts(instanceId))
            ports.insert(port);
        if (const std::optional<QByteArray> tables = readTables(containerId)) {
            count->byInstance.insert(instanceId, cli::establishedTo(*tables, ports));
            --count->pending;
            continue;
        }
        // `cat` fails when the box has no IPv6 (no tcp6): what it printed still counts.
        m_engine.run(
            {u"exec"_s, containerId, u"sh"_s, u"-c"_s,
             u"cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; echo counted"_s},
            [count, instanceId, ports, countedOne](const ProcessResult &result) {
                if (result.started && !result.timedOut && result.out.contains("counted"))
                    count->byInstance.insert(instanceId, cli::establishedTo(result.out, ports));
                countedOne();
            },
            kCountTimeoutMs);
    }
    // Later, as when every box needed an `exec`.
    QTimer::singleShot(0, this, countedOne);
}

} // namespace cardhour::sim
