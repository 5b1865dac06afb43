#include "runtime/DoctorChecks.h"
#include "runtime/HostPlatform.h"
#include "runtime/WorkspaceDisk.h"

#include <QFileInfo>
#include <QHostAddress>
#include <QTcpServer>

#include <optional>

using namespace Qt::StringLiterals;

// Doctor's checks of the host around podman: limits, OCI runtimes and helpers installed, GPUs,
// whether disks can be bounded, and the loopback the instances' ports are published on.

namespace cardhour::sim::doctor {

namespace {

using S = DoctorCheck::Status;

constexpr quint64 kWantedLimit = 4096;
constexpr quint64 kPodmanRootfulNofile = 1048576; // podman's default nofile for rootful containers

QString limitText(const std::optional<quint64> &value)
{
    if (!value)
        return u"?"_s;
    return *value == platform::kUnlimited ? u"unlimited"_s : QString::number(*value);
}

QString versionOf(const Context &context, const QString &path)
{
    const Proc p = context.run(path, {u"--version"_s}, 10000);
    return p.ok() ? firstLine(p.out) : u"version unknown"_s;
}

// The GPUs nvidia-smi lists, one "name, memory" line each; *ran tells whether it answered.
QStringList listGpus(const Context &context, const QString &smi, Proc *ran)
{
    *ran =
        context.run(smi, {u"--query-gpu=name,memory.total"_s, u"--format=csv,noheader"_s}, 20000);
    QStringList gpus;
    if (!ran->ok())
        return gpus;
    const QStringList lines = ran->out.split(u'\n', Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (!line.trimmed().isEmpty())
            gpus.append(line.trimmed());
    }
    return gpus;
}

void checkCdi(Context &context)
{
    if (!context.haveGpu) {
        context.add(u"cdi"_s, S::Skipped, u"no GPU"_s);
        return;
    }
    for (const QString &candidate : {u"/etc/cdi/nvidia.yaml"_s, u"/var/run/cdi/nvidia.yaml"_s}) {
        if (QFileInfo::exists(candidate)) {
            context.add(u"cdi"_s, S::Ok, u"NVIDIA CDI spec %1"_s.arg(candidate));
            return;
        }
    }
    context.add(
        u"cdi"_s, S::Warning,
        u"no NVIDIA CDI spec (/etc/cdi/nvidia.yaml, /var/run/cdi/nvidia.yaml): "
        "containers cannot get the GPU"_s,
        u"sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml (nvidia-container-toolkit)"_s);
}

} // namespace

void checkRlimits(Context &context)
{
    const platform::HardLimits limits = platform::hardLimits();
    const std::optional<quint64> &nofile = limits.openFiles;
    const std::optional<quint64> &nproc = limits.processes;
    const QString detail = u"hard nofile %1, nproc %2"_s.arg(limitText(nofile), limitText(nproc));
    if ((nofile && *nofile < kWantedLimit) || (nproc && *nproc < kWantedLimit)) {
        context.add(u"rlimits"_s, S::Warning, detail + u" (below 4096)"_s,
                    u"raise the hard limits (limits.conf, systemd LimitNOFILE/LimitNPROC), or set "
                    "default_ulimits in containers.conf below them"_s);
    } else if (!context.rootless && nofile && *nofile < kPodmanRootfulNofile
               && context.confUlimits.isEmpty()) {
        context.add(
            u"rlimits"_s, S::Warning,
            detail
                + u" (rootful podman raises nofile to 1048576 unless containers.conf says otherwise)"_s,
            u"set default_ulimits = [\"nofile=4096:4096\", \"nproc=4096:4096\"] in "
            u"containers.conf "
            "(`cardhour-sim doctor --fix PATH` writes one)"_s);
    } else {
        context.add(u"rlimits"_s, S::Ok, detail);
    }
}

void checkOciRuntimes(Context &context)
{
    if (!context.runcPath.isEmpty())
        context.add(u"runc"_s, S::Ok,
                    u"%1 (%2)"_s.arg(context.runcPath, versionOf(context, context.runcPath)));
    else
        context.add(u"runc"_s, S::Warning, u"not installed: no fallback where crun fails"_s,
                    u"apt-get install runc"_s);
    if (!context.crunPath.isEmpty())
        context.add(u"crun"_s, S::Ok,
                    u"%1 (%2)"_s.arg(context.crunPath, versionOf(context, context.crunPath)));
    else
        context.add(u"crun"_s, S::Skipped, u"not installed"_s);
}

// The instances' network (see CliRuntime::Options::network).
void checkSlirp4netns(Context &context)
{
    if (const QString slirp = findProgram(u"slirp4netns"_s); !slirp.isEmpty())
        context.add(u"slirp4netns"_s, S::Ok, u"%1 (%2)"_s.arg(slirp, versionOf(context, slirp)));
    else
        context.add(u"slirp4netns"_s, S::Problem,
                    u"not installed: instances cannot get a network"_s,
                    u"apt-get install slirp4netns"_s);
}

void checkDebootstrap(Context &context)
{
    if (const QString debootstrap = findProgram(u"debootstrap"_s); !debootstrap.isEmpty())
        context.add(u"debootstrap"_s, S::Ok, debootstrap);
    else
        context.add(u"debootstrap"_s, S::Warning,
                    u"not installed: images cannot be built without a registry"_s,
                    u"apt-get install debootstrap"_s);
}

void checkGpu(Context &context)
{
    if (const QString smi = findProgram(u"nvidia-smi"_s); smi.isEmpty()) {
        context.add(u"gpu"_s, S::Ok, u"no NVIDIA GPU: simulated cards only"_s);
    } else {
        Proc p;
        const QStringList gpus = listGpus(context, smi, &p);
        context.haveGpu = !gpus.isEmpty();
        if (context.haveGpu)
            context.add(u"gpu"_s, S::Ok,
                        u"%1 NVIDIA GPU(s): %2"_s.arg(gpus.size()).arg(gpus.join(u"; "_s)));
        else if (p.ok())
            context.add(u"gpu"_s, S::Ok, u"nvidia-smi lists no GPU: simulated cards only"_s);
        else
            context.add(u"gpu"_s, S::Warning,
                        u"nvidia-smi failed (%1): simulated cards only"_s.arg(p.why()),
                        u"check the NVIDIA driver (nvidia-smi)"_s);
    }
    checkCdi(context);
}

void checkDiskQuota(Context &context)
{
    const QString why = WorkspaceDisk::hostUnavailableReason();
    if (why.isEmpty())
        context.add(u"disk quota"_s, S::Ok,
                    u"loop-ext4: "_s + WorkspaceDisk::probe(cli::Engine::Podman, u"."_s).detail);
    else
        context.add(
            u"disk quota"_s, S::Warning,
            u"none: an instance's disk is not bounded (%1); one box can fill the host"_s.arg(why),
            u"run cardhour-sim as root on a host with loop devices and e2fsprogs"_s);
}

void checkLoopback(Context &context)
{
    QTcpServer server;
    if (server.listen(QHostAddress::LocalHost, 0))
        context.add(u"loopback"_s, S::Ok, u"127.0.0.1:%1 bound"_s.arg(server.serverPort()));
    else
        context.add(u"loopback"_s, S::Problem,
                    u"cannot bind 127.0.0.1:0: %1"_s.arg(server.errorString()),
                    u"bring up the loopback interface (ip link set lo up)"_s);
}

std::span<const Check> doctorChecks()
{
    static constexpr Check kChecks[] = {
        checkPodman,      checkContainersConf, checkPodmanInfo,  checkContainerStart, checkRlimits,
        checkOciRuntimes, checkSlirp4netns,    checkDebootstrap, checkImages,         checkGpu,
        checkDiskQuota,   checkLoopback,
    };
    return kChecks;
}

} // namespace cardhour::sim::doctor
