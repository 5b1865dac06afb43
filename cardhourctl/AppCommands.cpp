// open: a host's one-click app (Jupyter, ...) through an SSH forward, as the desktop client's
// app button does it (SshPortForward to the catalog's app port, SshPortForward::appUrl, and
// AppOpener, which keeps the token off every command line).
#include "Cli.h"
#include "Output.h"
#include "ssh/AppOpener.h"
#include "ssh/SshPortForward.h"
#include "ssh/SshTarget.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Apps
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Apps)
};

QStringList appNames(const Instance &instance)
{
    QStringList names;
    for (const InstanceApp &app : instance.apps)
        names.append(app.name);
    return names;
}

// A browser only where there is a desktop to show it on.
bool hasDesktop()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY")
        || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

int open(Context &ctx)
{
    if (ctx.args.isEmpty() || ctx.args.size() > 2)
        return ctx.usage(Apps::tr("open takes NAME [APP]."));
    int code = Ok;
    if ((code = ctx.connect()) != Ok)
        return code;
    const std::optional<Instance> instance = ctx.findInstance(ctx.args[0], &code);
    if (!instance)
        return code;
    if (instance->apps.isEmpty()) {
        Output::error(Apps::tr("cardhourctl open: %1 has no app (its image %2 lists none).")
                          .arg(instance->name, instance->image));
        return NotFound;
    }
    std::optional<InstanceApp> chosen;
    if (ctx.args.size() == 2) {
        for (const InstanceApp &app : instance->apps) {
            if (app.name == ctx.args[1])
                chosen = app;
        }
        if (!chosen) {
            Output::error(Apps::tr("cardhourctl open: %1 has no app %2 (it has: %3).")
                              .arg(instance->name, ctx.args[1], appNames(*instance).join(u", "_s)));
            return NotFound;
        }
    } else if (instance->apps.size() == 1) {
        chosen = instance->apps.first();
    } else {
        return ctx.usage(Apps::tr("%1 has several apps; name one: %2.")
                             .arg(instance->name, appNames(*instance).join(u", "_s)));
    }
    if (instance->state != InstanceState::Running || !instance->ssh) {
        Output::error(Apps::tr("cardhourctl open: %1 is %2, not running.")
                          .arg(instance->name, instance->stateText));
        return Failed;
    }
    const std::optional<SshTarget> target = resolveTarget(ctx, instance->id, &code);
    if (!target)
        return code;

    SshPortForward forwarder(*target, chosen->port);
    AppOpener opener(AppOpener::systemLauncher());
    QEventLoop loop;
    QObject::connect(&forwarder, &SshPortForward::listening, &loop, [&](quint16 port) {
        const QUrl url = SshPortForward::appUrl(*chosen, port);
        if (ctx.json) {
            Output::line(
                QString::fromUtf8(QJsonDocument(QJsonObject{{u"url"_s, url.toString()},
                                                            {u"app"_s, chosen->name},
                                                            {u"instance"_s, instance->name},
                                                            {u"local_host"_s, u"127.0.0.1"_s},
                                                            {u"local_port"_s, int(port)},
                                                            {u"remote_port"_s, chosen->port}})
                                      .toJson(QJsonDocument::Compact)));
        } else {
            Output::line(url.toString());
            Output::error(Apps::tr("%1 of %2 is at that address (through SSH); Ctrl-C ends it.")
                              .arg(chosen->name, instance->name));
        }
        if (!hasDesktop())
            return;
        opener.open(url, [](const AppOpener::Outcome &opened) {
            if (opened.opened)
                Output::error(Apps::tr("Opened it in the browser."));
            else
                Output::error(Apps::tr("No browser opened (%1); open the address yourself.")
                                  .arg(opened.error));
        });
    });
    QObject::connect(&forwarder, &SshPortForward::failed, &loop, [&](const QString &reason) {
        Output::error(Apps::tr("cardhourctl open: %1").arg(reason));
        code = Failed;
        loop.quit();
    });
    forwarder.start();
    loop.exec();
    forwarder.stop();
    return code;
}

} // namespace

QList<Command> appCommands()
{
    return {
        {u"open"_s,
         Apps::tr("A host's one-click app through an SSH forward (until interrupted)."),
         u"NAME [APP]"_s,
         {},
         open},
    };
}

} // namespace cardhour::ctl
