#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Clock;

// Sign-ups per client address are free up to a rate; past it each one needs a proof of work
// (a SHA-256 partial preimage of a one-time nonce) whose cost doubles with each doubling of
// the excess. Nothing is locked: a script flooding from an address everyone shares (127.0.0.1
// on a desktop sandbox) pays more CPU for each account, while a person signing up from the
// same address pays at most a few seconds of it.
class SignupGate
{
public:
    struct Policy
    {
        int freePerWindow = 30;
        qint64 windowMs = 3600 * 1000;
        int baseBits = 16; // ~65,000 hashes: tens of milliseconds
        int maxBits = 22; // ~4.2 million: a few seconds
        qint64 challengeLifetimeMs = 10 * 60 * 1000;
        qsizetype maxOpenChallenges = 10000;
    };
    struct Proof
    {
        QByteArray nonce; // as handed out
        QByteArray counter; // decimal digits the client found
    };
    // What the caller must answer with: {"proof_of_work": {"nonce", "bits"}}.
    struct Challenge
    {
        QByteArray nonce;
        int bits = 0;
    };

    explicit SignupGate(const Clock &clock) : m_clock(clock) {}
    SignupGate(const Clock &clock, Policy policy) : m_clock(clock), m_policy(policy) {}

    // Nothing when a sign-up from `address` may go ahead (free, or `proof` answers a
    // challenge handed to that address, which is then used up); else a new challenge.
    std::optional<Challenge> admit(const QString &address, const std::optional<Proof> &proof);
    // Counts a sign-up that got past validation (each costs a password hash and trial credit).
    void recordSignup(const QString &address);

    // Whether SHA-256(nonce ":" counter) starts with `bits` zero bits.
    static bool meets(QByteArrayView nonce, QByteArrayView counter, int bits);

private:
    struct Count
    {
        qint64 windowStartMs = 0;
        int signups = 0;
    };
    struct Open
    {
        QString address;
        int bits = 0;
        qint64 expiresMs = 0;
    };
    int bitsNeeded(const QString &address) const;
    void forgetExpired(qint64 now);

    const Clock &m_clock;
    Policy m_policy;
    QHash<QString, Count> m_counts;
    QHash<QByteArray, Open> m_open; // by nonce
};

} // namespace cardhour::sim
