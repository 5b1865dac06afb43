#pragma once

#include <QHash>
#include <QString>

namespace cardhour::sim {

class Clock;

// Counts failed log-ins per key (an e-mail address and, separately, a client address).
// After `maxFailures` failures inside `windowMs`, the key is locked for `lockMs`; a success
// clears that key's count. In memory only: a restart forgets (documented trade-off).
class LoginThrottle
{
public:
    struct Policy
    {
        int maxFailures = 5;
        qint64 windowMs = 15 * 60 * 1000;
        qint64 lockMs = 15 * 60 * 1000;
    };

    explicit LoginThrottle(const Clock &clock) : m_clock(clock) {}
    LoginThrottle(const Clock &clock, Policy policy) : m_clock(clock), m_policy(policy) {}

    // Milliseconds until `key` may try again; 0 if it may try now.
    qint64 retryAfterMs(const QString &key) const;
    void recordFailure(const QString &key);
    void recordSuccess(const QString &key);

private:
    struct Entry
    {
        int failures = 0;
        qint64 firstFailureMs = 0;
        qint64 lockedUntilMs = 0;
    };
    const Clock &m_clock;
    Policy m_policy;
    QHash<QString, Entry> m_entries;
};

} // namespace cardhour::sim
