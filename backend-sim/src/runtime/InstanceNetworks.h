#pragma once

#include "LaunchSteps.h"

#include <QObject>

#include <functional>

namespace cardhour::sim {

// A network of its own for each box where the engine would otherwise put every box on one
// shared bridge (docker's default): a box cannot reach another box's ports, only its own
// published sshd on the host's loopback. podman's slirp4netns already gives each box its own
// user-mode network, so there the engine's option stays.
class InstanceNetworks final : public QObject
{
    Q_OBJECT
public:
    // network: the runtime's --network option ("per-instance": one of these each).
    InstanceNetworks(LaunchSteps &steps, QString network, QObject *parent = nullptr);

    bool perInstance() const;
    // The value of `run --network` for this instance; empty: the engine's default.
    QString runOption(const QString &instanceId) const;
    // Makes the launch's network (or takes one of this instance kept from an earlier try),
    // then `then`; a launch fails when the name is someone else's.
    void ensure(const std::shared_ptr<Launch> &launch, std::function<void()> then);
    // Removes the instance's network (gone already is fine), then `then`.
    void remove(const QString &instanceId, std::function<void()> then);

private:
    void adoptExisting(const std::shared_ptr<Launch> &launch, std::function<void()> then);

    LaunchSteps &m_steps;
    EngineCommands &m_engine;
    QString m_network;
};

} // namespace cardhour::sim
