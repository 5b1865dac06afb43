#pragma once

#include <QtGlobal>

#include <functional>

namespace cardhour::sim::pricing {

constexpr qint64 kMicrosPerYuan = 1'000'000;
constexpr qint64 kMsPerHour = 3'600'000;

// Cost in micro-yuan of running `durationMs` at `ratePerHourMicros`, rounded down to the
// micro-yuan, computed from the whole duration (exact integer arithmetic, no overflow for
// durations up to centuries and rates up to 10^9 micros/h).
qint64 segmentCost(qint64 durationMs, qint64 ratePerHourMicros);

// Cost of one minute at the rate (what a new run must be able to pay at least).
qint64 oneMinuteCost(qint64 ratePerHourMicros);

// Smallest t in [lo, hi] with reached(t) true, for a monotone predicate; hi + 1 if none.
qint64 firstTimeReached(qint64 lo, qint64 hi, const std::function<bool(qint64)> &reached);

} // namespace cardhour::sim::pricing
