#include "runtime/DoctorChecks.h"

#include "runtime/HostPlatform.h"
#include "runtime/Process.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>

using namespace Qt::StringLiterals;

// Doctor's checks of podman and its configuration: does it run, what `podman info` says, does
// a container start (and would it with the recommended containers.conf), which images are there.

namespace cardhour::sim::doctor {

namespace {

using S = DoctorCheck::Status;

// The value of `key = ...` in a containers.conf (TOML; good enough for the two keys we read).
QString confValue(const QString &content, const QString &key)
{
    const QRegularExpression re(
        u"^\\s*%1\\s*=\\s*(.+?)\\s*$"_s.arg(QRegularExpression::escape(key)),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = re.match(content);
    return match.hasMatch() ? match.captured(1) : QString();
}

void addOciRuntime(Context &context, const QJsonObject &host)
{
    const QJsonObject oci = host.value(u"ociRuntime"_s).toObject();
    context.runtimeName = oci.value(u"name"_s).toString();
    const QString &runtimeName = context.runtimeName;
    const QString path = oci.value(u"path"_s).toString();
    const QString runtimeVersion = firstLine(oci.value(u"version"_s).toString());
    if (!path.isEmpty() && !QFileInfo(path).isExecutable())
        context.add(
            u"oci runtime"_s, S::Problem, u"%1 at %2 is not there"_s.arg(runtimeName, path),
            u"install %1, or select an installed runtime in containers.conf"_s.arg(runtimeName));
    else
        context.add(u"oci runtime"_s, S::Ok,
                    u"%1 (%2, %3)"_s.arg(runtimeName, path, runtimeVersion));
}

void addCgroups(Context &context, const QString &cgroupVersion, const QString &cgroupManager)
{
    const QString cgroupDetail = u"cgroup %1, manager %2"_s.arg(cgroupVersion, cgroupManager);
    if (cgroupVersion == u"v1"_s && context.runtimeName == u"crun"_s)
        context.add(u"cgroups"_s, S::Warning,
                    cgroupDetail + u" (crun often fails on cgroup v1/hybrid hosts)"_s, confFix());
    else
        context.add(u"cgroups"_s, S::Ok, cgroupDetail);
}

void addRootless(Context &context, const QJsonObject &info, const QString &cgroupVersion)
{
    const QJsonObject host = info.value(u"host"_s).toObject();
    const QJsonObject security = host.value(u"security"_s).toObject();
    if (security.contains(u"rootless"_s))
        context.rootless = security.value(u"rootless"_s).toBool();
    const bool rootless = context.rootless;
    const QString mode =
        rootless ? u"rootless (uid %1)"_s.arg(platform::userId()) : u"rootful (running as root)"_s;
    const QString graphDriver =
        info.value(u"store"_s).toObject().value(u"graphDriverName"_s).toString();
    if (rootless && !QFileInfo(u"/dev/net/tun"_s).isWritable())
        // slirp4netns opens it as the user: some hosts leave it 0600 root.
        context.add(
            u"rootless"_s, S::Problem,
            mode + u": /dev/net/tun is not usable by this user, so instances get no network"_s,
            u"chmod 0666 /dev/net/tun (it is 0666 on most distributions), or run as root"_s);
    else if (rootless && cgroupVersion == u"v1"_s)
        context.add(
            u"rootless"_s, S::Warning,
            mode + u" on cgroup v1: podman ignores CPU and memory limits"_s,
            u"boot with cgroup v2 (systemd.unified_cgroup_hierarchy=1) for per-instance limits"_s);
    else if (rootless && graphDriver == u"vfs"_s)
        context.add(u"rootless"_s, S::Warning,
                    mode
                        + u" with the vfs storage driver: every container copies its whole image"_s,
                    u"apt-get install fuse-overlayfs, then podman system reset (removes images)"_s);
    else
        context.add(u"rootless"_s, S::Ok, mode);
}

// The local image a container start is tried with; empty when there is none.
QString imageToStart(const Context &context)
{
    const QString &prefix = context.options.tagPrefix;
    for (const QString &candidate : {prefix + u"base:latest"_s, prefix + u"debian:bookworm"_s}) {
        if (context.imageExists(candidate))
            return candidate;
    }
    return {};
}

// A failed start tried again with runc and low ulimits: the fix is that file, or podman's error.
void addStartFailure(Context &context, const QStringList &runArgs, const QString &failed)
{
    if (context.runcPath.isEmpty()) {
        context.add(u"container start"_s, S::Problem, failed,
                    u"install runc (apt-get install runc), then "_s + confFix());
        return;
    }
    QTemporaryDir dir;
    const QString confPath = dir.filePath(u"containers.conf"_s);
    Proc second;
    QString writeError;
    if (dir.isValid() && Doctor::writeRecommendedConf(confPath, &writeError)) {
        second = runProgram(context.options.podman, runArgs,
                            containersEnvironment(confPath, InheritedConf::Drop),
                            context.options.timeoutMs);
    } else {
        second.error = writeError;
    }
    if (second.ok())
        context.add(u"container start"_s, S::Problem,
                    failed + u"; it starts with runc and default_ulimits 4096"_s, confFix());
    else
        context.add(u"container start"_s, S::Problem,
                    failed + u"; with runc and default_ulimits 4096 it fails too: "_s
                        + second.why(),
                    u"see podman's error above; `podman --log-level=debug run ...` tells more"_s);
}

} // namespace

QString Proc::why() const
{
    if (!error.isEmpty())
        return error;
    QString said = err.trimmed();
    if (said.isEmpty())
        said = out.trimmed();
    if (said.size() > 600)
        said = QChar(0x2026) + said.right(599);
    return u"exit %1%2"_s.arg(exitCode).arg(said.isEmpty() ? QString() : u": "_s + said);
}

void Context::add(const QString &name, DoctorCheck::Status status, const QString &detail,
                  const QString &fix)
{
    findings.append(DoctorCheck{name, status, detail, fix});
}

Proc Context::run(const QString &program, const QStringList &args, int timeoutMs) const
{
    return runProgram(program, args, env, timeoutMs);
}

Proc runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env,
                int timeoutMs)
{
    Process::Options processOptions;
    processOptions.environment = env;
    processOptions.timeoutMs = timeoutMs;
    const ProcessResult run = Process::run(program, args, processOptions);
    Proc result;
    result.started = run.started;
    if (!run.started) {
        result.error = u"cannot run %1: %2"_s.arg(program, run.startError);
    } else if (run.timedOut) {
        result.error =
            u"`%1 %2` timed out after %3 s"_s.arg(program, args.join(u' ')).arg(timeoutMs / 1000);
    } else {
        result.finished = true;
        result.exitCode = run.exitCode;
        result.out = QString::fromUtf8(run.out);
        result.err = QString::fromUtf8(run.err);
    }
    return result;
}

bool Context::imageExists(const QString &reference) const
{
    return runPodman({u"image"_s, u"exists"_s, reference}).ok();
}

QString findProgram(const QString &name)
{
    QString found = QStandardPaths::findExecutable(name);
    if (found.isEmpty())
        found = QStandardPaths::findExecutable(name,
                                               {u"/usr/local/sbin"_s, u"/usr/sbin"_s, u"/sbin"_s,
                                                u"/usr/local/bin"_s, u"/usr/bin"_s, u"/bin"_s});
    return found;
}

QString firstLine(const QString &text)
{
    return text.trimmed().section(u'\n', 0, 0).trimmed();
}

QString confFix()
{
    return u"use a containers.conf with runtime = runc and lower default_ulimits:\n%1\n"
           "and export CONTAINERS_CONF=<that file> (`cardhour-sim doctor --fix PATH` writes it)"_s
               .arg(Doctor::recommendedContainersConf().trimmed());
}

void checkPodman(Context &context)
{
    const QString &podman = context.options.podman;
    const Proc version =
        context.run(podman, {u"--version"_s}, std::min(context.options.timeoutMs, 15000));
    context.podmanOk = version.ok();
    if (context.podmanOk)
        context.add(u"podman"_s, S::Ok, firstLine(version.out));
    else
        context.add(u"podman"_s, S::Problem,
                    u"podman does not run (%1): %2"_s.arg(podman, version.why()),
                    u"install podman (apt-get install podman), or give its path with --podman"_s);
}

void checkContainersConf(Context &context)
{
    const QString &path = context.options.containersConf;
    if (path.isEmpty()) {
        context.add(u"containers.conf"_s, S::Ok,
                    u"none given (CONTAINERS_CONF unset): podman's own configuration"_s);
        return;
    }
    QFile conf(path);
    if (!conf.open(QIODevice::ReadOnly | QIODevice::Text)) {
        context.add(
            u"containers.conf"_s, S::Problem,
            u"CONTAINERS_CONF=%1 cannot be read: %2"_s.arg(path, conf.errorString()),
            u"point CONTAINERS_CONF at an existing file, e.g. one written by `cardhour-sim doctor --fix PATH`"_s);
        return;
    }
    const QString content = QString::fromUtf8(conf.readAll());
    const QString confRuntime = confValue(content, u"runtime"_s);
    context.confUlimits = confValue(content, u"default_ulimits"_s);
    context.add(u"containers.conf"_s, S::Ok,
                u"%1 (runtime %2, default_ulimits %3)"_s.arg(
                    path, confRuntime.isEmpty() ? u"not set"_s : confRuntime,
                    context.confUlimits.isEmpty() ? u"not set"_s : context.confUlimits));
}

void checkPodmanInfo(Context &context)
{
    if (!context.podmanOk) {
        for (const QString &name : {u"oci runtime"_s, u"cgroups"_s, u"rootless"_s})
            context.add(name, S::Skipped, u"podman does not run"_s);
        return;
    }
    const Proc info = context.runPodman({u"info"_s, u"--format"_s, u"json"_s});
    const QJsonDocument doc = QJsonDocument::fromJson(info.out.toUtf8());
    if (!info.ok() || !doc.isObject()) {
        const QString fix = context.runcPath.isEmpty()
            ? u"install an OCI runtime (apt-get install runc) and check podman's configuration"_s
            : confFix();
        context.add(
            u"oci runtime"_s, S::Problem,
            u"`podman info` failed: %1"_s.arg(info.ok() ? u"printed no JSON"_s : info.why()), fix);
        context.add(u"cgroups"_s, S::Skipped, u"podman info failed"_s);
        context.add(u"rootless"_s, S::Skipped, u"podman info failed"_s);
        return;
    }
    context.infoOk = true;
    const QJsonObject host = doc.object().value(u"host"_s).toObject();
    addOciRuntime(context, host);
    const QString cgroupVersion = host.value(u"cgroupVersion"_s).toString();
    addCgroups(context, cgroupVersion, host.value(u"cgroupManager"_s).toString());
    addRootless(context, doc.object(), cgroupVersion);
}

void checkContainerStart(Context &context)
{
    if (!context.podmanOk || !context.infoOk) {
        context.add(u"container start"_s, S::Skipped, u"podman does not work (see above)"_s);
        return;
    }
    const QString image = imageToStart(context);
    if (image.isEmpty()) {
        context.add(u"container start"_s, S::Skipped,
                    u"no local image to try (%1base:latest or %1debian:bookworm)"_s.arg(
                        context.options.tagPrefix),
                    u"cardhour-sim images build base"_s);
        return;
    }
    const QStringList runArgs{u"run"_s, u"--rm"_s, u"--pull=never"_s, u"--network=none"_s,
                              image,    u"true"_s};
    const Proc first = context.runPodman(runArgs);
    const QString &runtimeName = context.runtimeName;
    if (first.ok()) {
        context.add(
            u"container start"_s, S::Ok,
            u"%1 started with %2"_s.arg(image, runtimeName.isEmpty() ? u"podman"_s : runtimeName));
        return;
    }
    addStartFailure(
        context, runArgs,
        u"`podman run %1 true` failed with %2: %3"_s.arg(image, runtimeName, first.why()));
}

void checkImages(Context &context)
{
    if (!context.podmanOk || !context.infoOk) {
        context.add(u"images"_s, S::Skipped, u"podman does not work (see above)"_s);
        return;
    }
    QStringList present, missing;
    for (const QString &id : std::as_const(context.options.imageIds))
        (context.imageExists(context.options.tagPrefix + id + u":latest"_s) ? present : missing)
            .append(id);
    const QString detail =
        u"present: %1; missing: %2"_s.arg(present.isEmpty() ? u"none"_s : present.join(u", "_s),
                                          missing.isEmpty() ? u"none"_s : missing.join(u", "_s));
    if (missing.isEmpty())
        context.add(u"images"_s, S::Ok, detail);
    else
        context.add(u"images"_s, S::Warning, detail,
                    u"cardhour-sim images build "_s + missing.join(u' '));
}

} // namespace cardhour::sim::doctor
