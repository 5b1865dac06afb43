#include "InstanceOpQueue.h"

#include "SshProbe.h"

#include <QTimer>

namespace cardhour::sim {

void InstanceOpQueue::enqueue(const QString &instanceId, Kind kind, Run run)
{
    InstanceOps &ops = m_ops[instanceId];
    ops.queue.append(Op{kind, std::move(run)});
    if (!ops.busy) {
        end(instanceId); // starts the queue's head (on the event loop)
        return;
    }
    // stop/remove end a create/start at its next step; a probe wait ends at once.
    if ((kind == Kind::Stop || kind == Kind::Remove)
        && (ops.current == Kind::Create || ops.current == Kind::Start)) {
        ops.epoch = 0; // no token is 0: the running op is not current any more
        if (ops.probe) {
            ops.probe->cancel();
            ops.probe = nullptr;
            end(instanceId);
        }
    }
}

bool InstanceOpQueue::current(const QString &instanceId, quint64 token) const
{
    const auto it = m_ops.constFind(instanceId);
    return it != m_ops.cend() && it->epoch == token;
}

void InstanceOpQueue::end(const QString &instanceId)
{
    auto it = m_ops.find(instanceId);
    if (it == m_ops.end())
        return;
    it->busy = false;
    it->probe = nullptr;
    if (it->queue.isEmpty()) {
        m_ops.erase(it);
        return;
    }
    Op next = it->queue.takeFirst();
    it->busy = true;
    it->current = next.kind;
    // Tokens are unique for the queue's life, so a stale callback can never pass for a
    // later op of the same instance.
    const quint64 token = ++m_lastToken;
    it->epoch = token;
    QTimer::singleShot(0, this, [run = std::move(next.run), token] { run(token); });
}

void InstanceOpQueue::setProbe(const QString &instanceId, SshProbe *probe)
{
    m_ops[instanceId].probe = probe;
}

void InstanceOpQueue::clearProbe(const QString &instanceId)
{
    auto it = m_ops.find(instanceId);
    if (it != m_ops.end())
        it->probe = nullptr;
}

void InstanceOpQueue::cancelProbe(const QString &instanceId)
{
    auto it = m_ops.find(instanceId);
    if (it != m_ops.end() && it->probe) {
        it->probe->cancel();
        it->probe = nullptr;
    }
}

bool InstanceOpQueue::hasPendingWork(const QString &instanceId) const
{
    const auto it = m_ops.constFind(instanceId);
    return it != m_ops.cend() && (it->busy || !it->queue.isEmpty());
}

} // namespace cardhour::sim
