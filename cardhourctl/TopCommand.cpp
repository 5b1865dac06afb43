// top: the hosts with each card's utilisation and VRAM and what each host costs, as the event
// stream tells them (metrics and instance events; nothing is polled). On a terminal it redraws
// until `q`; piped, it prints one snapshot and exits.
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "billing/Money.h"
#include "session/ClientSession.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QTimer>

#include <cstdio>

#ifdef Q_OS_UNIX
#include <termios.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Top
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Top)
};

constexpr int kRedrawMs = 1000;
constexpr int kSnapshotWaitMs = 3000; // piped: how long to wait for every running host's sample

// What top knows of one host: the provider's view of it and its latest telemetry.
struct HostView
{
    Instance instance;
    QElapsedTimer costAge; // since instance.costMicros was read
    std::optional<MetricsSample> sample;
};

// Everything it has cost: the provider's figure, plus the price for the time since (running).
qint64 costNow(const HostView &host)
{
    qint64 cost = host.instance.costMicros;
    if (host.instance.isBilled() && host.costAge.isValid())
        cost += BillTicker::costOf(host.costAge.elapsed(), host.instance.pricePerHourMicros);
    return cost;
}

QString percent(double value)
{
    return u"%1%"_s.arg(value, 0, 'f', 0);
}

QString vram(const GpuSample &card)
{
    return Top::tr("%1 / %2 GiB")
        .arg(card.memoryUsedMib / 1024.0, 0, 'f', 1)
        .arg(double(card.memoryTotalMib) / 1024.0, 0, 'f', 0);
}

QString render(const QList<HostView> &hosts, const BillTicker *ticker)
{
    QList<QStringList> rows;
    for (const HostView &host : hosts) {
        const Instance &i = host.instance;
        const QString cost = Money::format(costNow(host));
        const QString rate =
            i.isBilled() ? Top::tr("%1/h").arg(Money::format(i.pricePerHourMicros)) : u"-"_s;
        const QString cpu =
            host.sample && host.sample->cpuPercent ? percent(*host.sample->cpuPercent) : u"-"_s;
        if (!host.sample || host.sample->gpus.isEmpty()) {
            rows.append({i.name, i.stateText, u"%1×%2"_s.arg(i.gpuCount).arg(i.gpuType), u"-"_s,
                         u"-"_s, u"-"_s, u"-"_s, cpu, rate, cost});
            continue;
        }
        bool first = true;
        for (const GpuSample &card : host.sample->gpus) {
            rows.append({first ? i.name : QString(), first ? i.stateText : QString(),
                         first ? u"%1×%2"_s.arg(i.gpuCount).arg(i.gpuType) : QString(),
                         QString::number(card.index), percent(card.utilizationPct), vram(card),
                         u"%1 °C"_s.arg(card.temperatureC, 0, 'f', 0), first ? cpu : QString(),
                         first ? rate : QString(), first ? cost : QString()});
            first = false;
        }
    }
    QString text;
    if (ticker->hasData())
        text += Top::tr("balance %1   spending %2/h   %3\n\n")
                    .arg(Money::format(ticker->balanceMicros()),
                         Money::format(ticker->spendRateMicrosPerHour()),
                         QDateTime::currentDateTime().toString(u"HH:mm:ss"_s));
    if (hosts.isEmpty())
        return text + Top::tr("No hosts (`cardhourctl launch` starts one).\n");
    return text
        + Output::table({Top::tr("HOST"), Top::tr("STATE"), Top::tr("CARDS"), Top::tr("GPU"),
                         Top::tr("UTIL"), Top::tr("VRAM"), Top::tr("TEMP"), Top::tr("CPU"),
                         Top::tr("PRICE"), Top::tr("COST")},
                        rows);
}

QJsonArray toJson(const QList<HostView> &hosts)
{
    QJsonArray array;
    for (const HostView &host : hosts) {
        QJsonArray cards;
        if (host.sample) {
            for (const GpuSample &card : host.sample->gpus)
                cards.append(QJsonObject{{u"index"_s, card.index},
                                         {u"utilization_pct"_s, card.utilizationPct},
                                         {u"memory_used_mib"_s, card.memoryUsedMib},
                                         {u"memory_total_mib"_s, card.memoryTotalMib},
                                         {u"temperature_c"_s, card.temperatureC},
                                         {u"power_w"_s, card.powerW}});
        }
        const auto optional = [](const std::optional<double> &v) {
            return v ? QJsonValue(*v) : QJsonValue();
        };
        array.append(QJsonObject{
            {u"instance"_s, ModelJson::toJson(host.instance)},
            {u"at"_s, host.sample ? ModelJson::time(host.sample->at) : QJsonValue()},
            {u"cpu_percent"_s, host.sample ? optional(host.sample->cpuPercent) : QJsonValue()},
            {u"memory_mib"_s, host.sample ? optional(host.sample->memoryMib) : QJsonValue()},
            {u"gpus"_s, cards},
            {u"cost_micros"_s, costNow(host)}});
    }
    return array;
}

#ifdef Q_OS_UNIX
// The terminal without line editing or echo while top runs (keys arrive one by one), restored
// however top ends.
struct RawTerminal
{
    termios saved{};
    bool active = false;
    RawTerminal()
    {
        if (tcgetattr(STDIN_FILENO, &saved) != 0)
            return;
        termios raw = saved;
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
        std::fputs("\x1b[?1049h\x1b[?25l", stdout); // the alternate screen, no cursor
    }
    ~RawTerminal()
    {
        std::fputs("\x1b[?25h\x1b[?1049l", stdout);
        std::fflush(stdout);
        if (active)
            tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    }
};
#endif

int top(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Top::tr("top takes no arguments."));
    if (const int code = ctx.connect(); code != Ok)
        return code;

    QList<QString> order;
    QHash<QString, HostView> hosts;
    const auto noteInstance = [&](const Instance &instance) {
        if (instance.state == InstanceState::Terminated) {
            order.removeAll(instance.id);
            hosts.remove(instance.id);
            return;
        }
        if (!hosts.contains(instance.id))
            order.append(instance.id);
        HostView &view = hosts[instance.id];
        view.instance = instance;
        view.costAge.start();
        if (!instance.isBilled())
            view.sample.reset();
    };
    const auto views = [&] {
        QList<HostView> list;
        for (const QString &id : std::as_const(order))
            list.append(hosts.value(id));
        return list;
    };

    QObject guard;
    // Subscribed before the list is read: nothing that changes meanwhile is missed.
    QObject::connect(ctx.session(), &ClientSession::instanceChanged, &guard, noteInstance);
    QObject::connect(ctx.session(), &ClientSession::metricsReceived, &guard,
                     [&](const MetricsSample &sample) {
                         if (hosts.contains(sample.instanceId))
                             hosts[sample.instanceId].sample = sample;
                     });
    const Result<QList<Instance>> list = ctx.await(ctx.client()->instances());
    if (!list.ok())
        return ctx.fail(list.error);
    for (const Instance &instance : *list.value) {
        if (!hosts.contains(instance.id))
            noteInstance(instance);
    }
    const Result<BillingSummary> summary = ctx.await(ctx.client()->billingSummary());
    if (summary.ok())
        ctx.session()->ticker()->update(*summary.value);

    if (!Output::stdoutIsTerminal() || !Output::stdinIsTerminal()) {
        // One snapshot: once every running host has reported (or after kSnapshotWaitMs).
        QEventLoop loop;
        const auto allReported = [&] {
            for (const HostView &host : std::as_const(hosts)) {
                if (host.instance.isBilled() && !host.sample)
                    return false;
            }
            return true;
        };
        QTimer check;
        QObject::connect(&check, &QTimer::timeout, &loop, [&] {
            if (allReported())
                loop.quit();
        });
        check.start(50);
        QTimer::singleShot(kSnapshotWaitMs, &loop, &QEventLoop::quit);
        if (!allReported())
            loop.exec();
        if (ctx.json)
            Output::json(toJson(views()));
        else
            Output::raw(render(views(), ctx.session()->ticker()));
        return Ok;
    }

#ifdef Q_OS_UNIX
    RawTerminal terminal;
    QEventLoop loop;
    const auto draw = [&] {
        const QString text = render(views(), ctx.session()->ticker())
            + Top::tr("\n(q quits; from the provider's event stream)\n");
        std::fputs("\x1b[H\x1b[2J", stdout);
        std::fputs(QString(text).replace(u"\n"_s, u"\r\n"_s).toUtf8().constData(), stdout);
        std::fflush(stdout);
    };
    QSocketNotifier keys(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&keys, &QSocketNotifier::activated, &loop, [&] {
        char c = 0;
        if (::read(STDIN_FILENO, &c, 1) != 1 || c == 'q' || c == 'Q' || c == 0x03 || c == 0x04)
            loop.quit();
    });
    QObject::connect(ctx.session()->events(), &EventStream::sessionExpired, &loop,
                     [&] { loop.quit(); });
    QTimer redraw;
    QObject::connect(&redraw, &QTimer::timeout, &loop, draw);
    redraw.start(kRedrawMs);
    draw();
    loop.exec();
    return Ok;
#else
    Output::raw(render(views(), ctx.session()->ticker()));
    return Ok;
#endif
}

} // namespace

QList<Command> topCommands()
{
    return {
        {u"top"_s,
         Top::tr("The hosts live: each card's utilisation and VRAM, the cost (q quits)."),
         {},
         {},
         top},
    };
}

} // namespace cardhour::ctl
