#pragma once

#include "api/SpendingModels.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QString>
#include <QTimeZone>

#include <optional>

namespace cardhour::ui {

// A stop the provider makes by itself, in words: why a host stopped (state_reason) and when
// and why a running one will stop (planned_stop).
class StopText
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::StopText)
public:
    // spending_limit, max_duration, max_cost, idle (and the older balance_exhausted) in words;
    // empty for a reason that is not one of these.
    static QString reason(const QString &reason);
    // reason() where it knows the code, else the provider's own words (a runtime's message).
    static QString reasonOrAsSaid(const QString &reason);
    // "Stops at 18:30 (in 1 h 05 min): its stop time"; without `now`, no countdown. Empty
    // without a planned stop.
    // The time is written in `zone` (the provider's).
    static QString planned(const std::optional<core::PlannedStop> &stop, const QTimeZone &zone,
                           const QDateTime &now = {});
    // "Interrupted at 18:30 (in 25 s): the provider needs its cards": an interruptible host's
    // notice, counting down to `at` from `now`. Empty when `at` is invalid.
    static QString interruption(const QDateTime &at, const QTimeZone &zone, const QDateTime &now);
};

} // namespace cardhour::ui
