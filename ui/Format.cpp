#include "Format.h"

#include "api/Models.h"
#include "billing/Money.h"

using namespace Qt::StringLiterals;

namespace cardhour::ui {

QString Format::money(qint64 micros, int decimals)
{
    return core::Money::format(micros, decimals);
}

QString Format::exactMoney(qint64 micros)
{
    // Drop only zero digits, so the text is the integer's exact value.
    int decimals = 6;
    qint64 fraction = micros % 1'000'000;
    while (decimals > 2 && fraction % 10 == 0) {
        fraction /= 10;
        --decimals;
    }
    return core::Money::format(micros, decimals);
}

QString Format::ratePerHour(qint64 microsPerHour, int decimals)
{
    return tr("%1/h").arg(money(microsPerHour, decimals));
}

QString Format::duration(qint64 ms)
{
    const qint64 s = qMax<qint64>(0, ms) / 1000;
    if (s < 60)
        return tr("%n s", nullptr, int(s));
    const qint64 minutes = s / 60;
    if (minutes < 60)
        return tr("%n min", nullptr, int(minutes));
    const qint64 hours = minutes / 60;
    if (hours < 48)
        return tr("%1 h %2 min").arg(hours).arg(qlonglong(minutes % 60), 2, 10, QChar(u'0'));
    return tr("%1 d %2 h").arg(hours / 24).arg(hours % 24);
}

QString Format::seconds(qint64 ms)
{
    return tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
}

QString Format::state(core::InstanceState state, const QString &providerWord)
{
    using core::InstanceState;
    switch (state) {
    case InstanceState::Creating:
        return tr("Creating");
    case InstanceState::Starting:
        return tr("Starting");
    case InstanceState::Running:
        return tr("Running");
    case InstanceState::Stopping:
        return tr("Stopping");
    case InstanceState::Stopped:
        return tr("Stopped");
    case InstanceState::Terminated:
        return tr("Terminated");
    case InstanceState::Failed:
        return tr("Failed");
    case InstanceState::Unknown:
        break;
    }
    return providerWord;
}

QString Format::stage(const QString &stage)
{
    if (stage == u"image"_s)
        return tr("image");
    if (stage == u"container"_s)
        return tr("container");
    if (stage == u"sshd"_s)
        return tr("sshd");
    if (stage == u"ready"_s)
        return tr("SSH ready");
    if (stage.startsWith(u"app:"_s)) // one of the image's apps answers
        return tr("%1 answers").arg(stage.mid(4));
    return stage;
}

QString Format::retentionItem(const QString &item)
{
    if (item == u"workspace_volume"_s)
        return tr("/workspace");
    if (item == u"container_disk"_s)
        return tr("the container's own disk");
    if (item == u"host_key"_s)
        return tr("the SSH host key");
    if (item == u"ssh_port"_s)
        return tr("the SSH port");
    if (item == u"gpu_cards"_s)
        return tr("the GPU cards");
    if (item == u"compute"_s)
        return tr("compute");
    if (item == u"storage"_s)
        return tr("storage");
    return item;
}

} // namespace cardhour::ui
