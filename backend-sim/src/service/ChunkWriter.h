#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>

namespace cardhour::sim {

class UploadDigests;

// Writes the chunks of model uploads off the provider's only thread: a chunk's checksum, its
// write, the fdatasync that puts it on disk and the running digest of its file (UploadDigests)
// take tens of milliseconds a megabyte on a busy host, and every other request would wait
// behind them. The result comes back on the thread that asked (the event loop), which then
// records the new offset: an offset recorded is always on disk, whatever crashes.
class ChunkWriter : public QObject
{
public:
    struct Chunk
    {
        QString uploadId;
        QString path; // the part file: cut back to `offset`, then `data` appended
        qint64 offset = 0;
        QByteArray data;
        QString sha256; // what the sender says `data` hashes to (lower-case hex)
    };
    enum class Outcome {
        Written, // on disk and in the running digest
        ChecksumMismatch, // `data` does not hash to `sha256`: nothing was written
        WriteFailed, // `error` says why; the file may hold part of it (cut back next time)
    };
    struct Result
    {
        Outcome outcome = Outcome::Written;
        QString error;
    };

    explicit ChunkWriter(UploadDigests &digests, QObject *parent = nullptr);
    ~ChunkWriter() override; // waits for the chunks under way; their results are dropped

    // Writes `chunk` on a worker and calls `done` later on this object's thread, never from
    // within write() itself.
    void write(Chunk chunk, std::function<void(const Result &)> done);

private:
    Result store(const Chunk &chunk);

    UploadDigests &m_digests;
    QThreadPool m_workers;
};

} // namespace cardhour::sim
