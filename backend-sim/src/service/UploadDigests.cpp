#include "UploadDigests.h"

#include <QFile>
#include <QThread>

#include <algorithm>

namespace cardhour::sim {

UploadDigests::UploadDigests(QObject *parent) : QObject(parent)
{
    m_catchUp.setInterval(0); // one slice per pass of the event loop: requests go between
    connect(&m_catchUp, &QTimer::timeout, this, &UploadDigests::step);
}

UploadDigests::~UploadDigests() = default;

UploadDigests::Running &UploadDigests::running(const QString &uploadId)
{
    auto &slot = m_running[uploadId];
    if (!slot)
        slot = std::make_unique<Running>();
    return *slot;
}

void UploadDigests::written(const QString &uploadId, const QString &path, qint64 offset,
                            QByteArrayView data)
{
    const QMutexLocker locked(&m_lock);
    Running &r = running(uploadId);
    r.path = path;
    r.target = offset + data.size();
    if (r.hashed > offset) {
        // The file was cut back below what was hashed (it cannot be here today, since a chunk
        // continues at the received offset): start over from the file.
        r.sha.reset();
        r.hashed = 0;
    }
    if (r.hashed == offset) {
        r.sha.addData(data);
        r.hashed += data.size();
        return;
    }
    // A gap: the digest so far was lost with a restart. Rebuilt from the file, in slices, on
    // this object's thread (the timer's).
    const auto startCatchUp = [this] {
        if (!m_catchUp.isActive())
            m_catchUp.start();
    };
    if (QThread::currentThread() == thread())
        startCatchUp();
    else
        QMetaObject::invokeMethod(this, startCatchUp, Qt::QueuedConnection);
}

bool UploadDigests::catchUp(Running &r, qint64 maxBytes)
{
    const qint64 want = std::min(maxBytes, r.target - r.hashed);
    if (want <= 0)
        return true;
    QFile file(r.path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(r.hashed))
        return false;
    const QByteArray bytes = file.read(want);
    if (bytes.size() != want)
        return false;
    r.sha.addData(bytes);
    r.hashed += want;
    return true;
}

void UploadDigests::step()
{
    const QMutexLocker locked(&m_lock);
    bool more = false;
    for (auto &[id, r] : m_running) {
        if (r->hashed >= r->target)
            continue;
        if (!catchUp(*r, kSliceBytes)) {
            r->target = r->hashed; // unreadable now: finish() tries again and says so
            continue;
        }
        more = more || r->hashed < r->target;
    }
    if (!more)
        m_catchUp.stop();
}

QString UploadDigests::finish(const QString &uploadId, const QString &path, qint64 size)
{
    const QMutexLocker locked(&m_lock);
    Running &r = running(uploadId);
    r.path = path;
    r.target = size;
    if (r.hashed > size) {
        r.sha.reset();
        r.hashed = 0;
    }
    const bool read = catchUp(r, size - r.hashed);
    const QString digest = read ? r.sha.hex() : QString();
    m_running.erase(uploadId);
    return digest;
}

void UploadDigests::forget(const QString &uploadId)
{
    const QMutexLocker locked(&m_lock);
    m_running.erase(uploadId);
}

qint64 UploadDigests::hashedBytes(const QString &uploadId) const
{
    const QMutexLocker locked(&m_lock);
    const auto it = m_running.find(uploadId);
    return it == m_running.end() ? 0 : it->second->hashed;
}

} // namespace cardhour::sim
