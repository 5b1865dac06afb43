#include "RunwayAlerts.h"

#include "api/ProviderCodes.h"
#include "billing/BillTicker.h"

#include <algorithm>
#include <functional>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {
constexpr qint64 kMinuteMs = 60'000;
// An instance we never saw (e.g. the list has not loaded yet) alerts only when its change is this
// recent: an old failure replayed after a reconnect is not news.
constexpr qint64 kUnseenRecentMs = 5 * kMinuteMs;

// How far above a threshold the runway must climb before it may alert again: a tenth of the
// threshold, at least a minute.
qint64 rearmMarginMs(int thresholdMinutes)
{
    return std::max<qint64>(kMinuteMs, thresholdMinutes * kMinuteMs / 10);
}
} // namespace

RunwayAlerts::RunwayAlerts(const Clock *clock, QObject *parent)
    : QObject(parent), m_clock(clock ? clock : SystemClock::instance())
{
    setThresholdsMinutes({60, 10});
}

void RunwayAlerts::setThresholdsMinutes(const QList<int> &minutes)
{
    m_thresholds.clear();
    for (int value : minutes) {
        if (value > 0 && !m_thresholds.contains(value))
            m_thresholds.append(value);
    }
    std::sort(m_thresholds.begin(), m_thresholds.end(), std::greater<int>());
    m_fired = QList<bool>(m_thresholds.size(), false);
}

qint64 RunwayAlerts::runwayMs(qint64 balanceMicros, qint64 spendRateMicrosPerHour)
{
    if (spendRateMicrosPerHour <= 0)
        return -1;
    if (balanceMicros <= 0)
        return 0;
    return BillTicker::msToSpend(balanceMicros, spendRateMicrosPerHour);
}

void RunwayAlerts::evaluate(qint64 balanceMicros, qint64 spendRateMicrosPerHour)
{
    const qint64 left = runwayMs(balanceMicros, spendRateMicrosPerHour);
    // Re-arm what the runway has clearly climbed back above (or nothing runs any more).
    for (int i = 0; i < m_thresholds.size(); ++i) {
        if (left < 0 || left > m_thresholds[i] * kMinuteMs + rearmMarginMs(m_thresholds[i]))
            m_fired[i] = false;
    }
    if (left < 0)
        return;
    // The most urgent threshold crossed; the larger ones count as told.
    int urgent = -1;
    for (int i = 0; i < m_thresholds.size(); ++i) {
        if (left <= m_thresholds[i] * kMinuteMs)
            urgent = i;
    }
    if (urgent < 0 || m_fired[urgent])
        return;
    for (int i = 0; i <= urgent; ++i)
        m_fired[i] = true;
    Q_EMIT runwayAlert(m_thresholds[urgent], left);
}

void RunwayAlerts::rearm()
{
    m_fired.fill(false);
}

void RunwayAlerts::seedInstances(const QList<Instance> &instances)
{
    for (const Instance &instance : instances)
        m_lastState.insert(instance.id, instance.state);
}

void RunwayAlerts::observeInstance(const Instance &instance)
{
    const auto previous = m_lastState.constFind(instance.id);
    const bool seen = previous != m_lastState.constEnd();
    const bool changed = !seen || previous.value() != instance.state;
    m_lastState.insert(instance.id, instance.state);
    if (!changed)
        return;
    if (!seen
        && (!instance.updatedAt.isValid()
            || m_clock->nowMs() - instance.updatedAt.toMSecsSinceEpoch() > kUnseenRecentMs))
        return;
    if (instance.state == InstanceState::Failed)
        Q_EMIT instanceAlert(InstanceAlert::Failed, instance);
    else if (instance.state == InstanceState::Stopped
             && instance.stateReason != StateReason::StoppedByUser)
        Q_EMIT instanceAlert(InstanceAlert::StoppedByProvider, instance);
}

void RunwayAlerts::clear()
{
    m_lastState.clear();
    rearm();
}

} // namespace cardhour::core
