#include "SignupGate.h"

#include "auth/Tokens.h"
#include "core/Clock.h"

#include <QCryptographicHash>

#include <algorithm>
#include <bit>

namespace cardhour::sim {

namespace {
constexpr qsizetype kCountsPruneThreshold = 10000;
} // namespace

bool SignupGate::meets(QByteArrayView nonce, QByteArrayView counter, int bits)
{
    if (counter.isEmpty() || counter.size() > 20
        || !std::all_of(counter.begin(), counter.end(),
                        [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    QCryptographicHash sha(QCryptographicHash::Sha256);
    sha.addData(nonce);
    sha.addData(":");
    sha.addData(counter);
    const QByteArray digest = sha.result();
    int zeros = 0;
    for (const char byte : digest) {
        const auto b = static_cast<unsigned char>(byte);
        zeros += std::countl_zero(b);
        if (b != 0 || zeros >= bits)
            break;
    }
    return zeros >= bits;
}

int SignupGate::bitsNeeded(const QString &address) const
{
    const auto it = m_counts.constFind(address);
    if (it == m_counts.constEnd() || m_clock.nowMs() - it->windowStartMs >= m_policy.windowMs)
        return 0;
    const int free = std::max(1, m_policy.freePerWindow);
    if (it->signups < free)
        return 0;
    // One more bit for each doubling of what came past the free ones.
    const auto doublings = std::bit_width(static_cast<unsigned>(it->signups / free)) - 1;
    return std::min(m_policy.maxBits, m_policy.baseBits + int(doublings));
}

void SignupGate::forgetExpired(qint64 now)
{
    m_open.removeIf(
        [now](const QHash<QByteArray, Open>::iterator &it) { return it->expiresMs <= now; });
    if (m_counts.size() >= kCountsPruneThreshold) {
        m_counts.removeIf([&](const QHash<QString, Count>::iterator &it) {
            return now - it->windowStartMs >= m_policy.windowMs;
        });
    }
}

std::optional<SignupGate::Challenge> SignupGate::admit(const QString &address,
                                                       const std::optional<Proof> &proof)
{
    const int bits = bitsNeeded(address);
    if (bits == 0)
        return std::nullopt;
    const qint64 now = m_clock.nowMs();
    if (proof) {
        const auto open = m_open.constFind(proof->nonce);
        if (open != m_open.constEnd() && open->address == address && open->expiresMs > now
            && meets(proof->nonce, proof->counter, open->bits)) {
            m_open.erase(open); // one sign-up per proof
            return std::nullopt;
        }
    }
    if (m_open.size() >= m_policy.maxOpenChallenges)
        forgetExpired(now);
    if (m_open.size() >= m_policy.maxOpenChallenges)
        m_open.erase(m_open.begin()); // any one: an unanswered challenge costs its holder nothing
    Challenge challenge{tokens::generate(), bits};
    m_open.insert(challenge.nonce, Open{address, bits, now + m_policy.challengeLifetimeMs});
    return challenge;
}

void SignupGate::recordSignup(const QString &address)
{
    const qint64 now = m_clock.nowMs();
    if (m_counts.size() >= kCountsPruneThreshold && !m_counts.contains(address))
        forgetExpired(now);
    Count &count = m_counts[address];
    if (count.signups == 0 || now - count.windowStartMs >= m_policy.windowMs)
        count = Count{now, 0};
    ++count.signups;
}

} // namespace cardhour::sim
