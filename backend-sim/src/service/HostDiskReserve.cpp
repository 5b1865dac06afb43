#include "HostDiskReserve.h"

#include "core/ApiError.h"

#include <QStorageInfo>

#include <limits>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

QString gib(qint64 bytes)
{
    return QString::number(double(bytes) / double(1LL << 30), 'f', 1);
}

} // namespace

HostDiskReserve::HostDiskReserve(QString dataDir, qint64 reserveBytes, FreeBytes freeBytes)
    : m_dataDir(std::move(dataDir)), m_reserveBytes(reserveBytes),
      m_freeBytes(freeBytes ? std::move(freeBytes) : FreeBytes([](const QString &path) {
          const QStorageInfo volume(path);
          return volume.isValid() ? volume.bytesAvailable() : std::numeric_limits<qint64>::max();
      }))
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
