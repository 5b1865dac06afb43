#pragma once

#include <QDateTime>
#include <QTimeZone>
#include <QtGlobal>

namespace cardhour::core {

// Where the client's notion of "now" comes from, so tests can move time by hand.
class Clock
{
public:
    virtual ~Clock() = default;
    // Milliseconds since the Unix epoch.
    virtual qint64 nowMs() const = 0;
    QDateTime now() const { return QDateTime::fromMSecsSinceEpoch(nowMs(), QTimeZone::utc()); }
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override { return QDateTime::currentMSecsSinceEpoch(); }
    // One shared instance for whoever is given no clock.
    static SystemClock *instance();
};

// A clock that moves only when told (tests).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs = 1'800'000'000'000) : m_nowMs(startMs) {}
    qint64 nowMs() const override { return m_nowMs; }
    void setNowMs(qint64 ms) { m_nowMs = ms; }
    void advanceMs(qint64 ms) { m_nowMs += ms; }

private:
    qint64 m_nowMs;
};

} // namespace cardhour::core
