#include "InstanceActions.h"

#include "Format.h"

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::InstanceState;

namespace {

QString listOf(const QStringList &items)
{
    QStringList words;
    for (const QString &item : items)
        words << Format::retentionItem(item);
    return words.join(InstanceActions::tr(", "));
}

} // namespace

bool InstanceActions::allowed(Action action, const Instance &instance)
{
    switch (action) {
    case Action::Stop:
        return instance.state == InstanceState::Running || instance.state == InstanceState::Starting
            || instance.state == InstanceState::Creating;
    case Action::Start:
        return instance.state == InstanceState::Stopped;
    case Action::Terminate:
        return instance.state != InstanceState::Terminated
            && instance.state != InstanceState::Unknown;
    }
    return false;
}

QString InstanceActions::question(Action action, const Instance &instance)
{
    switch (action) {
    case Action::Stop:
        return tr("Stop “%1”?").arg(instance.name);
    case Action::Start:
        return tr("Start “%1” again?").arg(instance.name);
    case Action::Terminate:
        return tr("Terminate “%1” for good?").arg(instance.name);
    }
    return {};
}

QString InstanceActions::buttonText(Action action)
{
    switch (action) {
    case Action::Stop:
        return tr("Stop");
    case Action::Start:
        return tr("Start");
    case Action::Terminate:
        return tr("Terminate");
    }
    return {};
}

QString InstanceActions::preview(Action action, const Instance &instance)
{
    const core::Retention &r = instance.retention;
    QStringList lines;
    switch (action) {
    case Action::Stop:
        if (r.stopKeeps.contains(u"workspace_volume"_s))
            lines << tr("/workspace is kept.");
        if (!r.stopKeeps.isEmpty())
            lines << tr("Kept while stopped: %1.").arg(listOf(r.stopKeeps));
        else
            lines << tr("The provider promises to keep no data across a stop.");
        if (!r.stopReleases.isEmpty())
            lines << tr("Released: %1 (a later start needs free cards again).")
                         .arg(listOf(r.stopReleases));
        lines << tr("Billing of %1 stops the moment you stop.")
                     .arg(Format::ratePerHour(instance.pricePerHourMicros));
        if (r.billedWhileStopped.isEmpty())
            lines << tr("Nothing is billed while it is stopped.");
        else
            lines << tr("Still billed while stopped: %1.").arg(listOf(r.billedWhileStopped));
        if (r.billedWhileStopped.contains(u"storage"_s)
            && r.storageRateMicrosPerHourWhenStopped > 0)
            lines << tr("Its %1 GiB disk costs %2 per hour while stopped (%3 per GiB-hour).")
                         .arg(QString::number(r.storageGib),
                              Format::exactMoney(r.storageRateMicrosPerHourWhenStopped),
                              Format::exactMoney(r.storagePricePerGibHourMicros));
        break;
    case Action::Start:
        lines << tr("Billing starts again at %1 once it is running.")
                     .arg(Format::ratePerHour(instance.pricePerHourMicros));
        if (r.stopKeeps.contains(u"workspace_volume"_s))
            lines << tr("/workspace is as you left it.");
        break;
    case Action::Terminate:
        if (r.terminateDeletes.contains(u"workspace_volume"_s))
            lines << tr("Terminate deletes /workspace: its data cannot be recovered.");
        if (!r.terminateDeletes.isEmpty())
            lines << tr("Deleted: %1.").arg(listOf(r.terminateDeletes));
        lines << tr("Billing ends for good; the cost so far stays on your bill.");
        break;
    }
    return lines.join(u'\n');
}

} // namespace cardhour::ui
