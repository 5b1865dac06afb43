#include "ProviderClock.h"

namespace cardhour::core {

ProviderClock::ProviderClock(const Clock *local) : m_local(local ? local : SystemClock::instance())
{}

void ProviderClock::note(const QDateTime &providerTime)
{
    if (providerTime.isValid())
        m_offsetMs = providerTime.toMSecsSinceEpoch() - m_local->nowMs();
}

} // namespace cardhour::core
