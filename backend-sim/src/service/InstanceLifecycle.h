#pragma once

#include "Catalog.h"
#include "StopPolicies.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class AccountBill;
class BillingTick;
class Clock;
class ContainerRuntime;
class Database;
class Datasets;
class InstanceRecords;
class InstanceViews;
class Interruptions;
class Meter;
class PrivateModels;
class SpendingGuard;
class SshKeys;
class StorageFees;

// What a user asks of an instance: launch, stop, start, terminate, its keys. Each checks money,
// limits and cards and moves the row with a compare-and-swap on its state, together with the
// billing change (a segment opened or closed) in one transaction; the runtime is asked after
// the commit. (Readiness, failures and the end of a stop come from RuntimeReports.)
class InstanceLifecycle : public QObject
{
    Q_OBJECT
public:
    struct CreateRequest
    {
        QString name;
        QString gpuType;
        int gpuCount = 1;
        QString image;
        QStringList sshKeyIds;
        QStringList datasets; // names of shared datasets to mount read-only
        QStringList models; // names of public or the caller's own models to mount read-only
        // Restore from one of the caller's ready snapshots: its disk and /workspace. An empty
        // gpuType / image and a gpuCount of 0 take the snapshot's source's.
        QString snapshotId;
        StopPolicy stopPolicy; // when the provider stops it by itself
        // The cheaper class the provider may interrupt (see Interruptions).
        bool interruptible = false;
        bool restartWhenAvailable = false; // after an interruption, once cards are free
    };

    InstanceLifecycle(Database &db, Meter &meter, const Catalog &catalog, SshKeys &keys,
                      ContainerRuntime &runtime, InstanceRecords &records, InstanceViews &views,
                      AccountBill &bill, SpendingGuard &guard, BillingTick &tick,
                      StorageFees &storage, StopPolicies &stops, Interruptions &interruptions,
                      const Clock &clock, QObject *parent = nullptr);
    // Where create() looks datasets up; without one, asking for a dataset is refused.
    void setDatasets(const Datasets *datasets) { m_datasets = datasets; }
    // Where create() looks models up; without one, asking for a model is refused.
    void setModels(PrivateModels *models) { m_models = models; }

    // Validates and records a new instance (state `creating`) inside the caller's transaction
    // if there is one; the runtime is asked to create it once that commits.
    QJsonObject create(const QString &userId, const CreateRequest &request);
    QJsonObject stop(const QString &userId, const QString &instanceId);
    QJsonObject start(const QString &userId, const QString &instanceId);
    QJsonObject terminate(const QString &userId, const QString &instanceId);
    // Installs or withdraws one of the caller's keys; a live instance accepts the change at once.
    QJsonObject addKey(const QString &userId, const QString &instanceId, const QString &keyId);
    QJsonObject removeKey(const QString &userId, const QString &instanceId, const QString &keyId);

private:
    // A create request checked against the catalog, the caller's keys and the libraries, with
    // what its rows need (the snapshot's source filled in, the apps' own datasets and models).
    struct Launch
    {
        CreateRequest request;
        GpuType gpu;
        QStringList keyLines;
        QStringList datasetPaths;
        QList<QPair<QString, QString>> modelMounts;
    };
    Launch prepare(const QString &userId, const CreateRequest &given);
    // The datasets and models the launch mounts, the image's apps' own added.
    void addMounts(const QString &userId, Launch &launch);
    // The new instance's rows, inside the create's transaction; returns its id.
    QString insert(const QString &userId, const Launch &launch, qint64 nowMs);
    // Lends the cards a start needs (409 when they are not free); inside its transaction.
    void lendForStart(const QString &instanceId, const QString &state, const GpuType &gpu,
                      int count);

    Database &m_db;
    Meter &m_meter;
    const Catalog &m_catalog;
    SshKeys &m_keys;
    ContainerRuntime &m_runtime;
    InstanceRecords &m_records;
    InstanceViews &m_views;
    AccountBill &m_bill;
    SpendingGuard &m_guard;
    BillingTick &m_tick;
    StorageFees &m_storage;
    StopPolicies &m_stops;
    Interruptions &m_interruptions;
    const Clock &m_clock;
    const Datasets *m_datasets = nullptr;
    PrivateModels *m_models = nullptr;
};

} // namespace cardhour::sim
