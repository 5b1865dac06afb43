#include "StopText.h"

#include "Format.h"
#include "api/ProviderCodes.h"

using namespace Qt::StringLiterals;

namespace cardhour::ui {

QString StopText::reason(const QString &reason)
{
    if (reason == core::StateReason::SpendingLimit)
        return tr("a spending limit was reached");
    if (reason == core::StateReason::MaxDuration)
        return tr("its stop time");
    if (reason == core::StateReason::MaxCost)
        return tr("its maximum cost");
    if (reason == core::StateReason::Idle)
        return tr("its cards stayed idle");
    if (reason == core::StateReason::BalanceExhausted)
        return tr("the balance ran out");
    if (reason == core::StateReason::ProviderRestarted)
        return tr("the provider restarted");
    if (reason == core::StateReason::ContainerStopped || reason == core::StateReason::ContainerGone)
        return tr("its container stopped");
    if (reason == core::StateReason::Interrupted)
        return tr("interrupted by the provider");
    return {};
}

QString StopText::reasonOrAsSaid(const QString &code)
{
    const QString words = reason(code);
    return words.isEmpty() ? code : words;
}

QString StopText::planned(const std::optional<core::PlannedStop> &stop, const QTimeZone &zone,
                          const QDateTime &now)
{
    if (!stop || !stop->at.isValid())
        return {};
    const QString why = reasonOrAsSaid(stop->reason);
    const QDateTime there = stop->at.toTimeZone(zone);
    const bool today = now.isValid() && there.date() == now.toTimeZone(zone).date();
    const QString at =
        today || !now.isValid() ? there.toString(u"HH:mm"_s) : Format::dateTime(stop->at, zone);
    if (!now.isValid())
        return tr("Stops at %1: %2").arg(at, why);
    const qint64 left = qMax<qint64>(0, now.msecsTo(stop->at));
    return tr("Stops at %1 (in %2): %3").arg(at, Format::duration(left), why);
}

QString StopText::interruption(const QDateTime &at, const QTimeZone &zone, const QDateTime &now)
{
    if (!at.isValid())
        return {};
    const qint64 left = qMax<qint64>(0, now.msecsTo(at));
    return tr("Interrupted at %1 (in %2): the provider needs its cards")
        .arg(at.toTimeZone(zone).toString(u"HH:mm:ss"_s), Format::duration(left));
}

} // namespace cardhour::ui
