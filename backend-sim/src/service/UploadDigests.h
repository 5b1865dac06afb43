#pragma once

#include "service/Sha256.h"

#include <QMutex>
#include <QObject>
#include <QString>
#include <QTimer>

#include <map>
#include <memory>

namespace cardhour::sim {

// The SHA-256 of each model upload's part file, kept up while its chunks arrive, so that a
// finished upload needs no read of the whole file on the provider's only thread (a 1 GiB
// read-back froze every request for 8.7 s). After a provider restart mid-upload the digest so
// far is rebuilt from the part file in slices between requests, never in one go.
// written() may be called on a worker thread (ChunkWriter); the rest on the object's thread.
class UploadDigests : public QObject
{
public:
    static constexpr qint64 kSliceBytes = 8 * 1024 * 1024; // ~20 ms of SHA-256

    explicit UploadDigests(QObject *parent = nullptr);
    ~UploadDigests() override;

    // `data` was just written at `offset` of `path` (and the file ends there). Any thread.
    void written(const QString &uploadId, const QString &path, qint64 offset, QByteArrayView data);
    // The digest (lower-case hex) of the first `size` bytes of `path`; what is not hashed yet
    // is read now. Forgets the upload. Empty when the file cannot be read.
    QString finish(const QString &uploadId, const QString &path, qint64 size);
    void forget(const QString &uploadId);
    // How far the digest of an upload has got (tests).
    qint64 hashedBytes(const QString &uploadId) const;

private:
    struct Running
    {
        Sha256 sha;
        qint64 hashed = 0;
        qint64 target = 0; // where the part file ends
        QString path;
    };
    Running &running(const QString &uploadId);
    // Reads up to `maxBytes` of what is not hashed yet; false when the file cannot be read.
    static bool catchUp(Running &r, qint64 maxBytes);
    void step();

    mutable QMutex m_lock; // m_running and each Running
    std::map<QString, std::unique_ptr<Running>> m_running;
    QTimer m_catchUp;
};

} // namespace cardhour::sim
