#include "PrivateModels.h"

#include "Catalog.h"
#include "Models.h"
#include "SnapshotRules.h"
#include "billing/Bookkeeper.h"
#include "billing/Ledger.h"
#include "billing/Pricing.h"
#include "core/ApiError.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Json.h"
#include "store/Database.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

const QString kUploadColumns =
    u"id, name, file_name, task, size_bytes, sha256, received_bytes, created_at, updated_at"_s;
const QString kModelColumns =
    u"id, name, file_name, task, size_bytes, sha256, created_at, rate_micros_per_hour, "
    "charged_micros, billed_from"_s;

QString humanBytes(qint64 bytes)
{
    return u"%1 MiB"_s.arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

// While it lives, a commit outside a transaction on SQLite does not wait for the disk
// (synchronous=NORMAL): it survives a crash of the process, and the next durable commit or
// checkpoint carries it; a power cut may lose it. For progress that is redone from what is on
// disk. Nothing changes inside a transaction (SQLite refuses there) or on PostgreSQL.
class Unsynced
{
public:
    explicit Unsynced(Database &db) : m_db(db), m_active(!db.isPostgres() && !db.inTransaction())
    {
        if (m_active) // should it fail, the commit is durable as any other
            QSqlQuery(m_db.handle()).exec(u"PRAGMA synchronous=NORMAL"_s);
    }
    ~Unsynced()
    {
        if (m_active)
            QSqlQuery(m_db.handle()).exec(u"PRAGMA synchronous=FULL"_s);
    }
    Unsynced(const Unsynced &) = delete;
    Unsynced &operator=(const Unsynced &) = delete;

private:
    Database &m_db;
    bool m_active;
};

ApiError unknownUpload()
{
    return ApiError(404, ErrorCode::UnknownUpload, u"No such upload."_s);
}

ApiError unknownModel(const QString &what)
{
    return ApiError(404, ErrorCode::UnknownModel, u"Unknown model \"%1\"."_s.arg(what.left(64)));
}

} // namespace

PrivateModels::PrivateModels(Database &db, Bookkeeper &books, const Catalog &catalog,
                             const Clock &clock, const Models &publicModels, QString dataDir)
    : m_db(db), m_books(books), m_catalog(catalog), m_clock(clock), m_public(publicModels),
      m_dataDir(std::move(dataDir))
{}

QString PrivateModels::partPath(const QString &uploadId) const
{
    return m_dataDir + u"/models/uploads/"_s + uploadId + u".part"_s;
}

QString PrivateModels::modelDir(const QString &modelId) const
{
    return m_dataDir + u"/models/private/"_s + modelId;
}

qint64 PrivateModels::bytesReserved(const QString &userId)
{
    return m_db.scalar(u"SELECT COALESCE(SUM(size_bytes), 0) FROM private_models"
                       " WHERE user_id = ? AND deleted_at IS NULL"_s,
                       {userId})
               .toLongLong()
        + m_db.scalar(u"SELECT COALESCE(SUM(size_bytes), 0) FROM model_uploads WHERE user_id = ?"_s,
                      {userId})
              .toLongLong();
}

// ---- uploads --------------------------------------------------------------------------------

QJsonObject PrivateModels::uploadJson(const QString &uploadId)
{
    QSqlQuery q = m_db.exec(u"SELECT "_s + kUploadColumns + u" FROM model_uploads WHERE id = ?"_s,
                            {uploadId});
    if (!q.next())
        return {};
    return QJsonObject{{u"id"_s, q.value(0).toString()},
                       {u"name"_s, q.value(1).toString()},
                       {u"file_name"_s, q.value(2).toString()},
                       {u"task"_s, q.value(3).toString()},
                       {u"size_bytes"_s, q.value(4).toLongLong()},
                       {u"sha256"_s, q.value(5).toString()},
                       {u"offset"_s, q.value(6).toLongLong()},
                       {u"state"_s, u"uploading"_s},
                       {u"chunk_max_bytes"_s, kChunkMaxBytes},
                       {u"created_at"_s, json::isoTime(q.value(7).toLongLong())},
                       {u"updated_at"_s, json::isoTime(q.value(8).toLongLong())},
                       {u"model"_s, QJsonValue(QJsonValue::Null)}};
}

QJsonObject PrivateModels::createUpload(const QString &userId, const NewUpload &given)
{
    static const QRegularExpression hex64(u"^[0-9a-f]{64}$"_s);
    static const QRegularExpression fileName(u"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$"_s);
    NewUpload u = given;
    u.sha256 = u.sha256.toLower();
    if (u.fileName.isEmpty())
        u.fileName = u.name;
    if (!Models::isValidName(u.name))
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"name\" must be 1-64 of a-z, 0-9, '.', '_' and '-', starting with "
                       "a letter or digit."_s);
    if (!fileName.match(u.fileName).hasMatch() || u.fileName.contains(u".."_s))
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"file_name\" must be a plain file name (letters, digits, '.', "
                       "'_', '-')."_s);
    if (!hex64.match(u.sha256).hasMatch())
        throw ApiError(400, ErrorCode::InvalidField,
                       u"Field \"sha256\" must be 64 hexadecimal digits."_s);
    if (u.sizeBytes <= 0)
        throw ApiError(400, ErrorCode::InvalidField, u"Field \"size_bytes\" must be positive."_s);
    if (m_public.find(u.name))
        throw ApiError(409, ErrorCode::ModelNameTaken,
                       u"\"%1\" is a public model's name; choose another."_s.arg(u.name));

    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    const bool taken =
        m_db.scalar(u"SELECT 1 FROM private_models WHERE user_id = ? AND name = ? AND deleted_at"
                    " IS NULL UNION SELECT 1 FROM model_uploads WHERE user_id = ? AND name = ?"_s,
                    {userId, u.name, userId, u.name})
            .isValid();
    if (taken)
        throw ApiError(409, ErrorCode::ModelNameTaken,
                       u"You already have a model or an upload named \"%1\"."_s.arg(u.name));
    const qint64 limit = m_catalog.userLimits().modelStorageBytes;
    const qint64 used = bytesReserved(userId);
    if (u.sizeBytes > limit - used)
        throw ApiError(409, ErrorCode::ModelStorageLimit,
                       u"This upload (%1) does not fit: your models and uploads use %2 of the %3 "
                       "an account may keep. Delete a model first."_s.arg(
                           humanBytes(u.sizeBytes), humanBytes(used), humanBytes(limit)))
            .withDetails({{u"size_bytes"_s, u.sizeBytes},
                          {u"used_bytes"_s, used},
                          {u"limit_bytes"_s, limit}});
    const QString id = ids::newUuid();
    if (!QDir().mkpath(m_dataDir + u"/models/uploads"_s))
        throw ApiError(503, ErrorCode::Unavailable, u"The provider cannot store uploads."_s);
    QFile part(partPath(id));
    if (!part.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw ApiError(503, ErrorCode::Unavailable, u"The provider cannot store uploads."_s);
    part.close();
    m_db.exec(u"INSERT INTO model_uploads(id, user_id, name, file_name, task, size_bytes, sha256,"
              " received_bytes, created_at, updated_at) VALUES (?,?,?,?,?,?,?,0,?,?)"_s,
              {id, userId, u.name, u.fileName, u.task, u.sizeBytes, u.sha256, now, now});
    QJsonObject out = uploadJson(id);
    tx.commit();
    return out;
}

QJsonObject PrivateModels::upload(const QString &userId, const QString &uploadId)
{
    if (!m_db.scalar(u"SELECT 1 FROM model_uploads WHERE id = ? AND user_id = ?"_s,
                     {uploadId, userId})
             .isValid())
        throw unknownUpload();
    return uploadJson(uploadId);
}

QJsonArray PrivateModels::uploads(const QString &userId)
{
    QJsonArray out;
    QSqlQuery q = m_db.exec(
        u"SELECT id FROM model_uploads WHERE user_id = ? ORDER BY created_at, id"_s, {userId});
    while (q.next())
        out.append(uploadJson(q.value(0).toString()));
    return out;
}

void PrivateModels::putChunk(const QString &userId, const QString &uploadId, qint64 offset,
                             const QByteArray &data, const QString &chunkSha256,
                             std::function<void(const ChunkOutcome &)> done)
{
    QSqlQuery q = m_db.exec(
        u"SELECT size_bytes, received_bytes FROM model_uploads WHERE id = ? AND user_id = ?"_s,
        {uploadId, userId});
    if (!q.next())
        throw unknownUpload();
    const qint64 size = q.value(0).toLongLong();
    const qint64 received = q.value(1).toLongLong();
    if (m_writing.contains(uploadId))
        throw ApiError(409, ErrorCode::UploadOffsetMismatch,
                       u"The chunk before this one is still being written: ask for the upload's "
                       "offset once it is answered and send the chunk that starts there."_s);
    if (offset != received)
        throw ApiError(409, ErrorCode::UploadOffsetMismatch,
                       u"This upload continues at offset %1, not %2: send the chunk that starts "
                       "there."_s.arg(received)
                           .arg(offset));
    if (data.isEmpty() || data.size() > kChunkMaxBytes || offset + data.size() > size)
        throw ApiError(400, ErrorCode::InvalidField,
                       u"A chunk holds 1 to %1 bytes and ends at most at the declared size (%2)."_s
                           .arg(kChunkMaxBytes)
                           .arg(size));
    m_writing.insert(uploadId);
    const qint64 end = offset + data.size();
    m_writer.write({uploadId, partPath(uploadId), offset, data, chunkSha256.toLower()},
                   [this, userId, uploadId, offset, end, done](const ChunkWriter::Result &result) {
                       done([&] { return chunkWritten(userId, uploadId, offset, end, result); });
                   });
}

QJsonObject PrivateModels::chunkWritten(const QString &userId, const QString &uploadId,
                                        qint64 offset, qint64 end,
                                        const ChunkWriter::Result &result)
{
    m_writing.remove(uploadId);
    const QVariant size = m_db.scalar(
        u"SELECT size_bytes FROM model_uploads WHERE id = ? AND user_id = ?"_s, {uploadId, userId});
    if (!size.isValid()) {
        // Cancelled while the chunk was being written, which may have made the file again.
        m_digests.forget(uploadId);
        QFile::remove(partPath(uploadId));
        throw unknownUpload();
    }
    if (result.outcome == ChunkWriter::Outcome::ChecksumMismatch)
        throw ApiError(422, ErrorCode::ChunkChecksumMismatch,
                       u"The chunk at offset %1 does not match its Upload-Chunk-SHA256 (it was "
                       "damaged on the way): send it again."_s.arg(offset));
    if (result.outcome == ChunkWriter::Outcome::WriteFailed)
        throw ApiError(503, ErrorCode::Unavailable,
                       u"The provider could not store the chunk: %1"_s.arg(result.error));
    // The chunk is on disk already: losing this row in a power cut only makes the client send
    // it again, so the event loop does not wait for the disk here (one fdatasync per MiB).
    {
        const Unsynced unsynced(m_db); // this write only: completing commits durably
        m_db.write(u"UPDATE model_uploads SET received_bytes = ?, updated_at = ? WHERE id = ?"_s,
                   {end, m_clock.nowMs(), uploadId});
    }
    if (end == size.toLongLong())
        return complete(userId, uploadId);
    return uploadJson(uploadId);
}

QJsonObject PrivateModels::complete(const QString &userId, const QString &uploadId)
{
    QSqlQuery q = m_db.exec(u"SELECT name, file_name, task, size_bytes, sha256 FROM model_uploads"
                            " WHERE id = ?"_s,
                            {uploadId});
    q.next();
    const QString name = q.value(0).toString();
    const QString fileName = q.value(1).toString();
    const QString task = q.value(2).toString();
    const qint64 size = q.value(3).toLongLong();
    const QString declared = q.value(4).toString();
    QJsonObject out = uploadJson(uploadId);
    // What was written to the part file (what an instance will see), hashed as it arrived.
    const QString actual = m_digests.finish(uploadId, partPath(uploadId), size);
    if (actual != declared) {
        m_db.exec(u"DELETE FROM model_uploads WHERE id = ?"_s, {uploadId});
        QFile::remove(partPath(uploadId));
        if (actual.isEmpty())
            throw ApiError(503, ErrorCode::Unavailable,
                           u"The provider could not read the uploaded file back: it was "
                           "discarded, upload it again."_s);
        throw ApiError(
            422, ErrorCode::UploadChecksumMismatch,
            u"The uploaded file's SHA-256 is %1, not the declared %2: it was discarded."_s.arg(
                actual, declared));
    }
    const QString id = ids::newUuid();
    const QString dir = modelDir(id);
    if (!QDir().mkpath(dir) || !QFile::rename(partPath(uploadId), dir + u'/' + fileName))
        throw ApiError(503, ErrorCode::Unavailable, u"The provider could not keep the model."_s);
    const qint64 now = m_clock.nowMs();
    const qint64 rate = m_catalog.storageRatePerHourMicros(snapshots::billableGib(size));
    Transaction tx(m_db);
    m_db.exec(u"DELETE FROM model_uploads WHERE id = ?"_s, {uploadId});
    m_db.exec(u"INSERT INTO private_models(id, user_id, name, file_name, task, size_bytes, sha256,"
              " created_at, rate_micros_per_hour, billed_from, charged_micros, charged_until)"
              " VALUES (?,?,?,?,?,?,?,?,?,?,0,?)"_s,
              {id, userId, name, fileName, task, size, declared, now, rate, now, now});
    m_books.noteBillMoved(userId); // its storage fee begins
    tx.commit();
    out[u"state"_s] = u"complete"_s;
    out[u"model"_s] = modelJson(id);
    return out;
}

void PrivateModels::abortUpload(const QString &userId, const QString &uploadId)
{
    QSqlQuery q =
        m_db.exec(u"DELETE FROM model_uploads WHERE id = ? AND user_id = ?"_s, {uploadId, userId});
    if (q.numRowsAffected() != 1)
        throw unknownUpload();
    m_digests.forget(uploadId);
    QFile::remove(partPath(uploadId));
}

// ---- models ---------------------------------------------------------------------------------

QJsonObject PrivateModels::modelJson(const QString &modelId)
{
    QSqlQuery q =
        m_db.exec(u"SELECT "_s + kModelColumns + u" FROM private_models WHERE id = ?"_s, {modelId});
    if (!q.next())
        return {};
    const qint64 rate = q.value(7).toLongLong();
    const qint64 owed = pricing::segmentCost(m_clock.nowMs() - q.value(9).toLongLong(), rate);
    return QJsonObject{{u"id"_s, q.value(0).toString()},
                       {u"name"_s, q.value(1).toString()},
                       {u"visibility"_s, u"private"_s},
                       {u"file_name"_s, q.value(2).toString()},
                       {u"task"_s, q.value(3).toString()},
                       {u"languages"_s, QJsonArray()},
                       {u"licence"_s, QJsonValue(QJsonValue::Null)},
                       {u"source_package"_s, QJsonValue(QJsonValue::Null)},
                       {u"description"_s, QString()},
                       {u"mount_path"_s, u"/models/"_s + q.value(1).toString()},
                       {u"size_bytes"_s, q.value(4).toLongLong()},
                       {u"files"_s, 1},
                       {u"sha256"_s, q.value(5).toString()},
                       {u"available"_s, QFile::exists(modelDir(q.value(0).toString()))},
                       {u"added_at"_s, json::isoTime(q.value(6).toLongLong())},
                       {u"storage_rate_micros_per_hour"_s, rate},
                       {u"storage_cost_micros"_s, std::max(owed, q.value(8).toLongLong())}};
}

QJsonArray PrivateModels::list(const QString &userId)
{
    QJsonArray out;
    QSqlQuery q = m_db.exec(u"SELECT id FROM private_models WHERE user_id = ? AND deleted_at IS"
                            " NULL ORDER BY name"_s,
                            {userId});
    while (q.next())
        out.append(modelJson(q.value(0).toString()));
    return out;
}

QJsonObject PrivateModels::get(const QString &userId, const QString &modelId)
{
    if (!m_db.scalar(u"SELECT 1 FROM private_models WHERE id = ? AND user_id = ? AND deleted_at"
                     " IS NULL"_s,
                     {modelId, userId})
             .isValid())
        throw unknownModel(modelId);
    return modelJson(modelId);
}

QJsonObject PrivateModels::remove(const QString &userId, const QString &modelId)
{
    const QJsonObject model = get(userId, modelId);
    const qint64 now = m_clock.nowMs();
    Transaction tx(m_db);
    // A stopped instance mounts its models again when it starts: deleting one under it would
    // leave it unable to start, so only a terminated instance lets go of a model.
    QSqlQuery users = m_db.exec(
        u"SELECT i.id FROM instance_models m JOIN instances i ON i.id = m.instance_id"
        " WHERE m.path = ? AND i.user_id = ? AND i.state != 'terminated' ORDER BY i.created_at"_s,
        {modelDir(modelId), userId});
    QStringList inUse;
    while (users.next())
        inUse.append(users.value(0).toString());
    if (!inUse.isEmpty())
        throw ApiError(409, ErrorCode::ModelInUse,
                       u"Instances that are not terminated mount this model (%1); terminate them "
                       "first."_s.arg(inUse.join(u", "_s)))
            .withDetails({{u"instances"_s, QJsonArray::fromStringList(inUse)}});
    charge(modelId, now);
    m_db.exec(u"UPDATE private_models SET deleted_at = ? WHERE id = ?"_s, {now, modelId});
    m_books.noteBillMoved(userId); // its storage fee ends
    tx.commit();
    QDir(modelDir(modelId)).removeRecursively();
    return model;
}

QList<QPair<QString, QString>> PrivateModels::mountsFor(const QString &userId,
                                                        const QStringList &names)
{
    QList<QPair<QString, QString>> out;
    for (const QString &name : names) {
        if (const std::optional<Models::Model> m = m_public.find(name)) {
            out.append({name, m->path});
            continue;
        }
        const QVariant id =
            m_db.scalar(u"SELECT id FROM private_models WHERE user_id = ? AND name = ? AND"
                        " deleted_at IS NULL"_s,
                        {userId, name});
        if (!id.isValid())
            throw unknownModel(name);
        out.append({name, modelDir(id.toString())});
    }
    return out;
}

bool PrivateModels::isPublic(const QString &name) const
{
    return m_public.find(name).has_value();
}

// ---- storage fee ----------------------------------------------------------------------------

void PrivateModels::charge(const QString &modelId, qint64 atMs)
{
    QSqlQuery q = m_db.exec(u"SELECT user_id, name, rate_micros_per_hour, billed_from,"
                            " charged_micros, charged_until FROM private_models WHERE id = ?"_s,
                            {modelId});
    if (!q.next())
        return;
    const QString userId = q.value(0).toString();
    const qint64 rate = q.value(2).toLongLong();
    const qint64 from = q.value(3).toLongLong();
    const qint64 charged = q.value(4).toLongLong();
    const qint64 until = q.value(5).toLongLong();
    if (atMs <= until)
        return;
    const qint64 owed = pricing::segmentCost(atMs - from, rate) - charged;
    const qint64 posted = std::min(owed, m_books.balance(userId));
    if (posted > 0) {
        Ledger::Posting p;
        p.kind = Ledger::Kind::ModelStorage;
        p.userId = userId;
        p.amountMicros = -posted;
        p.description = u"Model storage: %1, %2 s at %3 micro-yuan/h"_s.arg(q.value(1).toString())
                            .arg((atMs - until) / 1000)
                            .arg(rate);
        if (posted < owed)
            p.description += u" (capped at the remaining balance)"_s;
        p.periodStartMs = until;
        p.periodEndMs = atMs;
        m_books.post(p, atMs);
    }
    m_db.exec(u"UPDATE private_models SET charged_micros = ?, charged_until = ? WHERE id = ?"_s,
              {charged + owed, atMs, modelId});
}

QList<Meter::OpenSegment> PrivateModels::openFeesOf(const QString &userId)
{
    if (m_openFeesAt != m_db.writeVersion()) {
        m_openFees.clear();
        m_openFeesAt = m_db.writeVersion();
    }
    if (auto known = m_openFees.constFind(userId); known != m_openFees.cend())
        return *known;
    QList<Meter::OpenSegment> fees;
    QSqlQuery q = m_db.exec(u"SELECT rate_micros_per_hour, billed_from, charged_micros,"
                            " charged_until FROM private_models WHERE user_id = ? AND"
                            " deleted_at IS NULL ORDER BY billed_from"_s,
                            {userId});
    while (q.next()) {
        Meter::OpenSegment fee;
        fee.kind = Meter::Kind::Storage;
        fee.userId = userId;
        fee.ratePerHourMicros = q.value(0).toLongLong();
        fee.startedAtMs = q.value(1).toLongLong();
        fee.chargedMicros = q.value(2).toLongLong();
        fee.chargedUntilMs = q.value(3).toLongLong();
        fee.lastSeenAtMs = fee.chargedUntilMs;
        fees.append(fee);
    }
    m_openFees.insert(userId, fees);
    return fees;
}

void PrivateModels::accrue(qint64 intervalMs)
{
    const qint64 now = m_clock.nowMs();
    QSqlQuery q = m_db.exec(u"SELECT id FROM private_models WHERE deleted_at IS NULL AND"
                            " charged_until <= ?"_s,
                            {now - intervalMs});
    QStringList due;
    while (q.next())
        due.append(q.value(0).toString());
    if (due.isEmpty())
        return;
    Transaction tx(m_db);
    for (const QString &id : std::as_const(due))
        charge(id, now);
    tx.commit();
}

} // namespace cardhour::sim
