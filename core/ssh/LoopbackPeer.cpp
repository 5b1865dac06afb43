#include "ssh/LoopbackPeer.h"

#include <QAbstractSocket>
#include <QByteArrayList>
#include <QFile>
#include <QHostAddress>

#include <cstring>

#ifdef Q_OS_LINUX
#include <unistd.h>
#endif

namespace cardhour::core {

namespace {

// The kernel prints each 32-bit word of an address as the number it is in memory, in hex
// ("%08X"): 127.0.0.1 is 0100007F on a little-endian machine. Done the same way here, the text
// matches on any byte order.
QByteArray procWord(const quint8 *bytes)
{
    quint32 word = 0;
    std::memcpy(&word, bytes, sizeof word);
    return QByteArray::number(word, 16).toUpper().rightJustified(8, '0');
}

QByteArray procPort(quint16 port)
{
    return QByteArray::number(port, 16).toUpper().rightJustified(4, '0');
}

// "ADDRESS:PORT" as /proc/net/tcp (IPv4) or /proc/net/tcp6 (IPv6, IPv4-mapped too) shows it.
QByteArray procEndpoint(const QHostAddress &address, quint16 port, bool ipv6Table)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    QByteArray text;
    if (isV4) {
        const quint8 bytes[4] = {quint8(v4 >> 24), quint8(v4 >> 16), quint8(v4 >> 8), quint8(v4)};
        if (ipv6Table) {
            const quint8 mapped[8] = {0, 0, 0xff, 0xff, 0, 0, 0, 0};
            text = "0000000000000000" + procWord(mapped);
        }
        text += procWord(bytes);
    } else {
        if (!ipv6Table)
            return {};
        const Q_IPV6ADDR v6 = address.toIPv6Address();
        for (int i = 0; i < 16; i += 4)
            text += procWord(v6.c + i);
    }
    return text + ':' + procPort(port);
}

std::optional<uint> uidInTable(const QString &path, const QByteArray &peerEnd,
                               const QByteArray &localEnd)
{
    if (peerEnd.isEmpty() || localEnd.isEmpty())
        return std::nullopt;
    QFile table(path);
    if (!table.open(QIODevice::ReadOnly))
        return std::nullopt;
    // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ..."
    table.readLine();
    while (!table.atEnd()) {
        const QByteArrayList fields = table.readLine().simplified().split(' ');
        if (fields.size() > 7 && fields.at(1) == peerEnd && fields.at(2) == localEnd) {
            bool ok = false;
            const uint uid = fields.at(7).toUInt(&ok);
            if (ok)
                return uid;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<uint> loopbackPeerUid(const QHostAddress &peer, quint16 peerPort,
                                    const QHostAddress &local, quint16 localPort)
{
    for (const bool ipv6Table : {false, true}) {
        const std::optional<uint> uid = uidInTable(
            ipv6Table ? QStringLiteral("/proc/net/tcp6") : QStringLiteral("/proc/net/tcp"),
            procEndpoint(peer, peerPort, ipv6Table), procEndpoint(local, localPort, ipv6Table));
        if (uid)
            return uid;
    }
    return std::nullopt;
}

std::optional<uint> loopbackPeerUid(const QAbstractSocket &accepted)
{
    return loopbackPeerUid(accepted.peerAddress(), accepted.peerPort(), accepted.localAddress(),
                           accepted.localPort());
}

bool peerIsThisUser(const QAbstractSocket &accepted)
{
#ifdef Q_OS_LINUX
    const std::optional<uint> uid = loopbackPeerUid(accepted);
    return uid && *uid == uint(getuid());
#else
    Q_UNUSED(accepted);
    return true;
#endif
}

} // namespace cardhour::core
