#pragma once

#include "ContainerRuntime.h"
#include "LaunchSteps.h"

#include <QObject>

#include <functional>
#include <memory>

namespace cardhour::sim {

class WorkspaceVolumes;

// Snapshots (podman only): snapshot() commits the container's disk to the image
// box::snapshotImage(<snapshot id>) and exports its /workspace volume to
// box::snapshotArchive(<dataDir>, <snapshot id>); a running container is paused for both, so
// that the two are one moment's state. A restore runs that image (ContainerLauncher), and a
// /workspace volume it makes anew is imported from that archive (restoreWorkspace).
class ContainerSnapshots final : public QObject
{
    Q_OBJECT
public:
    ContainerSnapshots(LaunchSteps &steps, WorkspaceVolumes &volumes, QString dataDir,
                       QString imagePrefix, QObject *parent = nullptr);

    QString unsupportedReason() const; // empty: this runtime can take them
    // Queued with the instance's own requests: a stop or terminate asked for after the
    // snapshot waits until the disk and /workspace are copied. → taken or failed.
    void snapshot(const SnapshotSpec &spec);
    void remove(const QString &snapshotId); // → removed or failed
    // Fills a launch's new /workspace volume from its snapshot's archive, then `then`.
    void restoreWorkspace(const std::shared_ptr<Launch> &launch, std::function<void()> then);

Q_SIGNALS:
    void taken(const QString &snapshotId, const cardhour::sim::SnapshotSizes &sizes);
    void failed(const QString &snapshotId, const QString &reason);
    void removed(const QString &snapshotId);

private:
    struct Job;
    using JobPtr = std::shared_ptr<Job>;

    void take(const SnapshotSpec &spec);
    void pauseThenCommit(const JobPtr &job, bool running);
    void commit(const JobPtr &job);
    void exportWorkspace(const JobPtr &job);
    void exported(const JobPtr &job, const ProcessResult &result);
    void measure(const JobPtr &job);
    // Every way out: what was half made is deleted, the container is unpaused, the op ends.
    void fail(const JobPtr &job, const QString &why);
    void removeAttempt(const QString &snapshotId, int attempt);
    QString archiveOf(const QString &snapshotId) const;

    LaunchSteps &m_steps;
    EngineCommands &m_engine;
    WorkspaceVolumes &m_volumes;
    QString m_dataDir;
    QString m_imagePrefix;
};

} // namespace cardhour::sim
