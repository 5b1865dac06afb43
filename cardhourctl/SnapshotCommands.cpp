// snapshot create|ls|rm: a host's container disk and /workspace kept (and billed as storage)
// after the host is gone; `launch --snapshot ID` restores one (HostCommands).
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "billing/Money.h"
#include "session/ClientSession.h"

#include <QEventLoop>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Snapshots
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Snapshots)
};

QString sizeText(const std::optional<qint64> &bytes)
{
    if (!bytes)
        return u"-"_s;
    return Snapshots::tr("%1 GiB").arg(double(*bytes) / (1024.0 * 1024.0 * 1024.0), 0, 'f', 2);
}

QString localTime(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(u"yyyy-MM-dd HH:mm:ss"_s) : u"-"_s;
}

// What keeping it costs and what it does not keep, from the provider's own `retention`.
void sayRetention(const Snapshot &snapshot)
{
    const SnapshotRetention &r = snapshot.retention;
    if (!r.keeps.isEmpty())
        Output::error(Snapshots::tr("Keeps: %1; does not keep: %2.")
                          .arg(r.keeps.join(u", "_s),
                               r.doesNotKeep.isEmpty() ? Snapshots::tr("nothing")
                                                       : r.doesNotKeep.join(u", "_s)));
    if (r.storagePricePerGibHourMicros > 0)
        Output::error(Snapshots::tr("Billed as storage while kept: %1 per GiB and hour%2.")
                          .arg(Money::format(r.storagePricePerGibHourMicros),
                               r.storageRateMicrosPerHour > 0
                                   ? Snapshots::tr(" (%1 GiB: %2/h)")
                                         .arg(r.storageGib)
                                         .arg(Money::format(r.storageRateMicrosPerHour))
                                   : QString()));
}

// Until `id` is ready or failed, from the event stream (a GET first: it may be done already).
int waitReady(Context &ctx, const QString &id, qint64 timeoutMs, Snapshot *last)
{
    std::optional<int> code;
    QEventLoop loop;
    QObject guard;
    const auto settle = [&](const Snapshot &snapshot) {
        if (snapshot.id != id || code)
            return;
        *last = snapshot;
        if (snapshot.isReady())
            code = Ok;
        else if (snapshot.state == u"failed"_s || snapshot.state == u"deleted"_s)
            code = Failed;
        if (code)
            loop.quit();
    };
    QObject::connect(ctx.session(), &ClientSession::snapshotChanged, &guard, settle);
    QTimer::singleShot(timeoutMs, &guard, [&] {
        if (!code) {
            code = TimedOut;
            loop.quit();
        }
    });
    const Result<Snapshot> now = ctx.await(ctx.client()->snapshot(id));
    if (!now.ok())
        return ctx.fail(now.error);
    settle(*now.value);
    if (!code)
        loop.exec();
    if (*code == Failed)
        Output::error(
            Snapshots::tr("cardhourctl snapshot: %1 is %2%3.")
                .arg(last->name, last->state,
                     last->stateReason.isEmpty() ? QString() : u" ("_s + last->stateReason + u')'));
    else if (*code == TimedOut)
        Output::error(Snapshots::tr("cardhourctl snapshot: timed out after %1 s: %2 is %3.")
                          .arg(double(timeoutMs) / 1000.0)
                          .arg(last->name, last->state));
    return *code;
}

int create(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Snapshots::tr("snapshot create takes the NAME of one host."));
    bool ok = false;
    const double seconds = ctx.value(u"timeout"_s).toDouble(&ok);
    if (!ok || seconds < 0)
        return ctx.usage(
            Snapshots::tr("--timeout wants seconds, not %1.").arg(ctx.value(u"timeout"_s)));
    int code = Ok;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(ctx.args[1], &code);
    if (!instance)
        return code;
    const Result<Snapshot> made =
        ctx.await(ctx.client()->createSnapshot(instance->id, ctx.value(u"name"_s)));
    if (!made.ok())
        return ctx.fail(made.error);
    Snapshot snapshot = *made.value;
    if (ctx.isSet(u"wait"_s)) {
        if (!ctx.json && Output::stderrIsTerminal())
            Output::error(Snapshots::tr("Taking %1 of %2…").arg(snapshot.name, instance->name));
        if ((code = waitReady(ctx, snapshot.id, qint64(seconds * 1000), &snapshot)) != Ok)
            return code;
    }
    if (ctx.json) {
        Output::json(ModelJson::toJson(snapshot));
        return Ok;
    }
    Output::line(snapshot.id);
    Output::error(Snapshots::tr("%1 (%2) of %3 is %4.")
                      .arg(snapshot.name, snapshot.id, instance->name, snapshot.state));
    sayRetention(snapshot);
    return Ok;
}

int list(Context &ctx)
{
    if (ctx.args.size() != 1)
        return ctx.usage(Snapshots::tr("snapshot ls takes no arguments."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<QList<Snapshot>> snapshots = ctx.await(ctx.client()->snapshots());
    if (!snapshots.ok())
        return ctx.fail(snapshots.error);
    if (ctx.json) {
        Output::json(ModelJson::toJson(*snapshots.value));
        return Ok;
    }
    QList<QStringList> rows;
    for (const Snapshot &s : *snapshots.value) {
        rows.append({s.id, s.name, s.state, u"%1×%2"_s.arg(s.gpuCount).arg(s.gpuType), s.image,
                     sizeText(s.sizeBytes),
                     Snapshots::tr("%1/h").arg(Money::format(s.storageRateMicrosPerHour)),
                     Money::format(s.storageCostMicros), localTime(s.createdAt)});
    }
    Output::raw(Output::table({Snapshots::tr("ID"), Snapshots::tr("NAME"), Snapshots::tr("STATE"),
                               Snapshots::tr("CARDS"), Snapshots::tr("IMAGE"),
                               Snapshots::tr("SIZE"), Snapshots::tr("STORAGE"),
                               Snapshots::tr("COST SO FAR"), Snapshots::tr("TAKEN")},
                              rows));
    return Ok;
}

int remove(Context &ctx)
{
    if (ctx.args.size() != 2)
        return ctx.usage(Snapshots::tr("snapshot rm takes one snapshot ID (or name)."));
    if (const int code = ctx.connect(); code != Ok)
        return code;
    const Result<QList<Snapshot>> snapshots = ctx.await(ctx.client()->snapshots());
    if (!snapshots.ok())
        return ctx.fail(snapshots.error);
    QList<Snapshot> matches;
    for (const Snapshot &s : *snapshots.value) {
        if (s.id == ctx.args[1] || s.name == ctx.args[1])
            matches.append(s);
    }
    if (matches.isEmpty()) {
        Output::error(Snapshots::tr("cardhourctl snapshot rm: no snapshot %1 (`cardhourctl "
                                    "snapshot ls` lists them).")
                          .arg(ctx.args[1]));
        return NotFound;
    }
    if (matches.size() > 1)
        return ctx.usage(Snapshots::tr("%1 snapshots are called %2; give the id.")
                             .arg(matches.size())
                             .arg(ctx.args[1]));
    const Result<Snapshot> done = ctx.await(ctx.client()->deleteSnapshot(matches.first().id));
    if (!done.ok())
        return ctx.fail(done.error);
    if (ctx.json)
        Output::json(ModelJson::toJson(*done.value));
    else
        Output::line(u"%1  %2"_s.arg(done.value->id, done.value->state));
    return Ok;
}

int snapshot(Context &ctx)
{
    const QString sub = ctx.args.value(0);
    if (sub == u"create"_s)
        return create(ctx);
    if (sub == u"ls"_s)
        return list(ctx);
    if (sub == u"rm"_s)
        return remove(ctx);
    return ctx.usage(sub.isEmpty() ? Snapshots::tr("create, ls or rm?")
                                   : Snapshots::tr("no snapshot command %1.").arg(sub));
}

} // namespace

QList<Command> snapshotCommands()
{
    return {
        {u"snapshot"_s,
         Snapshots::tr("Snapshots: create NAME; ls; rm ID. Restore: launch --snapshot ID."),
         u"create|ls|rm [NAME|ID]"_s,
         {QCommandLineOption(u"name"_s, Snapshots::tr("create: the snapshot's name."), u"S"_s),
          QCommandLineOption(u"wait"_s, Snapshots::tr("create: return once it is ready.")),
          QCommandLineOption(u"timeout"_s,
                             Snapshots::tr("create --wait: give up after SECONDS (exit status 6; "
                                           "default 600)."),
                             u"SECONDS"_s, u"600"_s)},
         snapshot},
    };
}

} // namespace cardhour::ctl
