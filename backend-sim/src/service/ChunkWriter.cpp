#include "ChunkWriter.h"

#include "service/Sha256.h"
#include "service/UploadDigests.h"

#include <QFile>

#if defined(Q_OS_UNIX)
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// Waits until the file's data (and its size) are on the disk.
bool syncData(QFile &file)
{
#if defined(Q_OS_LINUX)
    return ::fdatasync(file.handle()) == 0;
#elif defined(Q_OS_UNIX)
    return ::fsync(file.handle()) == 0;
#else
    return file.flush();
#endif
}
} // namespace

ChunkWriter::ChunkWriter(UploadDigests &digests, QObject *parent)
    : QObject(parent), m_digests(digests)
{
    // A few uploads at once go to the disk side by side; more wait their turn.
    m_workers.setMaxThreadCount(2);
    m_workers.setObjectName(u"ChunkWriter"_s);
}

ChunkWriter::~ChunkWriter()
{
    m_workers.waitForDone();
}

void ChunkWriter::write(Chunk chunk, std::function<void(const Result &)> done)
{
    m_workers.start([this, chunk = std::move(chunk), done = std::move(done)] {
        const Result result = store(chunk);
        QMetaObject::invokeMethod(
            this, [done, result] { done(result); }, Qt::QueuedConnection);
    });
}

ChunkWriter::Result ChunkWriter::store(const Chunk &chunk)
{
    if (Sha256::hexOf(chunk.data) != chunk.sha256)
        return {Outcome::ChecksumMismatch, {}};
    QFile part(chunk.path);
    if (!part.open(QIODevice::ReadWrite) || !part.resize(chunk.offset) || !part.seek(chunk.offset)
        || part.write(chunk.data) != chunk.data.size() || !part.flush() || !syncData(part))
        return {Outcome::WriteFailed, part.errorString()};
    part.close();
    m_digests.written(chunk.uploadId, chunk.path, chunk.offset, chunk.data);
    return {};
}

} // namespace cardhour::sim
