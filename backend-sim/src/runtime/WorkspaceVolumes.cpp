#include "WorkspaceVolumes.h"

#include "BoxNames.h"
#include "SpareDisks.h"
#include "WorkspaceDisk.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

WorkspaceVolumes::WorkspaceVolumes(LaunchSteps &steps, DiskQuota quota, QString dataDir,
                                   int commandTimeoutMs, QObject *parent)
    : QObject(parent), m_steps(steps), m_engine(steps.engine()), m_quota(std::move(quota)),
      m_dataDir(std::move(dataDir)), m_commandTimeoutMs(commandTimeoutMs)
{
    if (m_quota.workspaceBounded())
        m_spareDisks =
            new SpareDisks(QDir(m_dataDir).filePath(u"spare-disks"_s), box::kSpareDiskSizes, this);
}

void WorkspaceVolumes::create(const std::shared_ptr<Launch> &launch, Ready ready)
{
    const QString id = launch->id();
    QStringList args = QStringList{u"volume"_s, u"create"_s}
        + box::ownerLabels(id, launch->spec.ownerId, m_engine.providerId());
    if (!m_quota.workspaceBounded() || launch->spec.diskGib <= 0)
        return runCreate(launch, args << box::volumeName(id), std::move(ready));
    const QString image = WorkspaceDisk::imagePath(m_dataDir, id);
    args << WorkspaceDisk::volumeOptions(image) << box::volumeName(id);
    // An image kept from an earlier attempt belongs to a volume that may hold data: reused.
    if (QFileInfo::exists(image))
        return runCreate(launch, args, std::move(ready));
    makeImage(launch, args, std::move(ready));
}

void WorkspaceVolumes::makeImage(const std::shared_ptr<Launch> &launch, const QStringList &args,
                                 Ready ready)
{
    const QString image = WorkspaceDisk::imagePath(m_dataDir, launch->id());
    const qint64 gib = launch->spec.diskGib;
    if (m_spareDisks && m_spareDisks->take(gib, image)) {
        m_spareDisks->replenish(gib, box::kSpareDiskDelayMs);
        return runCreate(launch, args, std::move(ready));
    }
    WorkspaceDisk::format(this, image, gib, m_commandTimeoutMs,
                          [this, launch, args, image, gib, ready](const QString &error) {
                              if (m_engine.isShuttingDown())
                                  return;
                              if (!m_steps.current(*launch)) {
                                  QFile::remove(image);
                                  return m_steps.queue().end(launch->id());
                              }
                              if (!error.isEmpty())
                                  return m_steps.fail(launch, error, false);
                              // The next launch of this size takes one made while nothing waits.
                              if (m_spareDisks)
                                  m_spareDisks->replenish(gib, box::kSpareDiskDelayMs);
                              runCreate(launch, args, ready);
                          });
}

void WorkspaceVolumes::runCreate(const std::shared_ptr<Launch> &launch, const QStringList &args,
                                 Ready ready)
{
    m_engine.run(args, [this, launch, ready](const ProcessResult &vc) {
        if (m_steps.abandoned(*launch))
            return;
        const bool exists = vc.started && !vc.timedOut
            && cli::classify(QString::fromUtf8(vc.err)) == cli::Failure::VolumeExists;
        if (!vc.ok() && !exists)
            return m_steps.fail(
                launch, EngineCommands::describe(vc, m_engine.what(u"volume create"_s)), false);
        // podman refuses an existing name: this one is new (a restore fills it first).
        if (vc.ok() && m_engine.engine() == cli::Engine::Podman)
            return ready(true);
        // Kept from an earlier attempt of this instance (reused), or a name someone else took.
        // (docker's `volume create` succeeds for an existing volume and keeps its labels.)
        adoptExisting(launch, ready);
    });
}

void WorkspaceVolumes::adoptExisting(const std::shared_ptr<Launch> &launch, Ready ready)
{
    m_engine.run(
        {u"volume"_s, u"inspect"_s, box::volumeName(launch->id())},
        [this, launch, ready](const ProcessResult &vi) {
            const QString iid = launch->id();
            if (m_steps.abandoned(*launch))
                return;
            if (!vi.ok())
                return m_steps.fail(
                    launch, EngineCommands::describe(vi, m_engine.what(u"volume inspect"_s)),
                    false);
            const QList<cli::VolumeInfo> volumes = cli::parseVolumeList(vi.out);
            const QHash<QString, QString> labels =
                volumes.isEmpty() ? QHash<QString, QString>{} : volumes.first().labels;
            if (labels.value(box::kInstance) != iid
                || labels.value(box::kProvider) != m_engine.providerId())
                return m_steps.fail(launch,
                                    u"volume %1 exists and does not belong to this instance"_s.arg(
                                        box::volumeName(iid)),
                                    false);
            ready(false);
        });
}

void WorkspaceVolumes::runOnWorkspace(const QString &instanceId, const QStringList &args,
                                      EngineCommands::Callback done, int timeoutMs,
                                      bool snapshotStep)
{
    auto step = [this, snapshotStep](const QStringList &stepArgs, EngineCommands::Callback stepDone,
                                     int stepTimeoutMs) {
        if (snapshotStep)
            return m_engine.runSnapshotStep(stepArgs, std::move(stepDone), stepTimeoutMs);
        m_engine.run(stepArgs, std::move(stepDone), stepTimeoutMs);
    };
    if (m_dataDir.isEmpty() || !QFileInfo::exists(WorkspaceDisk::imagePath(m_dataDir, instanceId)))
        return step(args, std::move(done), timeoutMs);
    const QString volume = box::volumeName(instanceId);
    m_engine.run(
        {u"volume"_s, u"mount"_s, volume},
        [this, volume, args, step, done = std::move(done), timeoutMs](const ProcessResult &mount) {
            if (!mount.ok())
                return done(mount);
            step(
                args,
                [this, volume, done](const ProcessResult &result) {
                    m_engine.run({u"volume"_s, u"unmount"_s, volume},
                                 [done, result](const ProcessResult &) { done(result); });
                },
                timeoutMs);
        });
}

} // namespace cardhour::sim
