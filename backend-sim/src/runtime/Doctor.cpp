#include "runtime/Doctor.h"

#include "runtime/HostPlatform.h"
#include "runtime/Process.h"
#include "runtime/WorkspaceDisk.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr quint64 kWantedLimit = 4096;
constexpr quint64 kPodmanRootfulNofile = 1048576; // podman's default nofile for rootful containers

struct Proc
{
    bool started = false;
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;
    QString error; // could not start / timed out

    bool ok() const { return finished && exitCode == 0; }
    // Why it failed, in one short piece of text.
    QString why() const
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
};

Proc runProc(const QString &program, const QStringList &args, const QProcessEnvironment &env,
             int timeoutMs)
{
    Process::Options options;
    options.environment = env;
    options.timeoutMs = timeoutMs;
    const ProcessResult run = Process::run(program, args, options);
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

// Also in the sbin folders, which a normal user's PATH may lack.
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

QString limitText(const std::optional<quint64> &value)
{
    if (!value)
        return u"?"_s;
    return *value == platform::kUnlimited ? u"unlimited"_s : QString::number(*value);
}

// The value of `key = ...` in a containers.conf (TOML; good enough for the two keys we read).
QString confValue(const QString &content, const QString &key)
{
    const QRegularExpression re(
        u"^\\s*%1\\s*=\\s*(.+?)\\s*$"_s.arg(QRegularExpression::escape(key)),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = re.match(content);
    return match.hasMatch() ? match.captured(1) : QString();
}

DoctorCheck check(const QString &name, DoctorCheck::Status status, const QString &detail,
                  const QString &fix = {})
{
    return DoctorCheck{name, status, detail, fix};
}

QString confFix()
{
    return u"use a containers.conf with runtime = runc and lower default_ulimits:\n%1\n"
           "and export CONTAINERS_CONF=<that file> (`cardhour-sim doctor --fix PATH` writes it)"_s
               .arg(Doctor::recommendedContainersConf().trimmed());
}

} // namespace

QString DoctorCheck::statusName(Status status)
{
    switch (status) {
    case Ok:
        return u"ok"_s;
    case Warning:
        return u"warning"_s;
    case Problem:
        return u"problem"_s;
    case Skipped:
        return u"skipped"_s;
    }
    return u"unknown"_s;
}

Doctor::Doctor() : Doctor(Options{}) {}

Doctor::Doctor(Options options) : m_options(std::move(options))
{
    if (m_options.podman.isEmpty())
        m_options.podman = u"podman"_s;
}

QString Doctor::recommendedContainersConf()
{
    return u"[engine]\n"
           "runtime = \"runc\"\n"
           "\n"
           "[containers]\n"
           "default_ulimits = [\"nofile=4096:4096\", \"nproc=4096:4096\"]\n"_s;
}

bool Doctor::writeFix(const QString &path)
{
    m_error.clear();
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        m_error = u"cannot create %1"_s.arg(info.absolutePath());
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        m_error = u"%1: %2"_s.arg(path, file.errorString());
        return false;
    }
    const QByteArray content =
        "# containers.conf written by `cardhour-sim doctor --fix`: runc (crun fails on cgroup "
        "v1/hybrid\n"
        "# hosts) and modest default ulimits (some hosts do not allow raising the hard limits).\n"_ba
        + recommendedContainersConf().toUtf8();
    if (file.write(content) != content.size() || !file.commit()) {
        m_error = u"%1: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

QList<DoctorCheck> Doctor::run()
{
    using S = DoctorCheck::Status;
    QList<DoctorCheck> checks;
    const QString podman = m_options.podman;
    const QProcessEnvironment env =
        containersEnvironment(m_options.containersConf, InheritedConf::Drop);
    const int timeout = m_options.timeoutMs;
    const QString runcPath = findProgram(u"runc"_s);
    const QString crunPath = findProgram(u"crun"_s);

    // ---- podman ----
    const Proc version = runProc(podman, {u"--version"_s}, env, std::min(timeout, 15000));
    const bool podmanOk = version.ok();
    if (podmanOk)
        checks.append(check(u"podman"_s, S::Ok, firstLine(version.out)));
    else
        checks.append(check(
            u"podman"_s, S::Problem, u"podman does not run (%1): %2"_s.arg(podman, version.why()),
            u"install podman (apt-get install podman), or give its path with --podman"_s));

    // ---- containers.conf ----
    QString confRuntime, confUlimits;
    if (m_options.containersConf.isEmpty()) {
        checks.append(check(u"containers.conf"_s, S::Ok,
                            u"none given (CONTAINERS_CONF unset): podman's own configuration"_s));
    } else {
        QFile conf(m_options.containersConf);
        if (!conf.open(QIODevice::ReadOnly | QIODevice::Text)) {
            checks.append(check(
                u"containers.conf"_s, S::Problem,
                u"CONTAINERS_CONF=%1 cannot be read: %2"_s.arg(m_options.containersConf,
                                                               conf.errorString()),
                u"point CONTAINERS_CONF at an existing file, e.g. one written by `cardhour-sim doctor --fix PATH`"_s));
        } else {
            const QString content = QString::fromUtf8(conf.readAll());
            confRuntime = confValue(content, u"runtime"_s);
            confUlimits = confValue(content, u"default_ulimits"_s);
            checks.append(check(u"containers.conf"_s, S::Ok,
                                u"%1 (runtime %2, default_ulimits %3)"_s.arg(
                                    m_options.containersConf,
                                    confRuntime.isEmpty() ? u"not set"_s : confRuntime,
                                    confUlimits.isEmpty() ? u"not set"_s : confUlimits)));
        }
    }

    // ---- podman info ----
    QString runtimeName;
    bool rootless = !platform::runningAsRoot();
    bool infoOk = false;
    if (!podmanOk) {
        for (const QString &name : {u"oci runtime"_s, u"cgroups"_s, u"rootless"_s})
            checks.append(check(name, S::Skipped, u"podman does not run"_s));
    } else {
        const Proc info = runProc(podman, {u"info"_s, u"--format"_s, u"json"_s}, env, timeout);
        const QJsonDocument doc = QJsonDocument::fromJson(info.out.toUtf8());
        if (!info.ok() || !doc.isObject()) {
            const QString fix = runcPath.isEmpty()
                ? u"install an OCI runtime (apt-get install runc) and check podman's configuration"_s
                : confFix();
            checks.append(check(
                u"oci runtime"_s, S::Problem,
                u"`podman info` failed: %1"_s.arg(info.ok() ? u"printed no JSON"_s : info.why()),
                fix));
            checks.append(check(u"cgroups"_s, S::Skipped, u"podman info failed"_s));
            checks.append(check(u"rootless"_s, S::Skipped, u"podman info failed"_s));
        } else {
            infoOk = true;
            const QJsonObject host = doc.object().value(u"host"_s).toObject();
            const QJsonObject oci = host.value(u"ociRuntime"_s).toObject();
            runtimeName = oci.value(u"name"_s).toString();
            const QString path = oci.value(u"path"_s).toString();
            const QString runtimeVersion = firstLine(oci.value(u"version"_s).toString());
            if (!path.isEmpty() && !QFileInfo(path).isExecutable())
                checks.append(check(
                    u"oci runtime"_s, S::Problem, u"%1 at %2 is not there"_s.arg(runtimeName, path),
                    u"install %1, or select an installed runtime in containers.conf"_s.arg(
                        runtimeName)));
            else
                checks.append(check(u"oci runtime"_s, S::Ok,
                                    u"%1 (%2, %3)"_s.arg(runtimeName, path, runtimeVersion)));

            const QString cgroupVersion = host.value(u"cgroupVersion"_s).toString();
            const QString cgroupManager = host.value(u"cgroupManager"_s).toString();
            const QString cgroupDetail =
                u"cgroup %1, manager %2"_s.arg(cgroupVersion, cgroupManager);
            if (cgroupVersion == u"v1"_s && runtimeName == u"crun"_s)
                checks.append(check(
                    u"cgroups"_s, S::Warning,
                    cgroupDetail + u" (crun often fails on cgroup v1/hybrid hosts)"_s, confFix()));
            else
                checks.append(check(u"cgroups"_s, S::Ok, cgroupDetail));

            const QJsonObject security = host.value(u"security"_s).toObject();
            if (security.contains(u"rootless"_s))
                rootless = security.value(u"rootless"_s).toBool();
            const QString mode = rootless ? u"rootless (uid %1)"_s.arg(platform::userId())
                                          : u"rootful (running as root)"_s;
            const QString graphDriver =
                doc.object().value(u"store"_s).toObject().value(u"graphDriverName"_s).toString();
            if (rootless && !QFileInfo(u"/dev/net/tun"_s).isWritable())
                // slirp4netns opens it as the user: some hosts leave it 0600 root.
                checks.append(check(
                    u"rootless"_s, S::Problem,
                    mode
                        + u": /dev/net/tun is not usable by this user, so instances get no network"_s,
                    u"chmod 0666 /dev/net/tun (it is 0666 on most distributions), or run as root"_s));
            else if (rootless && cgroupVersion == u"v1"_s)
                checks.append(check(
                    u"rootless"_s, S::Warning,
                    mode + u" on cgroup v1: podman ignores CPU and memory limits"_s,
                    u"boot with cgroup v2 (systemd.unified_cgroup_hierarchy=1) for per-instance limits"_s));
            else if (rootless && graphDriver == u"vfs"_s)
                checks.append(check(
                    u"rootless"_s, S::Warning,
                    mode
                        + u" with the vfs storage driver: every container copies its whole image"_s,
                    u"apt-get install fuse-overlayfs, then podman system reset (removes images)"_s));
            else
                checks.append(check(u"rootless"_s, S::Ok, mode));
        }
    }

    // ---- container start ----
    auto imageExists = [&](const QString &reference) {
        return runProc(podman, {u"image"_s, u"exists"_s, reference}, env, timeout).ok();
    };
    if (!podmanOk || !infoOk) {
        checks.append(
            check(u"container start"_s, S::Skipped, u"podman does not work (see above)"_s));
    } else {
        QString image;
        for (const QString &candidate :
             {m_options.tagPrefix + u"base:latest"_s, m_options.tagPrefix + u"debian:bookworm"_s}) {
            if (imageExists(candidate)) {
                image = candidate;
                break;
            }
        }
        if (image.isEmpty()) {
            checks.append(check(u"container start"_s, S::Skipped,
                                u"no local image to try (%1base:latest or %1debian:bookworm)"_s.arg(
                                    m_options.tagPrefix),
                                u"cardhour-sim images build base"_s));
        } else {
            const QStringList runArgs{u"run"_s, u"--rm"_s, u"--pull=never"_s, u"--network=none"_s,
                                      image,    u"true"_s};
            const Proc first = runProc(podman, runArgs, env, timeout);
            if (first.ok()) {
                checks.append(check(u"container start"_s, S::Ok,
                                    u"%1 started with %2"_s.arg(
                                        image, runtimeName.isEmpty() ? u"podman"_s : runtimeName)));
            } else {
                const QString failed = u"`podman run %1 true` failed with %2: %3"_s.arg(
                    image, runtimeName, first.why());
                if (runcPath.isEmpty()) {
                    checks.append(
                        check(u"container start"_s, S::Problem, failed,
                              u"install runc (apt-get install runc), then "_s + confFix()));
                } else {
                    QTemporaryDir dir;
                    const QString confPath = dir.filePath(u"containers.conf"_s);
                    Proc second;
                    if (dir.isValid() && writeFix(confPath)) {
                        second =
                            runProc(podman, runArgs,
                                    containersEnvironment(confPath, InheritedConf::Drop), timeout);
                    } else {
                        second.error = m_error;
                    }
                    if (second.ok())
                        checks.append(
                            check(u"container start"_s, S::Problem,
                                  failed + u"; it starts with runc and default_ulimits 4096"_s,
                                  confFix()));
                    else
                        checks.append(check(
                            u"container start"_s, S::Problem,
                            failed + u"; with runc and default_ulimits 4096 it fails too: "_s
                                + second.why(),
                            u"see podman's error above; `podman --log-level=debug run ...` tells more"_s));
                }
            }
        }
    }

    // ---- rlimits ----
    {
        const platform::HardLimits limits = platform::hardLimits();
        const std::optional<quint64> &nofile = limits.openFiles;
        const std::optional<quint64> &nproc = limits.processes;
        const QString detail =
            u"hard nofile %1, nproc %2"_s.arg(limitText(nofile), limitText(nproc));
        if ((nofile && *nofile < kWantedLimit) || (nproc && *nproc < kWantedLimit)) {
            checks.append(check(
                u"rlimits"_s, S::Warning, detail + u" (below 4096)"_s,
                u"raise the hard limits (limits.conf, systemd LimitNOFILE/LimitNPROC), or set "
                "default_ulimits in containers.conf below them"_s));
        } else if (!rootless && nofile && *nofile < kPodmanRootfulNofile && confUlimits.isEmpty()) {
            checks.append(check(
                u"rlimits"_s, S::Warning,
                detail
                    + u" (rootful podman raises nofile to 1048576 unless containers.conf says otherwise)"_s,
                u"set default_ulimits = [\"nofile=4096:4096\", \"nproc=4096:4096\"] in "
                u"containers.conf "
                "(`cardhour-sim doctor --fix PATH` writes one)"_s));
        } else {
            checks.append(check(u"rlimits"_s, S::Ok, detail));
        }
    }

    // ---- runc, crun ----
    auto runtimeVersion = [&](const QString &path) {
        const Proc p = runProc(path, {u"--version"_s}, env, 10000);
        return p.ok() ? firstLine(p.out) : u"version unknown"_s;
    };
    if (!runcPath.isEmpty())
        checks.append(
            check(u"runc"_s, S::Ok, u"%1 (%2)"_s.arg(runcPath, runtimeVersion(runcPath))));
    else
        checks.append(check(u"runc"_s, S::Warning, u"not installed: no fallback where crun fails"_s,
                            u"apt-get install runc"_s));
    if (!crunPath.isEmpty())
        checks.append(
            check(u"crun"_s, S::Ok, u"%1 (%2)"_s.arg(crunPath, runtimeVersion(crunPath))));
    else
        checks.append(check(u"crun"_s, S::Skipped, u"not installed"_s));

    // ---- slirp4netns: instances' network (see CliRuntime::Options::network) ----
    if (const QString slirp = findProgram(u"slirp4netns"_s); !slirp.isEmpty())
        checks.append(
            check(u"slirp4netns"_s, S::Ok, u"%1 (%2)"_s.arg(slirp, runtimeVersion(slirp))));
    else
        checks.append(check(u"slirp4netns"_s, S::Problem,
                            u"not installed: instances cannot get a network"_s,
                            u"apt-get install slirp4netns"_s));

    // ---- debootstrap ----
    if (const QString debootstrap = findProgram(u"debootstrap"_s); !debootstrap.isEmpty())
        checks.append(check(u"debootstrap"_s, S::Ok, debootstrap));
    else
        checks.append(check(u"debootstrap"_s, S::Warning,
                            u"not installed: images cannot be built without a registry"_s,
                            u"apt-get install debootstrap"_s));

    // ---- images ----
    if (!podmanOk || !infoOk) {
        checks.append(check(u"images"_s, S::Skipped, u"podman does not work (see above)"_s));
    } else {
        QStringList present, missing;
        for (const QString &id : std::as_const(m_options.imageIds))
            (imageExists(m_options.tagPrefix + id + u":latest"_s) ? present : missing).append(id);
        const QString detail = u"present: %1; missing: %2"_s.arg(
            present.isEmpty() ? u"none"_s : present.join(u", "_s),
            missing.isEmpty() ? u"none"_s : missing.join(u", "_s));
        if (missing.isEmpty())
            checks.append(check(u"images"_s, S::Ok, detail));
        else
            checks.append(check(u"images"_s, S::Warning, detail,
                                u"cardhour-sim images build "_s + missing.join(u' ')));
    }

    // ---- GPUs ----
    bool haveGpu = false;
    if (const QString smi = findProgram(u"nvidia-smi"_s); smi.isEmpty()) {
        checks.append(check(u"gpu"_s, S::Ok, u"no NVIDIA GPU: simulated cards only"_s));
    } else {
        const Proc p = runProc(
            smi, {u"--query-gpu=name,memory.total"_s, u"--format=csv,noheader"_s}, env, 20000);
        QStringList gpus;
        if (p.ok()) {
            const QStringList lines = p.out.split(u'\n', Qt::SkipEmptyParts);
            for (const QString &line : lines) {
                if (!line.trimmed().isEmpty())
                    gpus.append(line.trimmed());
            }
        }
        haveGpu = !gpus.isEmpty();
        if (haveGpu)
            checks.append(
                check(u"gpu"_s, S::Ok,
                      u"%1 NVIDIA GPU(s): %2"_s.arg(gpus.size()).arg(gpus.join(u"; "_s))));
        else if (p.ok())
            checks.append(
                check(u"gpu"_s, S::Ok, u"nvidia-smi lists no GPU: simulated cards only"_s));
        else
            checks.append(check(u"gpu"_s, S::Warning,
                                u"nvidia-smi failed (%1): simulated cards only"_s.arg(p.why()),
                                u"check the NVIDIA driver (nvidia-smi)"_s));
    }
    if (!haveGpu) {
        checks.append(check(u"cdi"_s, S::Skipped, u"no GPU"_s));
    } else {
        QString spec;
        for (const QString &candidate :
             {u"/etc/cdi/nvidia.yaml"_s, u"/var/run/cdi/nvidia.yaml"_s}) {
            if (QFileInfo::exists(candidate)) {
                spec = candidate;
                break;
            }
        }
        if (!spec.isEmpty())
            checks.append(check(u"cdi"_s, S::Ok, u"NVIDIA CDI spec %1"_s.arg(spec)));
        else
            checks.append(check(
                u"cdi"_s, S::Warning,
                u"no NVIDIA CDI spec (/etc/cdi/nvidia.yaml, /var/run/cdi/nvidia.yaml): "
                "containers cannot get the GPU"_s,
                u"sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml (nvidia-container-toolkit)"_s));
    }

    // ---- disk quota ----
    {
        const QString why = WorkspaceDisk::hostUnavailableReason();
        if (why.isEmpty())
            checks.append(
                check(u"disk quota"_s, S::Ok,
                      u"loop-ext4: "_s + WorkspaceDisk::probe(cli::Engine::Podman, u"."_s).detail));
        else
            checks.append(check(
                u"disk quota"_s, S::Warning,
                u"none: an instance's disk is not bounded (%1); one box can fill the host"_s.arg(
                    why),
                u"run cardhour-sim as root on a host with loop devices and e2fsprogs"_s));
    }

    // ---- loopback ----
    {
        QTcpServer server;
        if (server.listen(QHostAddress::LocalHost, 0))
            checks.append(
                check(u"loopback"_s, S::Ok, u"127.0.0.1:%1 bound"_s.arg(server.serverPort())));
        else
            checks.append(check(u"loopback"_s, S::Problem,
                                u"cannot bind 127.0.0.1:0: %1"_s.arg(server.errorString()),
                                u"bring up the loopback interface (ip link set lo up)"_s));
    }

    return checks;
}

} // namespace cardhour::sim
