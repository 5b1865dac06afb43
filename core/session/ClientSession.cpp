#include "session/ClientSession.h"

#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "billing/RunwayAlerts.h"
#include "sandbox/SandboxLauncher.h"
#include "session/SecretStore.h"
#include "session/Session.h"

#include <QJsonDocument>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::core {

ClientSession::ClientSession(const Options &options, QObject *parent)
    : QObject(parent), m_options(options), m_client(new ProviderClient(this)),
      m_events(new EventStream(this)), m_secrets(new SecretStore(options.keychainService, this)),
      m_session(new Session(m_client, m_secrets, this)), m_launcher(new SandboxLauncher(this)),
      m_ticker(new BillTicker(nullptr, this)), m_alerts(new RunwayAlerts(nullptr, this))
{
    m_secrets->setTimeoutMs(options.keychainTimeoutMs);
    m_events->setReconnectDelays(options.reconnectMinMs, options.reconnectMaxMs);
    m_client->setCaCertificates(options.caCertificates);
    m_events->setCaCertificates(options.caCertificates);
    if (!options.sandboxExecutable.isEmpty())
        m_launcher->setExecutable(options.sandboxExecutable);
    if (!options.sandboxDataDir.isEmpty())
        m_launcher->setDataDir(options.sandboxDataDir);
    m_launcher->setExtraArguments(options.sandboxArguments);
    m_launcher->setAttachAllowed(options.sandboxAttach);

    // ---- the local sandbox -------------------------------------------------------------------
    connect(m_launcher, &SandboxLauncher::progress, this, &ClientSession::connecting);
    connect(m_launcher, &SandboxLauncher::ready, this, [this](const QUrl &url) {
        useProvider(url, m_launcher->providerKey(), m_launcher->health());
    });
    connect(m_launcher, &SandboxLauncher::failed, this,
            [this](const QString &reason, const QString &tail) {
                Q_EMIT connectFailed(tail.isEmpty() ? reason : reason + u"\n\n"_s + tail);
            });
    connect(m_launcher, &SandboxLauncher::impostorRefused, this,
            [this](const QUrl &, const QString &reason) {
                sayNotice([reason] { return reason; }); // the launcher's sentence, as it is
            });
    connect(m_launcher, &SandboxLauncher::exitedUnexpectedly, this,
            [this](const QString &reason) { Q_EMIT providerLost(reason); });

    // ---- the session -------------------------------------------------------------------------
    connect(m_session, &Session::loggedIn, this, &ClientSession::onLoggedIn);
    connect(m_session, &Session::failed, this, &ClientSession::loginFailed);
    connect(m_session, &Session::sessionExpired, this, [this] {
        // The same user logging in again finds what was shown: nothing is reset here.
        m_events->stop();
        Q_EMIT loginNeeded(tr("Your session has ended. Please log in again."));
    });
    connect(m_session, &Session::loggedOut, this, [this] {
        m_events->stop();
        resetFor({});
        Q_EMIT loggedOut();
        Q_EMIT loginNeeded({});
    });
    connect(m_session, &Session::restoreFinished, this, [this](bool restored) {
        if (!restored && !m_session->isLoggedIn())
            Q_EMIT loginNeeded(m_session->restoreFoundExpired()
                                   ? tr("Your session has expired. Please log in again.")
                                   : QString());
    });
    connect(m_session, &Session::tokenStorageFailed, this, [this] {
        sayNotice([problem = m_session->tokenStorageProblem()] {
            return tr("You stay logged in for this session only: %1")
                .arg(SecretStore::describe(problem));
        });
    });

    // ---- what the provider pushes ------------------------------------------------------------
    connect(m_events, &EventStream::connected, this, [this] {
        Q_EMIT streamUp();
        reload(); // event ids restart with a restarted provider: never trust replay alone
    });
    connect(m_events, &EventStream::disconnected, this, [this](const QString &reason) {
        if (m_session->isLoggedIn())
            Q_EMIT streamDown(reason);
    });
    connect(m_events, &EventStream::instanceChanged, this, [this](const Instance &instance) {
        m_alerts->observeInstance(instance);
        remember(instance);
        Q_EMIT instanceChanged(instance);
    });
    connect(m_events, &EventStream::billingChanged, this, [this](const BillingSummary &summary) {
        // The provider's time comes with each bill (the stream sends one after every tick).
        m_providerClock.note(summary.asOf);
        m_ticker->update(summary);
        evaluateAlerts();
        Q_EMIT billMoved();
    });
    connect(m_events, &EventStream::metricsReceived, this, &ClientSession::metricsReceived);
    connect(m_events, &EventStream::snapshotChanged, this, &ClientSession::snapshotChanged);
    connect(m_events, &EventStream::spendingLimitsChanged, this,
            &ClientSession::spendingLimitsChanged);
    connect(m_events, &EventStream::stopWarning, this, &ClientSession::stopWarning);
    connect(m_events, &EventStream::eventReceived, this, [this](const SseEvent &event) {
        if (event.type != "chaos.fault"_L1)
            return;
        const ChaosFault fault = ChaosFault::fromJson(QJsonDocument::fromJson(event.data).object());
        const QString host = m_instanceNames.value(
            fault.instanceId.isEmpty() ? fault.failedInstanceId : fault.instanceId);
        sayNotice([this, fault, host] { return fault.describe(host, m_timeZone); });
        Q_EMIT chaosFault(fault);
    });
    // How long answers take, so that a slow provider is said (the window's banner).
    connect(m_client, &ProviderClient::answered, this, [this](qint64 elapsedMs) {
        const bool slow = elapsedMs > m_options.slowAnswerMs;
        if (slow)
            Q_EMIT providerSlow(elapsedMs);
        else if (m_answersSlow)
            Q_EMIT providerPrompt();
        m_answersSlow = slow;
    });
    connect(m_events, &EventStream::interruptionNotice, this, &ClientSession::interruptionNotice);
    connect(m_events, &EventStream::autoRestarted, this, &ClientSession::autoRestarted);
    // A 401 on the stream ends the session as a 401 on any call does (Session says so once).
    connect(m_events, &EventStream::sessionExpired, m_session, &Session::expire);

    // ---- the bill between the provider's answers ---------------------------------------------
    connect(m_ticker, &BillTicker::balanceChanged, this, &ClientSession::evaluateAlerts);
    connect(m_ticker, &BillTicker::exhausted, this, &ClientSession::balanceExhausted);
}

ClientSession::~ClientSession() = default;

bool ClientSession::isLoggedIn() const
{
    return m_session->isLoggedIn();
}

void ClientSession::connectToSandbox()
{
    m_usingSandbox = true;
    ++m_probeGeneration;
    Q_EMIT connecting(tr("Starting CardHour Sandbox…"));
    m_launcher->start();
}

void ClientSession::connectToUrl(const QUrl &url)
{
    m_usingSandbox = false;
    const quint64 generation = ++m_probeGeneration;
    Q_EMIT connecting(tr("Asking %1…").arg(url.toDisplayString()));
    if (const QString why = ProviderClient::insecureUrlProblem(url); !why.isEmpty()) {
        // Said as it is, not as "cannot be reached": nothing was even tried.
        QTimer::singleShot(0, this, [this, why, generation] {
            if (generation == m_probeGeneration)
                Q_EMIT connectFailed(why);
        });
        return;
    }
    auto *probe = new ProviderClient(this);
    probe->setBaseUrl(url);
    probe->setCaCertificates(m_options.caCertificates);
    probe->setTimeoutMs(m_options.probeTimeoutMs);
    probe->health()->onFinished(this, [this, probe, url, generation](const Reply<Health> &reply) {
        probe->deleteLater();
        if (generation != m_probeGeneration)
            return; // another provider was chosen meanwhile
        if (!reply.ok())
            return Q_EMIT connectFailed(reply.error().userMessage());
        useProvider(url, {}, reply.value());
    });
}

void ClientSession::disconnectFromProvider()
{
    ++m_probeGeneration;
    m_events->stop();
}

void ClientSession::sayNotice(std::function<QString()> text)
{
    m_noticeText = std::move(text);
    Q_EMIT notice(m_noticeText());
}

void ClientSession::useProvider(const QUrl &url, const QString &providerKey, const Health &health)
{
    m_events->stop();
    // Another provider logs the session out (Session::loggedOut -> resetFor(nobody)); the same
    // sandbox at a new port keeps it.
    m_session->setProvider(url, providerKey);
    m_events->setBaseUrl(url);
    m_trialCreditMicros = health.trialCreditMicros;
    const QTimeZone zone(health.timeZone.toUtf8());
    m_timeZoneStated = !health.timeZone.isEmpty() && zone.isValid();
    m_timeZone = m_timeZoneStated ? zone : QTimeZone::utc();
    Q_EMIT timeZoneChanged(m_timeZone, m_timeZoneStated);
    Q_EMIT providerReady(url);
    m_runtime = health.runtime;
    m_runtimeNote = health.runtimeNote;
    Q_EMIT providerRuntime(health.runtime, health.runtimeNote);
    if (m_session->isLoggedIn())
        onLoggedIn(); // the same provider again (a restarted sandbox): carry on
    else
        m_session->restore();
}

void ClientSession::retry()
{
    const SandboxLauncher::State state = m_launcher->state();
    if (m_usingSandbox && state != SandboxLauncher::State::Running
        && state != SandboxLauncher::State::Starting && state != SandboxLauncher::State::Attached) {
        m_launcher->start();
        return;
    }
    m_events->start();
}

void ClientSession::resetFor(const QString &userId)
{
    if (userId == m_userId)
        return;
    m_userId = userId;
    m_instanceNames.clear();
    m_instances.clear();
    m_alerts->clear();
    m_ticker->clear();
    m_providerClock.reset();
    Q_EMIT resetForUser(userId);
    Q_EMIT billMoved();
}

void ClientSession::onLoggedIn()
{
    resetFor(m_session->user().id);
    m_events->setToken(m_session->token());
    m_events->start();
    Q_EMIT loggedIn(m_session->user());
    reload();
}

void ClientSession::reload()
{
    if (!m_session->isLoggedIn())
        return;
    m_client->instances()->onFinished(this, [this](const Reply<QList<Instance>> &reply) {
        if (!reply.ok())
            return; // the stream (down) or the session (401) says why
        m_instances.clear();
        rememberNames(reply.value());
        m_alerts->seedInstances(reply.value());
        Q_EMIT instancesLoaded(reply.value());
    });
    m_client->billingSummary()->onFinished(this, [this](const Reply<BillingSummary> &reply) {
        if (!reply.ok())
            return;
        m_ticker->update(reply.value());
        evaluateAlerts();
        Q_EMIT billMoved();
    });
}

void ClientSession::logIn(const QString &email, const QString &password)
{
    m_session->logIn(email, password);
}

void ClientSession::signUp(const QString &email, const QString &password)
{
    m_session->signUp(email, password);
}

void ClientSession::logOut()
{
    // What was shown goes at once, not once the provider and the keychain have answered: no
    // event of this user's comes in after it, and every view clears (resetForUser()).
    m_events->stop();
    resetFor({});
    m_session->logOut();
}

void ClientSession::applyTopUp(const TopupResult &result)
{
    m_ticker->update(result.balanceMicros, m_ticker->spendRateMicrosPerHour());
    m_alerts->rearm();
    evaluateAlerts();
    Q_EMIT billMoved();
}

void ClientSession::noteInstance(const Instance &instance)
{
    if (remember(instance))
        Q_EMIT instanceChanged(instance); // every view follows, as for a pushed event
}

bool ClientSession::remember(const Instance &instance)
{
    if (instance.id.isEmpty())
        return false;
    m_instanceNames.insert(instance.id, instance.name);
    // An action's answer may arrive after a newer event about the same instance: keep the newer.
    const auto known = m_instances.constFind(instance.id);
    if (known != m_instances.cend() && known->updatedAt.isValid() && instance.updatedAt.isValid()
        && known->updatedAt > instance.updatedAt)
        return false;
    if (instance.state == InstanceState::Terminated)
        m_instances.remove(instance.id);
    else
        m_instances.insert(instance.id, instance);
    return true;
}

QList<Instance> ClientSession::instances() const
{
    QList<Instance> list = m_instances.values();
    std::sort(list.begin(), list.end(), [](const Instance &a, const Instance &b) {
        return a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.id < b.id;
    });
    return list;
}

std::optional<Instance> ClientSession::instance(const QString &id) const
{
    const auto found = m_instances.constFind(id);
    if (found == m_instances.cend())
        return std::nullopt;
    return *found;
}

void ClientSession::rememberNames(const QList<Instance> &instances)
{
    for (const Instance &instance : instances)
        remember(instance);
}

void ClientSession::setAlertThresholdsMinutes(const QList<int> &minutes)
{
    m_alerts->setThresholdsMinutes(minutes);
    evaluateAlerts();
}

void ClientSession::evaluateAlerts()
{
    if (m_ticker->hasData())
        m_alerts->evaluate(m_ticker->balanceMicros(), m_ticker->spendRateMicrosPerHour());
}

} // namespace cardhour::core
