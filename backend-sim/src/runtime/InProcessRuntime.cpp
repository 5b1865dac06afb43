#include "InProcessRuntime.h"

#include <QPointer>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

InProcessRuntime::InProcessRuntime(QObject *parent) : ContainerRuntime(parent) {}

QString InProcessRuntime::name() const
{
    return u"inprocess"_s;
}

void InProcessRuntime::create(const InstanceSpec &spec)
{
    m_specs.insert(spec.instanceId, spec);
    launch(spec.instanceId, true);
}

void InProcessRuntime::start(const InstanceSpec &spec)
{
    m_specs.insert(spec.instanceId, spec);
    launch(spec.instanceId, false);
}

void InProcessRuntime::launch(const QString &instanceId, bool fresh)
{
    const QString failure = std::exchange(m_failNext, QString());
    QTimer::singleShot(0, this, [this, instanceId, fresh, failure] {
        if (fresh)
            Q_EMIT stageReached(instanceId, u"image"_s);
        if (!failure.isEmpty()) {
            Q_EMIT failed(instanceId, failure);
            return;
        }
        m_known.insert(instanceId);
        Q_EMIT stageReached(instanceId, u"container"_s);
        if (m_hold)
            m_held.append(instanceId);
        else
            finish(instanceId);
    });
}

void InProcessRuntime::finish(const QString &instanceId)
{
    if (!m_known.contains(instanceId))
        return;
    m_running.insert(instanceId);
    Q_EMIT stageReached(instanceId, u"ready"_s);
    Q_EMIT ready(instanceId, SshEndpoint{});
}

void InProcessRuntime::release()
{
    const QStringList held = std::exchange(m_held, {});
    for (const QString &id : held)
        QTimer::singleShot(0, this, [this, id] { finish(id); });
}

void InProcessRuntime::stop(const QString &instanceId)
{
    QTimer::singleShot(0, this, [this, instanceId] {
        m_running.remove(instanceId);
        Q_EMIT stopped(instanceId);
    });
}

void InProcessRuntime::remove(const QString &instanceId)
{
    QTimer::singleShot(0, this, [this, instanceId] {
        m_running.remove(instanceId);
        m_known.remove(instanceId);
        m_specs.remove(instanceId);
        m_held.removeAll(instanceId);
        Q_EMIT removed(instanceId);
    });
}

bool InProcessRuntime::isRunning(const QString &instanceId) const
{
    return m_running.contains(instanceId);
}

} // namespace cardhour::sim
