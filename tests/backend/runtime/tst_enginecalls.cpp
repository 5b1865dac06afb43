// EngineCalls without an engine: which command lines become which API requests (and which stay
// command lines), and how replies read as the command line's results.
#include "runtime/EngineCalls.h"
#include "runtime/EngineExec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using namespace cardhour::sim::cli;

class TestEngineCalls : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runBecomesCreateAndStart();
    void slirpOptionsBecomeNetworkOptions();
    void unknownFlagsStayCommandLines();
    void verbs();
    void replies();
    void execBecomesASessionStartedAndInspected();
    void startsThatLostAHelpersExit();
    void events();
};

namespace {

const QStringList kRun{u"run"_s,
                       u"-d"_s,
                       u"--name"_s,
                       u"cardhour-i1"_s,
                       u"--label"_s,
                       u"cardhour.instance=i1"_s,
                       u"--hostname"_s,
                       u"cardhour-i1"_s,
                       u"--pull=never"_s,
                       u"--network"_s,
                       u"slirp4netns"_s,
                       u"-p"_s,
                       u"127.0.0.1:40022:22"_s,
                       u"-v"_s,
                       u"cardhour-ws-i1:/workspace"_s,
                       u"-v"_s,
                       u"/data/ssh:/etc/cardhour/ssh:ro,z"_s,
                       u"--cpus"_s,
                       u"1.5"_s,
                       u"--memory"_s,
                       u"512m"_s,
                       u"--pids-limit"_s,
                       u"256"_s,
                       u"--cap-drop"_s,
                       u"ALL"_s,
                       u"--cap-add"_s,
                       u"CHOWN,SETUID"_s,
                       u"--security-opt"_s,
                       u"no-new-privileges"_s,
                       u"-e"_s,
                       u"A=b=c"_s,
                       u"-e"_s,
                       u"CARDHOUR_APP_TOKEN"_s,
                       u"--stop-timeout"_s,
                       u"10"_s,
                       u"localhost/cardhour/base:latest"_s,
                       u"/etc/cardhour/ssh/cardhour-entrypoint"_s};

QProcessEnvironment tokenEnvironment()
{
    QProcessEnvironment env;
    env.insert(u"CARDHOUR_APP_TOKEN"_s, u"secret"_s);
    return env;
}

} // namespace

void TestEngineCalls::runBecomesCreateAndStart()
{
    const std::optional<ApiCall> call = apiCallFor(Engine::Podman, kRun, tokenEnvironment());
    QVERIFY(call);
    QCOMPARE(call->method, QByteArray("POST"));
    QCOMPARE(call->path, u"/containers/create"_s);
    QVERIFY(call->startAfterCreate);
    const QJsonObject spec = QJsonDocument::fromJson(call->body).object();
    QCOMPARE(spec.value(u"name"_s).toString(), u"cardhour-i1"_s);
    QCOMPARE(spec.value(u"image"_s).toString(), u"localhost/cardhour/base:latest"_s);
    QCOMPARE(spec.value(u"labels"_s).toObject().value(u"cardhour.instance"_s).toString(), u"i1"_s);
    QCOMPARE(spec.value(u"netns"_s).toObject().value(u"nsmode"_s).toString(), u"slirp4netns"_s);
    const QJsonObject port = spec.value(u"portmappings"_s).toArray().first().toObject();
    QCOMPARE(port.value(u"host_ip"_s).toString(), u"127.0.0.1"_s);
    QCOMPARE(port.value(u"host_port"_s).toInt(), 40022);
    QCOMPARE(port.value(u"container_port"_s).toInt(), 22);
    const QJsonObject volume = spec.value(u"volumes"_s).toArray().first().toObject();
    QCOMPARE(volume.value(u"Name"_s).toString(), u"cardhour-ws-i1"_s);
    QCOMPARE(volume.value(u"Dest"_s).toString(), u"/workspace"_s);
    const QJsonObject mount = spec.value(u"mounts"_s).toArray().first().toObject();
    QCOMPARE(mount.value(u"Source"_s).toString(), u"/data/ssh"_s);
    QCOMPARE(mount.value(u"Destination"_s).toString(), u"/etc/cardhour/ssh"_s);
    QCOMPARE(mount.value(u"Options"_s).toVariant().toStringList(),
             (QStringList{u"rbind"_s, u"ro"_s, u"z"_s}));
    const QJsonObject limits = spec.value(u"resource_limits"_s).toObject();
    QCOMPARE(limits.value(u"cpu"_s).toObject().value(u"quota"_s).toInteger(), 150000);
    QCOMPARE(limits.value(u"memory"_s).toObject().value(u"limit"_s).toInteger(),
             512LL * 1024 * 1024);
    QCOMPARE(limits.value(u"pids"_s).toObject().value(u"limit"_s).toInteger(), 256);
    QCOMPARE(spec.value(u"cap_drop"_s).toArray(), QJsonArray{u"ALL"_s});
    QCOMPARE(spec.value(u"cap_add"_s).toArray(), (QJsonArray{u"CHOWN"_s, u"SETUID"_s}));
    QCOMPARE(spec.value(u"no_new_privileges"_s).toBool(), true);
    QCOMPARE(spec.value(u"command"_s).toArray(),
             QJsonArray{u"/etc/cardhour/ssh/cardhour-entrypoint"_s});
    const QJsonObject env = spec.value(u"env"_s).toObject();
    QCOMPARE(env.value(u"A"_s).toString(), u"b=c"_s);
    QCOMPARE(env.value(u"CARDHOUR_APP_TOKEN"_s).toString(), u"secret"_s);
    QCOMPARE(spec.value(u"stop_timeout"_s).toInt(), 10);
    // Docker Engine's create differs: its CLI runs it.
    QVERIFY(!apiCallFor(Engine::Docker, kRun, tokenEnvironment()));
}

// The provider's own network for podman boxes: slirp4netns forwarding the port itself.
void TestEngineCalls::slirpOptionsBecomeNetworkOptions()
{
    QStringList withOptions = kRun;
    withOptions[withOptions.indexOf(u"slirp4netns"_s)] =
        u"slirp4netns:port_handler=slirp4netns,mtu=1500"_s;
    const std::optional<ApiCall> call = apiCallFor(Engine::Podman, withOptions, {});
    QVERIFY(call);
    const QJsonObject spec = QJsonDocument::fromJson(call->body).object();
    QCOMPARE(spec.value(u"netns"_s).toObject().value(u"nsmode"_s).toString(), u"slirp4netns"_s);
    QCOMPARE(spec.value(u"network_options"_s)
                 .toObject()
                 .value(u"slirp4netns"_s)
                 .toVariant()
                 .toStringList(),
             (QStringList{u"port_handler=slirp4netns"_s, u"mtu=1500"_s}));
    // Options of any other mode are not translated: that run goes through the command line.
    withOptions[withOptions.indexOf(u"slirp4netns:port_handler=slirp4netns,mtu=1500"_s)] =
        u"bridge:ip=10.88.0.9"_s;
    QVERIFY(!apiCallFor(Engine::Podman, withOptions, {}));
    // No options, no network_options.
    const QJsonObject plain =
        QJsonDocument::fromJson(apiCallFor(Engine::Podman, kRun, {})->body).object();
    QVERIFY(!plain.contains(u"network_options"_s));
}

void TestEngineCalls::unknownFlagsStayCommandLines()
{
    QStringList withDevice = kRun;
    withDevice.insert(withDevice.size() - 2, u"--device"_s);
    withDevice.insert(withDevice.size() - 2, u"nvidia.com/gpu=0"_s);
    QVERIFY(!apiCallFor(Engine::Podman, withDevice, {}));
    QStringList withSecurity = kRun;
    withSecurity.insert(withSecurity.size() - 2, u"--security-opt"_s);
    withSecurity.insert(withSecurity.size() - 2, u"seccomp=unconfined"_s);
    QVERIFY(!apiCallFor(Engine::Podman, withSecurity, {}));
    QVERIFY(!apiCallFor(Engine::Podman, {u"logs"_s, u"--tail"_s, u"15"_s, u"c1"_s}, {}));
    QVERIFY(!execCallFor(Engine::Podman, {u"exec"_s, u"-i"_s, u"c1"_s, u"cat"_s}));
    QVERIFY(!execCallFor(Engine::Docker, {u"exec"_s, u"c1"_s, u"cat"_s}));
    QVERIFY(!apiCallFor(Engine::Podman, {u"stop"_s, u"-t"_s, u"10"_s, u"c1"_s, u"c2"_s}, {}));
    QVERIFY(!apiCallFor(
        Engine::Podman,
        {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"{{.Id}}"_s, u"c1"_s}, {}));
    QVERIFY(!apiCallFor(Engine::Docker, {u"ps"_s, u"-a"_s, u"--format"_s, u"json"_s}, {}));
}

void TestEngineCalls::verbs()
{
    auto path = [](Engine engine, const QStringList &args) {
        const std::optional<ApiCall> call = apiCallFor(engine, args, {});
        return call ? QString::fromLatin1(call->method) + u' ' + call->path : QString();
    };
    QCOMPARE(path(Engine::Podman, {u"start"_s, u"c1"_s}), u"POST /containers/c1/start"_s);
    QCOMPARE(path(Engine::Podman, {u"stop"_s, u"-t"_s, u"10"_s, u"c1"_s}),
             u"POST /containers/c1/stop?timeout=10"_s);
    QCOMPARE(path(Engine::Docker, {u"stop"_s, u"-t"_s, u"10"_s, u"c1"_s}),
             u"POST /containers/c1/stop?t=10"_s);
    QCOMPARE(path(Engine::Podman, forceRemoveArgs(Engine::Podman, {u"c1"_s})),
             u"DELETE /containers/c1?force=true&timeout=0"_s);
    QCOMPARE(path(Engine::Docker, forceRemoveArgs(Engine::Docker, {u"c1"_s})),
             u"DELETE /containers/c1?force=true"_s);
    QCOMPARE(path(Engine::Podman,
                  {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s, u"c1"_s}),
             u"GET /containers/c1/json"_s);
    QCOMPARE(path(Engine::Podman,
                  {u"ps"_s, u"-a"_s, u"--filter"_s, u"label=a=b"_s, u"--format"_s, u"json"_s}),
             u"GET /containers/json?all=true&filters=%7B%22label%22%3A%5B%22a%3Db%22%5D%7D"_s);
    // The disk check's list: running ones only.
    QCOMPARE(path(Engine::Podman,
                  {u"ps"_s, u"--filter"_s, u"label=a=b"_s, u"--filter"_s, u"status=running"_s,
                   u"--format"_s, u"json"_s}),
             u"GET /containers/json?filters="
             "%7B%22label%22%3A%5B%22a%3Db%22%5D%2C%22status%22%3A%5B%22running%22%5D%7D"_s);
    QVERIFY(!apiCallFor(Engine::Podman, {u"ps"_s, u"--size"_s, u"--format"_s, u"json"_s}, {}));
    QVERIFY(!apiCallFor(Engine::Docker,
                        {u"ps"_s, u"--filter"_s, u"status=running"_s, u"--format"_s, u"json"_s},
                        {}));
    const std::optional<ApiCall> volume =
        apiCallFor(Engine::Podman,
                   {u"volume"_s, u"create"_s, u"--label"_s, u"a=b"_s, u"--opt"_s, u"o=loop"_s,
                    u"cardhour-ws-i1"_s},
                   {});
    QVERIFY(volume);
    QCOMPARE(volume->path, u"/volumes/create"_s);
    const QJsonObject body = QJsonDocument::fromJson(volume->body).object();
    QCOMPARE(body.value(u"Name"_s).toString(), u"cardhour-ws-i1"_s);
    QCOMPARE(body.value(u"Label"_s).toObject().value(u"a"_s).toString(), u"b"_s);
    QCOMPARE(body.value(u"Options"_s).toObject().value(u"o"_s).toString(), u"loop"_s);
    // The teardown's volume calls.
    QCOMPARE(path(Engine::Podman,
                  {u"volume"_s, u"ls"_s, u"--filter"_s, u"label=a=b"_s, u"--format"_s, u"json"_s}),
             u"GET /volumes/json?filters=%7B%22label%22%3A%5B%22a%3Db%22%5D%7D"_s);
    QVERIFY(!apiCallFor(
        Engine::Docker,
        {u"volume"_s, u"ls"_s, u"--filter"_s, u"label=a=b"_s, u"--format"_s, u"json"_s}, {}));
    QCOMPARE(path(Engine::Podman, {u"volume"_s, u"rm"_s, u"-f"_s, u"cardhour-ws-i1"_s}),
             u"DELETE /volumes/cardhour-ws-i1?force=true"_s);
    QCOMPARE(path(Engine::Docker, {u"volume"_s, u"rm"_s, u"cardhour-ws-i1"_s}),
             u"DELETE /volumes/cardhour-ws-i1"_s);
    QVERIFY(!apiCallFor(Engine::Podman, {u"volume"_s, u"rm"_s, u"-f"_s, u"v1"_s, u"v2"_s}, {}));
    QVERIFY(!apiCallFor(Engine::Podman, {u"volume"_s, u"rm"_s, u"-f"_s}, {}));
    QCOMPARE(apiPrefix(Engine::Podman), u"/v4.0.0/libpod"_s);
    QCOMPARE(apiPrefix(Engine::Docker), u"/v1.41"_s);
}

void TestEngineCalls::execBecomesASessionStartedAndInspected()
{
    const std::optional<ApiCall> call =
        execCallFor(Engine::Podman, {u"exec"_s, u"c1"_s, u"sh"_s, u"-c"_s, u"echo hi"_s});
    QVERIFY(call);
    QVERIFY(call->execAfterCreate);
    QCOMPARE(call->method, QByteArray("POST"));
    QCOMPARE(call->path, u"/containers/c1/exec"_s);
    const QJsonObject body = QJsonDocument::fromJson(call->body).object();
    QCOMPARE(body.value(u"Cmd"_s).toVariant().toStringList(),
             (QStringList{u"sh"_s, u"-c"_s, u"echo hi"_s}));
    QVERIFY(body.value(u"AttachStdout"_s).toBool());
    QVERIFY(body.value(u"AttachStderr"_s).toBool());
    QCOMPARE(execStartCall(u"e1"_s).path, u"/exec/e1/start"_s);
    QCOMPARE(execInspectCall(u"e1"_s).path, u"/exec/e1/json"_s);

    // What podman 4.3 sent for `sh -c 'echo hi; echo err >&2; exit 3'`, the last frame cut short.
    const QByteArray stream = QByteArray::fromHex("0100000000000003"
                                                  "68690a"
                                                  "0200000000000004"
                                                  "6572720a"
                                                  "0100000000000009"
                                                  "6375");
    const ProcessResult r = execResult(EngineReply{true, false, 200, stream, {}},
                                       EngineReply{true, false, 200, R"({"ExitCode":3})", {}});
    QVERIFY(r.started);
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(r.out, QByteArray("hi\ncu"));
    QCOMPARE(r.err, QByteArray("err\n"));
    QVERIFY(execResult(EngineReply{true, false, 200, {}, {}},
                       EngineReply{true, false, 200, R"({"ExitCode":0})", {}})
                .ok());
    // No exit code to be had: a failure, as the command line's 125, with what was printed.
    const ProcessResult lost =
        execResult(EngineReply{true, false, 200, stream, {}},
                   EngineReply{true, false, 404, R"({"message":"gone"})", {}});
    QCOMPARE(lost.exitCode, 125);
    QCOMPARE(lost.out, QByteArray("hi\ncu"));
    // The start refused (the container stopped meanwhile): the engine's message, as `exec` says.
    const ProcessResult refused = execResult(
        EngineReply{true, false, 409, R"({"message":"container is not running"})", {}}, {});
    QCOMPARE(refused.exitCode, 125);
    QVERIFY(refused.err.contains("container is not running"));
    QVERIFY(execResult(EngineReply{true, true, 0, {}, u"timed out"_s}, {}).timedOut);
}

void TestEngineCalls::replies()
{
    ApiCall start = *apiCallFor(Engine::Podman, {u"start"_s, u"c1"_s}, {});
    ProcessResult r = resultOf(start, EngineReply{true, false, 204, {}, {}});
    QVERIFY(r.ok());
    QCOMPARE(r.out, QByteArray("c1\n"));
    QVERIFY(resultOf(start, EngineReply{true, false, 304, {}, {}}).ok()); // already running
    r = resultOf(
        start,
        EngineReply{
            true,
            false,
            404,
            R"({"cause":"no such container","message":"no container with name or ID \"c1\" found: no such container","response":404})",
            {}});
    QVERIFY(!r.ok());
    QCOMPARE(r.exitCode, 125);
    QCOMPARE(classify(QString::fromUtf8(r.err)), Failure::NoSuchContainer);
    r = resultOf(start, EngineReply{false, false, 0, {}, u"Couldn't connect"_s});
    QVERIFY(!r.started);
    r = resultOf(start, EngineReply{true, true, 0, {}, u"Operation timed out"_s});
    QVERIFY(r.timedOut);
    QVERIFY(!r.ok());

    const ApiCall rm = *apiCallFor(Engine::Podman, forceRemoveArgs(Engine::Podman, {u"c1"_s}), {});
    QVERIFY(resultOf(rm, EngineReply{true, false, 200, R"([{"Id":"c1"}])", {}}).ok());
    r = resultOf(rm, EngineReply{true, false, 200, R"([{"Id":"c1","Err":"it is busy"}])", {}});
    QVERIFY(!r.ok());
    QCOMPARE(r.err, QByteArray("Error: it is busy"));

    const ApiCall check = *apiCallFor(Engine::Podman,
                                      {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                                       u"{{.State.Running}} {{.State.ExitCode}}"_s, u"c1"_s},
                                      {});
    r = resultOf(
        check, EngineReply{true, false, 200, R"({"State":{"Running":false,"ExitCode":255}})", {}});
    QCOMPARE(r.out, QByteArray("false 255\n"));
    const ApiCall json = *apiCallFor(
        Engine::Podman,
        {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s, u"c1"_s}, {});
    r = resultOf(
        json,
        EngineReply{
            true,
            false,
            200,
            R"({"HostConfig":{"PortBindings":{"22/tcp":[{"HostIp":"127.0.0.1","HostPort":"40022"}]}}})",
            {}});
    QCOMPARE(portsFromInspect(r.out), (QHash<int, int>{{22, 40022}}));
}

void TestEngineCalls::startsThatLostAHelpersExit()
{
    // What podman 4.3's service answered under concurrent starts: the helper's exit was taken
    // by its own reaper. Only such a start goes to the command line once more.
    const ApiCall start = *apiCallFor(Engine::Podman, {u"start"_s, u"c1"_s}, {});
    const auto failed = [](const char *message) {
        return EngineReply{true,
                           false,
                           500,
                           QByteArray(R"({"cause":"no child processes","message":")") + message
                               + R"(","response":500})",
                           {}};
    };
    QVERIFY(startLostHelperExit(start, failed("wait: no child processes")));
    QVERIFY(startLostHelperExit(
        start, failed("mounting volume v for container c1: waitid: no child processes")));
    // Any other failure stays one: a taken port, a missing container, a timeout, no answer.
    QVERIFY(!startLostHelperExit(start, failed("rootlessport listen tcp: address already in use")));
    QVERIFY(!startLostHelperExit(start, EngineReply{true, false, 204, {}, {}}));
    QVERIFY(!startLostHelperExit(start, EngineReply{true, false, 304, {}, {}}));
    QVERIFY(!startLostHelperExit(start, EngineReply{true, true, 0, {}, u"no child processes"_s}));
    QVERIFY(!startLostHelperExit(start, EngineReply{false, false, 0, {}, u"no child processes"_s}));
    // Nor a call that is not a start.
    const ApiCall rm = *apiCallFor(Engine::Podman, forceRemoveArgs(Engine::Podman, {u"c1"_s}), {});
    QVERIFY(!startLostHelperExit(rm, failed("wait: no child processes")));

    // A lost `mount`: podman prints its (unread) output after the colon, so nothing. The
    // volume is named, for its mount to be released before the next try.
    const char *lostMount = "mounting volume cardhour-ws-29f8c0bc for container 535fb29391e4:";
    QVERIFY(startLostHelperExit(start, failed(lostMount)));
    QCOMPARE(volumeMountLostBy(start, failed(lostMount)), u"cardhour-ws-29f8c0bc"_s);
    QCOMPARE(volumeMountLostBy(start, failed("mounting volume v1 for container 0a: ")), u"v1"_s);
    // A mount that said why it failed did fail: not retried, nothing to release.
    const char *badMount = "mounting volume v1 for container 0a: mount: wrong fs type";
    QVERIFY(!startLostHelperExit(start, failed(badMount)));
    QCOMPARE(volumeMountLostBy(start, failed(badMount)), QString());
    QCOMPARE(volumeMountLostBy(start, failed("wait: no child processes")), QString());

    // The command-line start after it: runc's "already running" (the start had happened, and
    // podman keeps the container "initialized") makes a new container again, and leaves an
    // older one, whose own disk holds the user's files, counted as started.
    const auto retried = [](int exitCode, const char *err, bool timedOut = false) {
        ProcessResult r;
        r.started = true;
        r.exitCode = exitCode;
        r.timedOut = timedOut;
        r.err = err;
        return r;
    };
    const char *alreadyRunning = "time=\"2026-12-03T13:23:36Z\" level=error msg=\"cannot start an "
                                 "already running container\"";
    QCOMPARE(lostStartOutcome(retried(0, ""), true), LostStart::Started);
    QCOMPARE(lostStartOutcome(retried(0, ""), false), LostStart::Started);
    QCOMPARE(lostStartOutcome(retried(125, alreadyRunning), true), LostStart::MakeAgain);
    QCOMPARE(lostStartOutcome(retried(125, alreadyRunning), false), LostStart::Started);
    QCOMPARE(lostStartOutcome(retried(125, "Error: no such container c1"), true),
             LostStart::Failed);
    QCOMPARE(lostStartOutcome(retried(-1, alreadyRunning, true), true), LostStart::Failed);
    QCOMPARE(volumeMountLostBy(rm, failed(lostMount)), QString());
    QCOMPARE(volumeMountLostBy(start, failed("mounting volume ../x for container 0a:")), QString());
}

void TestEngineCalls::events()
{
    const QString path = eventsPath(Engine::Podman, u"p1"_s);
    QVERIFY(path.startsWith(u"/events?stream=true&filters="_s));
    // libpod's event, in the Docker message shape it sends.
    const std::optional<EngineEvent> died = parseEvent(
        R"({"status":"died","id":"abc","from":"img","Type":"container","Action":"died","Actor":{"ID":"abc","Attributes":{"cardhour.instance":"i1","cardhour.provider":"p1","containerExitCode":"137"}},"time":1})");
    QVERIFY(died);
    QCOMPARE(died->action, u"died"_s);
    QCOMPARE(died->containerId, u"abc"_s);
    QCOMPARE(died->instanceId, u"i1"_s);
    QCOMPARE(died->providerId, u"p1"_s);
    QVERIFY(died->ended());
    const std::optional<EngineEvent> started =
        parseEvent(R"({"Type":"container","Action":"start","Actor":{"ID":"abc","Attributes":{}}})");
    QVERIFY(started);
    QVERIFY(!started->ended());
    QVERIFY(!parseEvent(R"({"Type":"image","Action":"pull"})"));
    QVERIFY(!parseEvent("not json"));
}

QTEST_GUILESS_MAIN(TestEngineCalls)
#include "tst_enginecalls.moc"
