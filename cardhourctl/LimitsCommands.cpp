// limits, timer, keep-running, and launch's stop options: the account's spending limits and
// each host's stop policy, all kept and enforced by the provider (the laptop may sleep).
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ProviderClient.h"
#include "billing/Money.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Limits
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Limits)
};

const QStringList kPeriods = {u"day"_s, u"month"_s, u"total"_s};

QString when(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(u"yyyy-MM-dd HH:mm:ss"_s) : u"-"_s;
}

QString amount(const std::optional<qint64> &micros)
{
    return micros ? Money::format(*micros) : Limits::tr("none");
}

// "2h", "90m", "1h30m", "45s" → milliseconds; 0 when it is none of these.
qint64 parseDuration(const QString &text)
{
    static const QRegularExpression shape(u"^(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?$"_s);
    const QRegularExpressionMatch m = shape.match(text.trimmed().toLower());
    if (!m.hasMatch() || text.trimmed().isEmpty())
        return 0;
    return (m.captured(1).toLongLong() * 3600 + m.captured(2).toLongLong() * 60
            + m.captured(3).toLongLong())
        * 1000;
}

// "18:30" (the next such local time) or an ISO 8601 time; invalid when it is neither.
QDateTime parseStopAt(const QString &text)
{
    const QTime clock = QTime::fromString(text.trimmed(), u"H:mm"_s);
    if (clock.isValid()) {
        QDateTime at(QDate::currentDate(), clock);
        if (at <= QDateTime::currentDateTime())
            at = at.addDays(1);
        return at.toUTC();
    }
    const QDateTime iso = QDateTime::fromString(text.trimmed(), Qt::ISODateWithMs);
    return iso.isValid() ? iso.toUTC() : QDateTime();
}

QList<QCommandLineOption> policyOptions()
{
    return {QCommandLineOption(u"stop-at"_s, Limits::tr("Stop at this time (18:30 or ISO 8601)."),
                               u"TIME"_s),
            QCommandLineOption(u"stop-after"_s, Limits::tr("Stop after this long (2h, 90m)."),
                               u"DURATION"_s),
            QCommandLineOption(u"max-cost"_s,
                               Limits::tr("Stop once the host has cost this many yuan."), u"Y"_s),
            QCommandLineOption(u"idle-stop"_s,
                               Limits::tr("Stop when its cards stay idle (under 5 %) for MIN "
                                          "minutes, given after it (default 30).")),
            QCommandLineOption(u"no-connections"_s,
                               Limits::tr("With --idle-stop: only while no SSH or app connection "
                                          "is open."))};
}

bool anyPolicyOption(const Context &ctx)
{
    for (const QString &name : {u"stop-at"_s, u"stop-after"_s, u"max-cost"_s, u"idle-stop"_s}) {
        if (ctx.isSet(name))
            return true;
    }
    return false;
}

// Applies the policy options to `policy`; `idleMinutes` is the positional MIN, if any.
bool readPolicy(Context &ctx, const QString &idleMinutes, StopPolicy *policy, int *code)
{
    if (ctx.isSet(u"stop-at"_s) && ctx.isSet(u"stop-after"_s)) {
        *code = ctx.usage(Limits::tr("--stop-at or --stop-after, not both."));
        return false;
    }
    if (ctx.isSet(u"stop-at"_s)) {
        policy->stopAt = parseStopAt(ctx.value(u"stop-at"_s));
        if (!policy->stopAt.isValid()) {
            *code = ctx.usage(Limits::tr("%1 is not a time (18:30 or 2026-12-01T18:30:00Z).")
                                  .arg(ctx.value(u"stop-at"_s)));
            return false;
        }
    }
    if (ctx.isSet(u"stop-after"_s)) {
        const qint64 ms = parseDuration(ctx.value(u"stop-after"_s));
        if (ms <= 0) {
            *code = ctx.usage(Limits::tr("%1 is not a duration (2h, 90m, 1h30m).")
                                  .arg(ctx.value(u"stop-after"_s)));
            return false;
        }
        policy->stopAt = QDateTime::currentDateTimeUtc().addMSecs(ms);
    }
    if (ctx.isSet(u"max-cost"_s)) {
        const std::optional<qint64> micros = Money::parseYuan(ctx.value(u"max-cost"_s));
        if (!micros || *micros <= 0) {
            *code =
                ctx.usage(Limits::tr("%1 is not an amount of yuan.").arg(ctx.value(u"max-cost"_s)));
            return false;
        }
        policy->maxCostMicros = *micros;
    }
    if (ctx.isSet(u"idle-stop"_s)) {
        IdlePolicy idle;
        if (!idleMinutes.isEmpty()) {
            bool ok = false;
            const int minutes = idleMinutes.toInt(&ok);
            if (!ok || minutes < 2) {
                *code = ctx.usage(Limits::tr("--idle-stop wants whole minutes (2 or more), not %1.")
                                      .arg(idleMinutes));
                return false;
            }
            idle.windowSeconds = minutes * 60;
            idle.warningSeconds = std::min(idle.warningSeconds, idle.windowSeconds / 2);
        }
        idle.requireNoConnections = ctx.isSet(u"no-connections"_s);
        policy->idle = idle;
    }
    return true;
}

QJsonObject limitsJson(const SpendingLimits &limits)
{
    QJsonArray periods;
    for (const SpendingPeriod &p : limits.periods) {
        const auto micros = [](const std::optional<qint64> &v) {
            return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
        };
        periods.append(
            QJsonObject{{u"period"_s, p.period},
                        {u"alert_micros"_s, micros(p.alertMicros)},
                        {u"max_micros"_s, micros(p.maxMicros)},
                        {u"spent_micros"_s, p.spentMicros},
                        {u"starts_at"_s, p.startsAt.toString(Qt::ISODateWithMs)},
                        {u"ends_at"_s,
                         p.endsAt.isValid() ? QJsonValue(p.endsAt.toString(Qt::ISODateWithMs))
                                            : QJsonValue(QJsonValue::Null)},
                        {u"alerted"_s, p.alerted}});
    }
    return QJsonObject{{u"time_zone"_s, limits.timeZone}, {u"periods"_s, periods}};
}

void printLimits(Context &ctx, const SpendingLimits &limits)
{
    if (ctx.json) {
        Output::json(limitsJson(limits));
        return;
    }
    QList<QStringList> rows;
    for (const SpendingPeriod &p : limits.periods) {
        rows.append({p.period, Money::format(p.spentMicros), amount(p.alertMicros),
                     amount(p.maxMicros), p.endsAt.isValid() ? when(p.endsAt) : u"-"_s,
                     p.alerted ? Limits::tr("alerted") : QString()});
    }
    Output::raw(Output::table({Limits::tr("PERIOD"), Limits::tr("SPENT"), Limits::tr("ALERT"),
                               Limits::tr("MAX"), Limits::tr("ENDS"), QString()},
                              rows));
    Output::line(Limits::tr("Days and months in %1.").arg(limits.timeZone));
}

int limits(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Limits::tr("limits takes options only."));
    SpendingLimitsChange change;
    bool changing = false;
    for (const QString &period : kPeriods) {
        SpendingLimitChange one;
        for (const bool max : {true, false}) {
            const QString option = period + (max ? u"-max"_s : u"-alert"_s);
            if (!ctx.isSet(option))
                continue;
            const QString text = ctx.value(option);
            std::optional<qint64> micros;
            if (text != u"none"_s && text != u"off"_s) {
                micros = Money::parseYuan(text);
                if (!micros)
                    return ctx.usage(
                        Limits::tr("%1 is not an amount of yuan (or none).").arg(text));
            }
            (max ? one.setMax : one.setAlert) = true;
            (max ? one.maxMicros : one.alertMicros) = micros;
        }
        if (!one.setMax && !one.setAlert)
            continue;
        changing = true;
        (period == u"day"_s         ? change.day
             : period == u"month"_s ? change.month
                                    : change.total) = one;
    }
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<SpendingLimits> result = ctx.await(
        changing ? ctx.client()->setSpendingLimits(change) : ctx.client()->spendingLimits());
    if (!result.ok())
        return ctx.fail(result.error);
    printLimits(ctx, *result.value);
    return Ok;
}

void printPolicy(Context &ctx, const Instance &instance)
{
    if (ctx.json) {
        Output::json(ModelJson::toJson(instance));
        return;
    }
    const StopPolicy &p = instance.stopPolicy;
    QList<QStringList> rows{
        {Limits::tr("stop at:"), p.stopAt.isValid() ? when(p.stopAt) : Limits::tr("none")},
        {Limits::tr("max cost:"), amount(p.maxCostMicros)},
        {Limits::tr("idle stop:"),
         p.idle
             ? Limits::tr("under %1 % for %2 min%3")
                   .arg(p.idle->thresholdPercent)
                   .arg(p.idle->windowSeconds / 60)
                   .arg(p.idle->requireNoConnections ? Limits::tr(", no connections") : QString())
             : Limits::tr("none")}};
    if (instance.plannedStop)
        rows.append({Limits::tr("stops:"),
                     Limits::tr("%1 (%2)").arg(when(instance.plannedStop->at),
                                               instance.plannedStop->reason)});
    Output::raw(Output::table({}, rows));
}

int timer(Context &ctx)
{
    if (ctx.args.isEmpty() || ctx.args.size() > 2)
        return ctx.usage(Limits::tr("timer wants the host's name or id."));
    if (ctx.isSet(u"clear"_s) && anyPolicyOption(ctx))
        return ctx.usage(Limits::tr("--clear or new stop options, not both."));
    int code = Ok;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(ctx.args.first(), &code);
    if (!instance)
        return code;
    if (!ctx.isSet(u"clear"_s) && !anyPolicyOption(ctx)) {
        printPolicy(ctx, *instance);
        return Ok;
    }
    StopPolicy policy = ctx.isSet(u"clear"_s) ? StopPolicy() : instance->stopPolicy;
    if (!readPolicy(ctx, ctx.args.value(1), &policy, &code))
        return code;
    const Result<Instance> result = ctx.await(ctx.client()->setStopPolicy(instance->id, policy));
    if (!result.ok())
        return ctx.fail(result.error);
    printPolicy(ctx, *result.value);
    return Ok;
}

int keepRunning(Context &ctx)
{
    QString name;
    int code = Ok;
    if (!ctx.oneArgument(Limits::tr("NAME"), &name, &code))
        return code;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(name, &code);
    if (!instance)
        return code;
    const Result<Instance> result = ctx.await(ctx.client()->keepRunning(instance->id));
    if (!result.ok())
        return ctx.fail(result.error);
    printPolicy(ctx, *result.value);
    return Ok;
}

} // namespace

QList<Command> limitCommands()
{
    QList<QCommandLineOption> limitOptions;
    for (const QString &period : kPeriods) {
        limitOptions.append(QCommandLineOption(
            period + u"-max"_s,
            Limits::tr("The most the %1 may spend, in yuan (none: no maximum).").arg(period),
            u"Y"_s));
        limitOptions.append(QCommandLineOption(
            period + u"-alert"_s, Limits::tr("Alert when the %1 has spent this much.").arg(period),
            u"Y"_s));
    }
    QList<QCommandLineOption> timerOptions = policyOptions();
    timerOptions.append(
        QCommandLineOption(u"clear"_s, Limits::tr("Remove the host's stop policy.")));
    return {
        {u"limits"_s,
         Limits::tr("Spending limits per day, month and in total (shown, or changed)."),
         {},
         limitOptions,
         limits},
        {u"timer"_s,
         Limits::tr("A host's stop time, maximum cost and idle stop (shown, or changed)."),
         u"NAME|ID [MIN]"_s, timerOptions, timer},
        {u"keep-running"_s,
         Limits::tr("Postpone a host's pending idle stop once."),
         u"NAME|ID"_s,
         {},
         keepRunning},
    };
}

void addLaunchStopOptions(QList<Command> &commands)
{
    for (Command &command : commands) {
        if (command.name != u"launch"_s)
            continue;
        command.options += policyOptions();
        const std::function<int(Context &)> launch = command.run;
        command.run = [launch](Context &ctx) -> int {
            if (!anyPolicyOption(ctx))
                return launch(ctx);
            // --idle-stop's minutes come as the one positional argument.
            const QString minutes = ctx.isSet(u"idle-stop"_s) && ctx.args.size() == 1
                ? ctx.args.takeFirst()
                : QString();
            StopPolicy policy;
            int code = Ok;
            if (!readPolicy(ctx, minutes, &policy, &code))
                return code;
            if ((code = ctx.connect()) != Ok)
                return code;
            const Result<QList<Instance>> before = ctx.await(ctx.client()->instances(true));
            if (!before.ok())
                return ctx.fail(before.error);
            QSet<QString> known;
            for (const Instance &i : *before.value)
                known.insert(i.id);
            if ((code = launch(ctx)) != Ok)
                return code;
            const Result<QList<Instance>> after = ctx.await(ctx.client()->instances(true));
            if (!after.ok())
                return ctx.fail(after.error);
            for (const Instance &i : *after.value) {
                if (known.contains(i.id))
                    continue;
                const Result<Instance> set = ctx.await(ctx.client()->setStopPolicy(i.id, policy));
                if (!set.ok())
                    return ctx.fail(set.error);
                if (!ctx.json && set.value->plannedStop)
                    Output::error(Limits::tr("%1 stops at %2 (%3).")
                                      .arg(i.name, when(set.value->plannedStop->at),
                                           set.value->plannedStop->reason));
            }
            return Ok;
        };
    }
}

} // namespace cardhour::ctl
