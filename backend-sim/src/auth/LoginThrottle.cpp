#include "LoginThrottle.h"

#include "core/Clock.h"

#include <algorithm>

namespace cardhour::sim {

namespace {
// Above this many tracked keys, recordFailure() drops entries that no longer matter, so a
// flood of distinct keys (e.g. spoofed addresses) cannot grow the table without bound.
constexpr qsizetype kPruneThreshold = 10000;
} // namespace

qint64 LoginThrottle::retryAfterMs(const QString &key) const
{
    const auto it = m_entries.constFind(key);
    if (it == m_entries.constEnd())
        return 0;
    const qint64 now = m_clock.nowMs();
    return it->lockedUntilMs > now ? it->lockedUntilMs - now : 0;
}

void LoginThrottle::recordFailure(const QString &key)
{
    const qint64 now = m_clock.nowMs();

    if (m_entries.size() >= kPruneThreshold && !m_entries.contains(key)) {
        m_entries.removeIf([&](const QHash<QString, Entry>::iterator &it) {
            const Entry &e = it.value();
            if (e.lockedUntilMs > now)
                return false;
            return e.lockedUntilMs != 0 || now - e.firstFailureMs >= m_policy.windowMs;
        });
    }

    Entry &entry = m_entries[key];
    if (entry.lockedUntilMs > now)
        return; // already locked: the lock is not extended by further attempts
    if (entry.lockedUntilMs != 0 // a lock that has run out: start afresh
        || (entry.failures > 0 && now - entry.firstFailureMs >= m_policy.windowMs)) {
        entry = Entry{};
    }
    if (entry.failures == 0)
        entry.firstFailureMs = now;
    ++entry.failures;
    if (entry.failures >= std::max(1, m_policy.maxFailures)) {
        entry.failures = 0;
        entry.lockedUntilMs = now + std::max<qint64>(0, m_policy.lockMs);
    }
}

void LoginThrottle::recordSuccess(const QString &key)
{
    m_entries.remove(key);
}

} // namespace cardhour::sim
