#pragma once

#include "ContainerRuntime.h"
#include "LaunchSteps.h"

#include <QObject>

#include <functional>

namespace cardhour::sim {

class SpareDisks;

// An instance's /workspace volume: made for a launch (an ext4 image of the instance's disk
// where the host allows it: DiskQuota loop-ext4, taken from SpareDisks when one of that size is
// ready), reused when an earlier try of the same instance left it, and mounted around the
// commands that need it mounted (export, import).
class WorkspaceVolumes final : public QObject
{
    Q_OBJECT
public:
    // fresh: podman made the volume just now (a restore fills it); false: it was there.
    using Ready = std::function<void(bool fresh)>;

    WorkspaceVolumes(LaunchSteps &steps, DiskQuota quota, QString dataDir, int commandTimeoutMs,
                     QObject *parent = nullptr);

    void create(const std::shared_ptr<Launch> &launch, Ready ready);
    // `volume export` / `import` of a volume with mount options (the ext4 image) only work
    // while podman has it mounted: mounted around `args` when it is one.
    void runOnWorkspace(const QString &instanceId, const QStringList &args,
                        EngineCommands::Callback done, int timeoutMs, bool snapshotStep = false);

private:
    void makeImage(const std::shared_ptr<Launch> &launch, const QStringList &args, Ready ready);
    void runCreate(const std::shared_ptr<Launch> &launch, const QStringList &args, Ready ready);
    void adoptExisting(const std::shared_ptr<Launch> &launch, Ready ready);

    LaunchSteps &m_steps;
    EngineCommands &m_engine;
    DiskQuota m_quota;
    QString m_dataDir;
    int m_commandTimeoutMs;
    SpareDisks *m_spareDisks = nullptr; // formatted /workspace images, with loop-ext4 only
};

} // namespace cardhour::sim
