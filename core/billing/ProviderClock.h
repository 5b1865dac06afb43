#pragma once

#include "billing/Clock.h"

#include <QDateTime>

namespace cardhour::core {

// The provider's clock as this machine knows it: the provider's time in its latest answer (a
// bill's as_of) plus what this machine's clock has run since. What the
// provider plans by its own clock (a stop at 18:30, under --test-clock a clock that jumps)
// counts down right even when this machine's clock is off.
class ProviderClock final : public Clock
{
public:
    // `local` must outlive this; nullptr: the system clock.
    explicit ProviderClock(const Clock *local = nullptr);

    qint64 nowMs() const override { return m_local->nowMs() + m_offsetMs; }
    // The provider said it was `providerTime` just now; an invalid time, or one older than the
    // latest noted (a replayed event), changes nothing.
    void note(const QDateTime &providerTime);
    // Forgets what was learnt (another provider, another user).
    void reset()
    {
        m_offsetMs = 0;
        m_latestMs = 0;
    }
    qint64 offsetMs() const { return m_offsetMs; }

private:
    const Clock *m_local;
    qint64 m_offsetMs = 0; // provider minus local
    qint64 m_latestMs = 0; // the latest provider time noted
};

} // namespace cardhour::core
