#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace cardhour::sim {

class Clock;
class Database;

// A user's SSH public keys. Every query is filtered by the owner.
class SshKeys
{
public:
    SshKeys(Database &db, const Clock &clock) : m_db(db), m_clock(clock) {}

    QJsonObject add(const QString &userId, const QString &name, const QString &publicKey);
    QJsonArray list(const QString &userId);
    void remove(const QString &userId, const QString &keyId); // 404 if not the caller's
    // The key lines for `keyIds`, all of which must be the caller's (else ApiError 400).
    QStringList publicKeysFor(const QString &userId, const QStringList &keyIds);

private:
    Database &m_db;
    const Clock &m_clock;
};

} // namespace cardhour::sim
