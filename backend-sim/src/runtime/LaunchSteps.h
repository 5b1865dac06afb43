#pragma once

#include "ContainerCache.h"
#include "ContainerRuntime.h"
#include "EngineCommands.h"
#include "InstanceOpQueue.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace cardhour::sim {

// The state of one create()/start() chain, handed from step to step (ContainerLauncher, and
// the parts it uses: networks, volumes, image waits, a restore, the sshd wait).
struct Launch
{
    InstanceSpec spec;
    quint64 token = 0;
    bool fresh = true; // create (true) or start (false)
    QString containerId;
    int sshPort = 0;
    QHash<int, int> ports;
    bool networkReady = false; // the box's own network exists (network "per-instance")
    QElapsedTimer clock;
    bool probing = false; // the sshd probe runs (and the watchdog with it)
    bool checking = false; // a watchdog `inspect` is under way
    QPointer<QTimer> watchdog; // notices a container that exits before sshd answers
    QString id() const { return spec.instanceId; }
    void stopWatchdog()
    {
        probing = false;
        if (watchdog) {
            watchdog->stop();
            watchdog->deleteLater();
        }
    }
};

// What every step of a launch needs: whether its op still counts, and how a launch fails.
class LaunchSteps final : public QObject
{
    Q_OBJECT
public:
    LaunchSteps(EngineCommands &engine, InstanceOpQueue &queue, ContainerCache &cache,
                QObject *parent = nullptr);

    EngineCommands &engine() { return m_engine; }
    InstanceOpQueue &queue() { return m_queue; }
    ContainerCache &cache() { return m_cache; }

    bool current(const Launch &launch) const { return m_queue.current(launch.id(), launch.token); }
    // True (and the op ended) when a newer request superseded the launch: its step stops there.
    bool abandoned(const Launch &launch);
    // → failed (unless superseded), the op ended; stopContainer: not left running (and using
    // resources) while the instance is `failed`.
    void fail(const std::shared_ptr<Launch> &launch, const QString &reason, bool stopContainer);
    // fail() with the container's last log lines after the reason (they say why).
    void failWithContainerLog(const std::shared_ptr<Launch> &launch, const QString &reason,
                              bool stopContainer);

Q_SIGNALS:
    void failed(const QString &instanceId, const QString &reason);

private:
    EngineCommands &m_engine;
    InstanceOpQueue &m_queue;
    ContainerCache &m_cache;
};

} // namespace cardhour::sim
