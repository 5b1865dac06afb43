#pragma once

#include "ContainerRunArgs.h"
#include "LaunchSteps.h"

#include <QObject>

#include <memory>

namespace cardhour::sim {

class ContainerSnapshots;
class EgressFilter;
class ImageWait;
class InstanceNetworks;
class SshdReadiness;
class WorkspaceVolumes;

// create() and start(): from a spec to a running container, queued with the instance's other
// requests. create: stage "image" → (the box's network) → its /workspace volume (a restore
// fills it) → `run -d` → stage "container"; start: `start` of the container known by label →
// stage "container". Then EgressFilter limits what the box may reach and SshdReadiness waits
// for sshd. The quick path of a create is two
// engine calls; what it does not expect (an earlier container of this instance, a name or a
// port taken) is cleared and the container run again, at most three times.
class ContainerLauncher final : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        LaunchSteps &steps;
        InstanceNetworks &networks;
        WorkspaceVolumes &volumes;
        ContainerSnapshots &snapshots;
        ImageWait &imageWait;
        SshdReadiness &readiness;
        EgressFilter &egress;
    };
    struct Settings
    {
        ContainerRunArgs::Settings run; // network: the runtime's option (see InstanceNetworks)
        QString dataDir; // with it, instances without spec.sshDir get files of their own there
    };

    ContainerLauncher(Parts parts, Settings settings, QObject *parent = nullptr);

    void create(const InstanceSpec &spec);
    void start(const InstanceSpec &spec);

Q_SIGNALS:
    void stageReached(const QString &instanceId, const QString &stage);

private:
    std::shared_ptr<Launch> begin(InstanceSpec spec, quint64 token, bool fresh);
    // The instance's ssh dir (made under dataDir when the spec has none), its host key's
    // fingerprint and authorized_keys: false with *error when they cannot be had.
    bool resolveSsh(InstanceSpec &spec, QString *error) const;
    void doCreate(InstanceSpec spec, quint64 token);
    void clearLeftovers(const std::shared_ptr<Launch> &launch);
    void createVolume(const std::shared_ptr<Launch> &launch);
    void runContainer(const std::shared_ptr<Launch> &launch, int attempt);
    void containerRan(const std::shared_ptr<Launch> &launch, const ProcessResult &r);
    void runFailed(const std::shared_ptr<Launch> &launch, int attempt, const ProcessResult &r);
    // A name or port taken, or a start the engine lost: the containers of this instance are
    // removed and the container run again.
    void runAgain(const std::shared_ptr<Launch> &launch, int attempt);
    void doStart(InstanceSpec spec, quint64 token);
    void startFound(const std::shared_ptr<Launch> &launch, const QList<cli::ContainerInfo> &found);
    void startContainer(const std::shared_ptr<Launch> &launch);
    // The box's network filtered (EgressFilter), then its sshd awaited; a box that cannot be
    // filtered is not let out.
    void filterThenAwaitSshd(const std::shared_ptr<Launch> &launch);

    Parts m_parts;
    LaunchSteps &m_steps;
    EngineCommands &m_engine;
    ContainerCache &m_cache;
    Settings m_settings;
};

} // namespace cardhour::sim
