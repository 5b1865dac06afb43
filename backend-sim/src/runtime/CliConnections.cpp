// CliRuntime, continued: how many connections are open into a running box. Every way in is its
// sshd (port 22; the apps are reached through SSH forwards, which sshd opens to the app's port
// on the box's loopback), so the box's kernel tables (/proc/net/tcp*, read with one `exec` per
// box, no tool needed in the image) tell whether anyone is connected.
#include "CliRuntimePrivate.h"

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
constexpr int kCountTimeoutMs = 5000;
} // namespace

void CliRuntime::countConnections(const QStringList &instanceIds)
{
    struct Count
    {
        QHash<QString, int> byInstance;
        int pending = 0;
    };
    auto count = std::make_shared<Count>();
    QList<std::pair<QString, QString>> boxes; // instance id, container id
    for (const QString &id : instanceIds) {
        const auto it = m_containers.constFind(id);
        if (it != m_containers.cend() && it->running && !it->containerId.isEmpty())
            boxes.append({id, it->containerId});
    }
    if (boxes.isEmpty()) {
        QTimer::singleShot(0, this, [this] { Q_EMIT connectionsCounted({}); });
        return;
    }
    count->pending = int(boxes.size());
    for (const auto &box : std::as_const(boxes)) {
        const QString instanceId = box.first;
        const QString containerId = box.second;
        QSet<int> ports{clidetail::kSshPort};
        for (const int port : m_appPorts.value(instanceId))
            ports.insert(port);
        // `cat` fails when the box has no IPv6 (no tcp6): what it printed still counts.
        runCli(
            {u"exec"_s, containerId, u"sh"_s, u"-c"_s,
             u"cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; echo counted"_s},
            [this, count, instanceId, ports](const ProcResult &result) {
                if (result.started && !result.timedOut && result.out.contains("counted"))
                    count->byInstance.insert(instanceId, cli::establishedTo(result.out, ports));
                if (--count->pending == 0)
                    Q_EMIT connectionsCounted(count->byInstance);
            },
            kCountTimeoutMs);
    }
}

} // namespace cardhour::sim
