#include "HostDiskReserve.h"

#include "core/ApiError.h"

#include <QFile>
#include <QStorageInfo>

#include <limits>

#if defined(Q_OS_UNIX)
#include <sys/statvfs.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

QString gib(qint64 bytes)
{
    return QString::number(double(bytes) / double(1LL << 30), 'f', 1);
}

// What an unprivileged writer may still use on the file system holding `path`. Every chunk
// of an upload asks: statvfs() alone, where QStorageInfo would read and parse the whole
// /proc/self/mountinfo on the event loop each time (milliseconds with hundreds of container
// mounts).
qint64 availableBytes(const QString &path)
{
#if defined(Q_OS_UNIX)
    struct statvfs volume
    {};
    if (::statvfs(QFile::encodeName(path).constData(), &volume) != 0)
        return std::numeric_limits<qint64>::max();
    return qint64(volume.f_bavail) * qint64(volume.f_frsize);
#else
    const QStorageInfo volume(path);
    return volume.isValid() ? volume.bytesAvailable() : std::numeric_limits<qint64>::max();
#endif
}

} // namespace

HostDiskReserve::HostDiskReserve(QString dataDir, qint64 reserveBytes, FreeBytes freeBytes)
    : m_dataDir(std::move(dataDir)), m_reserveBytes(reserveBytes),
      m_freeBytes(freeBytes ? std::move(freeBytes) : FreeBytes(availableBytes))
{}

qint64 HostDiskReserve::freeBytes() const
{
    return m_dataDir.isEmpty() ? std::numeric_limits<qint64>::max() : m_freeBytes(m_dataDir);
}

void HostDiskReserve::requireRoom(qint64 moreBytes, const QString &what) const
{
    if (m_reserveBytes <= 0)
        return;
    const qint64 free = freeBytes();
    if (free - std::max<qint64>(0, moreBytes) >= m_reserveBytes)
        return;
    throw ApiError(507, ErrorCode::HostDiskFull,
                   u"The provider's disk is nearly full (%1 GiB free, %2 GiB kept in reserve): "
                   "it takes on no new %3 until space is freed. Running instances carry on."_s.arg(
                       gib(free), gib(m_reserveBytes), what))
        .withDetails({{u"free_bytes"_s, free},
                      {u"reserve_bytes"_s, m_reserveBytes},
                      {u"needed_bytes"_s, std::max<qint64>(0, moreBytes)}});
}

QJsonObject HostDiskReserve::json() const
{
    return {{u"reserve_bytes"_s, m_reserveBytes},
            {u"accepting"_s, m_reserveBytes <= 0 || freeBytes() >= m_reserveBytes}};
}

} // namespace cardhour::sim
