#pragma once

#include "auth/LoginThrottle.h"

#include <QByteArray>
#include <QString>

namespace cardhour::sim {

class Clock;

// Which log-in attempts may be checked. Every count is per account, none spans accounts, so a
// flood against one account, or from an address every local client shares (127.0.0.1 on a
// desktop sandbox), locks nobody else out:
//  - an attempt that brings the account's device token (handed out at an earlier successful
//    log-in or sign-up on that device) counts against that device alone;
//  - an attempt without one counts per (client address, account) and per account over all
//    addresses. The per-account lock stops a guesser spread over many addresses; the owner's
//    devices still log in while it holds.
class LoginGuard
{
public:
    static constexpr qint64 kWindowMs = 15 * 60 * 1000;
    static constexpr LoginThrottle::Policy kDevicePolicy{5, kWindowMs, kWindowMs};
    static constexpr LoginThrottle::Policy kClientAccountPolicy{5, kWindowMs, kWindowMs};
    static constexpr LoginThrottle::Policy kAccountPolicy{20, kWindowMs, kWindowMs};

    struct Attempt
    {
        QString email; // normalised
        QString clientAddress;
        QByteArray trustedDevice; // the stored hash of a device token valid for this account
    };

    explicit LoginGuard(const Clock &clock);

    // Milliseconds until the attempt may be checked; 0 if now.
    qint64 retryAfterMs(const Attempt &attempt) const;
    void recordFailure(const Attempt &attempt);
    void recordSuccess(const Attempt &attempt);

private:
    LoginThrottle m_devices;
    LoginThrottle m_clientAccounts;
    LoginThrottle m_accounts;
};

} // namespace cardhour::sim
