#pragma once

#include <QByteArray>
#include <QObject>

#include <functional>
#include <optional>

namespace cardhour::core {

struct ApiError;

// The answer to the provider's sign-up challenge: past a rate of sign-ups from one address it
// answers 429 too_many_attempts with details.proof_of_work {nonce, bits}, and the sign-up goes
// through with a decimal counter such that SHA-256(nonce ":" counter) starts with `bits` zero
// bits. It costs the client tens of milliseconds to seconds, and is searched off the GUI thread.
namespace proof_of_work {

struct Challenge
{
    QByteArray nonce;
    int bits = 0;

    // The challenge in a refused sign-up, if it carries one.
    static std::optional<Challenge> fromError(const ApiError &error);
};

struct Answer
{
    QByteArray nonce;
    QByteArray counter;
};

// The most bits searched for: a provider asking more is not answered (the search would take
// minutes on a laptop).
inline constexpr int kMaxBits = 26;

bool meets(QByteArrayView nonce, QByteArrayView counter, int bits);
// The search, on the calling thread.
Answer solve(const Challenge &challenge);
// The search on a thread of its own; `done` runs on `context`'s thread (not at all if
// `context` is gone by then).
void solveAsync(const Challenge &challenge, QObject *context, std::function<void(Answer)> done);

} // namespace proof_of_work
} // namespace cardhour::core
