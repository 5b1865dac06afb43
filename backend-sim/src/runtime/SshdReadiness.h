#pragma once

#include "AppWatcher.h"
#include "LaunchSteps.h"

#include <QHash>
#include <QObject>

#include <memory>

namespace cardhour::sim {

// From a running container to a ready instance: the provider's own SSH probe (a key exchange
// that must present the instance's host key, SshProbe), and a watchdog that fails a launch
// whose container exits first (also at once when the engine's events say it ended). Once
// ready, the instance's apps are watched (AppWatcher).
class SshdReadiness final : public QObject
{
    Q_OBJECT
public:
    SshdReadiness(LaunchSteps &steps, AppWatcher &apps, int readyDeadlineMs,
                  QObject *parent = nullptr);

    // stage "sshd", then "ready" and ready(), or the launch fails.
    void waitFor(const std::shared_ptr<Launch> &launch);
    // The container of an instance whose sshd is awaited may have ended: looked at now.
    void checkNow(const QString &instanceId);

Q_SIGNALS:
    void stageReached(const QString &instanceId, const QString &stage);
    void ready(const QString &instanceId, const cardhour::sim::SshEndpoint &ssh);

private:
    void becameReady(const std::shared_ptr<Launch> &launch, qint64 probeMs, int probes);
    void checkContainer(const std::shared_ptr<Launch> &launch);
    void forget(const Launch &launch); // no longer awaited
    void containerChecked(const std::shared_ptr<Launch> &launch, const ProcessResult &r);

    LaunchSteps &m_steps;
    AppWatcher &m_apps;
    int m_readyDeadlineMs;
    QHash<QString, std::weak_ptr<Launch>> m_waiting; // while its sshd is probed
};

} // namespace cardhour::sim
