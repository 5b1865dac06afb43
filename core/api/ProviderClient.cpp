#include "api/ProviderClient.h"

#include "api/TlsTrust.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUuid>

#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::core {

// ---- ApiReply -------------------------------------------------------------------------------

ApiReply::ApiReply(QObject *parent) : QObject(parent) {}

ApiReply::~ApiReply()
{
    // Destroyed while in flight (its client went away): drop the request too.
    if (m_network && !m_network->isFinished()) {
        m_network->disconnect(this);
        m_network->abort();
    }
}

void ApiReply::abort()
{
    if (m_finished)
        return;
    m_cancelled = true;
    if (m_network && !m_network->isFinished())
        m_network->abort(); // finished() runs the usual path, which sees m_cancelled
    else
        finishWith(ApiError::cancelled());
}

void ApiReply::finishWith(const ApiError &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_error = error;
    if (m_timer)
        m_timer->stop();
    if (m_network)
        m_network->deleteLater();
    Q_EMIT finished();
    deleteLater();
}

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

bool ProviderClient::isLoopback(const QUrl &url)
{
    const QString host = url.host();
    if (host == u"localhost"_s)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString ProviderClient::insecureUrlProblem(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    if (scheme == u"https"_s)
        return {};
    if (scheme == u"http"_s && isLoopback(url))
        return {};
    if (scheme == u"http"_s)
        return tr("CardHour does not use plain http:// with %1, which is not on this computer: "
                  "your password and token would cross the network unencrypted, readable by "
                  "anyone on the way. Use the provider's https:// address.")
            .arg(url.host());
    return tr("%1 is not an http:// or https:// address.").arg(url.toDisplayString());
}

// ---- ProviderClient --------------------------------------------------------------------------

ProviderClient::ProviderClient(QObject *parent)
    : QObject(parent), m_nam(new QNetworkAccessManager(this))
{}

ProviderClient::~ProviderClient()
{
    // Replies in flight go first, each aborting its request, so that no network reply can
    // report back into a half-destroyed client.
    const QList<ApiReply *> replies = findChildren<ApiReply *>(Qt::FindDirectChildrenOnly);
    for (ApiReply *reply : replies)
        delete reply;
}

void ProviderClient::setBaseUrl(const QUrl &url)
{
    m_baseUrl = url;
    // A proxy from the environment must never see the local sandbox (or its token).
    m_nam->setProxy(isLoopback(url) ? QNetworkProxy(QNetworkProxy::NoProxy) : QNetworkProxy());
}

void ProviderClient::setToken(const QString &token)
{
    m_token = token;
}

void ProviderClient::setCaCertificates(const QList<QSslCertificate> &certificates)
{
    m_caCertificates = certificates;
    m_tls.reset();
}

QUrl ProviderClient::endpoint(const QUrl &base, const QString &path, const QUrlQuery &query)
{
    QUrl url = base;
    QString prefix = base.path();
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    url.setPath(prefix + path);
    url.setQuery(query);
    url.setFragment({});
    return url;
}

QString ProviderClient::newIdempotencyKey()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

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

void ProviderClient::start(ApiReply *reply, const QByteArray &method, const QUrl &url,
                           const QByteArray &body, Auth auth,
                           const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    if (!m_baseUrl.isValid() || m_baseUrl.isRelative()) {
        // Finish on the next turn of the event loop: callers connect after the call returns.
        QTimer::singleShot(0, reply, [reply] {
            reply->finishWith(ApiError::network(u"no provider address is set"_s));
        });
        return;
    }
    if (const QString why = insecureUrlProblem(m_baseUrl); !why.isEmpty()) {
        QTimer::singleShot(0, reply, [reply, why] { reply->finishWith(ApiError::network(why)); });
        return; // nothing sent: not the token, not the password
    }
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (url.scheme().compare(u"https"_s, Qt::CaseInsensitive) == 0) {
        if (!m_tls)
            m_tls = TlsTrust::configuration(m_caCertificates);
        request.setSslConfiguration(*m_tls);
    }
    request.setRawHeader("Accept"_ba, "application/json"_ba);
    request.setRawHeader("User-Agent"_ba, "CardHour/0.1"_ba);
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    if (auth == Auth::Bearer && !m_token.isEmpty())
        request.setRawHeader("Authorization"_ba, "Bearer "_ba + m_token.toUtf8());
    if (!reply->m_idempotencyKey.isEmpty())
        request.setRawHeader("Idempotency-Key"_ba, reply->m_idempotencyKey.toUtf8());
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);

    QNetworkReply *network = m_nam->sendCustomRequest(request, method, body);
    reply->m_network = network;
    reply->m_timer = new QTimer(reply);
    reply->m_timer->setSingleShot(true);
    connect(reply->m_timer, &QTimer::timeout, reply, [reply] {
        reply->m_timedOut = true;
        if (reply->m_network)
            reply->m_network->abort();
    });
    reply->m_timer->start(m_timeoutMs);
    // A certificate that does not verify ends the handshake (nothing is ignored, so no request
    // is sent); what was wrong with it is kept for the error.
    auto tlsRefusal = std::make_shared<QString>();
    connect(network, &QNetworkReply::sslErrors, reply,
            [this, tlsRefusal, host = url.host()](const QList<QSslError> &errors) {
                *tlsRefusal = TlsTrust::refusal(host, errors, !m_caCertificates.isEmpty());
            });
    // The token this request carried: a 401 to an older token must not end a newer session.
    const QString tokenSent = auth == Auth::Bearer ? m_token : QString();
    QElapsedTimer sent;
    sent.start();
    connect(network, &QNetworkReply::finished, reply, [this, reply, tokenSent, tlsRefusal, sent] {
        if (reply->m_network && !reply->m_cancelled && !reply->m_timedOut
            && reply->m_network->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() > 0)
            Q_EMIT answered(sent.elapsed());
        onNetworkFinished(reply, *tlsRefusal);
        if (reply->error().isUnauthorized() && !tokenSent.isEmpty() && tokenSent == m_token)
            Q_EMIT sessionExpired();
    });
}

void ProviderClient::onNetworkFinished(ApiReply *reply, const QString &tlsRefusal)
{
    QNetworkReply *network = reply->m_network;
    if (!network)
        return;
    if (reply->m_cancelled) {
        reply->finishWith(ApiError::cancelled());
        return;
    }
    if (reply->m_timedOut) {
        reply->finishWith(ApiError::timeout(m_timeoutMs));
        return;
    }
    const int status = network->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->m_httpStatus = status;
    if (status == 0) {
        reply->finishWith(tlsRefusal.isEmpty() ? ApiError::network(network->errorString())
                                               : ApiError::certificateRefused(tlsRefusal));
        return;
    }
    reply->m_replayed = network->rawHeader("Idempotent-Replayed"_ba) == "true";
    const QByteArray data = network->readAll();
    QJsonParseError parseError{};
    const QJsonDocument doc =
        data.isEmpty() ? QJsonDocument() : QJsonDocument::fromJson(data, &parseError);

    if (status >= 400) {
        // `{"error":{"code","message"}}`; a proxy or a crashed provider may send anything else,
        // which still is an HTTP error (with the reason phrase as the message).
        const QJsonObject error = doc.object().value("error"_L1).toObject();
        QString message = error.value("message"_L1).toString();
        if (message.isEmpty())
            message = network->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        ApiError failure = ApiError::http(status, error.value("code"_L1).toString(), message);
        failure.details = error.value("details"_L1).toObject();
        reply->finishWith(failure);
        return;
    }
    if (status == 204) {
        QString problem;
        reply->finishWith(reply->parseBody(QJsonDocument(), &problem)
                              ? ApiError()
                              : ApiError::invalidJson(status, problem));
        return;
    }
    if (parseError.error != QJsonParseError::NoError || doc.isNull()) {
        reply->finishWith(ApiError::invalidJson(
            status, data.isEmpty() ? u"empty body"_s : parseError.errorString()));
        return;
    }
    QString problem;
    if (!reply->parseBody(doc, &problem)) {
        reply->finishWith(ApiError::invalidJson(status, problem));
        return;
    }
    reply->finishWith(ApiError());
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
