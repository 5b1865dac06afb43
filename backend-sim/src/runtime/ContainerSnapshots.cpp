#include "ContainerSnapshots.h"

#include "BoxNames.h"
#include "InstanceFiles.h"
#include "WorkspaceVolumes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// A commit of a big disk or an export of a big /workspace takes a while; not forever.
constexpr int kSnapshotStepTimeoutMs = 30 * 60 * 1000;
constexpr int kRemoveRetries = 20;
constexpr int kRemoveRetryDelayMs = 3000;
} // namespace

struct ContainerSnapshots::Job
{
    SnapshotSpec spec;
    QString containerId;
    bool paused = false;
    SnapshotSizes sizes;
};

ContainerSnapshots::ContainerSnapshots(LaunchSteps &steps, WorkspaceVolumes &volumes,
                                       QString dataDir, QString imagePrefix, QObject *parent)
    : QObject(parent), m_steps(steps), m_engine(steps.engine()), m_volumes(volumes),
      m_dataDir(std::move(dataDir)), m_imagePrefix(std::move(imagePrefix))
{}

QString ContainerSnapshots::archiveOf(const QString &snapshotId) const
{
    return box::snapshotArchive(m_dataDir, snapshotId);
}

QString ContainerSnapshots::unsupportedReason() const
{
    // docker has no `volume export/import`; a helper container could stand in, not done yet.
    if (m_engine.engine() != cli::Engine::Podman)
        return u"snapshots need the podman runtime (docker has no volume export)"_s;
    if (m_dataDir.isEmpty())
        return u"snapshots need a data directory for their /workspace archives"_s;
    return {};
}

void ContainerSnapshots::snapshot(const SnapshotSpec &spec)
{
    m_steps.queue().enqueue(spec.instanceId, InstanceOpQueue::Kind::Snapshot,
                            [this, spec](quint64) { take(spec); });
}

void ContainerSnapshots::take(const SnapshotSpec &spec)
{
    const QString instanceId = spec.instanceId;
    const QString reason = unsupportedReason();
    if (!reason.isEmpty() || !InstanceFiles::isSafeId(spec.snapshotId)
        || !InstanceFiles::isSafeId(instanceId)) {
        Q_EMIT failed(spec.snapshotId,
                      reason.isEmpty() ? u"invalid snapshot or instance id"_s : reason);
        return m_steps.queue().end(instanceId);
    }
    const QString folder = QFileInfo(archiveOf(spec.snapshotId)).absolutePath();
    if (!QDir().mkpath(folder)) {
        Q_EMIT failed(spec.snapshotId, u"cannot create %1"_s.arg(folder));
        return m_steps.queue().end(instanceId);
    }
    auto job = std::make_shared<Job>();
    job->spec = spec;
    m_engine.findContainer(
        instanceId,
        [this, job](bool ok, const QString &findError, const QList<cli::ContainerInfo> &found) {
            if (!ok)
                return fail(job, findError);
            if (found.isEmpty())
                return fail(job, u"the instance has no container"_s);
            job->containerId = found.first().containerId;
            pauseThenCommit(job, found.first().running);
        });
}

void ContainerSnapshots::pauseThenCommit(const JobPtr &job, bool running)
{
    if (!running)
        return commit(job);
    // Frozen for both copies, so the disk and /workspace are the same moment's; processes and
    // SSH sessions resume where they were. Where the engine cannot pause (a cgroup v1 rootless
    // host), the copies are taken live.
    m_engine.run({u"pause"_s, job->containerId}, [this, job](const ProcessResult &p) {
        job->paused = p.ok();
        job->sizes.paused = p.ok();
        if (!p.ok())
            qCWarning(lcCli).noquote() << "snapshot of a running instance without pausing it:"
                                       << EngineCommands::describe(p, m_engine.what(u"pause"_s));
        commit(job);
    });
}

void ContainerSnapshots::commit(const JobPtr &job)
{
    // The token of the instance that was snapshotted is not the restored one's: cleared.
    m_engine.runSnapshotStep(
        {u"commit"_s, u"-q"_s, u"--pause=false"_s, u"-c"_s,
         u"LABEL cardhour.snapshot=%1"_s.arg(job->spec.snapshotId), u"-c"_s,
         u"ENV CARDHOUR_APP_TOKEN="_s, job->containerId, box::snapshotImage(job->spec.snapshotId)},
        [this, job](const ProcessResult &c) {
            if (!c.ok())
                return fail(job, EngineCommands::describe(c, m_engine.what(u"commit"_s)));
            exportWorkspace(job);
        },
        kSnapshotStepTimeoutMs);
}

void ContainerSnapshots::exportWorkspace(const JobPtr &job)
{
    const QString target = archiveOf(job->spec.snapshotId);
    // Made 0600 by us before the engine writes into it (it keeps the mode): a whole /workspace
    // is its owner's alone.
    QFile part(target + u".part"_s);
    if (!part.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !part.setPermissions(QFile::ReadOwner | QFile::WriteOwner))
        return fail(job, u"cannot create %1"_s.arg(part.fileName()));
    part.close();
    m_volumes.runOnWorkspace(
        job->spec.instanceId,
        {u"volume"_s, u"export"_s, box::volumeName(job->spec.instanceId), u"--output"_s,
         target + u".part"_s},
        [this, job](const ProcessResult &ex) { exported(job, ex); }, kSnapshotStepTimeoutMs, true);
}

void ContainerSnapshots::exported(const JobPtr &job, const ProcessResult &result)
{
    if (!result.ok())
        return fail(job, EngineCommands::describe(result, m_engine.what(u"volume export"_s)));
    const QString target = archiveOf(job->spec.snapshotId);
    QFile::remove(target);
    if (!QFile::rename(target + u".part"_s, target))
        return fail(job, u"cannot move the /workspace archive into place at %1"_s.arg(target));
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    job->sizes.workspaceBytes = QFileInfo(target).size();
    if (!job->paused)
        return measure(job);
    m_engine.run({u"unpause"_s, job->containerId}, [this, job](const ProcessResult &up) {
        if (!up.ok())
            qCWarning(lcCli).noquote() << "cannot unpause" << job->spec.instanceId << ":"
                                       << EngineCommands::describe(up, m_engine.what(u"unpause"_s));
        job->paused = false;
        measure(job);
    });
}

void ContainerSnapshots::measure(const JobPtr &job)
{
    // The disk's share: what the commit added over the catalog image.
    m_engine.run(
        {u"image"_s, u"inspect"_s, u"--format"_s, u"{{.Size}}"_s,
         box::snapshotImage(job->spec.snapshotId), m_imagePrefix + job->spec.image + u":latest"_s},
        [this, job](const ProcessResult &inspect) {
            const QList<QByteArray> lines = inspect.out.trimmed().split('\n');
            const qint64 total = lines.value(0).trimmed().toLongLong();
            if (total <= 0)
                return fail(job,
                            EngineCommands::describe(inspect, m_engine.what(u"image inspect"_s)));
            const qint64 base = lines.size() > 1 ? lines.at(1).trimmed().toLongLong() : 0;
            job->sizes.diskBytes = std::max<qint64>(0, total - base);
            Q_EMIT taken(job->spec.snapshotId, job->sizes);
            m_steps.queue().end(job->spec.instanceId);
        });
}

void ContainerSnapshots::fail(const JobPtr &job, const QString &why)
{
    const QString sid = job->spec.snapshotId;
    QFile::remove(archiveOf(sid) + u".part"_s);
    QFile::remove(archiveOf(sid));
    QDir().rmdir(QFileInfo(archiveOf(sid)).absolutePath());
    auto report = [this, job, why] {
        m_engine.run({u"rmi"_s, box::snapshotImage(job->spec.snapshotId)},
                     [this, job, why](const ProcessResult &) {
                         qCWarning(lcCli).noquote()
                             << "snapshot" << job->spec.snapshotId << "failed:" << why;
                         Q_EMIT failed(job->spec.snapshotId, why);
                         m_steps.queue().end(job->spec.instanceId);
                     });
    };
    if (!job->paused)
        return report();
    m_engine.run({u"unpause"_s, job->containerId}, [report](const ProcessResult &) { report(); });
}

void ContainerSnapshots::remove(const QString &snapshotId)
{
    QTimer::singleShot(0, this, [this, snapshotId] { removeAttempt(snapshotId, 1); });
}

void ContainerSnapshots::removeAttempt(const QString &snapshotId, int attempt)
{
    if (!InstanceFiles::isSafeId(snapshotId) || m_dataDir.isEmpty()) {
        Q_EMIT failed(snapshotId, u"invalid snapshot id"_s);
        return;
    }
    m_engine.run(
        {u"rmi"_s, box::snapshotImage(snapshotId)},
        [this, snapshotId, attempt](const ProcessResult &r) {
            const QString err = QString::fromUtf8(r.err);
            const bool gone = r.ok()
                || (r.started && !r.timedOut && err.contains(u"not known"_s, Qt::CaseInsensitive));
            if (!gone) {
                // A terminated instance restored from it may still be on its way out.
                if (err.contains(u"in use"_s, Qt::CaseInsensitive) && attempt < kRemoveRetries) {
                    QTimer::singleShot(kRemoveRetryDelayMs, this, [this, snapshotId, attempt] {
                        removeAttempt(snapshotId, attempt + 1);
                    });
                    return;
                }
                Q_EMIT failed(snapshotId, EngineCommands::describe(r, m_engine.what(u"rmi"_s)));
                return;
            }
            const QString dir = QFileInfo(archiveOf(snapshotId)).absolutePath();
            if (QFileInfo::exists(dir) && !QDir(dir).removeRecursively()) {
                Q_EMIT failed(snapshotId, u"cannot delete %1"_s.arg(dir));
                return;
            }
            Q_EMIT removed(snapshotId);
        });
}

void ContainerSnapshots::restoreWorkspace(const std::shared_ptr<Launch> &launch,
                                          std::function<void()> then)
{
    const QString archive = archiveOf(launch->spec.snapshotId);
    m_volumes.runOnWorkspace(
        launch->id(), {u"volume"_s, u"import"_s, box::volumeName(launch->id()), archive},
        [this, launch, then](const ProcessResult &r) {
            if (m_steps.abandoned(*launch))
                return;
            if (r.ok())
                return then();
            // Not left half filled: the next attempt makes the volume and imports again.
            const QString reason = EngineCommands::describe(
                r, m_engine.what(u"volume import (the snapshot's /workspace)"_s));
            m_engine.run({u"volume"_s, u"rm"_s, box::volumeName(launch->id())},
                         [this, launch, reason](const ProcessResult &) {
                             m_steps.fail(launch, reason, false);
                         });
        },
        kSnapshotStepTimeoutMs);
}

} // namespace cardhour::sim
