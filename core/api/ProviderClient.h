#pragma once

#include "api/ApiReply.h"
#include "api/ChaosFaults.h"
#include "api/ModelLibrary.h"
#include "api/Models.h"
#include "api/ProofOfWork.h"

#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

#include <optional>

class QNetworkAccessManager;

namespace cardhour::core {

// The provider's REST API (backend-sim/api/openapi.yaml), asynchronously, over one
// QNetworkAccessManager. Every call returns a Reply<T> (see ApiReply.h) and never blocks.
//
// Calls that create something or move money (add key, create/stop/start instance, top-up)
// carry an Idempotency-Key: a fresh UUID unless the caller passes one. To retry such a call
// after a network error without doing it twice, pass the failed reply's idempotencyKey().
//
// A 401 on a call that carried the token emits sessionExpired() (besides failing the call):
// the token was revoked or the provider forgot it, and the UI should ask to log in again.
class ProviderClient : public QObject
{
    Q_OBJECT
public:
    explicit ProviderClient(QObject *parent = nullptr);
    ~ProviderClient() override;

    // Where the provider is, e.g. http://127.0.0.1:8787 (a path prefix is kept).
    void setBaseUrl(const QUrl &url);
    QUrl baseUrl() const { return m_baseUrl; }
    // The bearer token for authenticated calls; empty: none (those calls then get a 401).
    void setToken(const QString &token);
    QString token() const { return m_token; }
    // Certificate authorities trusted for an https:// provider besides the system's (TlsTrust):
    // a certificate that verifies against neither is refused before anything is sent.
    void setCaCertificates(const QList<QSslCertificate> &certificates);
    QList<QSslCertificate> caCertificates() const { return m_caCertificates; }
    // How long a call may take before it fails with Kind::Timeout (default 30 s).
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    int timeoutMs() const { return m_timeoutMs; }

    // ---- meta and accounts -------------------------------------------------------------------
    Reply<Health> *health();
    // The sandbox's answer to a challenge (SandboxLauncher checks it with paths/SandboxSecret).
    Reply<SandboxProofAnswer> *proveSandbox(const QByteArray &nonce);
    // `proof` answers the provider's challenge (a 429 with details.proof_of_work).
    Reply<AuthSession> *signUp(const QString &email, const QString &password,
                               const std::optional<proof_of_work::Answer> &proof = std::nullopt);
    // `deviceToken`: the one an earlier log-in or sign-up on this device got (AuthSession).
    Reply<AuthSession> *logIn(const QString &email, const QString &password,
                              const QString &deviceToken = {});
    Reply<NoContent> *logOut(); // revokes the token this client holds
    Reply<Account> *me();

    // ---- catalog and keys ----------------------------------------------------------------------
    Reply<QList<GpuType>> *gpuTypes();
    Reply<QList<Image>> *images();
    // GET /v1/datasets: the shared datasets an instance may mount (NewInstance::datasets).
    Reply<QList<Dataset>> *datasets();
    // ---- the model library (public models and the caller's own) ---------------------------
    Reply<QList<LibraryModel>> *models();
    Reply<LibraryModel> *model(const QString &id);
    Reply<LibraryModel> *deleteModel(const QString &id);
    // Declares an upload; its chunks go with PUT /v1/model-uploads/{id}. modelUpload() says
    // where an interrupted upload goes on.
    Reply<ModelUpload> *createModelUpload(const NewModelUpload &upload);
    Reply<ModelUpload> *modelUpload(const QString &id);
    // The caller's open uploads, oldest first, each with its offset.
    Reply<QList<ModelUpload>> *modelUploads();
    // One chunk at `offset` (with its SHA-256); the last one answers with the model.
    Reply<ModelUpload> *putModelUploadChunk(const QString &id, qint64 offset,
                                            const QByteArray &chunk);
    Reply<NoContent> *deleteModelUpload(const QString &id);
    Reply<QList<SshKey>> *sshKeys();
    Reply<SshKey> *addSshKey(const QString &name, const QString &publicKey,
                             const QString &idempotencyKey = {});
    Reply<NoContent> *deleteSshKey(const QString &keyId);

    // ---- instances
    // -------------------------------------------------------------------------------
    Reply<QList<Instance>> *instances(bool includeTerminated = false);
    Reply<Instance> *instance(const QString &id);
    Reply<Instance> *createInstance(const NewInstance &request, const QString &idempotencyKey = {});
    Reply<Instance> *stopInstance(const QString &id, const QString &idempotencyKey = {});
    Reply<Instance> *startInstance(const QString &id, const QString &idempotencyKey = {});
    // DELETE /v1/instances/{id}: terminate for good (the disk is discarded).
    Reply<Instance> *terminateInstance(const QString &id);
    Reply<Instance> *addInstanceKey(const QString &instanceId, const QString &keyId);
    Reply<Instance> *removeInstanceKey(const QString &instanceId, const QString &keyId);
    // GET /v1/instances/{id}/metrics: samples since `since` (invalid: the provider's default,
    // five minutes), averaged per `stepSeconds` (1 to 3600).
    Reply<InstanceMetrics> *metrics(const QString &instanceId, const QDateTime &since = {},
                                    int stepSeconds = 1);

    // ---- snapshots (the container disk and /workspace of an instance) -------------------------
    Reply<QList<Snapshot>> *snapshots();
    Reply<Snapshot> *snapshot(const QString &id);
    // Taken in the background: `creating`, then `ready` or `failed` (poll, or SSE `snapshot`).
    Reply<Snapshot> *createSnapshot(const QString &instanceId, const QString &name = {},
                                    const QString &idempotencyKey = {});
    Reply<Snapshot> *deleteSnapshot(const QString &id);
    Reply<Instance> *restoreSnapshot(const SnapshotRestore &request,
                                     const QString &idempotencyKey = {});

    // ---- billing
    // -----------------------------------------------------------------------------------
    Reply<BillingSummary> *billingSummary();
    // One page, newest first; `before` = the previous page's nextBefore (0: from the newest).
    Reply<LedgerPage> *ledger(int limit = 50, qint64 before = 0);
    Reply<TopupResult> *topUp(qint64 amountMicros, const QString &idempotencyKey = {});

    // ---- spending limits and stop policies ---------------------------------------------------
    Reply<SpendingLimits> *spendingLimits();
    // Omitted periods and amounts stay as they are; a set amount of nullopt clears it.
    Reply<SpendingLimits> *setSpendingLimits(const SpendingLimitsChange &change);
    // Replaces the instance's stop policy (an empty one removes it); moves a running timer.
    Reply<Instance> *setStopPolicy(const QString &instanceId, const StopPolicy &policy);
    // Postpones a pending idle stop once (409 invalid_state when none is pending).
    Reply<Instance> *keepRunning(const QString &instanceId);

    // ---- rehearsed failures (a provider started with --allow-chaos) ---------------------------
    Reply<QList<ChaosFault>> *chaosFaults();
    Reply<ChaosFault> *addChaosFault(const NewChaosFault &fault);
    Reply<ChaosFault> *clearChaosFault(const QString &id);

    // ---- shared with EventStream
    // ------------------------------------------------------------------- `base` + `path` (path
    // starting with "/v1/"), keeping a path prefix of `base`.
    static QUrl endpoint(const QUrl &base, const QString &path, const QUrlQuery &query = {});
    // A fresh Idempotency-Key (a UUID without braces).
    static QString newIdempotencyKey();
    // Whether `url` points at this machine (then no proxy may see the traffic).
    static bool isLoopback(const QUrl &url);
    // Why the client will not talk to `url` (translated), or empty when it may: plain http://
    // only to a loopback address, since a token or password sent in clear to another machine
    // can be read by anyone on the way. https:// anywhere. Every request (and the event
    // stream) goes through this check.
    static QString insecureUrlProblem(const QUrl &url);

Q_SIGNALS:
    // A call that carried the token got 401: the session is over.
    void sessionExpired();
    // The provider answered a call (any status) this long after it was sent.
    void answered(qint64 elapsedMs);

private:
    enum class Auth {
        None,
        Bearer
    };

    template<typename T>
    Reply<T> *call(const QByteArray &method, const QString &path, const QJsonDocument &body,
                   Auth auth, const QString &idempotencyKey, typename Reply<T>::Parser parser,
                   const QUrlQuery &query = {});
    // `headers` besides the usual ones; a Content-Type among them replaces the JSON one.
    void start(ApiReply *reply, const QByteArray &method, const QUrl &url, const QByteArray &body,
               Auth auth, const QList<std::pair<QByteArray, QByteArray>> &headers = {});
    // `tlsRefusal`: why the provider's certificate was refused, if it was.
    void onNetworkFinished(ApiReply *reply, const QString &tlsRefusal);

    QNetworkAccessManager *m_nam = nullptr;
    QUrl m_baseUrl;
    QString m_token;
    QList<QSslCertificate> m_caCertificates;
    // Built for the first https:// request: asking Qt for its default TLS configuration loads
    // the TLS backend and the system's CA store, which a plain-http sandbox never needs.
    std::optional<QSslConfiguration> m_tls;
    int m_timeoutMs = 30000;
};

} // namespace cardhour::core
