#include "billing/BillTicker.h"

#include <QTimer>

namespace cardhour::core {

namespace {
constexpr qint64 kMsPerHour = 3'600'000;
} // namespace

SystemClock *SystemClock::instance()
{
    static SystemClock clock;
    return &clock;
}

BillTicker::BillTicker(const Clock *clock, QObject *parent)
    : QObject(parent), m_clock(clock ? clock : SystemClock::instance()), m_timer(new QTimer(this))
{
    m_timer->setInterval(1000);
    connect(m_timer, &QTimer::timeout, this, &BillTicker::tick);
}

void BillTicker::setTickIntervalMs(int ms)
{
    m_timer->setInterval(ms);
    if (ms <= 0)
        m_timer->stop();
    else if (m_hasData)
        m_timer->start();
}

qint64 BillTicker::costOf(qint64 ms, qint64 ratePerHour)
{
    if (ms <= 0 || ratePerHour <= 0)
        return 0;
    // Split so that no product overflows: whole hours, then the rest of an hour.
    return (ms / kMsPerHour) * ratePerHour + ((ms % kMsPerHour) * ratePerHour) / kMsPerHour;
}

qint64 BillTicker::msToSpend(qint64 amount, qint64 ratePerHour)
{
    if (amount <= 0)
        return 0;
    if (ratePerHour <= 0)
        return -1;
    // Smallest ms with costOf(ms) >= amount: ceil(amount * H / rate), split as in costOf.
    const qint64 whole = (amount / ratePerHour) * kMsPerHour;
    const qint64 rest = amount % ratePerHour;
    return whole + (rest * kMsPerHour + ratePerHour - 1) / ratePerHour;
}

bool BillTicker::update(const BillingSummary &summary)
{
    return update(summary.balanceMicros, summary.spendRateMicrosPerHour, summary.asOf);
}

bool BillTicker::update(const Account &account)
{
    return update(account.balanceMicros, account.spendRateMicrosPerHour);
}

bool BillTicker::update(qint64 balanceMicros, qint64 spendRateMicrosPerHour,
                        const QDateTime &providerAsOf)
{
    if (providerAsOf.isValid() && m_anchorProviderAsOf.isValid()
        && providerAsOf < m_anchorProviderAsOf)
        return false;
    m_hasData = true;
    m_anchorBalance = std::max<qint64>(0, balanceMicros);
    m_rate = std::max<qint64>(0, spendRateMicrosPerHour);
    m_anchorLocalMs = m_clock->nowMs();
    if (providerAsOf.isValid())
        m_anchorProviderAsOf = providerAsOf;
    m_exhaustedEmitted = m_anchorBalance == 0; // already out: the provider has said so itself
    if (m_timer->interval() > 0 && !m_timer->isActive())
        m_timer->start();
    tick();
    return true;
}

void BillTicker::clear()
{
    m_hasData = false;
    m_anchorBalance = 0;
    m_rate = 0;
    m_anchorProviderAsOf = {};
    m_lastEmitted = -1;
    m_exhaustedEmitted = false;
    m_timer->stop();
}

qint64 BillTicker::balanceAtMs(qint64 localMs) const
{
    if (!m_hasData)
        return 0;
    return std::max<qint64>(0, m_anchorBalance - costOf(localMs - m_anchorLocalMs, m_rate));
}

QDateTime BillTicker::runsOutAt() const
{
    if (!m_hasData || m_rate <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(m_anchorLocalMs + msToSpend(m_anchorBalance, m_rate),
                                          QTimeZone::utc());
}

qint64 BillTicker::msLeft() const
{
    if (!m_hasData || m_rate <= 0)
        return -1;
    return std::max<qint64>(
        0, m_anchorLocalMs + msToSpend(m_anchorBalance, m_rate) - m_clock->nowMs());
}

void BillTicker::tick()
{
    if (!m_hasData)
        return;
    const qint64 balance = balanceMicros();
    if (balance != m_lastEmitted) {
        m_lastEmitted = balance;
        Q_EMIT balanceChanged(balance);
    }
    if (balance == 0 && m_rate > 0 && !m_exhaustedEmitted) {
        m_exhaustedEmitted = true;
        Q_EMIT exhausted();
    }
}

} // namespace cardhour::core
