#pragma once

#include "runtime/ContainerRuntime.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class BillingTick;
class Clock;
class HardwareCheck;
class Database;
class InstanceRecords;
class InstanceViews;
class Meter;
class StorageFees;

// What the runtime reports about instances, taken into their rows and their bill: the launch's
// stages, readiness (billing starts at `running`), a failed launch, a finished stop, a disk that
// outgrew its size; and reconcile(), the rows brought in line with what the runtime lists.
class RuntimeReports : public QObject
{
    Q_OBJECT
public:
    RuntimeReports(Database &db, Meter &meter, ContainerRuntime &runtime, InstanceRecords &records,
                   StorageFees &storage, InstanceViews &views, BillingTick &tick,
                   const Clock &clock, QObject *parent = nullptr);

    // Brings the rows in line with what the runtime lists (after a restart, and periodically):
    // instances whose container stopped or vanished are billed up to the last second the
    // provider saw them running and marked stopped/failed; launches cut short by a restart
    // fail; containers of terminated instances are removed, ones without a row are stopped
    // and kept (quarantined: never a volume deleted without its row).
    void reconcile(bool atStartup = true);
    // After another provider process wrote to the shared database: what this process's
    // runtime runs follows the rows (stopped, terminated or started elsewhere meanwhile).
    void followOtherProviders();
    // With a check, a box that is ready is billed only once the check of what it got passes;
    // a runtime that cannot look inside its boxes is not checked. Without one: at once.
    void setHardwareCheck(HardwareCheck *check) { m_check = check; }

private:
    QVariant hostBinding() const;
    void onStage(const QString &instanceId, const QString &stage);
    void onReady(const QString &instanceId, const SshEndpoint &ssh);
    void onHardwareInspected(const QString &instanceId, const BoxHardware &found);
    // `running` and its billing segment, in one transaction (false: the row moved on).
    void goRunning(const QString &instanceId, const SshEndpoint &ssh);
    void onFailed(const QString &instanceId, const QString &reason);
    void onStopped(const QString &instanceId);
    // The container's own disk grew past the instance's: stopped (disk_full), data kept.
    void onDiskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes);

    // One reconcile() pass: its moment, and what it does after its transaction.
    struct Followups
    {
        qint64 nowMs = 0;
        QStringList changed, toRemove, toStop, seenRunning, toQuarantine;
    };
    // One row of reconcile(): its state against whether its container exists and runs.
    void reconcileRow(const QString &id, const QString &state, const QString &userId,
                      const QString &reason, const QHash<QString, bool> &containers, bool atStartup,
                      Followups &out);
    // A running or stopping row whose container no longer runs: stopped (or failed), billed up
    // to the last second the provider saw it run.
    void endLostRun(const QString &id, const QString &state, const QString &userId,
                    const QString &reason, bool exists, bool atStartup, Followups &out);

    Database &m_db;
    Meter &m_meter;
    ContainerRuntime &m_runtime;
    InstanceRecords &m_records;
    StorageFees &m_storage;
    InstanceViews &m_views;
    BillingTick &m_tick;
    const Clock &m_clock;
    HardwareCheck *m_check = nullptr;
    QHash<QString, SshEndpoint> m_awaitingCheck; // ready boxes being checked: their endpoint
};

} // namespace cardhour::sim
