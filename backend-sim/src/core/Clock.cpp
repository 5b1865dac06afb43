#include "Clock.h"

#include <QDateTime>

namespace cardhour::sim {

qint64 SystemClock::nowMs() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace cardhour::sim
