// gpus, images, ls, show, launch, stop, start, rm, wait: the catalog and the hosts.
#include "Cli.h"
#include "ModelJson.h"
#include "Output.h"
#include "api/ProviderClient.h"
#include "billing/Money.h"
#include "session/ClientSession.h"
#include "ssh/SshKeyPair.h"
#include "ssh/SshKeyStore.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Hosts
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Hosts)
};

constexpr int kPollMs = 250;

QString perHour(qint64 micros)
{
    return Hosts::tr("%1/h").arg(Money::format(micros));
}

QString localTime(const QDateTime &t)
{
    return t.isValid() ? t.toLocalTime().toString(u"yyyy-MM-dd HH:mm:ss"_s) : u"-"_s;
}

int noArguments(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Hosts::tr("%1 takes no arguments.").arg(ctx.commandName));
    return ctx.connect();
}

// A catalog listing: no arguments, one GET, then the API's objects (--json) or a table.
template<typename T, typename Request, typename Row>
int printList(Context &ctx, Request request, const QStringList &headers, Row row)
{
    if (const int code = noArguments(ctx); code != Ok)
        return code;
    const Result<QList<T>> list = ctx.await(request());
    if (!list.ok())
        return ctx.fail(list.error);
    if (ctx.json) {
        Output::json(ModelJson::toJson(*list.value));
        return Ok;
    }
    QList<QStringList> rows;
    for (const T &item : *list.value)
        rows.append(row(item));
    Output::raw(Output::table(headers, rows));
    return Ok;
}

int gpus(Context &ctx)
{
    return printList<GpuType>(
        ctx, [&ctx] { return ctx.client()->gpuTypes(); },
        {Hosts::tr("ID"), Hosts::tr("NAME"), Hosts::tr("VRAM"), Hosts::tr("PRICE/CARD"),
         Hosts::tr("INTERRUPTIBLE"), Hosts::tr("FREE"), Hosts::tr("SHARE")},
        [](const GpuType &gpu) {
            // A MIG slice's share of its card: SMs (compute slices) and VRAM (memory slices).
            const QString share = gpu.isSlice() ? Hosts::tr("%1/%2 SMs, %3/%4 VRAM of %5")
                                                      .arg(gpu.computeSlices)
                                                      .arg(gpu.cardComputeSlices)
                                                      .arg(gpu.memorySlices)
                                                      .arg(gpu.cardMemorySlices)
                                                      .arg(gpu.sliceOf)
                                                : Hosts::tr("whole card");
            return QStringList{gpu.id,
                               gpu.name,
                               Hosts::tr("%1 GiB").arg(qRound(gpu.vramMib / 1024.0)),
                               perHour(gpu.pricePerHourMicros),
                               perHour(gpu.interruptiblePricePerHourMicros),
                               Hosts::tr("%1 of %2").arg(gpu.available).arg(gpu.capacity),
                               share};
        });
}

int images(Context &ctx)
{
    return printList<Image>(
        ctx, [&ctx] { return ctx.client()->images(); },
        {Hosts::tr("ID"), Hosts::tr("NAME"), Hosts::tr("OS"), Hosts::tr("SSH USER"),
         Hosts::tr("APPS")},
        [](const Image &image) {
            QStringList apps;
            for (const ImageApp &app : image.apps)
                apps.append(app.name);
            return QStringList{image.id, image.name, image.os, image.sshUser, apps.join(u", "_s)};
        });
}

int datasets(Context &ctx)
{
    return printList<Dataset>(
        ctx, [&ctx] { return ctx.client()->datasets(); },
        {Hosts::tr("NAME"), Hosts::tr("MOUNTED AT"), Hosts::tr("SIZE"), Hosts::tr("FILES"),
         Hosts::tr("AVAILABLE")},
        [](const Dataset &dataset) {
            return QStringList{
                dataset.name, dataset.mountPath,
                Hosts::tr("%1 MiB").arg(double(dataset.sizeBytes) / (1024.0 * 1024.0), 0, 'f', 1),
                QString::number(dataset.files),
                dataset.available ? Hosts::tr("yes") : Hosts::tr("no")};
        });
}

QStringList hostRow(const Instance &instance)
{
    return {instance.name,
            instance.stateText,
            Hosts::tr("%1 × %2").arg(instance.gpuCount).arg(instance.gpuType),
            instance.image,
            perHour(instance.pricePerHourMicros),
            Money::format(instance.costMicros, 4),
            instance.id};
}

int ls(Context &ctx)
{
    return printList<Instance>(
        ctx, [&ctx] { return ctx.client()->instances(ctx.isSet(u"all"_s)); },
        {Hosts::tr("NAME"), Hosts::tr("STATE"), Hosts::tr("GPUS"), Hosts::tr("IMAGE"),
         Hosts::tr("PRICE"), Hosts::tr("COST"), Hosts::tr("ID")},
        hostRow);
}

void printInstance(const Instance &instance)
{
    QList<QStringList> rows{
        {Hosts::tr("name:"), instance.name},
        {Hosts::tr("id:"), instance.id},
        {Hosts::tr("state:"),
         instance.stateReason.isEmpty()
             ? instance.stateText
             : u"%1 (%2)"_s.arg(instance.stateText, instance.stateReason)},
        {Hosts::tr("gpus:"), Hosts::tr("%1 × %2").arg(instance.gpuCount).arg(instance.gpuName)},
        {Hosts::tr("image:"), instance.image},
        {Hosts::tr("datasets:"),
         instance.datasets.isEmpty() ? u"-"_s : instance.datasets.join(u", "_s)},
        {Hosts::tr("price:"),
         instance.interruptible
             ? Hosts::tr("%1 (interruptible)").arg(perHour(instance.pricePerHourMicros))
             : perHour(instance.pricePerHourMicros)},
        {Hosts::tr("cost so far:"), Money::format(instance.costMicros, 4)},
        {Hosts::tr("created:"), localTime(instance.createdAt)},
    };
    if (instance.interruptionAt.isValid())
        rows.append({Hosts::tr("interrupted at:"), localTime(instance.interruptionAt)});
    if (instance.restartWhenAvailable)
        rows.append({Hosts::tr("after an interruption:"),
                     Hosts::tr("starts again once cards of its type are free")});
    if (instance.ssh)
        rows.append(
            {Hosts::tr("ssh:"),
             u"%1@%2 -p %3"_s.arg(instance.ssh->user, instance.ssh->host).arg(instance.ssh->port)});
    if (instance.ssh && !instance.ssh->hostKeySha256.isEmpty())
        rows.append({Hosts::tr("host key:"), instance.ssh->hostKeySha256});
    if (const std::optional<HardwareCheck> &check = instance.hardwareCheck)
        rows.append({Hosts::tr("hardware check:"),
                     check->passed
                         ? Hosts::tr("passed: the box has what was ordered (%1 × %2)")
                               .arg(check->foundGpuCount.value_or(0))
                               .arg(check->orderedGpuName)
                         : Hosts::tr("failed: %1").arg(check->differences.join(u"; "_s))});
    for (const InstanceApp &app : instance.apps)
        rows.append({Hosts::tr("app %1:").arg(app.name),
                     app.url.isEmpty() ? Hosts::tr("port %1").arg(app.port) : app.url});
    Output::raw(Output::table({}, rows));
}

int show(Context &ctx)
{
    QString name;
    int code = Ok;
    if (!ctx.oneArgument(Hosts::tr("NAME"), &name, &code))
        return code;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(name, &code, true);
    if (!instance)
        return code;
    if (ctx.json)
        Output::json(ModelJson::toJson(*instance));
    else
        printInstance(*instance);
    return Ok;
}

// Waits until `id` is in `state` (or failed/terminated, which end every other wait), printing
// launch stages as they appear when `stages`; TimedOut after `timeoutMs`.
int waitFor(Context &ctx, const QString &id, InstanceState state, qint64 timeoutMs, bool stages,
            Instance *last)
{
    QElapsedTimer waited;
    waited.start();
    QSet<QString> shown;
    for (;;) {
        const Result<Instance> reply = ctx.await(ctx.client()->instance(id));
        if (!reply.ok())
            return ctx.fail(reply.error);
        *last = *reply.value;
        if (stages) {
            for (const LaunchStage &stage : last->launch.stages) {
                if (shown.contains(stage.name))
                    continue;
                shown.insert(stage.name);
                const qint64 ms = last->launch.requestedAt.isValid()
                    ? last->launch.requestedAt.msecsTo(stage.at)
                    : 0;
                Output::line(Hosts::tr("  %1  %2 s")
                                 .arg(Output::padded(stage.name, 9))
                                 .arg(double(ms) / 1000.0, 0, 'f', 1));
            }
        }
        if (last->state == state)
            return Ok;
        // Interrupted on the way to running: over, unless it starts again by itself.
        const bool interrupted = last->stateReason == u"interrupted"_s
            && (last->state == InstanceState::Stopping || last->state == InstanceState::Stopped);
        if (interrupted && state == InstanceState::Running && !last->restartWhenAvailable) {
            Output::error(Hosts::tr("cardhourctl %1: the provider interrupted %2 (an interruptible "
                                    "host) to free its cards; /workspace is kept. Start it again "
                                    "with `cardhourctl start %2`.")
                              .arg(ctx.commandName, last->name));
            return Interrupted;
        }
        if (last->state == InstanceState::Failed || last->state == InstanceState::Terminated) {
            Output::error(Hosts::tr("cardhourctl %1: %2 is %3%4, not %5.")
                              .arg(ctx.commandName, last->name, last->stateText,
                                   last->stateReason.isEmpty() ? QString()
                                                               : u" ("_s + last->stateReason + u')',
                                   instanceStateToString(state)));
            return Failed;
        }
        if (waited.elapsed() >= timeoutMs) {
            Output::error(Hosts::tr("cardhourctl %1: timed out after %2 s: %3 is %4, not %5.")
                              .arg(ctx.commandName)
                              .arg(double(timeoutMs) / 1000.0)
                              .arg(last->name, last->stateText, instanceStateToString(state)));
            return TimedOut;
        }
        Context::sleep(kPollMs);
    }
}

bool readTimeout(Context &ctx, qint64 *ms, int *code)
{
    bool ok = false;
    const double seconds = ctx.value(u"timeout"_s).toDouble(&ok);
    if (!ok || seconds < 0) {
        *code =
            ctx.usage(Hosts::tr("--timeout wants seconds, not %1.").arg(ctx.value(u"timeout"_s)));
        return false;
    }
    *ms = qint64(seconds * 1000);
    return true;
}

// The account has no SSH key: one is made and uploaded as the desktop client's first launch
// makes it (SshKeyStore under managedKeyName(), ClientSession::uploadSshKey), and said. Without
// a passphrase, as `keys generate` makes them: `cardhourctl ssh` hands the key file to OpenSSH,
// which cannot read a passphrase kept in the keychain, and a script has no one to type it.
std::optional<SshKey> makeAccountKey(Context &ctx, int *code)
{
    const QString name = SshKeyStore::managedKeyName();
    QString error;
    const SshKeyPair key = Context::awaitKey(ctx.keyStore()->generate(name), &error);
    if (!key.isValid()) {
        Output::error(Hosts::tr("cardhourctl launch: the account has no SSH key and none could be "
                                "made here (%1), so nobody could log in to the host: not "
                                "launched. Upload one first (`cardhourctl keys upload KEY.pub`).")
                          .arg(error));
        *code = Failed;
        return std::nullopt;
    }
    const Result<SshKey> uploaded = ctx.await(ctx.session()->uploadSshKey(key, name));
    if (!uploaded.ok()) {
        *code = ctx.fail(uploaded.error);
        return std::nullopt;
    }
    Output::error(Hosts::tr("The account had no SSH key: made “%1” (%2) in %3, without a "
                            "passphrase, readable only by you, and uploaded it.")
                      .arg(name, key.fingerprintSha256(), key.privatePath()));
    return *uploaded.value;
}

// The keys a new host authorises: --key by name, id or fingerprint; without one, every key of
// the account (as GPU clouds do); with none, a key made for it. Which ones is said on stderr:
// no host that nobody can log in to is launched unsaid.
bool chooseKeys(Context &ctx, QStringList *ids, int *code)
{
    const Result<QList<SshKey>> keys = ctx.await(ctx.client()->sshKeys());
    if (!keys.ok()) {
        *code = ctx.fail(keys.error);
        return false;
    }
    const QStringList wanted = ctx.values(u"key"_s);
    QList<SshKey> chosen = wanted.isEmpty() ? *keys.value : QList<SshKey>();
    for (const QString &want : wanted) {
        const auto found =
            std::find_if(keys.value->cbegin(), keys.value->cend(), [&want](const SshKey &key) {
                return key.name == want || key.id == want || key.fingerprintSha256 == want;
            });
        if (found == keys.value->cend()) {
            Output::error(Hosts::tr("cardhourctl launch: no SSH key %1 on the provider "
                                    "(`cardhourctl keys list`).")
                              .arg(want));
            *code = NotFound;
            return false;
        }
        chosen.append(*found);
    }
    if (chosen.isEmpty()) {
        const std::optional<SshKey> made = makeAccountKey(ctx, code);
        if (!made)
            return false;
        chosen.append(*made);
    }
    QStringList said;
    for (const SshKey &key : std::as_const(chosen)) {
        ids->append(key.id);
        said << Hosts::tr("%1 (%2)").arg(key.name, key.fingerprintSha256);
    }
    Output::error(Hosts::tr("Installing SSH keys: %1").arg(said.join(u", "_s)));
    return true;
}

int launch(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Hosts::tr("launch takes options only, not %1.").arg(ctx.args.join(u' ')));
    const bool restore = ctx.isSet(u"snapshot"_s);
    if (restore && (ctx.isSet(u"image"_s) || ctx.isSet(u"dataset"_s) || ctx.isSet(u"model"_s)))
        return ctx.usage(Hosts::tr("--snapshot brings its own disk: it takes no --image, "
                                   "--dataset or --model."));
    if (!ctx.isSet(u"gpu"_s) && !restore)
        return ctx.usage(Hosts::tr("--gpu TYPE is missing (`cardhourctl gpus` lists them)."));
    NewInstance request;
    request.gpuType = ctx.value(u"gpu"_s);
    request.name = ctx.value(u"name"_s);
    bool ok = false;
    request.gpuCount = ctx.value(u"cards"_s).toInt(&ok);
    if (!ok || request.gpuCount < 1)
        return ctx.usage(
            Hosts::tr("--cards wants a number of cards, not %1.").arg(ctx.value(u"cards"_s)));
    qint64 timeoutMs = 0;
    int code = Ok;
    if (!readTimeout(ctx, &timeoutMs, &code))
        return code;
    request.datasets = ctx.values(u"dataset"_s);
    request.models = ctx.values(u"model"_s);
    request.interruptible = ctx.isSet(u"interruptible"_s);
    request.restartWhenAvailable = ctx.isSet(u"restart-when-available"_s);
    if (request.restartWhenAvailable && !request.interruptible)
        return ctx.usage(Hosts::tr("--restart-when-available is for an --interruptible host."));
    if (restore && request.interruptible)
        return ctx.usage(Hosts::tr("--snapshot launches on demand: it takes no --interruptible."));
    if ((code = ctx.connect()) != Ok)
        return code;

    request.image = ctx.value(u"image"_s);
    if (request.image.isEmpty() && !restore) {
        const Result<QList<Image>> catalog = ctx.await(ctx.client()->images());
        if (!catalog.ok())
            return ctx.fail(catalog.error);
        if (!catalog.value->isEmpty())
            request.image = catalog.value->first().id;
    }
    if (!chooseKeys(ctx, &request.sshKeyIds, &code))
        return code;

    // From a snapshot: its GPU type and card count unless --gpu / --cards say otherwise.
    SnapshotRestore restoring;
    restoring.snapshotId = ctx.value(u"snapshot"_s);
    restoring.name = request.name;
    restoring.gpuType = ctx.isSet(u"gpu"_s) ? request.gpuType : QString();
    restoring.gpuCount = ctx.isSet(u"cards"_s) ? request.gpuCount : 0;
    restoring.sshKeyIds = request.sshKeyIds;
    const Result<Instance> created = ctx.await(restore ? ctx.client()->restoreSnapshot(restoring)
                                                       : ctx.client()->createInstance(request));
    if (!created.ok())
        return ctx.fail(created.error);
    Instance instance = *created.value;
    ctx.session()->noteInstance(instance);
    const bool terminal = Output::stdoutIsTerminal() && !ctx.json;
    if (terminal)
        Output::line(Hosts::tr("Launching %1 (%2)…").arg(instance.name, instance.id));
    if (ctx.isSet(u"wait"_s)) {
        // `running` is the provider's word that SSH answered with the expected host key.
        code = waitFor(ctx, instance.id, InstanceState::Running, timeoutMs, terminal, &instance);
        if (code != Ok)
            return code;
    }
    if (ctx.json)
        Output::json(ModelJson::toJson(instance));
    else
        Output::line(instance.name);
    return Ok;
}

int action(Context &ctx, Reply<Instance> *(ProviderClient::*call)(const QString &, const QString &))
{
    QString name;
    int code = Ok;
    if (!ctx.oneArgument(Hosts::tr("NAME"), &name, &code))
        return code;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(name, &code);
    if (!instance)
        return code;
    const Result<Instance> done = ctx.await((ctx.client()->*call)(instance->id, QString()));
    if (!done.ok())
        return ctx.fail(done.error);
    if (ctx.json)
        Output::json(ModelJson::toJson(*done.value));
    else
        Output::line(u"%1  %2"_s.arg(done.value->name, done.value->stateText));
    return Ok;
}

int stop(Context &ctx)
{
    return action(ctx, &ProviderClient::stopInstance);
}

int start(Context &ctx)
{
    return action(ctx, &ProviderClient::startInstance);
}

int rm(Context &ctx)
{
    QString name;
    int code = Ok;
    if (!ctx.oneArgument(Hosts::tr("NAME"), &name, &code))
        return code;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(name, &code);
    if (!instance)
        return code;
    // What goes, in the provider's words (retention.terminate_deletes).
    const QString deletes = instance->retention.terminateDeletes.isEmpty()
        ? Hosts::tr("nothing (the provider keeps no files for it)")
        : instance->retention.terminateDeletes.join(u", "_s);
    if (!ctx.isSet(u"yes"_s)) {
        if (!Output::stdinIsTerminal()) {
            return ctx.usage(Hosts::tr("terminating %1 deletes %2; stdin is not a terminal to "
                                       "ask, so give --yes.")
                                 .arg(instance->name, deletes));
        }
        const QString answer =
            Output::prompt(Hosts::tr("Terminate %1? This deletes for good: %2. [y/N] ")
                               .arg(instance->name, deletes))
                .trimmed()
                .toLower();
        if (answer != u"y"_s && answer != u"yes"_s) {
            Output::error(Hosts::tr("Nothing was deleted."));
            return Failed;
        }
    }
    const Result<Instance> done = ctx.await(ctx.client()->terminateInstance(instance->id));
    if (!done.ok())
        return ctx.fail(done.error);
    if (ctx.json) {
        Output::json(ModelJson::toJson(*done.value));
    } else {
        Output::line(u"%1  %2"_s.arg(done.value->name, done.value->stateText));
        Output::error(Hosts::tr("Deleted: %1.").arg(deletes));
    }
    return Ok;
}

int wait(Context &ctx)
{
    QString name;
    int code = Ok;
    if (!ctx.oneArgument(Hosts::tr("NAME"), &name, &code))
        return code;
    if (!ctx.isSet(u"state"_s))
        return ctx.usage(Hosts::tr("--state STATE is missing."));
    const InstanceState state = instanceStateFromString(ctx.value(u"state"_s));
    if (state == InstanceState::Unknown)
        return ctx.usage(Hosts::tr("no state %1 (creating, starting, running, stopping, stopped, "
                                   "terminated, failed).")
                             .arg(ctx.value(u"state"_s)));
    qint64 timeoutMs = 0;
    if (!readTimeout(ctx, &timeoutMs, &code))
        return code;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(name, &code, true);
    if (!instance)
        return code;
    Instance last = *instance;
    if ((code = waitFor(ctx, instance->id, state, timeoutMs, false, &last)) != Ok)
        return code;
    if (ctx.json)
        Output::json(ModelJson::toJson(last));
    else
        Output::line(u"%1  %2"_s.arg(last.name, last.stateText));
    return Ok;
}

QCommandLineOption timeoutOption(const QString &defaultSeconds)
{
    return QCommandLineOption(
        u"timeout"_s,
        Hosts::tr("Give up after SECONDS (exit status 6; default %1).").arg(defaultSeconds),
        u"SECONDS"_s, defaultSeconds);
}

} // namespace

QList<Command> hostCommands()
{
    return {
        {u"gpus"_s, Hosts::tr("The GPU types, their prices and free cards."), {}, {}, gpus},
        {u"images"_s, Hosts::tr("The images a host can start from."), {}, {}, images},
        {u"datasets"_s,
         Hosts::tr("The shared datasets a host can mount (read-only)."),
         {},
         {},
         datasets},
        {u"ls"_s,
         Hosts::tr("The hosts."),
         {},
         {QCommandLineOption(u"all"_s, Hosts::tr("Terminated hosts too."))},
         ls},
        {u"show"_s, Hosts::tr("One host in full."), u"NAME|ID"_s, {}, show},
        {u"launch"_s,
         Hosts::tr("Launch a host, or restore a snapshot (with --wait: until SSH answers)."),
         {},
         {QCommandLineOption(u"gpu"_s, Hosts::tr("The GPU type or MIG slice (`cardhourctl gpus`)."),
                             u"TYPE"_s),
          QCommandLineOption(u"cards"_s, Hosts::tr("How many cards (1, 2, 4 or 8)."), u"N"_s,
                             u"1"_s),
          QCommandLineOption(u"image"_s, Hosts::tr("The image (default: the catalog's first)."),
                             u"ID"_s),
          QCommandLineOption(u"snapshot"_s,
                             Hosts::tr("Restore a snapshot (`cardhourctl snapshot ls`): its disk "
                                       "and /workspace, its GPU type unless --gpu."),
                             u"ID"_s),
          QCommandLineOption(u"dataset"_s, Hosts::tr("A shared dataset to mount (repeatable)."),
                             u"NAME"_s),
          QCommandLineOption(u"model"_s,
                             Hosts::tr("A model of `cardhourctl models` to mount read-only at "
                                       "/models/NAME (repeatable)."),
                             u"NAME"_s),
          QCommandLineOption(u"key"_s,
                             Hosts::tr("An SSH key to authorise, by name, id or fingerprint "
                                       "(repeatable; default: all of the account's, or one made "
                                       "and uploaded when it has none)."),
                             u"NAME"_s),
          QCommandLineOption(u"name"_s, Hosts::tr("The host's name (default: the provider's)."),
                             u"NAME"_s),
          QCommandLineOption(u"interruptible"_s,
                             Hosts::tr("The cheaper price class the provider may interrupt (with "
                                       "a notice) when it needs the cards; /workspace is kept.")),
          QCommandLineOption(u"restart-when-available"_s,
                             Hosts::tr("With --interruptible: start it again once cards of its "
                                       "type are free after an interruption.")),
          QCommandLineOption(u"wait"_s,
                             Hosts::tr("Return once the host runs and SSH answered (exit status "
                                       "7 if it is interrupted first).")),
          timeoutOption(u"600"_s)},
         launch},
        {u"stop"_s,
         Hosts::tr("Stop a host (its disk is kept and billed as storage)."),
         u"NAME|ID"_s,
         {},
         stop},
        {u"start"_s, Hosts::tr("Start a stopped host again."), u"NAME|ID"_s, {}, start},
        {u"rm"_s,
         Hosts::tr("Terminate a host for good (asks first, unless --yes)."),
         u"NAME|ID"_s,
         {QCommandLineOption(u"yes"_s, Hosts::tr("Do not ask."))},
         rm},
        {u"wait"_s,
         Hosts::tr("Wait until a host is in a state."),
         u"NAME|ID"_s,
         {QCommandLineOption(u"state"_s, Hosts::tr("The state to wait for (e.g. running)."),
                             u"STATE"_s),
          timeoutOption(u"300"_s)},
         wait},
    };
}

} // namespace cardhour::ctl
