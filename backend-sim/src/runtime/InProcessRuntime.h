#pragma once

#include "ContainerRuntime.h"

#include <QHash>
#include <QSet>

namespace cardhour::sim {

// Runs no container: it walks instances through the lifecycle on the event loop so the
// state machine and billing can be exercised before a container runtime exists, and in unit
// tests. Its instances have no SSH endpoint and die with the provider process. Selected with
// `cardhour-sim --runtime inprocess`.
//
// With a data directory (setDataDir) each instance gets two real folders standing in for its
// container disk and /workspace, <dataDir>/inprocess/<id>/{disk,workspace}: a snapshot copies
// them to <dataDir>/snapshots/<snapshot id>/inprocess/, a restore copies them back, and their
// sizes are what the files there take. Without one it takes no snapshots.
class InProcessRuntime final : public ContainerRuntime
{
    Q_OBJECT
public:
    explicit InProcessRuntime(QObject *parent = nullptr);

    QString name() const override;
    bool outlivesProvider() const override { return false; }
    void create(const InstanceSpec &spec) override;
    void start(const InstanceSpec &spec) override;
    void stop(const QString &instanceId) override;
    void remove(const QString &instanceId) override;
    bool isRunning(const QString &instanceId) const override;
    // What this process runs or keeps now. (Its inventory() stays empty: after a restart,
    // which is when reconcile() reads it, its instances died with the provider.)
    QStringList instancesHere() const override { return m_known.values(); }
    // Its "box" is the spec it ran: the hardware check reads what it was given (a shortfall
    // included), /workspace being of the size it was given.
    bool inspectsHardware() const override { return true; }
    void inspectHardware(const QString &instanceId) override;
    // Instances it still knows, and those whose folders are still on disk.
    void findLeftovers() override;

    void setDataDir(const QString &dataDir) { m_dataDir = dataDir; }
    QString instanceDir(const QString &instanceId) const; // empty without a data directory
    // Under the instance's disk folder: <dir>/disk/run/cardhour/notices/<name>.
    void writeNotice(const QString &instanceId, const QString &name,
                     const QByteArray &content) override;
    QString snapshotsUnsupportedReason() const override;
    void snapshot(const SnapshotSpec &spec) override;
    void removeSnapshot(const QString &snapshotId) override;

    // Test hooks: the next create/start (anyone's) fails with `reason`; or holds the instance
    // in its current stage until release() (to observe creating/starting from outside).
    void failNext(const QString &reason) { failNextLaunch(reason); }
    void setHold(bool hold) { m_hold = hold; }
    void release();
    // What the provider last asked this runtime to run for an instance (what a container
    // runtime would have been given: cards, keys, datasets).
    InstanceSpec lastSpec(const QString &instanceId) const { return m_specs.value(instanceId); }

private:
    void launch(const InstanceSpec &spec, bool fresh);
    QString snapshotDir(const QString &snapshotId) const;
    void finish(const QString &instanceId);

    QHash<QString, InstanceSpec> m_specs;
    QSet<QString> m_running;
    QSet<QString> m_known;
    QStringList m_held;
    bool m_hold = false;
    QString m_dataDir;
};

} // namespace cardhour::sim
