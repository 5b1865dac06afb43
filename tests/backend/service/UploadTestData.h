#pragma once

// Bytes and digests for the upload tests: reproducible noise and the SHA-256 a client sends.

#include <QByteArray>
#include <QByteArrayView>
#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QString>

namespace cardhour::sim::test {

inline QByteArray noise(qint64 size, quint32 seed)
{
    QByteArray data(size, Qt::Uninitialized);
    QRandomGenerator(seed).fillRange(reinterpret_cast<quint32 *>(data.data()), size / 4);
    return data;
}

inline QString sha256Hex(QByteArrayView data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

} // namespace cardhour::sim::test
