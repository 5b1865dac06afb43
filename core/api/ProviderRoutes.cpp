#include "api/ProviderClient.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

// ProviderClient's requests, one per route of the provider's API, and what each answer parses
// to; ProviderClient.cpp sends them and reads the answers.

namespace cardhour::core {

// ---- parsers ---------------------------------------------------------------------------------

namespace {

template<typename T>
std::optional<T> objectOf(const QJsonDocument &doc, QString *problem)
{
    if (!doc.isObject()) {
        *problem = u"expected a JSON object"_s;
        return std::nullopt;
    }
    return T::fromJson(doc.object());
}

template<typename T>
std::optional<QList<T>> arrayOf(const QJsonDocument &doc, QString *problem)
{
    if (!doc.isArray()) {
        *problem = u"expected a JSON array"_s;
        return std::nullopt;
    }
    QList<T> out;
    const QJsonArray array = doc.array();
    for (const QJsonValue &v : array) {
        if (!v.isObject()) {
            *problem = u"expected an array of objects"_s;
            return std::nullopt;
        }
        out.append(T::fromJson(v.toObject()));
    }
    return out;
}

std::optional<NoContent> nothing(const QJsonDocument &, QString *)
{
    return NoContent{};
}

QString pathSegment(const QString &id)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

} // namespace

template<typename T>
Reply<T> *ProviderClient::call(const QByteArray &method, const QString &path,
                               const QJsonDocument &body, Auth auth, const QString &idempotencyKey,
                               typename Reply<T>::Parser parser, const QUrlQuery &query)
{
    auto *reply = new Reply<T>(std::move(parser), this);
    reply->m_idempotencyKey = idempotencyKey;
    const QByteArray payload = body.isNull() ? QByteArray() : body.toJson(QJsonDocument::Compact);
    start(reply, method, endpoint(m_baseUrl, path, query), payload, auth);
    return reply;
}

// ---- routes ----------------------------------------------------------------------------------

Reply<Health> *ProviderClient::health()
{
    return call<Health>("GET", u"/v1/health"_s, {}, Auth::None, {}, objectOf<Health>);
}

Reply<SandboxProofAnswer> *ProviderClient::proveSandbox(const QByteArray &nonce)
{
    const QJsonObject body{{u"nonce"_s, QString::fromLatin1(nonce)}};
    return call<SandboxProofAnswer>("POST", u"/v1/_sandbox/prove"_s, QJsonDocument(body),
                                    Auth::None, {}, objectOf<SandboxProofAnswer>);
}

Reply<AuthSession> *ProviderClient::signUp(const QString &email, const QString &password,
                                           const std::optional<proof_of_work::Answer> &proof)
{
    QJsonObject body{{u"email"_s, email}, {u"password"_s, password}};
    if (proof)
        body.insert(u"proof"_s,
                    QJsonObject{{u"nonce"_s, QString::fromLatin1(proof->nonce)},
                                {u"counter"_s, QString::fromLatin1(proof->counter)}});
    return call<AuthSession>("POST", u"/v1/auth/signup"_s, QJsonDocument(body), Auth::None, {},
                             objectOf<AuthSession>);
}

Reply<AuthSession> *ProviderClient::logIn(const QString &email, const QString &password,
                                          const QString &deviceToken)
{
    QJsonObject body{{u"email"_s, email}, {u"password"_s, password}};
    if (!deviceToken.isEmpty())
        body.insert(u"device_token"_s, deviceToken);
    return call<AuthSession>("POST", u"/v1/auth/login"_s, QJsonDocument(body), Auth::None, {},
                             objectOf<AuthSession>);
}

Reply<NoContent> *ProviderClient::logOut()
{
    return call<NoContent>("POST", u"/v1/auth/logout"_s, {}, Auth::Bearer, {}, nothing);
}

Reply<Account> *ProviderClient::me()
{
    return call<Account>("GET", u"/v1/me"_s, {}, Auth::Bearer, {}, objectOf<Account>);
}

Reply<QList<GpuType>> *ProviderClient::gpuTypes()
{
    return call<QList<GpuType>>("GET", u"/v1/catalog/gpus"_s, {}, Auth::Bearer, {},
                                arrayOf<GpuType>);
}

Reply<QList<Dataset>> *ProviderClient::datasets()
{
    return call<QList<Dataset>>("GET", u"/v1/datasets"_s, {}, Auth::Bearer, {}, arrayOf<Dataset>);
}

Reply<QList<LibraryModel>> *ProviderClient::models()
{
    return call<QList<LibraryModel>>("GET", u"/v1/models"_s, {}, Auth::Bearer, {},
                                     arrayOf<LibraryModel>);
}

Reply<LibraryModel> *ProviderClient::model(const QString &id)
{
    return call<LibraryModel>("GET", u"/v1/models/"_s + pathSegment(id), {}, Auth::Bearer, {},
                              objectOf<LibraryModel>);
}

Reply<LibraryModel> *ProviderClient::deleteModel(const QString &id)
{
    return call<LibraryModel>("DELETE", u"/v1/models/"_s + pathSegment(id), {}, Auth::Bearer, {},
                              objectOf<LibraryModel>);
}

Reply<ModelUpload> *ProviderClient::createModelUpload(const NewModelUpload &upload)
{
    return call<ModelUpload>("POST", u"/v1/model-uploads"_s, QJsonDocument(upload.toJson()),
                             Auth::Bearer, {}, objectOf<ModelUpload>);
}

Reply<ModelUpload> *ProviderClient::modelUpload(const QString &id)
{
    return call<ModelUpload>("GET", u"/v1/model-uploads/"_s + pathSegment(id), {}, Auth::Bearer, {},
                             objectOf<ModelUpload>);
}

Reply<QList<ModelUpload>> *ProviderClient::modelUploads()
{
    return call<QList<ModelUpload>>("GET", u"/v1/model-uploads"_s, {}, Auth::Bearer, {},
                                    arrayOf<ModelUpload>);
}

Reply<ModelUpload> *ProviderClient::putModelUploadChunk(const QString &id, qint64 offset,
                                                        const QByteArray &chunk)
{
    auto *reply = new Reply<ModelUpload>(objectOf<ModelUpload>, this);
    const QByteArray sha = QCryptographicHash::hash(chunk, QCryptographicHash::Sha256).toHex();
    start(reply, "PUT", endpoint(m_baseUrl, u"/v1/model-uploads/"_s + pathSegment(id), {}), chunk,
          Auth::Bearer,
          {{"Content-Type"_ba, "application/octet-stream"_ba},
           {"Upload-Offset"_ba, QByteArray::number(offset)},
           {"Upload-Chunk-SHA256"_ba, sha}});
    return reply;
}

Reply<NoContent> *ProviderClient::deleteModelUpload(const QString &id)
{
    return call<NoContent>("DELETE", u"/v1/model-uploads/"_s + pathSegment(id), {}, Auth::Bearer,
                           {}, nothing);
}

Reply<QList<Image>> *ProviderClient::images()
{
    return call<QList<Image>>("GET", u"/v1/catalog/images"_s, {}, Auth::Bearer, {}, arrayOf<Image>);
}

Reply<QList<SshKey>> *ProviderClient::sshKeys()
{
    return call<QList<SshKey>>("GET", u"/v1/ssh-keys"_s, {}, Auth::Bearer, {}, arrayOf<SshKey>);
}

Reply<SshKey> *ProviderClient::addSshKey(const QString &name, const QString &publicKey,
                                         const QString &idempotencyKey)
{
    QJsonObject body{{u"public_key"_s, publicKey}};
    if (!name.isEmpty())
        body.insert(u"name"_s, name);
    return call<SshKey>("POST", u"/v1/ssh-keys"_s, QJsonDocument(body), Auth::Bearer,
                        idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey,
                        objectOf<SshKey>);
}

Reply<NoContent> *ProviderClient::deleteSshKey(const QString &keyId)
{
    return call<NoContent>("DELETE", u"/v1/ssh-keys/"_s + pathSegment(keyId), {}, Auth::Bearer, {},
                           nothing);
}

Reply<QList<Instance>> *ProviderClient::instances(bool includeTerminated)
{
    QUrlQuery query;
    if (includeTerminated)
        query.addQueryItem(u"include_terminated"_s, u"true"_s);
    return call<QList<Instance>>("GET", u"/v1/instances"_s, {}, Auth::Bearer, {}, arrayOf<Instance>,
                                 query);
}

Reply<Instance> *ProviderClient::instance(const QString &id)
{
    return call<Instance>("GET", u"/v1/instances/"_s + pathSegment(id), {}, Auth::Bearer, {},
                          objectOf<Instance>);
}

Reply<Instance> *ProviderClient::createInstance(const NewInstance &request,
                                                const QString &idempotencyKey)
{
    return call<Instance>("POST", u"/v1/instances"_s, QJsonDocument(request.toJson()), Auth::Bearer,
                          idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey,
                          objectOf<Instance>);
}

Reply<Instance> *ProviderClient::stopInstance(const QString &id, const QString &idempotencyKey)
{
    return call<Instance>("POST", u"/v1/instances/%1/stop"_s.arg(pathSegment(id)), {}, Auth::Bearer,
                          idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey,
                          objectOf<Instance>);
}

Reply<Instance> *ProviderClient::startInstance(const QString &id, const QString &idempotencyKey)
{
    return call<Instance>(
        "POST", u"/v1/instances/%1/start"_s.arg(pathSegment(id)), {}, Auth::Bearer,
        idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey, objectOf<Instance>);
}

Reply<Instance> *ProviderClient::terminateInstance(const QString &id)
{
    return call<Instance>("DELETE", u"/v1/instances/"_s + pathSegment(id), {}, Auth::Bearer, {},
                          objectOf<Instance>);
}

Reply<QList<Snapshot>> *ProviderClient::snapshots()
{
    return call<QList<Snapshot>>("GET", u"/v1/snapshots"_s, {}, Auth::Bearer, {},
                                 arrayOf<Snapshot>);
}

Reply<Snapshot> *ProviderClient::snapshot(const QString &id)
{
    return call<Snapshot>("GET", u"/v1/snapshots/"_s + pathSegment(id), {}, Auth::Bearer, {},
                          objectOf<Snapshot>);
}

Reply<Snapshot> *ProviderClient::createSnapshot(const QString &instanceId, const QString &name,
                                                const QString &idempotencyKey)
{
    QJsonObject body;
    if (!name.isEmpty())
        body.insert(u"name"_s, name);
    return call<Snapshot>("POST", u"/v1/instances/%1/snapshots"_s.arg(pathSegment(instanceId)),
                          QJsonDocument(body), Auth::Bearer,
                          idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey,
                          objectOf<Snapshot>);
}

Reply<Snapshot> *ProviderClient::deleteSnapshot(const QString &id)
{
    return call<Snapshot>("DELETE", u"/v1/snapshots/"_s + pathSegment(id), {}, Auth::Bearer, {},
                          objectOf<Snapshot>);
}

Reply<QList<ChaosFault>> *ProviderClient::chaosFaults()
{
    return call<QList<ChaosFault>>("GET", u"/v1/chaos/faults"_s, {}, Auth::Bearer, {},
                                   arrayOf<ChaosFault>);
}

Reply<ChaosFault> *ProviderClient::addChaosFault(const NewChaosFault &fault)
{
    return call<ChaosFault>("POST", u"/v1/chaos/faults"_s, QJsonDocument(fault.toJson()),
                            Auth::Bearer, {}, objectOf<ChaosFault>);
}

Reply<ChaosFault> *ProviderClient::clearChaosFault(const QString &id)
{
    return call<ChaosFault>("DELETE", u"/v1/chaos/faults/"_s + pathSegment(id), {}, Auth::Bearer,
                            {}, objectOf<ChaosFault>);
}

Reply<Instance> *ProviderClient::restoreSnapshot(const SnapshotRestore &request,
                                                 const QString &idempotencyKey)
{
    return call<Instance>("POST", u"/v1/instances"_s, QJsonDocument(request.toJson()), Auth::Bearer,
                          idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey,
                          objectOf<Instance>);
}

Reply<Instance> *ProviderClient::addInstanceKey(const QString &instanceId, const QString &keyId)
{
    return call<Instance>("POST", u"/v1/instances/%1/ssh-keys"_s.arg(pathSegment(instanceId)),
                          QJsonDocument(QJsonObject{{u"key_id"_s, keyId}}), Auth::Bearer, {},
                          objectOf<Instance>);
}

Reply<Instance> *ProviderClient::removeInstanceKey(const QString &instanceId, const QString &keyId)
{
    return call<Instance>(
        "DELETE",
        u"/v1/instances/%1/ssh-keys/%2"_s.arg(pathSegment(instanceId), pathSegment(keyId)), {},
        Auth::Bearer, {}, objectOf<Instance>);
}

Reply<InstanceMetrics> *ProviderClient::metrics(const QString &instanceId, const QDateTime &since,
                                                int stepSeconds)
{
    QUrlQuery query;
    if (since.isValid())
        query.addQueryItem(u"since"_s, since.toUTC().toString(Qt::ISODateWithMs));
    query.addQueryItem(u"step"_s, QString::number(qBound(1, stepSeconds, 3600)));
    return call<InstanceMetrics>("GET", u"/v1/instances/%1/metrics"_s.arg(pathSegment(instanceId)),
                                 {}, Auth::Bearer, {}, objectOf<InstanceMetrics>, query);
}

Reply<BillingSummary> *ProviderClient::billingSummary()
{
    return call<BillingSummary>("GET", u"/v1/billing/summary"_s, {}, Auth::Bearer, {},
                                objectOf<BillingSummary>);
}

Reply<LedgerPage> *ProviderClient::ledger(int limit, qint64 before)
{
    QUrlQuery query;
    query.addQueryItem(u"limit"_s, QString::number(limit));
    if (before > 0)
        query.addQueryItem(u"before"_s, QString::number(before));
    return call<LedgerPage>("GET", u"/v1/billing/ledger"_s, {}, Auth::Bearer, {},
                            objectOf<LedgerPage>, query);
}

Reply<TopupResult> *ProviderClient::topUp(qint64 amountMicros, const QString &idempotencyKey)
{
    return call<TopupResult>(
        "POST", u"/v1/billing/topup"_s,
        QJsonDocument(QJsonObject{{u"amount_micros"_s, amountMicros}}), Auth::Bearer,
        idempotencyKey.isEmpty() ? newIdempotencyKey() : idempotencyKey, objectOf<TopupResult>);
}

Reply<SpendingLimits> *ProviderClient::spendingLimits()
{
    return call<SpendingLimits>("GET", u"/v1/spending-limits"_s, {}, Auth::Bearer, {},
                                objectOf<SpendingLimits>);
}

Reply<SpendingLimits> *ProviderClient::setSpendingLimits(const SpendingLimitsChange &change)
{
    return call<SpendingLimits>("PUT", u"/v1/spending-limits"_s, QJsonDocument(change.toJson()),
                                Auth::Bearer, {}, objectOf<SpendingLimits>);
}

Reply<Instance> *ProviderClient::setStopPolicy(const QString &instanceId, const StopPolicy &policy)
{
    return call<Instance>("PUT", u"/v1/instances/%1/stop-policy"_s.arg(pathSegment(instanceId)),
                          QJsonDocument(policy.toJson()), Auth::Bearer, {}, objectOf<Instance>);
}

Reply<Instance> *ProviderClient::keepRunning(const QString &instanceId)
{
    return call<Instance>("POST", u"/v1/instances/%1/keep-running"_s.arg(pathSegment(instanceId)),
                          {}, Auth::Bearer, {}, objectOf<Instance>);
}

} // namespace cardhour::core
