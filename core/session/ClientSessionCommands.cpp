// ClientSession, continued: the commands, the window's one way to the provider. Most are the
// ProviderClient call as it is; those whose answer changes what the session holds (an instance,
// the balance) take the answer in first, so no caller has to hand it back.
#include "api/ModelUploader.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"
#include "ssh/SshKeyStore.h"

namespace cardhour::core {

QString ClientSession::newIdempotencyKey()
{
    return ProviderClient::newIdempotencyKey();
}

Reply<Instance> *ClientSession::noting(Reply<Instance> *reply)
{
    // Connected before the caller's onFinished(): the session (and every view that follows it)
    // has the instance by the time the caller reads the answer.
    reply->onFinished(this, [this](const Reply<Instance> &r) {
        if (r.ok())
            noteInstance(r.value());
    });
    return reply;
}

Reply<QList<GpuType>> *ClientSession::gpuTypes()
{
    return m_client->gpuTypes();
}

Reply<QList<Image>> *ClientSession::images()
{
    return m_client->images();
}

Reply<QList<Dataset>> *ClientSession::datasets()
{
    return m_client->datasets();
}

Reply<QList<LibraryModel>> *ClientSession::models()
{
    return m_client->models();
}

Reply<LibraryModel> *ClientSession::deleteModel(const QString &id)
{
    return m_client->deleteModel(id);
}

Reply<QList<ModelUpload>> *ClientSession::modelUploads()
{
    return m_client->modelUploads();
}

ModelUploader *ClientSession::newModelUploader(QObject *parent)
{
    return new ModelUploader(m_client, parent);
}

Reply<QList<SshKey>> *ClientSession::sshKeys()
{
    return m_client->sshKeys();
}

Reply<SshKey> *ClientSession::uploadSshKey(const SshKeyPair &key, const QString &name)
{
    Reply<SshKey> *reply = SshKeyStore::upload(*m_client, key, name);
    reply->onFinished(this, [this](const Reply<SshKey> &r) {
        if (r.ok())
            Q_EMIT sshKeysChanged();
    });
    return reply;
}

Reply<QList<Instance>> *ClientSession::fetchInstances(bool includeTerminated)
{
    return m_client->instances(includeTerminated);
}

Reply<Instance> *ClientSession::fetchInstance(const QString &id)
{
    return m_client->instance(id);
}

Reply<Instance> *ClientSession::createInstance(const NewInstance &request,
                                               const QString &idempotencyKey)
{
    return noting(m_client->createInstance(request, idempotencyKey));
}

Reply<Instance> *ClientSession::stopInstance(const QString &id)
{
    return noting(m_client->stopInstance(id));
}

Reply<Instance> *ClientSession::startInstance(const QString &id)
{
    return noting(m_client->startInstance(id));
}

Reply<Instance> *ClientSession::terminateInstance(const QString &id)
{
    return noting(m_client->terminateInstance(id));
}

Reply<InstanceMetrics> *ClientSession::metrics(const QString &instanceId, const QDateTime &since,
                                               int stepSeconds)
{
    return m_client->metrics(instanceId, since, stepSeconds);
}

Reply<Instance> *ClientSession::setStopPolicy(const QString &instanceId, const StopPolicy &policy)
{
    return noting(m_client->setStopPolicy(instanceId, policy));
}

Reply<Instance> *ClientSession::keepRunning(const QString &instanceId)
{
    return noting(m_client->keepRunning(instanceId));
}

Reply<QList<Snapshot>> *ClientSession::snapshots()
{
    return m_client->snapshots();
}

Reply<Snapshot> *ClientSession::createSnapshot(const QString &instanceId, const QString &name,
                                               const QString &idempotencyKey)
{
    return m_client->createSnapshot(instanceId, name, idempotencyKey);
}

Reply<Snapshot> *ClientSession::deleteSnapshot(const QString &id)
{
    return m_client->deleteSnapshot(id);
}

Reply<Instance> *ClientSession::restoreSnapshot(const SnapshotRestore &request,
                                                const QString &idempotencyKey)
{
    return noting(m_client->restoreSnapshot(request, idempotencyKey));
}

Reply<LedgerPage> *ClientSession::ledger(int limit, qint64 before)
{
    return m_client->ledger(limit, before);
}

Reply<TopupResult> *ClientSession::topUp(qint64 amountMicros, const QString &idempotencyKey)
{
    Reply<TopupResult> *reply = m_client->topUp(amountMicros, idempotencyKey);
    // The answer carries the live balance: shown now, before the billing event comes.
    reply->onFinished(this, [this](const Reply<TopupResult> &r) {
        if (r.ok())
            applyTopUp(r.value());
    });
    return reply;
}

Reply<SpendingLimits> *ClientSession::spendingLimits()
{
    return m_client->spendingLimits();
}

Reply<SpendingLimits> *ClientSession::setSpendingLimits(const SpendingLimitsChange &change)
{
    return m_client->setSpendingLimits(change);
}

} // namespace cardhour::core
