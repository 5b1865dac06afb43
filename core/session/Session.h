#pragma once

#include "api/ApiError.h"
#include "api/Models.h"
#include "api/ProofOfWork.h"
#include "session/SecretStore.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QUrl>

namespace cardhour::core {

class ProviderClient;

// Who is logged in where. Holds the provider's address, the token and the user; gives the
// token to the ProviderClient; keeps the token in the SecretStore across runs.
//
//   session.setProvider(url);          // or setProvider(url, launcher.providerKey()) for the
//   sandbox session.restore();                 // -> loggedIn(user) or restoreFinished(false)
//   session.logIn(email, password);    // -> loggedIn(user) or failed(error)
//   session.logOut();                  // revokes on the provider, deletes from the keychain
//
// When the keychain cannot keep the token, the session still works and tokenStorageFailed()
// says why, so the UI can say "kept for this session only".
class Session : public QObject
{
    Q_OBJECT
public:
    enum class State {
        LoggedOut,
        Restoring,
        LoggingIn,
        LoggedIn,
        LoggingOut
    };
    Q_ENUM(State)

    // Neither object is owned; both must outlive the session.
    Session(ProviderClient *client, SecretStore *secrets, QObject *parent = nullptr);

    // Sets the provider (and the client's base URL); logs out locally if it changes.
    // `providerKey` names the keychain entry: by default the URL, but the sandbox passes a key
    // that outlives its port, which changes at every launch.
    void setProvider(const QUrl &url, const QString &providerKey = {});
    QUrl providerUrl() const { return m_url; }
    QString providerKey() const { return m_key; }
    // The keychain key for a provider URL: scheme://host:port/path without a trailing slash.
    static QString keyForUrl(const QUrl &url);

    State state() const { return m_state; }
    bool isLoggedIn() const { return m_state == State::LoggedIn; }
    // Whether the last restore() found the stored token expired (the provider said
    // token_expired), so the log-in prompt can say why.
    bool restoreFoundExpired() const { return m_restoreFoundExpired; }
    SessionUser user() const { return m_user; }
    QString token() const { return m_token; }
    // Whether the keychain holds the current token (false: kept for this session only).
    bool isTokenStored() const { return m_tokenStored; }
    // What the keychain said the last time it failed (tokenStorageFailed), as data.
    SecretProblem tokenStorageProblem() const { return m_storageProblem; }

    // Reads the token from the keychain and checks it with GET /v1/me.
    void restore();
    void logIn(const QString &email, const QString &password);
    void signUp(const QString &email, const QString &password);
    // Revokes the token on the provider (best effort: an unreachable provider does not keep
    // the user logged in) and deletes it from the keychain.
    void logOut();
    // Someone else saw the provider refuse the token (EventStream's 401 on /v1/events): the
    // same as a 401 on a call of the client. Ignored unless logged in.
    void expire();

Q_SIGNALS:
    void stateChanged(cardhour::core::Session::State state);
    void loggedIn(const cardhour::core::SessionUser &user);
    // restore() ended: `restored` true means loggedIn() came first.
    void restoreFinished(bool restored);
    // Log-in, sign-up or restore failed (restore: only for errors other than "no token").
    void failed(const cardhour::core::ApiError &error);
    void loggedOut();
    // The provider no longer accepts the token (a 401 on any call); the user must log in.
    void sessionExpired();
    // The keychain could not store (or delete) the token; `reason` is a plain sentence in the
    // language of the moment (tokenStorageProblem() can say it again in another).
    void tokenStorageFailed(const QString &reason);

private:
    void setState(State state);
    void authenticate(bool signUp, const QString &email, const QString &password);
    void send(quint64 generation, bool signUp, const QString &email, const QString &password,
              const QString &deviceToken, const std::optional<proof_of_work::Answer> &proof);
    QString deviceKey(const QString &email) const;
    void keepDeviceToken(const QString &email, const QString &deviceToken);
    void adopt(const QString &token, const SessionUser &user, bool store);
    void clearLocal();
    void onSessionExpired();
    void storageFailed(const SecretReply &reply);

    ProviderClient *m_client;
    SecretStore *m_secrets;
    SecretProblem m_storageProblem;
    QUrl m_url;
    QString m_key;
    QString m_token;
    SessionUser m_user;
    State m_state = State::LoggedOut;
    bool m_tokenStored = false;
    bool m_restoreFoundExpired = false;
    QHash<QString, QString> m_deviceTokens; // by deviceKey(): read or received this run
    quint64 m_generation = 0; // bumps on every provider/log-in change; stale answers are dropped
};

} // namespace cardhour::core
