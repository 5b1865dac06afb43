#include "Ids.h"

#include <QByteArray>
#include <QDateTime>
#include <QRandomGenerator>
#include <QUuid>

#include <algorithm>
#include <mutex>

namespace cardhour::sim::ids {

QString newUuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString newTimeOrderedUuid()
{
    // 42 counter bits: the 12 of rand_a and the first 30 of rand_b; the last 32 stay random.
    constexpr int kCounterBits = 42;
    constexpr quint64 kCounterEnd = quint64(1) << kCounterBits;
    static std::mutex mutex;
    static qint64 lastMs = 0;
    static quint64 counter = 0;
    qint64 ms = 0;
    quint64 count = 0;
    {
        const std::lock_guard lock(mutex);
        ms = std::max(QDateTime::currentMSecsSinceEpoch(), lastMs); // never back (clock set back)
        if (ms != lastMs) {
            counter = QRandomGenerator::global()->generate64() & (kCounterEnd / 2 - 1);
        } else if (++counter == kCounterEnd) {
            ++ms; // a counter run out within one millisecond: borrow the next one
            counter = QRandomGenerator::global()->generate64() & (kCounterEnd / 2 - 1);
        }
        lastMs = ms;
        count = counter;
    }
    const quint32 random = QRandomGenerator::global()->generate();
    QByteArray bytes(16, Qt::Uninitialized);
    auto *b = reinterpret_cast<uchar *>(bytes.data());
    for (int i = 0; i < 6; ++i)
        b[i] = uchar(quint64(ms) >> (40 - 8 * i));
    b[6] = uchar(0x70 | ((count >> 38) & 0x0f)); // version 7, counter bits 41..38
    b[7] = uchar(count >> 30); // counter bits 37..30
    b[8] = uchar(0x80 | ((count >> 24) & 0x3f)); // variant 10, counter bits 29..24
    b[9] = uchar(count >> 16);
    b[10] = uchar(count >> 8);
    b[11] = uchar(count);
    for (int i = 0; i < 4; ++i)
        b[12 + i] = uchar(random >> (24 - 8 * i));
    return QUuid::fromRfc4122(bytes).toString(QUuid::WithoutBraces);
}

bool isUuid(const QString &text)
{
    return text.size() == 36 && !QUuid::fromString(text).isNull();
}

} // namespace cardhour::sim::ids
