#pragma once

#include "api/ApiError.h"
#include "api/ApiReply.h"
#include "api/ChaosFaults.h"
#include "api/ModelLibrary.h"
#include "api/Models.h"
#include "api/SpendingModels.h"
#include "billing/ProviderClock.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QString>
#include <QStringList>
#include <QTimeZone>
#include <QUrl>

#include <functional>
#include <optional>

namespace cardhour::core {

class BillTicker;
class EventStream;
class ModelUploader;
class ProviderClient;
class RunwayAlerts;
class SandboxLauncher;
class SecretStore;
class Session;
class SshKeyPair;

// One user's connection to one provider, without a widget: the provider client, the event
// stream, the keychain, the session, the local sandbox, the bill and its runway alerts, and the
// names of the instances seen. It wires them as the client needs them, so the desktop window
// and the command-line client show the same state by the same rules:
//
//   ClientSession s(options);
//   s.connectToSandbox();            // or connectToUrl(url) -> providerReady(url) / connectFailed
//   // -> loginNeeded(note) or loggedIn(user); then instancesLoaded(list), instanceChanged(i),
//   //    billMoved() whenever the provider's bill changed
//   s.stopInstance(id)->onFinished(this, ...);  // the commands: the window's only way to the
//                                                // provider (ClientSessionCommands.cpp)
//
// A new provider, another user or a log-out starts afresh through one resetFor(userId); the same
// user back after an expired token or a restarted sandbox keeps what was shown.
class ClientSession : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString sandboxExecutable; // empty: cardhour-sim next to the client
        QString sandboxDataDir; // empty: the default data directory
        QStringList sandboxArguments; // e.g. --runtime inprocess
        bool sandboxAttach = true; // may attach to a sandbox that already runs
        QString keychainService = QStringLiteral("CardHour");
        int keychainTimeoutMs = 15000;
        int reconnectMinMs = 1000; // EventStream's reconnect delays
        int reconnectMaxMs = 30000;
        int probeTimeoutMs = 10000; // GET /v1/health of a provider URL before it is used
        // An answer later than this (after the request was sent) makes the provider "slow"
        // (providerSlow) until one comes sooner (providerPrompt).
        int slowAnswerMs = 2000;
        // Trusted for https:// providers besides the system's authorities (TlsTrust::loadCaFile):
        // a provider with a certificate of its own making.
        QList<QSslCertificate> caCertificates;
    };

    explicit ClientSession(const Options &options, QObject *parent = nullptr);
    ~ClientSession() override;

    // The command-line client and the tests call the provider directly; ui/ uses the commands
    // below (scripts/check-layers refuses ProviderClient and EventStream there).
    ProviderClient *client() const { return m_client; }
    EventStream *events() const { return m_events; }
    // The latest notice() in the current language (empty when there was none).
    QString noticeText() const { return m_noticeText ? m_noticeText() : QString(); }
    SecretStore *secrets() const { return m_secrets; }
    Session *session() const { return m_session; }
    SandboxLauncher *launcher() const { return m_launcher; }
    BillTicker *ticker() const { return m_ticker; }
    RunwayAlerts *alerts() const { return m_alerts; }

    bool isLoggedIn() const;
    bool usingSandbox() const { return m_usingSandbox; }
    // Whose state is held now (empty: nobody's).
    QString userId() const { return m_userId; }

    // Starts the bundled sandbox (or attaches to a running one).
    void connectToSandbox();
    // Asks `url` for /v1/health with a separate client first: the session keeps its provider
    // until the new one has answered as one.
    void connectToUrl(const QUrl &url);
    // Back to choosing a provider: the stream stops, the session stays until another is chosen.
    void disconnectFromProvider();
    // The user asked to try again: a sandbox of ours that died is started again; otherwise the
    // stream reconnects at once instead of waiting out its back-off.
    void retry();
    // GET the instances and the billing summary again (instancesLoaded(), billMoved()).
    void reload();

    void logIn(const QString &email, const QString &password);
    void signUp(const QString &email, const QString &password);
    // Every view clears at once (resetForUser()); the provider and the keychain forget the
    // token after (loggedOut()).
    void logOut();

    // An answer that carries the live bill (a top-up): shown at once, before the billing event.
    void applyTopUp(const TopupResult &result);
    // An instance the client learnt of outside the stream (a launch or action answer): held as
    // an event's would be, and announced by instanceChanged() unless a newer view is held.
    void noteInstance(const Instance &instance);
    // Every instance seen for this user, by id: terminated ones leave the list but stay in the
    // ledger, with their names.
    QHash<QString, QString> instanceNames() const { return m_instanceNames; }
    // The user's instances as last heard of (list, stream or an action's answer), terminated ones
    // left out, oldest first: what every page shows, so no page keeps a copy of its own.
    QList<Instance> instances() const;
    std::optional<Instance> instance(const QString &id) const;
    void setAlertThresholdsMinutes(const QList<int> &minutes);
    // The provider's clock (from its bills' as_of): what planned stops count down on.
    const Clock *providerClock() const { return &m_providerClock; }
    // What runs the provider's hosts, from its /v1/health ("inprocess": no containers, no SSH),
    // and its note on why; empty before the first providerRuntime().
    QString runtime() const { return m_runtime; }
    QString runtimeNote() const { return m_runtimeNote; }
    // The credit the provider grants a new account at sign-up (its /v1/health), -1 when it does
    // not say: what the account page tells a new user before they sign up.
    qint64 trialCreditMicros() const { return m_trialCreditMicros; }
    // The zone every time is shown in: the provider's, from its /v1/health (its days, months and
    // statements count there); UTC while it states none (timeZoneStated() says which).
    QTimeZone timeZone() const { return m_timeZone; }
    bool timeZoneStated() const { return m_timeZoneStated; }

    // ---- commands (ClientSessionCommands.cpp) --------------------------------------------------
    // Each is the provider call of the same name (ProviderClient). An answer that carries an
    // instance is held as an event's would be (instanceChanged()) before the caller's own
    // onFinished() runs, and a top-up's balance is shown at once (billMoved()).
    static QString newIdempotencyKey();
    Reply<QList<GpuType>> *gpuTypes();
    Reply<QList<Image>> *images();
    Reply<QList<Dataset>> *datasets();
    Reply<QList<LibraryModel>> *models();
    // A private model; `model_in_use` names the instances that still mount it (details).
    Reply<LibraryModel> *deleteModel(const QString &id);
    Reply<QList<ModelUpload>> *modelUploads();
    // An uploader of private model files to this session's provider, owned by `parent`.
    ModelUploader *newModelUploader(QObject *parent);
    Reply<QList<SshKey>> *sshKeys();
    // POST /v1/ssh-keys with a local key's public line (SshKeyStore::upload); sshKeysChanged()
    // once the provider has it.
    Reply<SshKey> *uploadSshKey(const SshKeyPair &key, const QString &name);
    // GET /v1/instances and /v1/instances/{id}: asked afresh; only what is shown is held.
    Reply<QList<Instance>> *fetchInstances(bool includeTerminated = false);
    Reply<Instance> *fetchInstance(const QString &id);
    Reply<Instance> *createInstance(const NewInstance &request, const QString &idempotencyKey = {});
    Reply<Instance> *stopInstance(const QString &id);
    Reply<Instance> *startInstance(const QString &id);
    Reply<Instance> *terminateInstance(const QString &id);
    Reply<InstanceMetrics> *metrics(const QString &instanceId, const QDateTime &since,
                                    int stepSeconds);
    Reply<Instance> *setStopPolicy(const QString &instanceId, const StopPolicy &policy);
    Reply<Instance> *keepRunning(const QString &instanceId);
    Reply<QList<Snapshot>> *snapshots();
    Reply<Snapshot> *createSnapshot(const QString &instanceId, const QString &name,
                                    const QString &idempotencyKey);
    Reply<Snapshot> *deleteSnapshot(const QString &id);
    Reply<Instance> *restoreSnapshot(const SnapshotRestore &request,
                                     const QString &idempotencyKey = {});
    Reply<LedgerPage> *ledger(int limit, qint64 before);
    Reply<TopupResult> *topUp(qint64 amountMicros, const QString &idempotencyKey = {});
    Reply<SpendingLimits> *spendingLimits();
    Reply<SpendingLimits> *setSpendingLimits(const SpendingLimitsChange &change);

Q_SIGNALS:
    void connecting(const QString &message);
    void connectFailed(const QString &message);
    void providerReady(const QUrl &url);
    // What the provider's /v1/health says runs its hosts (after providerReady); "inprocess"
    // means hosts without containers, which nobody can SSH into.
    void providerRuntime(const QString &runtime, const QString &note);
    // The provider's time zone (after providerReady, before any of its data is shown).
    void timeZoneChanged(const QTimeZone &zone, bool stated);
    // The sandbox we started has gone; the window says so until Retry.
    void providerLost(const QString &reason);
    void loginNeeded(const QString &note);
    void loginFailed(const cardhour::core::ApiError &error);
    void loggedIn(const cardhour::core::SessionUser &user);
    void loggedOut();
    // The state held so far belonged to someone else (or to nobody now): views clear theirs.
    void resetForUser(const QString &userId);
    void instancesLoaded(const QList<cardhour::core::Instance> &instances);
    void instanceChanged(const cardhour::core::Instance &instance);
    void metricsReceived(const cardhour::core::MetricsSample &sample);
    // A snapshot of this user's was created, became ready or failed, or was deleted.
    void snapshotChanged(const cardhour::core::Snapshot &snapshot);
    // A key was uploaded through this session (by any view): lists of keys ask again.
    void sshKeysChanged();
    // The spending limits changed, an alert was crossed, or a cap stopped hosts.
    void spendingLimitsChanged(const cardhour::core::SpendingLimits &limits);
    // The provider will stop an instance soon (the SSE instance.stop_warning).
    void stopWarning(const cardhour::core::StopWarning &warning);
    // The provider interrupts an interruptible host (SSE instance.interruption_notice), or
    // started an interrupted one again (instance.auto_restart).
    void interruptionNotice(const cardhour::core::InterruptionNotice &notice);
    void autoRestarted(const QString &instanceId);
    // The provider's bill changed: a billing event, a reload, a top-up.
    void billMoved();
    void balanceExhausted();
    void streamUp();
    void streamDown(const QString &reason);
    // A rehearsed failure of this user's was injected, fired, finished or cleared (the SSE
    // chaos.fault); the status bar also says it (notice).
    void chaosFault(const cardhour::core::ChaosFault &fault);
    // The provider's last answer took `elapsedMs` (over Options::slowAnswerMs); providerPrompt:
    // the next one came sooner again.
    void providerSlow(qint64 elapsedMs);
    void providerPrompt();
    // Something the user should read (the status bar shows it until the next): `message` in
    // the language of the moment; noticeText() says the latest one in the current language.
    void notice(const QString &message);

private:
    void sayNotice(std::function<QString()> text);
    // The provider at url answered `health` (its runtime is shown from it, not asked again).
    void useProvider(const QUrl &url, const QString &providerKey, const Health &health);
    void resetFor(const QString &userId);
    void onLoggedIn();
    void rememberNames(const QList<Instance> &instances);
    bool remember(const Instance &instance); // false: an older view than the one held
    // Holds the instance `reply` brings (noteInstance) before its caller's handlers run.
    Reply<Instance> *noting(Reply<Instance> *reply);
    void evaluateAlerts();

    Options m_options;
    ProviderClient *m_client;
    EventStream *m_events;
    SecretStore *m_secrets;
    Session *m_session;
    std::function<QString()> m_noticeText; // the latest notice, made again when asked
    SandboxLauncher *m_launcher;
    BillTicker *m_ticker;
    RunwayAlerts *m_alerts;
    QHash<QString, QString> m_instanceNames;
    QHash<QString, Instance> m_instances; // by id, not terminated
    ProviderClock m_providerClock;
    QString m_runtime;
    QString m_runtimeNote;
    qint64 m_trialCreditMicros = -1;
    QTimeZone m_timeZone = QTimeZone::utc();
    bool m_timeZoneStated = false;
    QString m_userId;
    bool m_usingSandbox = false;
    bool m_answersSlow = false; // the last answer took over Options::slowAnswerMs
    quint64 m_probeGeneration = 0; // a newer connectToUrl() wins over an older probe's answer
};

} // namespace cardhour::core
