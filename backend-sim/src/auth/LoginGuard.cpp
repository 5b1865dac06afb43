#include "LoginGuard.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
QString clientAccountKey(const LoginGuard::Attempt &a)
{
    return a.clientAddress + u'|' + a.email;
}
} // namespace

LoginGuard::LoginGuard(const Clock &clock)
    : m_devices(clock, kDevicePolicy), m_clientAccounts(clock, kClientAccountPolicy),
      m_accounts(clock, kAccountPolicy)
{}

qint64 LoginGuard::retryAfterMs(const Attempt &attempt) const
{
    if (!attempt.trustedDevice.isEmpty())
        return m_devices.retryAfterMs(QString::fromLatin1(attempt.trustedDevice));
    return std::max(m_clientAccounts.retryAfterMs(clientAccountKey(attempt)),
                    m_accounts.retryAfterMs(attempt.email));
}

void LoginGuard::recordFailure(const Attempt &attempt)
{
    if (!attempt.trustedDevice.isEmpty()) {
        m_devices.recordFailure(QString::fromLatin1(attempt.trustedDevice));
        return;
    }
    m_clientAccounts.recordFailure(clientAccountKey(attempt));
    m_accounts.recordFailure(attempt.email);
}

void LoginGuard::recordSuccess(const Attempt &attempt)
{
    if (!attempt.trustedDevice.isEmpty()) {
        m_devices.recordSuccess(QString::fromLatin1(attempt.trustedDevice));
        return;
    }
    // The account-wide count is left as it is: a guesser elsewhere is not forgiven because
    // the owner logged in.
    m_clientAccounts.recordSuccess(clientAccountKey(attempt));
}

} // namespace cardhour::sim
