#include "auth/LoginGuard.h"
#include "core/Clock.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TstLoginGuard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The hole this closes: on a loopback provider every client is 127.0.0.1, and a count per
    // address locked every account after 20 failures.
    void aFloodAgainstOneAccountLocksNoOther()
    {
        ManualClock clock(1'700'000'000'000);
        LoginGuard guard(clock);
        const LoginGuard::Attempt attacker{u"victim@example.com"_s, u"127.0.0.1"_s, {}};
        for (int i = 0; i < 1000; ++i)
            guard.recordFailure(attacker);
        QVERIFY(guard.retryAfterMs(attacker) > 0);
        const LoginGuard::Attempt other{u"other@example.com"_s, u"127.0.0.1"_s, {}};
        QCOMPARE(guard.retryAfterMs(other), 0);
    }

    void theOwnersDeviceIsNotLockedByOthersFailures()
    {
        ManualClock clock(1'700'000'000'000);
        LoginGuard guard(clock);
        const LoginGuard::Attempt guesser{u"owner@example.com"_s, u"127.0.0.1"_s, {}};
        for (int i = 0; i < 1000; ++i)
            guard.recordFailure(guesser);
        const LoginGuard::Attempt owner{u"owner@example.com"_s, u"127.0.0.1"_s, "devicehash"_ba};
        QCOMPARE(guard.retryAfterMs(owner), 0);
        // The device has a count of its own: five wrong passwords lock that device alone.
        for (int i = 0; i < LoginGuard::kDevicePolicy.maxFailures; ++i)
            guard.recordFailure(owner);
        QCOMPARE(guard.retryAfterMs(owner), LoginGuard::kDevicePolicy.lockMs);
        const LoginGuard::Attempt otherDevice{u"owner@example.com"_s, u"127.0.0.1"_s, "other"_ba};
        QCOMPARE(guard.retryAfterMs(otherDevice), 0);
    }

    void untrustedAttemptsCountPerClientAndPerAccount()
    {
        ManualClock clock(1'700'000'000'000);
        LoginGuard guard(clock);
        const auto from = [](const QString &address) {
            return LoginGuard::Attempt{u"a@example.com"_s, address, {}};
        };
        for (int i = 0; i < LoginGuard::kClientAccountPolicy.maxFailures; ++i)
            guard.recordFailure(from(u"10.0.0.1"_s));
        QVERIFY(guard.retryAfterMs(from(u"10.0.0.1"_s)) > 0);
        QCOMPARE(guard.retryAfterMs(from(u"10.0.0.2"_s)), 0); // that client only
        // Spread over many addresses, the account's own count stops the guesser at 20.
        for (int i = LoginGuard::kClientAccountPolicy.maxFailures;
             i < LoginGuard::kAccountPolicy.maxFailures; ++i)
            guard.recordFailure(from(u"10.0.1.%1"_s.arg(i)));
        QVERIFY(guard.retryAfterMs(from(u"10.0.0.2"_s)) > 0);
        clock.advanceMs(LoginGuard::kAccountPolicy.lockMs);
        QCOMPARE(guard.retryAfterMs(from(u"10.0.0.2"_s)), 0);
    }

    void aSuccessClearsThatClientsCountOnly()
    {
        ManualClock clock(1'700'000'000'000);
        LoginGuard guard(clock);
        const LoginGuard::Attempt here{u"a@example.com"_s, u"10.0.0.1"_s, {}};
        for (int i = 0; i < 4; ++i)
            guard.recordFailure(here);
        guard.recordSuccess(here);
        for (int i = 0; i < 4; ++i)
            guard.recordFailure(here);
        QCOMPARE(guard.retryAfterMs(here), 0); // 4 + 4: the success started a new count
        // The account's count kept all eight: twelve more from anywhere lock it.
        for (int i = 0; i < 12; ++i)
            guard.recordFailure({u"a@example.com"_s, u"10.9.0.%1"_s.arg(i), {}});
        QVERIFY(guard.retryAfterMs({u"a@example.com"_s, u"10.8.0.1"_s, {}}) > 0);
    }
};

QTEST_GUILESS_MAIN(TstLoginGuard)
#include "tst_loginguard.moc"
