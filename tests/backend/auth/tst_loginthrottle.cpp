#include "auth/LoginThrottle.h"
#include "core/Clock.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {
LoginThrottle::Policy policy()
{
    LoginThrottle::Policy p;
    p.maxFailures = 3;
    p.windowMs = 60'000;
    p.lockMs = 120'000;
    return p;
}
} // namespace

class TstLoginThrottle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultPolicy()
    {
        ManualClock clock(1'700'000'000'000);
        LoginThrottle throttle(clock);
        const QString key = u"a@example.com"_s;
        for (int i = 0; i < 4; ++i) {
            throttle.recordFailure(key);
            QCOMPARE(throttle.retryAfterMs(key), 0);
        }
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 15 * 60 * 1000);
    }

    void locksAfterMaxFailures()
    {
        ManualClock clock(1'000'000);
        LoginThrottle throttle(clock, policy());
        const QString key = u"user@example.com"_s;
        QCOMPARE(throttle.retryAfterMs(key), 0);
        throttle.recordFailure(key);
        clock.advanceMs(1000);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 0);
        clock.advanceMs(1000);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 120'000);
        // Other keys are unaffected.
        QCOMPARE(throttle.retryAfterMs(u"other@example.com"_s), 0);
    }

    void retryAfterCountsDownAndUnlocks()
    {
        ManualClock clock(0);
        LoginThrottle throttle(clock, policy());
        const QString key = u"203.0.113.7"_s;
        for (int i = 0; i < 3; ++i)
            throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 120'000);
        clock.advanceMs(30'000);
        QCOMPARE(throttle.retryAfterMs(key), 90'000);
        // Failures while locked do not extend the lock.
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 90'000);
        clock.advanceMs(89'999);
        QCOMPARE(throttle.retryAfterMs(key), 1);
        clock.advanceMs(1);
        QCOMPARE(throttle.retryAfterMs(key), 0);
        // After the lock, the count starts afresh: it takes maxFailures again.
        throttle.recordFailure(key);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 0);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 120'000);
    }

    void windowExpiryResets()
    {
        ManualClock clock(5'000);
        LoginThrottle throttle(clock, policy());
        const QString key = u"slow@example.com"_s;
        throttle.recordFailure(key);
        throttle.recordFailure(key);
        clock.advanceMs(60'000); // the window (from the first failure) has passed
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 0);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 0);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 120'000);
    }

    void successClears()
    {
        ManualClock clock(0);
        LoginThrottle throttle(clock, policy());
        const QString key = u"ok@example.com"_s;
        throttle.recordFailure(key);
        throttle.recordFailure(key);
        throttle.recordSuccess(key);
        throttle.recordFailure(key);
        throttle.recordFailure(key);
        QCOMPARE(throttle.retryAfterMs(key), 0);
        throttle.recordFailure(key);
        QVERIFY(throttle.retryAfterMs(key) > 0);
        throttle.recordSuccess(key);
        QCOMPARE(throttle.retryAfterMs(key), 0);
    }

    void manyKeysStayBounded()
    {
        ManualClock clock(0);
        LoginThrottle throttle(clock, policy());
        for (int i = 0; i < 25'000; ++i) {
            throttle.recordFailure(QString::number(i));
            clock.advanceMs(10);
        }
        // Old keys were pruned after their window; a recent one still counts.
        const QString recent = QString::number(24'999);
        throttle.recordFailure(recent);
        throttle.recordFailure(recent);
        QCOMPARE(throttle.retryAfterMs(recent), 120'000);
    }
};

QTEST_GUILESS_MAIN(TstLoginThrottle)
#include "tst_loginthrottle.moc"
