#pragma once

#include "auth/LoginThrottle.h"
#include "auth/PasswordHasher.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Clock;
class Database;
class Ledger;

// Sign-up, log-in, tokens. Throws ApiError for what the caller got wrong.
class Accounts
{
public:
    static constexpr qint64 kTrialCreditMicros = 10'000'000; // 10 yuan

    struct Session
    {
        QString token; // shown once, never stored
        QString userId;
        QString email;
    };

    Accounts(Database &db, Ledger &ledger, const Clock &clock, PasswordHasher hasher = {});

    Session signUp(const QString &email, const QString &password);
    // `clientAddress` keys the throttles: per (address, e-mail) and per address.
    Session logIn(const QString &email, const QString &password, const QString &clientAddress);
    void logOut(const QString &token);
    // The user id the bearer token belongs to, if the token is live.
    std::optional<QString> authenticate(const QByteArray &token);
    QJsonObject userJson(const QString &userId);

    static QString normalizeEmail(const QString &email);
    static bool isValidEmail(const QString &email);

private:
    QString issueToken(const QString &userId);

    Database &m_db;
    Ledger &m_ledger;
    const Clock &m_clock;
    PasswordHasher m_hasher;
    // Per client address and e-mail: 5 failures make that client wait 15 min for that account.
    // Never per e-mail alone: then anyone who knows the address could lock its owner out. Per
    // client address a looser limit (20) over all accounts, since on a local sandbox every
    // client is 127.0.0.1.
    LoginThrottle m_clientEmailThrottle;
    LoginThrottle m_addressThrottle;
    QByteArray m_dummyHash; // verified against on unknown e-mails so timing does not tell
};

} // namespace cardhour::sim
