#include "ProviderClock.h"

namespace cardhour::core {

ProviderClock::ProviderClock(const Clock *local) : m_local(local ? local : SystemClock::instance())
{}

void ProviderClock::note(const QDateTime &providerTime)
{
    if (!providerTime.isValid() || providerTime.toMSecsSinceEpoch() < m_latestMs)
        return;
    m_latestMs = providerTime.toMSecsSinceEpoch();
    m_offsetMs = m_latestMs - m_local->nowMs();
}

} // namespace cardhour::core
