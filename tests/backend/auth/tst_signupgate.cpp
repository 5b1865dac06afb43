#include "auth/SignupGate.h"
#include "core/Clock.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {
// A client's search, by brute force (the desktop client has its own in core/api).
QByteArray answer(const SignupGate::Challenge &challenge)
{
    for (quint64 counter = 0;; ++counter) {
        const QByteArray text = QByteArray::number(counter);
        if (SignupGate::meets(challenge.nonce, text, challenge.bits))
            return text;
    }
}

SignupGate::Policy smallPolicy()
{
    SignupGate::Policy p;
    p.freePerWindow = 3;
    p.baseBits = 8; // cheap for the test; the default is 16
    p.maxBits = 10;
    return p;
}
} // namespace

class TstSignupGate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void meetsCountsLeadingZeroBits()
    {
        // No bits asked: any well-formed counter; eight: one the search found.
        QVERIFY(SignupGate::meets("abc", "0", 0));
        const QByteArray c = answer({"abc"_ba, 8});
        QVERIFY(SignupGate::meets("abc", c, 8));
        QVERIFY(!SignupGate::meets("abc", "", 0)); // no counter
        QVERIFY(!SignupGate::meets("abc", "12a", 0)); // digits only
        QVERIFY(!SignupGate::meets("abc", QByteArray(21, '1'), 0)); // 20 digits at most
    }

    void freeUpToTheRateThenAProofNoLock()
    {
        ManualClock clock(1'700'000'000'000);
        SignupGate gate(clock, smallPolicy());
        const QString here = u"127.0.0.1"_s;
        for (int i = 0; i < 3; ++i) {
            QVERIFY(!gate.admit(here, std::nullopt));
            gate.recordSignup(here);
        }
        const auto challenge = gate.admit(here, std::nullopt);
        QVERIFY(challenge);
        QCOMPARE(challenge->bits, 8);
        QVERIFY(challenge->nonce.size() >= 32);
        // Whoever answers it signs up: the address is never locked.
        const SignupGate::Proof proof{challenge->nonce, answer(*challenge)};
        QVERIFY(!gate.admit(here, proof));
        gate.recordSignup(here);
        // A proof is good once, and only from the address it was handed to.
        QVERIFY(gate.admit(here, proof));
        const auto second = gate.admit(here, std::nullopt);
        QVERIFY(second);
        QVERIFY(gate.admit(u"127.0.0.2"_s, SignupGate::Proof{second->nonce, answer(*second)})
                == std::nullopt); // another address is still free
        QVERIFY(gate.admit(here, SignupGate::Proof{second->nonce, "not-digits"_ba}));
    }

    void theCostGrowsWithTheFloodAndHasACeiling()
    {
        ManualClock clock(1'700'000'000'000);
        SignupGate gate(clock, smallPolicy());
        const QString here = u"127.0.0.1"_s;
        for (int i = 0; i < 6; ++i)
            gate.recordSignup(here);
        QCOMPARE(gate.admit(here, std::nullopt)->bits, 9); // 6 = 2 x 3: one doubling
        for (int i = 0; i < 100; ++i)
            gate.recordSignup(here);
        QCOMPARE(gate.admit(here, std::nullopt)->bits, 10); // the ceiling
        clock.advanceMs(smallPolicy().windowMs);
        QVERIFY(!gate.admit(here, std::nullopt)); // a new window is free again
    }

    void challengesExpire()
    {
        ManualClock clock(1'700'000'000'000);
        SignupGate gate(clock, smallPolicy());
        const QString here = u"127.0.0.1"_s;
        for (int i = 0; i < 3; ++i)
            gate.recordSignup(here);
        const auto challenge = gate.admit(here, std::nullopt);
        clock.advanceMs(smallPolicy().challengeLifetimeMs);
        QVERIFY(gate.admit(here, SignupGate::Proof{challenge->nonce, answer(*challenge)}));
    }
};

QTEST_GUILESS_MAIN(TstSignupGate)
#include "tst_signupgate.moc"
