#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "InstanceFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;

// Snapshots: an instance's container disk as a committed image, its /workspace as a tar.

namespace cardhour::sim {

using namespace clidetail;

namespace {
// A commit of a big disk or an export of a big /workspace takes a while; not forever.
constexpr int kSnapshotStepTimeoutMs = 30 * 60 * 1000;
constexpr int kRemoveRetries = 20;
constexpr int kRemoveRetryDelayMs = 3000;

struct SnapshotJob
{
    SnapshotSpec spec;
    QString containerId;
    bool paused = false;
    SnapshotSizes sizes;
};
} // namespace

QString CliRuntime::snapshotImage(const QString &snapshotId)
{
    // Image names must be lower case; snapshot ids are UUIDs.
    return u"localhost/cardhour-snapshot/"_s + snapshotId.toLower() + u":latest"_s;
}

QString CliRuntime::snapshotArchive(const QString &dataDir, const QString &snapshotId)
{
    return QDir(dataDir).filePath(u"snapshots/%1/workspace.tar"_s.arg(snapshotId));
}

QString CliRuntime::snapshotsUnsupportedReason() const
{
    // docker has no `volume export/import`; a helper container could stand in, not done yet.
    if (m_options.engine != cli::Engine::Podman)
        return u"snapshots need the podman runtime (docker has no volume export)"_s;
    if (m_options.dataDir.isEmpty())
        return u"snapshots need a data directory for their /workspace archives"_s;
    return {};
}

void CliRuntime::snapshot(const SnapshotSpec &spec)
{
    // Queued with the instance's own requests: a stop or terminate asked for after the
    // snapshot waits until the disk and /workspace are copied.
    enqueue(spec.instanceId, OpKind::Snapshot,
            [this, spec](quint64 token) { doSnapshot(spec, token); });
}

void CliRuntime::doSnapshot(const SnapshotSpec &spec, quint64)
{
    const QString instanceId = spec.instanceId;
    const QString reason = snapshotsUnsupportedReason();
    if (!reason.isEmpty() || !InstanceFiles::isSafeId(spec.snapshotId)
        || !InstanceFiles::isSafeId(instanceId)) {
        Q_EMIT snapshotFailed(spec.snapshotId,
                              reason.isEmpty() ? u"invalid snapshot or instance id"_s : reason);
        return endOp(instanceId);
    }
    const QString archive = snapshotArchive(m_options.dataDir, spec.snapshotId);
    if (!QDir().mkpath(QFileInfo(archive).absolutePath())) {
        Q_EMIT snapshotFailed(spec.snapshotId,
                              u"cannot create %1"_s.arg(QFileInfo(archive).absolutePath()));
        return endOp(instanceId);
    }
    auto job = std::make_shared<SnapshotJob>();
    job->spec = spec;

    // Every way out: what was half made is deleted, the container is unpaused, the op ends.
    auto fail = [this, job](const QString &why) {
        const QString sid = job->spec.snapshotId;
        QFile::remove(snapshotArchive(m_options.dataDir, sid) + u".part"_s);
        QFile::remove(snapshotArchive(m_options.dataDir, sid));
        QDir().rmdir(QFileInfo(snapshotArchive(m_options.dataDir, sid)).absolutePath());
        auto report = [this, job, why] {
            runCli({u"rmi"_s, snapshotImage(job->spec.snapshotId)},
                   [this, job, why](const ProcResult &) {
                       qCWarning(lcCli).noquote()
                           << "snapshot" << job->spec.snapshotId << "failed:" << why;
                       Q_EMIT snapshotFailed(job->spec.snapshotId, why);
                       endOp(job->spec.instanceId);
                   });
        };
        if (!job->paused)
            return report();
        runCli({u"unpause"_s, job->containerId}, [report](const ProcResult &) { report(); });
    };

    findContainer(
        instanceId,
        [this, job, fail](bool ok, const QString &findError, const QList<ContainerInfo> &found) {
            if (!ok)
                return fail(findError);
            if (found.isEmpty())
                return fail(u"the instance has no container"_s);
            const ContainerInfo info = found.first();
            job->containerId = info.containerId;

            auto exportWorkspace = [this, job, fail] {
                const QString target = snapshotArchive(m_options.dataDir, job->spec.snapshotId);
                // Made 0600 by us before the engine writes into it (it keeps the mode): a whole
                // /workspace is its owner's alone.
                QFile part(target + u".part"_s);
                if (!part.open(QIODevice::WriteOnly | QIODevice::Truncate)
                    || !part.setPermissions(QFile::ReadOwner | QFile::WriteOwner))
                    return fail(u"cannot create %1"_s.arg(part.fileName()));
                part.close();
                runOnWorkspace(
                    job->spec.instanceId,
                    {u"volume"_s, u"export"_s, volumeName(job->spec.instanceId), u"--output"_s,
                     target + u".part"_s},
                    [this, job, fail, target](const ProcResult &ex) {
                        if (!ex.ok())
                            return fail(describe(ex, what(u"volume export"_s)));
                        QFile::remove(target);
                        if (!QFile::rename(target + u".part"_s, target))
                            return fail(
                                u"cannot move the /workspace archive into place at %1"_s.arg(
                                    target));
                        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
                        job->sizes.workspaceBytes = QFileInfo(target).size();
                        auto measure = [this, job, fail] {
                            // The disk's share: what the commit added over the catalog image.
                            runCli({u"image"_s, u"inspect"_s, u"--format"_s, u"{{.Size}}"_s,
                                    snapshotImage(job->spec.snapshotId), imageTag(job->spec.image)},
                                   [this, job, fail](const ProcResult &inspect) {
                                       const QList<QByteArray> lines =
                                           inspect.out.trimmed().split('\n');
                                       const qint64 total = lines.value(0).trimmed().toLongLong();
                                       if (total <= 0)
                                           return fail(describe(inspect, what(u"image inspect"_s)));
                                       const qint64 base = lines.size() > 1
                                           ? lines.at(1).trimmed().toLongLong()
                                           : 0;
                                       job->sizes.diskBytes = std::max<qint64>(0, total - base);
                                       Q_EMIT snapshotTaken(job->spec.snapshotId, job->sizes);
                                       endOp(job->spec.instanceId);
                                   });
                        };
                        if (!job->paused)
                            return measure();
                        runCli({u"unpause"_s, job->containerId},
                               [this, job, measure](const ProcResult &up) {
                                   if (!up.ok())
                                       qCWarning(lcCli).noquote()
                                           << "cannot unpause" << job->spec.instanceId << ":"
                                           << describe(up, what(u"unpause"_s));
                                   job->paused = false;
                                   measure();
                               });
                    },
                    kSnapshotStepTimeoutMs, true);
            };
            auto commit = [this, job, fail, exportWorkspace] {
                // The token of the instance that was snapshotted is not the restored one's:
                // cleared.
                runSnapshotStep(
                    {u"commit"_s, u"-q"_s, u"--pause=false"_s, u"-c"_s,
                     u"LABEL cardhour.snapshot=%1"_s.arg(job->spec.snapshotId), u"-c"_s,
                     u"ENV CARDHOUR_APP_TOKEN="_s, job->containerId,
                     snapshotImage(job->spec.snapshotId)},
                    [this, fail, exportWorkspace](const ProcResult &c) {
                        if (!c.ok())
                            return fail(describe(c, what(u"commit"_s)));
                        exportWorkspace();
                    },
                    kSnapshotStepTimeoutMs);
            };
            if (!info.running)
                return commit();
            // Frozen for both copies, so the disk and /workspace are the same moment's; processes
            // and SSH sessions resume where they were. Where the engine cannot pause (a cgroup v1
            // rootless host), the copies are taken live.
            runCli({u"pause"_s, job->containerId}, [this, job, commit](const ProcResult &p) {
                job->paused = p.ok();
                job->sizes.paused = p.ok();
                if (!p.ok())
                    qCWarning(lcCli).noquote()
                        << "snapshot of a running instance without pausing it:"
                        << describe(p, what(u"pause"_s));
                commit();
            });
        });
}

void CliRuntime::removeSnapshot(const QString &snapshotId)
{
    QTimer::singleShot(0, this, [this, snapshotId] { doRemoveSnapshot(snapshotId, 1); });
}

void CliRuntime::doRemoveSnapshot(const QString &snapshotId, int attempt)
{
    if (!InstanceFiles::isSafeId(snapshotId) || m_options.dataDir.isEmpty()) {
        Q_EMIT snapshotFailed(snapshotId, u"invalid snapshot id"_s);
        return;
    }
    runCli({u"rmi"_s, snapshotImage(snapshotId)}, [this, snapshotId, attempt](const ProcResult &r) {
        const QString err = QString::fromUtf8(r.err);
        const bool gone = r.ok()
            || (r.started && !r.timedOut && err.contains(u"not known"_s, Qt::CaseInsensitive));
        if (!gone) {
            // A terminated instance restored from it may still be on its way out.
            if (err.contains(u"in use"_s, Qt::CaseInsensitive) && attempt < kRemoveRetries) {
                QTimer::singleShot(kRemoveRetryDelayMs, this, [this, snapshotId, attempt] {
                    doRemoveSnapshot(snapshotId, attempt + 1);
                });
                return;
            }
            Q_EMIT snapshotFailed(snapshotId, describe(r, what(u"rmi"_s)));
            return;
        }
        const QString dir =
            QFileInfo(snapshotArchive(m_options.dataDir, snapshotId)).absolutePath();
        if (QFileInfo::exists(dir) && !QDir(dir).removeRecursively()) {
            Q_EMIT snapshotFailed(snapshotId, u"cannot delete %1"_s.arg(dir));
            return;
        }
        Q_EMIT snapshotRemoved(snapshotId);
    });
}

void CliRuntime::importWorkspace(const std::shared_ptr<Launch> &launch)
{
    const QString archive = snapshotArchive(m_options.dataDir, launch->spec.snapshotId);
    runOnWorkspace(
        launch->id(), {u"volume"_s, u"import"_s, volumeName(launch->id()), archive},
        [this, launch](const ProcResult &r) {
            const QString id = launch->id();
            if (!current(id, launch->token))
                return endOp(id);
            if (r.ok())
                return runContainer(launch, 1);
            // Not left half filled: the next attempt makes the volume and imports again.
            const QString reason =
                describe(r, what(u"volume import (the snapshot's /workspace)"_s));
            runCli(
                {u"volume"_s, u"rm"_s, volumeName(id)},
                [this, launch, reason](const ProcResult &) { failLaunch(launch, reason, false); });
        },
        kSnapshotStepTimeoutMs);
}

} // namespace cardhour::sim
