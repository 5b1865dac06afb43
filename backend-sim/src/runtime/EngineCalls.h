#pragma once

#include "CliDialect.h"
#include "EngineApi.h"
#include "Process.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

namespace cardhour::sim::cli {

// The engine's REST API in place of the command lines CliRuntime runs most (run, start, stop,
// rm, inspect, ps, volume create, ls and rm): one argument list, one way to build it (the command
// line), and here what the same request is over the API. Anything not recognised here, flag by
// flag, runs as a command line; so does everything for an engine whose API is not up.
struct ApiCall
{
    enum class Output {
        None, // the command line printed nothing CliRuntime reads
        Id, // the container id (start, stop, run -d)
        Body, // the reply as it is (ps, volume create and ls print the same JSON)
        BodyAsArray, // `inspect --format json` prints an array of what the API sends alone
        RunningAndExitCode // `inspect --format "{{.State.Running}} {{.State.ExitCode}}"`
    };
    QByteArray method;
    QString path; // after the API's prefix, query encoded
    QByteArray body; // JSON; null for none
    bool startAfterCreate = false; // `run -d`: create, then start what was made
    bool execAfterCreate = false; // `exec`: the session made, then started (EngineExec.h)
    Output output = Output::None;
    QString id; // what Output::Id prints
};

// The API prefix of each engine's socket: libpod's for podman, Docker Engine's for docker.
QString apiPrefix(Engine engine);
// The request that does what `args` do on the command line, if it is one of those above with
// only the flags CardHour passes; else nothing. `environment` gives the values of `-e NAME`.
std::optional<ApiCall> apiCallFor(Engine engine, const QStringList &args,
                                  const QProcessEnvironment &environment);
// A reply as the command line would have ended: exit 0 and its output, or exit 125 and
// "Error: <the engine's message>" on stderr (what classify() reads either way).
ProcessResult resultOf(const ApiCall &call, const EngineReply &reply);
// A start the engine's service failed because it lost the exit of a helper it ran (mount,
// slirp4netns): podman 4's `system service` reaps some children on SIGCHLD itself, and under
// concurrent starts it can take one that os/exec waits for ("wait: no child processes").
// A command-line `start` has no such reaper: worth one more try there.
// The same loss when the helper was `mount` of a volume: podman reports it as "mounting volume
// <name> for container <id>:" with nothing after the colon (the mount's output, which it never
// read). The mount itself worked and stays behind, unknown to podman: the volume's name, so
// that it can be released before the start is tried again; empty for any other reply.
bool startLostHelperExit(const ApiCall &call, const EngineReply &reply);
QString volumeMountLostBy(const ApiCall &call, const EngineReply &reply);
// What such a start came to, from the command-line start tried after it (`retry`). runc's own
// exit lost means it did start: runc runs the container while podman keeps it "initialized"
// for good (its sync skips that state), and reads it as not running from then on. A container
// made for this launch (`fresh`: nothing of the user's in it yet) is made again; an older one
// counts as started, since removing it would lose what its own disk holds.
enum class LostStart {
    Started,
    MakeAgain,
    Failed
};
LostStart lostStartOutcome(const ProcessResult &retry, bool fresh);
// The event stream of `providerId`'s containers, and what one of its lines says.
QString eventsPath(Engine engine, const QString &providerId);
struct EngineEvent
{
    QString action; // podman: died, remove, start, ...; docker: die, destroy, start, ...
    QString containerId;
    QString instanceId; // from the cardhour.instance label
    QString providerId;
    bool ended() const; // the container stopped running or is gone
};
std::optional<EngineEvent> parseEvent(const QByteArray &line);

} // namespace cardhour::sim::cli
