#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Database;

// Remembers the response to each (user, Idempotency-Key) so a retried request returns the
// first answer instead of acting twice. The record is written in the same transaction as the
// request's effect, so a crash cannot leave one without the other.
class Idempotency
{
public:
    struct Stored
    {
        int status = 0;
        QByteArray body;
    };

    explicit Idempotency(Database &db) : m_db(db) {}

    // Throws ApiError 400 for a malformed key.
    static void validateKey(const QByteArray &key);
    // Hash of what makes two requests "the same": method, path and the JSON body in
    // canonical form (so key order and whitespace do not matter).
    static QByteArray requestHash(const QByteArray &method, const QString &path,
                                  const QByteArray &body);

    // The stored response for a replay; throws ApiError 422 if the key was used with another
    // request; nullopt for a new key.
    std::optional<Stored> lookup(const QString &userId, const QByteArray &key,
                                 const QByteArray &hash);
    void store(const QString &userId, const QByteArray &key, const QByteArray &hash, int status,
               const QByteArray &body, qint64 nowMs);

private:
    Database &m_db;
};

} // namespace cardhour::sim
