#pragma once

// Helpers for the core/ tests: wait for a Reply<T> and keep what it delivered (the reply
// itself deletes itself after finished()).
//
//   const auto me = await(client.me());
//   QVERIFY2(me.ok, qPrintable(me.error.describe()));
//   QCOMPARE(me.value->email, u"a@example.com"_s);

#include "api/ProviderClient.h"

#include <QObject>
#include <QTest>

#include <optional>

namespace cardhour::test {

template<typename T>
struct Outcome
{
    bool done = false;
    bool ok = false;
    std::optional<T> value;
    core::ApiError error;
    int status = 0;
    bool replayed = false;
    QString idempotencyKey;

    QByteArray whyText = "no answer in time";

    // For QVERIFY2: what went wrong.
    const char *why() const { return whyText.constData(); }
};

template<typename T>
Outcome<T> await(core::Reply<T> *reply, int timeoutMs = 30000)
{
    auto outcome = std::make_shared<Outcome<T>>();
    reply->onFinished(reply, [outcome](const core::Reply<T> &r) {
        outcome->done = true;
        outcome->ok = r.ok();
        if (r.ok())
            outcome->value = r.value();
        outcome->error = r.error();
        outcome->status = r.httpStatus();
        outcome->replayed = r.replayed();
        outcome->idempotencyKey = r.idempotencyKey();
        outcome->whyText = r.error().describe().toUtf8();
    });
    (void)QTest::qWaitFor([&outcome] { return outcome->done; }, timeoutMs);
    return *outcome;
}

// Two distinct, valid OpenSSH public keys for tests (throwaway, made for these tests).
inline QString testPublicKey(int which = 0)
{
    return which == 0
        ? QStringLiteral(
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIL3PxZifVOUQ1xXPeHsxq324rb+ldUOhk49GR8h7lj4 "
            "core-test")
        : QStringLiteral(
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPN9OK26OvU/ck9X3JTV/iEpmX46rC+ZWSQV9APBtYVu "
            "core-test-2");
}

// Polls GET /v1/instances/{id} through `client` until the state is reached (or time is up).
inline std::optional<core::Instance> awaitState(core::ProviderClient &client, const QString &id,
                                                core::InstanceState state, int timeoutMs = 15000)
{
    std::optional<core::Instance> last;
    (void)QTest::qWaitFor(
        [&] {
            const Outcome<core::Instance> got = await(client.instance(id));
            if (got.ok)
                last = got.value;
            return last && last->state == state;
        },
        timeoutMs);
    return last;
}

} // namespace cardhour::test
