#include "session/Session.h"

#include "api/ProviderClient.h"
#include "api/ProviderCodes.h"
#include "session/SecretStore.h"

using namespace Qt::StringLiterals;

namespace cardhour::core {

Session::Session(ProviderClient *client, SecretStore *secrets, QObject *parent)
    : QObject(parent), m_client(client), m_secrets(secrets)
{
    connect(m_client, &ProviderClient::sessionExpired, this, &Session::onSessionExpired);
}

QString Session::keyForUrl(const QUrl &url)
{
    QString text = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment
                                | QUrl::StripTrailingSlash | QUrl::NormalizePathSegments)
                       .toString();
    while (text.endsWith(u'/'))
        text.chop(1);
    return text;
}

void Session::setProvider(const QUrl &url, const QString &providerKey)
{
    const QString key = providerKey.isEmpty() ? keyForUrl(url) : providerKey;
    m_client->setBaseUrl(url);
    if (url == m_url && key == m_key)
        return;
    if (key == m_key && !m_key.isEmpty()) {
        // The same provider at a new address (a restarted sandbox gets a new port): the
        // account and its token are still good there.
        m_url = url;
        return;
    }
    ++m_generation;
    m_url = url;
    m_key = key;
    const bool wasLoggedIn = m_state != State::LoggedOut;
    clearLocal();
    setState(State::LoggedOut);
    if (wasLoggedIn)
        Q_EMIT loggedOut();
}

void Session::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void Session::clearLocal()
{
    m_token.clear();
    m_user = {};
    m_tokenStored = false;
    m_client->setToken({});
}

void Session::adopt(const QString &token, const SessionUser &user, bool store)
{
    m_token = token;
    m_user = user;
    m_client->setToken(token);
    m_tokenStored = !store; // a restored token is in the keychain already
    setState(State::LoggedIn);
    Q_EMIT loggedIn(user);
    if (!store)
        return;
    const quint64 generation = m_generation;
    SecretReply *write = m_secrets->writeToken(m_key, token);
    connect(write, &SecretReply::finished, this, [this, write, generation] {
        if (generation != m_generation)
            return;
        m_tokenStored = write->ok();
        if (!write->ok())
            storageFailed(*write);
    });
}

void Session::storageFailed(const SecretReply &reply)
{
    m_storageProblem = reply.problem();
    Q_EMIT tokenStorageFailed(reply.reason());
}

void Session::restore()
{
    if (m_key.isEmpty() || m_state == State::LoggedIn) {
        Q_EMIT restoreFinished(m_state == State::LoggedIn);
        return;
    }
    const quint64 generation = ++m_generation;
    m_restoreFoundExpired = false;
    setState(State::Restoring);
    SecretReply *read = m_secrets->readToken(m_key);
    connect(read, &SecretReply::finished, this, [this, read, generation] {
        if (generation != m_generation)
            return;
        if (!read->ok() || read->secret().isEmpty()) {
            setState(State::LoggedOut);
            if (read->status() == SecretReply::Status::Denied
                || read->status() == SecretReply::Status::Unavailable)
                storageFailed(*read);
            Q_EMIT restoreFinished(false);
            return;
        }
        const QString token = read->secret();
        m_client->setToken(token);
        auto *me = m_client->me();
        me->onFinished(this, [this, token, generation](const Reply<Account> &r) {
            if (generation != m_generation)
                return;
            if (r.ok()) {
                adopt(token, {r.value().id, r.value().email}, false);
                Q_EMIT restoreFinished(true);
                return;
            }
            clearLocal();
            setState(State::LoggedOut);
            if (r.error().isUnauthorized()) {
                // Revoked, expired or forgotten by the provider: it will never work again.
                m_restoreFoundExpired = r.error().code == ErrorCode::TokenExpired;
                m_secrets->deleteToken(m_key);
            } else {
                // The provider may just be down: keep the stored token for the next try.
                Q_EMIT failed(r.error());
            }
            Q_EMIT restoreFinished(false);
        });
    });
}

void Session::logIn(const QString &email, const QString &password)
{
    authenticate(false, email, password);
}

void Session::signUp(const QString &email, const QString &password)
{
    authenticate(true, email, password);
}

void Session::authenticate(bool signUp, const QString &email, const QString &password)
{
    const quint64 generation = ++m_generation;
    clearLocal();
    setState(State::LoggingIn);
    if (signUp) {
        send(generation, true, email, password, {}, std::nullopt);
        return;
    }
    // The device token this device got at an earlier log-in: with it, failures from elsewhere
    // (every local client is 127.0.0.1 on a desktop sandbox) do not lock this device out.
    const QString key = deviceKey(email);
    if (m_deviceTokens.contains(key) || m_storageProblem.kind != SecretProblem::Kind::None) {
        send(generation, false, email, password, m_deviceTokens.value(key), std::nullopt);
        return;
    }
    SecretReply *read = m_secrets->readToken(key);
    connect(read, &SecretReply::finished, this, [this, read, key, generation, email, password] {
        if (generation != m_generation)
            return;
        if (read->ok())
            m_deviceTokens.insert(key, read->secret());
        send(generation, false, email, password, read->ok() ? read->secret() : QString(),
             std::nullopt);
    });
}

void Session::send(quint64 generation, bool signUp, const QString &email, const QString &password,
                   const QString &deviceToken, const std::optional<proof_of_work::Answer> &proof)
{
    auto *reply = signUp ? m_client->signUp(email, password, proof)
                         : m_client->logIn(email, password, deviceToken);
    reply->onFinished(
        this,
        [this, generation, signUp, email, password,
         answered = proof.has_value()](const Reply<AuthSession> &r) {
            if (generation != m_generation)
                return;
            if (signUp && !r.ok() && !answered) {
                // Many sign-ups came from this address: the provider asks for a proof of work
                // (once; a second challenge is an error like any other).
                if (const auto challenge = proof_of_work::Challenge::fromError(r.error())) {
                    proof_of_work::solveAsync(*challenge, this, [=, this](proof_of_work::Answer a) {
                        if (generation == m_generation)
                            send(generation, true, email, password, {}, std::move(a));
                    });
                    return;
                }
            }
            if (!r.ok() || r.value().token.isEmpty()) {
                setState(State::LoggedOut);
                Q_EMIT failed(
                    r.ok() ? ApiError::invalidJson(r.httpStatus(), u"no token in the answer"_s)
                           : r.error());
                return;
            }
            keepDeviceToken(email, r.value().deviceToken);
            adopt(r.value().token, r.value().user, true);
        });
}

QString Session::deviceKey(const QString &email) const
{
    return m_key + u"#device:"_s + email.trimmed().toLower();
}

void Session::keepDeviceToken(const QString &email, const QString &deviceToken)
{
    const QString key = deviceKey(email);
    if (deviceToken.isEmpty() || m_deviceTokens.value(key) == deviceToken)
        return;
    m_deviceTokens.insert(key, deviceToken);
    // Kept for this run whatever the keychain says: without it the next run's log-in is
    // throttled like any other device's, nothing worse, so a failure is not reported.
    m_secrets->writeToken(key, deviceToken);
}

void Session::logOut()
{
    const quint64 generation = ++m_generation;
    const bool hadToken = !m_token.isEmpty();
    setState(State::LoggingOut);
    // The request copies the token now, so the client can forget it at once: nothing sent
    // after this point carries it.
    ApiReply *revoke = hadToken ? m_client->logOut() : nullptr;
    clearLocal();
    const auto forget = [this, generation] {
        SecretReply *remove = m_secrets->deleteToken(m_key);
        connect(remove, &SecretReply::finished, this, [this, remove, generation] {
            if (generation != m_generation)
                return;
            if (remove->status() == SecretReply::Status::Denied
                || remove->status() == SecretReply::Status::Unavailable)
                storageFailed(*remove);
            setState(State::LoggedOut);
            Q_EMIT loggedOut();
        });
    };
    if (revoke)
        connect(revoke, &ApiReply::finished, this, forget);
    else
        forget();
}

void Session::expire()
{
    onSessionExpired();
}

void Session::onSessionExpired()
{
    if (m_state != State::LoggedIn)
        return; // restore() and log-in handle their own 401s
    ++m_generation;
    m_secrets->deleteToken(m_key);
    clearLocal();
    setState(State::LoggedOut);
    Q_EMIT sessionExpired();
}

} // namespace cardhour::core
