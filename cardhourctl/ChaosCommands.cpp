// chaos add|ls|clear: rehearsed failures on the user's own account and hosts (the provider's
// chaos API; a sandbox started with --allow-chaos, as the client's and scripts/run's are).
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ProviderClient.h"

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Chaos
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Chaos)
};

const QStringList kHostKinds{u"drop-ssh"_s, u"fill-disk"_s, u"interrupt"_s};
const QStringList kAccountKinds{u"fail-launch"_s, u"slow-api"_s};

void printFaults(const Context &ctx, const QList<ChaosFault> &faults)
{
    if (ctx.json) {
        Output::json(ModelJson::toJson(faults));
        return;
    }
    QList<QStringList> rows;
    for (const ChaosFault &f : faults)
        rows.append(
            {f.id, f.kind, f.state, f.instanceId.isEmpty() ? u"-"_s : f.instanceId, f.describe()});
    Output::raw(Output::table({Chaos::tr("ID"), Chaos::tr("KIND"), Chaos::tr("STATE"),
                               Chaos::tr("HOST"), Chaos::tr("WHAT")},
                              rows));
}

// Reads `add KIND [HOST]` and its options into *fault; false with *code (Usage) when wrong.
bool readNewChaosFault(Context &ctx, NewChaosFault *fault, int *code)
{
    const QString kind = ctx.args.value(1);
    if (!kHostKinds.contains(kind) && !kAccountKinds.contains(kind)) {
        *code = ctx.usage(Chaos::tr("chaos add wants one of: %1.")
                              .arg((kAccountKinds + kHostKinds).join(u", "_s)));
        return false;
    }
    const bool onHost = kHostKinds.contains(kind);
    if (ctx.args.size() != (onHost ? 3 : 2)) {
        *code = ctx.usage(onHost ? Chaos::tr("chaos add %1 takes the NAME of one host.").arg(kind)
                                 : Chaos::tr("chaos add %1 takes no host.").arg(kind));
        return false;
    }
    fault->kind = QString(kind).replace(u'-', u'_');
    fault->reason = ctx.value(u"reason"_s);
    if (kind == u"slow-api"_s) {
        bool delayOk = false;
        bool durationOk = false;
        fault->delayMs = ctx.value(u"delay-ms"_s).toInt(&delayOk);
        fault->durationS = ctx.value(u"duration-s"_s).toInt(&durationOk);
        if (!delayOk || !durationOk || fault->delayMs <= 0 || fault->durationS <= 0) {
            *code = ctx.usage(Chaos::tr("slow-api wants --delay-ms N and --duration-s S."));
            return false;
        }
    }
    return true;
}

int chaosAdd(Context &ctx)
{
    NewChaosFault fault;
    int code = Ok;
    if (!readNewChaosFault(ctx, &fault, &code))
        return code;
    if ((code = ctx.connect()) != Ok)
        return code;
    if (ctx.args.size() == 3) {
        const std::optional<Instance> host = ctx.findInstance(ctx.args[2], &code);
        if (!host)
            return code;
        fault.instanceId = host->id;
    }
    const Result<ChaosFault> added = ctx.await(ctx.client()->addChaosFault(fault));
    if (!added.ok())
        return ctx.fail(added.error);
    if (ctx.json)
        Output::json(ModelJson::toJson(*added.value));
    else
        Output::line(u"%1  %2"_s.arg(added.value->id, added.value->describe(ctx.args.value(2))));
    return Ok;
}

int chaosList(Context &ctx)
{
    if (ctx.args.size() != 1)
        return ctx.usage(Chaos::tr("chaos ls takes no arguments."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<QList<ChaosFault>> faults = ctx.await(ctx.client()->chaosFaults());
    if (!faults.ok())
        return ctx.fail(faults.error);
    printFaults(ctx, *faults.value);
    return Ok;
}

int chaosClear(Context &ctx)
{
    const bool all = ctx.isSet(u"all"_s);
    if (ctx.args.size() != (all ? 1 : 2))
        return ctx.usage(Chaos::tr("chaos clear takes one fault ID, or --all."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    QStringList ids;
    if (all) {
        const Result<QList<ChaosFault>> faults = ctx.await(ctx.client()->chaosFaults());
        if (!faults.ok())
            return ctx.fail(faults.error);
        for (const ChaosFault &f : *faults.value)
            if (f.state == u"armed"_s || f.state == u"active"_s)
                ids.append(f.id);
    } else {
        ids.append(ctx.args[1]);
    }
    QList<ChaosFault> cleared;
    for (const QString &id : std::as_const(ids)) {
        const Result<ChaosFault> done = ctx.await(ctx.client()->clearChaosFault(id));
        if (!done.ok())
            return ctx.fail(done.error);
        cleared.append(*done.value);
    }
    printFaults(ctx, cleared);
    return Ok;
}

int chaosCommand(Context &ctx)
{
    const QString sub = ctx.args.value(0);
    if (sub == u"add"_s)
        return chaosAdd(ctx);
    if (sub == u"ls"_s)
        return chaosList(ctx);
    if (sub == u"clear"_s)
        return chaosClear(ctx);
    return ctx.usage(sub.isEmpty() ? Chaos::tr("add, ls or clear?")
                                   : Chaos::tr("no chaos command %1.").arg(sub));
}

} // namespace

QList<Command> chaosCommands()
{
    return {
        {u"chaos"_s,
         Chaos::tr("Rehearse failures: add fail-launch|slow-api|drop-ssh NAME|fill-disk NAME; ls; "
                   "clear ID|--all."),
         u"add|ls|clear [KIND] [NAME|ID]"_s,
         {QCommandLineOption(u"reason"_s,
                             Chaos::tr("add fail-launch: the error the launch fails with."),
                             u"TEXT"_s),
          QCommandLineOption(u"delay-ms"_s,
                             Chaos::tr("add slow-api: hold every answer this long (1-10000)."),
                             u"N"_s),
          QCommandLineOption(u"duration-s"_s,
                             Chaos::tr("add slow-api: for this many seconds (1-600)."), u"S"_s),
          QCommandLineOption(u"all"_s, Chaos::tr("clear: every armed or active fault."))},
         chaosCommand},
    };
}

} // namespace cardhour::ctl
