#include "Pricing.h"

namespace cardhour::sim::pricing {

qint64 segmentCost(qint64 durationMs, qint64 ratePerHourMicros)
{
    if (durationMs <= 0 || ratePerHourMicros <= 0)
        return 0;
    // floor(d * r / H) split as (q*H + m) * r / H = q*r + floor(m*r / H): m*r < 3.6e6 * 1e9.
    const qint64 wholeHours = durationMs / kMsPerHour;
    const qint64 restMs = durationMs % kMsPerHour;
    return wholeHours * ratePerHourMicros + (restMs * ratePerHourMicros) / kMsPerHour;
}

qint64 oneMinuteCost(qint64 ratePerHourMicros)
{
    return segmentCost(60'000, ratePerHourMicros);
}

qint64 firstTimeReached(qint64 lo, qint64 hi, const std::function<bool(qint64)> &reached)
{
    if (lo > hi || !reached(hi))
        return hi + 1;
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (reached(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

} // namespace cardhour::sim::pricing
