#include "SshKeys.h"

#include "auth/SshPublicKey.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
QJsonObject keyJson(const QSqlQuery &q)
{
    return {{u"id"_s, q.value(0).toString()},
            {u"name"_s, q.value(1).toString()},
            {u"public_key"_s, q.value(2).toString()},
            {u"type"_s, q.value(3).toString()},
            {u"bits"_s, q.value(4).toInt()},
            {u"fingerprint_sha256"_s, q.value(5).toString()},
            {u"created_at"_s, json::isoTime(q.value(6).toLongLong())}};
}
const QString kColumns = u"id, name, public_key, key_type, bits, fingerprint, created_at"_s;
} // namespace

QJsonObject SshKeys::add(const QString &userId, const QString &name, const QString &publicKey)
{
    QString why;
    const std::optional<SshPublicKey> key = SshPublicKey::parse(publicKey, &why);
    if (!key)
        throw ApiError(400, ErrorCode::InvalidSshKey,
                       u"Not a usable OpenSSH public key: %1"_s.arg(why));
    const QString fingerprint = key->fingerprintSha256();
    const QString id = ids::newUuid();
    Transaction tx(m_db);
    if (m_db.scalar(u"SELECT 1 FROM ssh_keys WHERE user_id = ? AND fingerprint = ?"_s,
                    {userId, fingerprint})
            .isValid())
        throw ApiError(409, ErrorCode::DuplicateSshKey,
                       u"This key (%1) is already on your account."_s.arg(fingerprint));
    const QString line =
        key->comment.isEmpty() ? key->canonical() : key->canonical() + u' ' + key->comment;
    m_db.exec(u"INSERT INTO ssh_keys(id, user_id, name, public_key, key_type, bits, fingerprint, "
              u"created_at)"
              " VALUES (?,?,?,?,?,?,?,?)"_s,
              {id, userId, name, line, key->type, key->bits, fingerprint, m_clock.nowMs()});
    QSqlQuery q = m_db.exec(u"SELECT "_s + kColumns + u" FROM ssh_keys WHERE id = ?"_s, {id});
    q.next();
    QJsonObject result = keyJson(q);
    tx.commit();
    return result;
}

QJsonArray SshKeys::list(const QString &userId)
{
    QJsonArray keys;
    QSqlQuery q = m_db.exec(u"SELECT "_s + kColumns
                                + u" FROM ssh_keys WHERE user_id = ? ORDER BY created_at, rowid"_s,
                            {userId});
    while (q.next())
        keys.append(keyJson(q));
    return keys;
}

void SshKeys::remove(const QString &userId, const QString &keyId)
{
    Transaction tx(m_db);
    QSqlQuery q =
        m_db.exec(u"DELETE FROM ssh_keys WHERE id = ? AND user_id = ?"_s, {keyId, userId});
    if (q.numRowsAffected() != 1)
        throw ApiError(404, ErrorCode::NotFound, u"No SSH key with this id."_s);
    tx.commit();
}

QStringList SshKeys::publicKeysFor(const QString &userId, const QStringList &keyIds)
{
    QStringList lines;
    for (const QString &keyId : keyIds) {
        const QVariant line = m_db.scalar(
            u"SELECT public_key FROM ssh_keys WHERE id = ? AND user_id = ?"_s, {keyId, userId});
        if (!line.isValid())
            throw ApiError(400, ErrorCode::UnknownSshKey,
                           u"SSH key \"%1\" is not one of yours."_s.arg(keyId.left(64)));
        lines.append(line.toString());
    }
    return lines;
}

} // namespace cardhour::sim
