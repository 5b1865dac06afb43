// events: the provider's event stream (GET /v1/events) as JSON lines, for scripts.
#include "Cli.h"
#include "Output.h"
#include "api/EventStream.h"
#include "api/SseParser.h"
#include "session/ClientSession.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace cardhour::ctl {

namespace {

struct Watch
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ctl::Watch)
};

int events(Context &ctx)
{
    if (!ctx.args.isEmpty())
        return ctx.usage(Watch::tr("events takes no arguments."));
    bool ok = true;
    const int count = ctx.isSet(u"count"_s) ? ctx.value(u"count"_s).toInt(&ok) : 0;
    if (!ok || count < 0)
        return ctx.usage(Watch::tr("--count wants a number, not %1.").arg(ctx.value(u"count"_s)));
    const double seconds = ctx.isSet(u"timeout"_s) ? ctx.value(u"timeout"_s).toDouble(&ok) : 0;
    if (!ok || seconds < 0)
        return ctx.usage(
            Watch::tr("--timeout wants seconds, not %1.").arg(ctx.value(u"timeout"_s)));
    const QStringList types = ctx.values(u"type"_s);
    if (const int code = ctx.connect(); code != Ok)
        return code;

    // ClientSession has started the stream on logging in; every event is printed as it came:
    // {"type": ..., "id": ... or null, "data": the event's JSON}, one per line.
    int printed = 0;
    int status = Ok;
    QEventLoop loop;
    QObject guard;
    EventStream *stream = ctx.session()->events();
    QObject::connect(stream, &EventStream::eventReceived, &guard, [&](const SseEvent &event) {
        // One read may bring several events: none is printed past --count.
        if ((!types.isEmpty() && !types.contains(event.type)) || (count > 0 && printed >= count))
            return;
        const QJsonDocument data = QJsonDocument::fromJson(event.data);
        QJsonObject line{{u"type"_s, event.type},
                         {u"id"_s,
                          event.hasId ? QJsonValue(QString::fromUtf8(event.lastEventId))
                                      : QJsonValue(QJsonValue::Null)}};
        if (data.isObject())
            line.insert(u"data"_s, data.object());
        else if (data.isArray())
            line.insert(u"data"_s, data.array());
        else
            line.insert(u"data"_s, QString::fromUtf8(event.data));
        Output::line(QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)));
        if (count > 0 && ++printed >= count)
            loop.quit();
    });
    QObject::connect(stream, &EventStream::disconnected, &guard, [](const QString &reason) {
        Output::error(
            Watch::tr("cardhourctl events: the stream was lost (%1); reconnecting.").arg(reason));
    });
    QObject::connect(stream, &EventStream::sessionExpired, &guard, [&] {
        Output::error(Watch::tr("cardhourctl events: the provider refused the token."));
        status = NotLoggedIn;
        loop.quit();
    });
    if (seconds > 0) {
        QTimer::singleShot(qint64(seconds * 1000), &guard, [&] {
            // Without --count the time limit is the end asked for; with it, a time-out.
            status = count > 0 ? TimedOut : Ok;
            loop.quit();
        });
    }
    loop.exec();
    return status;
}

} // namespace

QList<Command> watchCommands()
{
    return {
        {u"events"_s,
         Watch::tr(
             "The provider's events as JSON lines (until interrupted, --count or --timeout)."),
         {},
         {QCommandLineOption(u"type"_s,
                             Watch::tr("Only events of this type: hello, instance, billing, "
                                       "metrics, snapshot (repeatable)."),
                             u"TYPE"_s),
          QCommandLineOption(u"count"_s, Watch::tr("Stop after N events."), u"N"_s),
          QCommandLineOption(u"timeout"_s,
                             Watch::tr("Stop after SECONDS (with --count: exit status 6 when "
                                       "fewer came)."),
                             u"SECONDS"_s)},
         events},
    };
}

} // namespace cardhour::ctl
