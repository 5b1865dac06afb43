#pragma once

#include "auth/LoginThrottle.h"
#include "auth/PasswordHasher.h"

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
    // Sign-ups per client address: each one hands out trial credit and costs a password hash.
    static constexpr LoginThrottle::Policy kSignupPolicy{30, 3600 * 1000, 3600 * 1000};

    struct Session
    {
        QString token; // shown once, never stored
        QString userId;
        QString email;
        qint64 expiresAtMs = 0;
    };

    Accounts(Database &db, Bookkeeper &books, const Clock &clock, PasswordHasher hasher = {});

    // `clientAddress` keys the sign-up throttle (kSignupPolicy); empty for callers without a
    // network peer (in-process tools and tests).
    Session signUp(const QString &email, const QString &password,
                   const QString &clientAddress = {});
    // `clientAddress` keys the throttles: per (address, e-mail) and per address.
    Session logIn(const QString &email, const QString &password, const QString &clientAddress);
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

    Database &m_db;
    Bookkeeper &m_books;
    const Clock &m_clock;
    PasswordHasher m_hasher;
    // Per client address and e-mail: 5 failures make that client wait 15 min for that account.
    // Never per e-mail alone: then anyone who knows the address could lock its owner out. Per
    // client address a looser limit (20) over all accounts, since on a local sandbox every
    // client is 127.0.0.1.
    LoginThrottle m_clientEmailThrottle;
    LoginThrottle m_addressThrottle;
    LoginThrottle m_signupThrottle;
    QByteArray m_dummyHash; // verified against on unknown e-mails so timing does not tell
    // Tokens found valid, by hash, while the database is unchanged (a revocation is a write):
    // a read that authenticates asks SQLite once per token and change, not once per request.
    struct KnownToken
    {
        QString userId;
        qint64 createdAtMs = 0;
    };
    QHash<QByteArray, KnownToken> m_knownTokens;
    QHash<QString, QJsonObject> m_knownUsers; // userJson() by user id, likewise
    quint64 m_knownAt = 0; // Database::writeVersion() both were read at
    void forgetIfChanged();
};

} // namespace cardhour::sim
