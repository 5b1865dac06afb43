#include "Format.h"

#include "api/Models.h"

#include <QLocale>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {

constexpr qint64 kMicrosPerYuan = 1'000'000;

quint64 magnitudeOf(qint64 micros)
{
    // -(min + 1) + 1 as unsigned: the magnitude of every qint64, the smallest included.
    return micros < 0 ? quint64(-(micros + 1)) + 1 : quint64(micros);
}

// The fewest decimals (2 to 6) that write `micros` exactly.
int exactDecimals(qint64 micros)
{
    int decimals = 6;
    quint64 fraction = magnitudeOf(micros) % kMicrosPerYuan;
    while (decimals > 2 && fraction % 10 == 0) {
        fraction /= 10;
        --decimals;
    }
    return decimals;
}

// "1,234.5678" in the default QLocale (the UI language's): the whole yuan grouped as the locale
// groups, then the first `decimals` digits of the fraction, cut, never rounded.
QString digits(quint64 magnitude, int decimals, bool grouped)
{
    QLocale locale;
    // Grouped even where the locale's options say not to (the C locale's default).
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    const quint64 whole = magnitude / kMicrosPerYuan;
    QString text = grouped ? locale.toString(qulonglong(whole)) : QString::number(whole);
    if (decimals > 0) {
        const QString fraction =
            u"%1"_s.arg(qulonglong(magnitude % kMicrosPerYuan), 6, 10, QChar(u'0'));
        text += (grouped ? locale.decimalPoint() : u"."_s) + fraction.left(decimals);
    }
    return text;
}

QString signedYuan(qint64 micros, int decimals)
{
    const QString text = u"¥"_s + digits(magnitudeOf(micros), decimals, true);
    return micros < 0 ? u"−"_s + text : text;
}

} // namespace

QString Format::money(qint64 micros, int decimals)
{
    decimals = qBound(0, decimals, 6);
    qint64 unit = kMicrosPerYuan; // micro-yuan in the last digit shown
    for (int i = 0; i < decimals; ++i)
        unit /= 10;
    if (micros != 0 && magnitudeOf(micros) < quint64(unit)) {
        // Something, but less than the smallest digit shown: said as a bound that is true.
        return micros > 0 ? tr("< %1").arg(signedYuan(unit, decimals))
                          : tr("> %1").arg(signedYuan(-unit, decimals));
    }
    return signedYuan(micros, decimals);
}

QString Format::exactMoney(qint64 micros)
{
    return signedYuan(micros, exactDecimals(micros));
}

QString Format::moneyInput(qint64 micros)
{
    const QString text = digits(magnitudeOf(micros), exactDecimals(micros), false);
    return micros < 0 ? u"-"_s + text : text;
}

QString Format::ratePerHour(qint64 microsPerHour, int minDecimals)
{
    const int decimals = qMax(exactDecimals(microsPerHour), qBound(0, minDecimals, 6));
    return tr("%1/h").arg(signedYuan(microsPerHour, decimals));
}

QString Format::ratePerGibHour(qint64 microsPerGibHour)
{
    //: a storage price: yuan per GiB of disk per hour
    return tr("%1/GiB-h").arg(exactMoney(microsPerGibHour));
}

QString Format::dateTime(const QDateTime &at, const QTimeZone &zone, bool seconds)
{
    if (!at.isValid())
        return QString();
    return at.toTimeZone(zone).toString(seconds ? u"yyyy-MM-dd HH:mm:ss"_s : u"yyyy-MM-dd HH:mm"_s);
}

QString Format::time(const QDateTime &at, const QTimeZone &zone)
{
    return at.isValid() ? at.toTimeZone(zone).toString(u"HH:mm:ss"_s) : QString();
}

QString Format::relative(const QDateTime &at, const QDateTime &now)
{
    if (!at.isValid() || !now.isValid())
        return QString();
    const qint64 s = at.secsTo(now);
    const qint64 magnitude = qAbs(s);
    if (magnitude < 60)
        return tr("just now");
    QString amount;
    if (magnitude < 3600)
        amount = tr("%n min", nullptr, int(magnitude / 60));
    else if (magnitude < 48 * 3600)
        amount = tr("%n h", nullptr, int(magnitude / 3600));
    else
        amount = tr("%n d", nullptr, int(magnitude / 86400));
    //: %1 is "3 min", "5 h" or "2 d"
    return s > 0 ? tr("%1 ago").arg(amount) : tr("in %1").arg(amount);
}

QString Format::zoneNote(const QTimeZone &zone, bool stated)
{
    const QString id = QString::fromUtf8(zone.id());
    return stated ? tr("Times in %1 (the provider's zone)").arg(id)
                  : tr("Times in %1 (the provider states no zone)").arg(id);
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
    if (stage == u"hardware_check"_s) // what the box got, checked against the order
        return tr("hardware checked");
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
