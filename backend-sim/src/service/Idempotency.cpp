#include "Idempotency.h"

#include "core/ApiError.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

void Idempotency::validateKey(const QByteArray &key)
{
    bool printable = !key.isEmpty() && key.size() <= 255;
    for (const char c : key)
        printable = printable && c >= 0x21 && c <= 0x7e;
    if (!printable)
        throw ApiError(400, ErrorCode::InvalidIdempotencyKey,
                       u"Idempotency-Key must be 1 to 255 visible ASCII characters."_s);
}

QByteArray Idempotency::requestHash(const QByteArray &method, const QString &path,
                                    const QByteArray &body)
{
    QByteArray canonical = body.trimmed();
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isNull())
        canonical = doc.toJson(QJsonDocument::Compact); // QJsonObject keeps keys sorted
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(method);
    hash.addData(QByteArrayView("\n"));
    hash.addData(path.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(canonical);
    return hash.result().toHex();
}

std::optional<Idempotency::Stored> Idempotency::lookup(const QString &userId, const QByteArray &key,
                                                       const QByteArray &hash)
{
    QSqlQuery q = m_db.exec(
        u"SELECT request_hash, status, response FROM idempotency WHERE user_id = ? AND key = ?"_s,
        {userId, QString::fromLatin1(key)});
    if (!q.next())
        return std::nullopt;
    if (q.value(0).toString().toLatin1() != hash)
        throw ApiError(422, ErrorCode::IdempotencyKeyReused,
                       u"This Idempotency-Key was already used with a different request."_s);
    return Stored{q.value(1).toInt(), q.value(2).toString().toUtf8()};
}

void Idempotency::store(const QString &userId, const QByteArray &key, const QByteArray &hash,
                        int status, const QByteArray &body, qint64 nowMs)
{
    m_db.exec(
        u"INSERT INTO idempotency(user_id, key, request_hash, status, response, created_at) VALUES (?,?,?,?,?,?)"_s,
        {userId, QString::fromLatin1(key), QString::fromLatin1(hash), status,
         QString::fromUtf8(body), nowMs});
}

} // namespace cardhour::sim
