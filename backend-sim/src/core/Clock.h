#pragma once

#include <QtGlobal>

namespace cardhour::sim {

// Milliseconds since the Unix epoch, UTC. Everything that bills or expires asks a Clock,
// so tests can run hours of billing in milliseconds.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0;
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override;
};

// Moves only when told to (tests and `cardhour-sim --test-clock`).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs) : m_nowMs(startMs) {}
    qint64 nowMs() const override { return m_nowMs; }
    void advanceMs(qint64 ms) { m_nowMs += ms; }
    void setMs(qint64 ms) { m_nowMs = ms; }

private:
    qint64 m_nowMs;
};

} // namespace cardhour::sim
