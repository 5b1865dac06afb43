#pragma once

#include "billing/Meter.h"
#include "service/ChunkWriter.h"
#include "service/UploadDigests.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>

namespace cardhour::sim {

class Catalog;
class Clock;
class Database;
class Bookkeeper;
class Models;

// Models a user uploads for their own instances, and the uploads themselves.
//
// An upload is declared first (name, size, SHA-256), then sent in chunks, each with the offset
// it starts at and its own SHA-256: a chunk at any other offset than what the provider holds is
// refused (the caller asks for the offset and carries on from there, also after a restart of
// either side), so is a chunk whose bytes do not match its digest, and one sent while another
// of the same upload is still being written. The partial file lives in
// <dataDir>/models/uploads; the database row's offset is the truth (the file is cut back to it
// before each write). Chunks are checked, written and synced to disk on a worker
// (ChunkWriter): the offset moves on only once a chunk is on disk. The last chunk makes the
// provider hash the whole file: only a file with the declared SHA-256 becomes a model, in
// <dataDir>/models/private/<id>/<file name>; another is discarded. Declared sizes of a user's
// models and open uploads together stay within the catalog's user_limits.model_storage_bytes.
//
// A model is billed from the moment it is listed until it is deleted, per GiB-hour at the
// catalog's storage price (whole GiB, at least one, like snapshots), in ledger postings of kind
// `model_storage`, capped at the balance. Others never see a user's models: every lookup of
// another's id or name answers 404, as for an id that does not exist.
class PrivateModels
{
public:
    PrivateModels(Database &db, Bookkeeper &books, const Catalog &catalog, const Clock &clock,
                  const Models &publicModels, QString dataDir);

    // Largest chunk accepted (what the HTTP layer lets through).
    static constexpr qint64 kChunkMaxBytes = 1024 * 1024;

    struct NewUpload
    {
        QString name;
        QString fileName; // the file's name inside /models/NAME; default: the model's name
        QString task;
        qint64 sizeBytes = 0;
        QString sha256; // lower-case hex
    };
    QJsonObject createUpload(const QString &userId, const NewUpload &upload);
    QJsonObject upload(const QString &userId, const QString &uploadId);
    QJsonArray uploads(const QString &userId);
    // What became of a chunk: returns the upload (with `model` once the last chunk listed
    // it) or throws the ApiError that says why not.
    using ChunkOutcome = std::function<QJsonObject()>;
    // Checks a chunk at `offset` against the upload now (throws ApiError), then writes it on
    // a worker and calls `done` later on this thread; the last one completes the upload (see
    // the class comment).
    void putChunk(const QString &userId, const QString &uploadId, qint64 offset,
                  const QByteArray &data, const QString &chunkSha256,
                  std::function<void(const ChunkOutcome &)> done);
    void abortUpload(const QString &userId, const QString &uploadId);

    QJsonArray list(const QString &userId);
    // The caller's model by id, ApiError 404 otherwise.
    QJsonObject get(const QString &userId, const QString &modelId);
    // Stops its storage fee (posting what it still owes) and deletes its file.
    QJsonObject remove(const QString &userId, const QString &modelId);

    // (name, host folder) for each model an instance of `userId` asks for: public ones by name,
    // then the user's own; 404 unknown_model for any other name.
    QList<QPair<QString, QString>> mountsFor(const QString &userId, const QStringList &names);
    bool isPublic(const QString &name) const;

    // Posts the storage fee owed since the last posting (at most every `intervalMs`).
    void accrue(qint64 intervalMs = 60'000);
    // The storage fees of the user's listed models as open segments (kind Storage, no
    // instance, no snapshot): what they owe unposted and their rates count in the live
    // balance, the spend rate and when the balance runs out, like a snapshot's fee.
    QList<Meter::OpenSegment> openFeesOf(const QString &userId);

private:
    QString partPath(const QString &uploadId) const;
    QString modelDir(const QString &modelId) const;
    QJsonObject uploadJson(const QString &uploadId);
    QJsonObject modelJson(const QString &modelId);
    qint64 bytesReserved(const QString &userId);
    // Posts what model `modelId` owes up to `atMs`, capped at the balance. In a transaction.
    void charge(const QString &modelId, qint64 atMs);
    // Records a chunk the worker is done with (on this thread); what putChunk hands on.
    QJsonObject chunkWritten(const QString &userId, const QString &uploadId, qint64 offset,
                             qint64 end, const ChunkWriter::Result &result);
    QJsonObject complete(const QString &userId, const QString &uploadId);

    Database &m_db;
    Bookkeeper &m_books;
    const Catalog &m_catalog;
    const Clock &m_clock;
    const Models &m_public;
    QString m_dataDir;
    UploadDigests m_digests;
    ChunkWriter m_writer{m_digests}; // after m_digests: its workers are done before it goes
    QSet<QString> m_writing; // uploads with a chunk at the writer
    // openFeesOf per user, as of the database's write version: every GET /v1/me asks, and
    // the fees change only with a write.
    QHash<QString, QList<Meter::OpenSegment>> m_openFees;
    quint64 m_openFeesAt = ~quint64(0);
};

} // namespace cardhour::sim
