#pragma once

#include "auth/LoginGuard.h"
#include "auth/PasswordHasher.h"
#include "auth/SignupGate.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Clock;
class Database;
class Bookkeeper;

// Sign-up, log-in, tokens. Throws ApiError for what the caller got wrong.
class Accounts
{
public:
    static constexpr qint64 kTrialCreditMicros = 10'000'000; // 10 yuan
    // A token works this long after it was issued (its row's created_at), then 401
    // token_expired: a token copied off a machine does not work forever.
    static constexpr qint64 kTokenLifetimeMs = 30LL * 24 * 3600 * 1000;
    // Device tokens kept per account (the newest): each is one device its owner logged in on.
    static constexpr int kDevicesPerAccount = 20;

    struct Session
    {
        QString token; // shown once, never stored
        QString userId;
        QString email;
        qint64 expiresAtMs = 0;
        // Shown once: brought back at log-in, it marks the attempt as the owner's device,
        // which a flood of failures from elsewhere does not lock out (LoginGuard).
        QString deviceToken;
    };

    Accounts(Database &db, Bookkeeper &books, const Clock &clock, PasswordHasher hasher = {});

    // `clientAddress` keys the sign-up gate (SignupGate: past a rate, a proof of work); empty
    // for callers without a network peer (in-process tools and tests). 429 too_many_attempts
    // with details {"proof_of_work": {"nonce", "bits"}} when a proof is needed.
    Session signUp(const QString &email, const QString &password, const QString &clientAddress = {},
                   const std::optional<SignupGate::Proof> &proof = std::nullopt);
    // `clientAddress` and `deviceToken` key the log-in throttles (LoginGuard).
    Session logIn(const QString &email, const QString &password, const QString &clientAddress,
                  const QString &deviceToken = {});
    void logOut(const QString &token);
    // The user id the bearer token belongs to, if the token is live; *expired (if given) says
    // whether it failed only because its lifetime is over.
    std::optional<QString> authenticate(const QByteArray &token, bool *expired = nullptr);
    QJsonObject userJson(const QString &userId);

    static QString normalizeEmail(const QString &email);
    static bool isValidEmail(const QString &email);

private:
    // A new token for userId, written in the current transaction; its expiry in *expiresAtMs.
    QString issueToken(const QString &userId, qint64 *expiresAtMs);
    // A new device token for userId, written in the current transaction.
    QString issueDeviceToken(const QString &userId);
    // The stored hash of `deviceToken` when it belongs to the account of `email`; else empty.
    QByteArray trustedDevice(const QString &email, const QString &deviceToken);

    Database &m_db;
    Bookkeeper &m_books;
    const Clock &m_clock;
    PasswordHasher m_hasher;
    LoginGuard m_loginGuard;
    SignupGate m_signupGate;
    QByteArray m_dummyHash; // verified against on unknown e-mails so timing does not tell
    // Tokens found valid while the database is unchanged (a revocation is a write): a read
    // that authenticates asks the store once per token and change, not once per request. They
    // are found by a seeded hash of the presented text and then compared with it in constant
    // time, so a request that repeats a known token costs no SHA-256.
    struct KnownToken
    {
        QByteArray token; // as presented: only in memory, never written anywhere
        QString userId;
        qint64 createdAtMs = 0;
    };
    QMultiHash<size_t, KnownToken> m_knownTokens;
    QHash<QString, QJsonObject> m_knownUsers; // userJson() by user id, likewise
    quint64 m_knownAt = 0; // Database::writeVersion() both were read at
    void forgetIfChanged();
};

} // namespace cardhour::sim
