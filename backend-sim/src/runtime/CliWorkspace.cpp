#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "WorkspaceDisk.h"

#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

// The /workspace volume: made (an ext4 image of the instance's disk where the host allows it),
// and mounted around exports and imports.

namespace cardhour::sim {

using namespace clidetail;

void CliRuntime::createVolume(const std::shared_ptr<Launch> &launch)
{
    const QString id = launch->id();
    QStringList args{u"volume"_s, u"create"_s};
    args << u"--label"_s << kManaged + u"=true"_s << u"--label"_s << kInstance + u'=' + id
         << u"--label"_s << kOwner + u'=' + launch->spec.ownerId << u"--label"_s
         << kProvider + u'=' + m_options.providerId;
    if (!m_diskQuota.workspaceBounded() || launch->spec.diskGib <= 0)
        return runVolumeCreate(launch, args << volumeName(id));
    const QString image = WorkspaceDisk::imagePath(m_options.dataDir, id);
    args << WorkspaceDisk::volumeOptions(image) << volumeName(id);
    // An image kept from an earlier attempt belongs to a volume that may hold data: reused.
    if (QFileInfo::exists(image))
        return runVolumeCreate(launch, args);
    makeWorkspaceImage(launch, args);
}

void CliRuntime::makeWorkspaceImage(const std::shared_ptr<Launch> &launch, const QStringList &args)
{
    const QString image = WorkspaceDisk::imagePath(m_options.dataDir, launch->id());
    QString error;
    if (!WorkspaceDisk::allocate(image, launch->spec.diskGib, &error))
        return failLaunch(launch, error, false);
    Process::Options options;
    options.timeoutMs = m_options.commandTimeoutMs;
    options.mergeChannels = true;
    Process::start(this, WorkspaceDisk::mkfsProgram(), WorkspaceDisk::mkfsArgs(image), options,
                   [this, launch, args, image](const ProcResult &mkfs) {
                       if (m_shuttingDown)
                           return;
                       const QString id = launch->id();
                       if (!current(id, launch->token) || !mkfs.ok()) {
                           // Not left half made: the next attempt makes it anew.
                           QFile::remove(image);
                           if (!current(id, launch->token))
                               return endOp(id);
                           return failLaunch(launch, describe(mkfs, u"mkfs.ext4"_s), false);
                       }
                       runVolumeCreate(launch, args);
                   });
}

void CliRuntime::runOnWorkspace(const QString &instanceId, const QStringList &args,
                                ProcCallback done, int timeoutMs, bool snapshotStep)
{
    auto step = [this, snapshotStep](const QStringList &stepArgs, ProcCallback stepDone,
                                     int stepTimeoutMs) {
        if (snapshotStep)
            return runSnapshotStep(stepArgs, std::move(stepDone), stepTimeoutMs);
        runCli(stepArgs, std::move(stepDone), stepTimeoutMs);
    };
    if (m_options.dataDir.isEmpty()
        || !QFileInfo::exists(WorkspaceDisk::imagePath(m_options.dataDir, instanceId)))
        return step(args, std::move(done), timeoutMs);
    const QString volume = volumeName(instanceId);
    runCli({u"volume"_s, u"mount"_s, volume},
           [this, volume, args, step, done = std::move(done), timeoutMs](const ProcResult &mount) {
               if (!mount.ok())
                   return done(mount);
               step(
                   args,
                   [this, volume, done](const ProcResult &result) {
                       runCli({u"volume"_s, u"unmount"_s, volume},
                              [done, result](const ProcResult &) { done(result); });
                   },
                   timeoutMs);
           });
}

} // namespace cardhour::sim
