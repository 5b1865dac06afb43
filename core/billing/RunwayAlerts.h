#pragma once

#include "api/Models.h"
#include "billing/Clock.h"

#include <QHash>
#include <QList>
#include <QObject>

namespace cardhour::core {

// Decides when the user must be told about money running out or an instance the provider ended.
// No widgets: the tray (ui/TrayNotifier) shows what this decides, and tests drive it with a
// ManualClock.
//
// Runway: after each balance/rate update, evaluate() compares the time the balance lasts with
// the thresholds (default 60 and 10 minutes). Crossing below a threshold alerts once; a threshold
// is re-armed only when the runway climbs clearly back above it (a top-up, instances stopped),
// so the interpolated balance wobbling around a threshold does not alert twice. Crossing several
// thresholds at once alerts only the most urgent one.
//
// Instances: an instance that becomes `failed`, or `stopped` for any reason other than the user
// asking, alerts once per transition. A replayed event for a state already seen alerts nothing.
class RunwayAlerts : public QObject
{
    Q_OBJECT
public:
    enum class InstanceAlert {
        Failed,
        StoppedByProvider
    };
    Q_ENUM(InstanceAlert)

    // `clock` must outlive this; nullptr: the system clock.
    explicit RunwayAlerts(const Clock *clock = nullptr, QObject *parent = nullptr);

    // Minutes, any order; zero and negative values are dropped. Re-arms every threshold.
    void setThresholdsMinutes(const QList<int> &minutes);
    QList<int> thresholdsMinutes() const { return m_thresholds; } // largest first

    // The runway right now; -1 when nothing is billed (never runs out).
    static qint64 runwayMs(qint64 balanceMicros, qint64 spendRateMicrosPerHour);
    void evaluate(qint64 balanceMicros, qint64 spendRateMicrosPerHour);
    // A top-up went through: every threshold may alert again on the next crossing.
    void rearm();

    // The provider's whole list (after a reload): remembered, never alerted.
    void seedInstances(const QList<Instance> &instances);
    // One `instance` event or action answer.
    void observeInstance(const Instance &instance);
    void clear();

Q_SIGNALS:
    // The balance lasts less than `thresholdMinutes`; `msLeft` is the runway at that moment.
    void runwayAlert(int thresholdMinutes, qint64 msLeft);
    void instanceAlert(cardhour::core::RunwayAlerts::InstanceAlert kind,
                       const cardhour::core::Instance &instance);

private:
    const Clock *m_clock;
    QList<int> m_thresholds; // minutes, largest first
    QList<bool> m_fired; // parallel to m_thresholds
    QHash<QString, InstanceState> m_lastState;
};

} // namespace cardhour::core
