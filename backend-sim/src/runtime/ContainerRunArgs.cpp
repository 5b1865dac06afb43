#include "ContainerRunArgs.h"

#include "BoxGpuEnvironment.h"
#include "BoxNames.h"
#include "InstanceFiles.h"
#include "NoticeFiles.h"

#include <QDateTime>
#include <QDir>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// -v arguments of the host folders mounted read-only: the ssh dir, datasets, models, and the
// simulated cards' status (real cards come in through the engine instead).
QStringList readOnlyMounts(const InstanceSpec &spec, const ContainerRunArgs::Settings &settings)
{
    const QString relabel = settings.selinux ? u",z"_s : QString();
    QStringList args{u"-v"_s, spec.sshDir + u":/etc/cardhour/ssh:ro"_s + relabel};
    for (const auto &[name, folder] : spec.datasets)
        args << u"-v"_s << folder + u":/datasets/"_s + name + u":ro"_s + relabel;
    for (const auto &[name, folder] : spec.models)
        args << u"-v"_s << folder + u":/models/"_s + name + u":ro"_s + relabel;
    // What the provider announces to the box (an interruption's deadline), for jobs to poll.
    const QString noticeDir = notices::hostDirFor(settings.dataDir, spec.instanceId);
    if (!noticeDir.isEmpty() && QDir().mkpath(noticeDir))
        args << u"-v"_s << noticeDir + u":/run/cardhour/notices:ro"_s + relabel;
    if (spec.realGpus)
        return args;
    // Simulated GPUs: the provider's live numbers for the box's nvidia-smi (Telemetry).
    const QString gpuDir = spec.gpuStatusDir.isEmpty() && !settings.dataDir.isEmpty()
        ? InstanceFiles::instanceDirFor(settings.dataDir, spec.instanceId) + u"/gpu"_s
        : spec.gpuStatusDir;
    if (!gpuDir.isEmpty() && QDir().mkpath(gpuDir)) {
        // The cards this box is given, listed by its nvidia-smi from its first second (the
        // hardware check reads them before the live numbers start).
        QSaveFile status(gpuDir + u"/status.json"_s);
        if (status.open(QIODevice::WriteOnly)) {
            status.write(initialGpuStatus(spec, QDateTime::currentMSecsSinceEpoch()));
            status.commit();
        }
        args << u"-v"_s << gpuDir + u":/run/cardhour/gpu:ro"_s + relabel;
    }
    return args;
}

QStringList limitArgs(const InstanceSpec &spec)
{
    QStringList args;
    if (spec.cpus > 0)
        args << u"--cpus"_s << QString::number(spec.cpus, 'g', 6);
    if (spec.memoryMib > 0)
        args << u"--memory"_s << QString::number(spec.memoryMib) + u'm';
    if (spec.pidsLimit > 0)
        args << u"--pids-limit"_s << QString::number(spec.pidsLimit);
    return args;
}

// Box root keeps only what sshd, apt and a user's own services need: chown and file modes,
// setuid/setgid (sshd's privilege separation, apt's _apt user), chroot (sshd), binding port 22,
// signals. Gone: raw sockets (forged packets on the box's network), mknod, file capabilities,
// and no program gains privileges through setuid bits or file capabilities.
QStringList capabilityArgs()
{
    QStringList args{u"--cap-drop"_s, u"ALL"_s};
    // One flag each: docker's command line takes no comma list here (podman's does).
    for (const QString &kept : {u"CHOWN"_s, u"DAC_OVERRIDE"_s, u"FOWNER"_s, u"FSETID"_s, u"KILL"_s,
                                u"NET_BIND_SERVICE"_s, u"SETGID"_s, u"SETUID"_s, u"SYS_CHROOT"_s})
        args << u"--cap-add"_s << kept;
    return args << u"--security-opt"_s << u"no-new-privileges"_s;
}

} // namespace

ContainerRunArgs ContainerRunArgs::forSpec(const InstanceSpec &spec, int sshPort,
                                           const Settings &settings)
{
    const QString id = spec.instanceId;
    ContainerRunArgs run;
    QStringList &args = run.args;
    // `run -d` is create + start in one process: each podman process costs ~0.1-0.3 s here.
    args << u"run"_s << u"-d"_s << u"--name"_s << box::containerName(id);
    args << box::ownerLabels(id, spec.ownerId, settings.providerId) << u"--label"_s
         << box::kDiskGibLabel + u'=' + QString::number(spec.diskGib);
    args << u"--hostname"_s << box::hostnameFor(id) << u"--pull=never"_s;
    if (!settings.network.isEmpty())
        args << u"--network"_s << settings.network;
    // Only sshd is published. One-click apps listen on the box's own loopback and are reached
    // through an SSH forward: a published port would serve them to every user of the host.
    args << u"-p"_s << u"%1:%2:%3"_s.arg(box::kLoopback).arg(sshPort).arg(box::kSshPort);
    args << u"-v"_s << box::volumeName(id) + u":/workspace"_s;
    args << readOnlyMounts(spec, settings);
    // Real cards: the devices and driver come in through the engine; without a status file
    // the image's nvidia-smi hands over to the real one.
    if (spec.realGpus)
        args << cli::gpuDeviceArgs(settings.engine, spec.gpuCards);
    args << limitArgs(spec);
    args << capabilityArgs();
    // The cards' variables go to PID 1; the entrypoint hands them to every ssh session.
    for (const auto &[name, value] : boxGpuEnvironment(spec))
        args << u"-e"_s << name + u'=' + value;
    const QString image = spec.snapshotId.isEmpty()
        ? settings.imagePrefix + spec.image + u":latest"_s
        : box::snapshotImage(spec.snapshotId);
    // PID 1 from the provider's read-only folder (it reads the app token from there, so the
    // token is in no environment or command line on the host and changes with every start).
    args << u"--stop-timeout"_s << QString::number(settings.stopTimeoutS) << image
         << InstanceFiles::boxEntrypoint();
    return run;
}

} // namespace cardhour::sim
