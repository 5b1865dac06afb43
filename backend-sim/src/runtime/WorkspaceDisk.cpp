#include "WorkspaceDisk.h"

#include "InstanceFiles.h"
#include "Process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif
#ifdef Q_OS_LINUX
#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
const QString kMechanismDetail =
    u"/workspace is an ext4 file system of the instance's disk_gib on a loop device: a write "
    "beyond it fails with ENOSPC inside the box. The container's own disk (its writable layer "
    "outside /workspace) cannot be bounded so (overlay on %1 has no project quota): it is "
    "measured every 20 s and the instance is stopped (state_reason disk_full, its data kept) "
    "once it holds more than disk_gib."_s;
} // namespace

QString WorkspaceDisk::hostUnavailableReason()
{
#ifdef Q_OS_UNIX
    if (geteuid() != 0)
        return u"loop-mounting an ext4 image per instance needs podman as root"_s;
#endif
    if (!QFileInfo::exists(u"/dev/loop-control"_s))
        return u"this host has no loop devices (/dev/loop-control)"_s;
    if (mkfsProgram().isEmpty())
        return u"mkfs.ext4 (e2fsprogs) is not installed"_s;
    return {};
}

QString WorkspaceDisk::unavailableReason(cli::Engine engine, const QString &dataDir)
{
    if (engine != cli::Engine::Podman)
        return u"per-instance disks need the podman runtime"_s;
    if (dataDir.isEmpty())
        return u"per-instance disks need a data directory for their images"_s;
    return hostUnavailableReason();
}

DiskQuota WorkspaceDisk::probe(cli::Engine engine, const QString &dataDir)
{
    DiskQuota quota;
    if (const QString why = unavailableReason(engine, dataDir); !why.isEmpty()) {
        quota.detail = u"The disk is not bounded: %1."_s.arg(why);
        return quota;
    }
    quota.mechanism = u"loop-ext4"_s;
    QString graphFs = u"this host's file system"_s;
    QFile mounts(u"/proc/self/mounts"_s);
    if (mounts.open(QIODevice::ReadOnly)) {
        // The file system under /var/lib/containers: the longest mount point above it.
        qsizetype best = -1;
        for (const QByteArray &line : mounts.readAll().split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() < 3)
                continue;
            const QString point = QString::fromUtf8(f.at(1));
            const QString under = point.endsWith(u'/') ? point : point + u'/';
            if ((u"/var/lib/containers/"_s.startsWith(under)) && point.size() > best) {
                best = point.size();
                graphFs = QString::fromUtf8(f.at(2));
            }
        }
    }
    quota.detail = kMechanismDetail.arg(graphFs);
    return quota;
}

QString WorkspaceDisk::imagePath(const QString &dataDir, const QString &instanceId)
{
    return InstanceFiles::instanceDirFor(dataDir, instanceId) + u"/workspace.ext4"_s;
}

bool WorkspaceDisk::allocate(const QString &path, qint64 gib, QString *error)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = u"cannot create %1"_s.arg(QFileInfo(path).absolutePath());
        return false;
    }
    QFile image(path);
    if (!image.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !image.setPermissions(QFile::ReadOwner | QFile::WriteOwner)
        || !image.resize(gib * 1024 * 1024 * 1024)) {
        *error =
            u"cannot make the %1 GiB disk image %2: %3"_s.arg(gib).arg(path, image.errorString());
        image.close();
        QFile::remove(path);
        return false;
    }
    return true;
}

QString WorkspaceDisk::mkfsProgram()
{
    const QStringList where{u"/usr/sbin"_s, u"/sbin"_s, u"/usr/bin"_s, u"/bin"_s};
    const QString found = QStandardPaths::findExecutable(u"mkfs.ext4"_s);
    return found.isEmpty() ? QStandardPaths::findExecutable(u"mkfs.ext4"_s, where) : found;
}

QStringList WorkspaceDisk::mkfsArgs(const QString &path)
{
    // No blocks reserved for root (the box's user is root anyway); lazy init keeps a 50 GiB
    // image at a few MiB until written.
    return {u"-q"_s, u"-F"_s, u"-m"_s,
            u"0"_s,  u"-E"_s, u"root_owner=0:0,lazy_itable_init=1,lazy_journal_init=1"_s,
            path};
}

void WorkspaceDisk::format(QObject *context, const QString &path, qint64 gib, int timeoutMs,
                           std::function<void(const QString &error)> done)
{
    QString error;
    if (!allocate(path, gib, &error)) {
        QMetaObject::invokeMethod(
            context, [done = std::move(done), error] { done(error); }, Qt::QueuedConnection);
        return;
    }
    Process::Options options;
    options.timeoutMs = timeoutMs;
    options.mergeChannels = true;
    Process::start(context, mkfsProgram(), mkfsArgs(path), options,
                   [path, done = std::move(done)](const ProcessResult &mkfs) {
                       if (mkfs.ok())
                           return done({});
                       // Not left half made: the next attempt makes it anew.
                       QFile::remove(path);
                       if (!mkfs.started)
                           return done(u"mkfs.ext4: could not be run (%1)"_s.arg(mkfs.startError));
                       const QString detail = cli::tail(mkfs.out);
                       if (mkfs.timedOut)
                           return done(u"mkfs.ext4 timed out: %1"_s.arg(detail));
                       done(u"mkfs.ext4 failed (exit %1)%2"_s.arg(mkfs.exitCode)
                                .arg(detail.isEmpty() ? QString() : u": "_s + detail));
                   });
}

QStringList WorkspaceDisk::volumeOptions(const QString &path)
{
    // nosuid,nodev: root in a box may make device nodes or setuid files on its disk; mounted
    // on the host they must stay inert for whoever reaches the mount point there.
    return {u"--opt"_s,          u"type=ext4"_s, u"--opt"_s,
            u"device="_s + path, u"--opt"_s,     u"o=loop,nosuid,nodev"_s};
}

QStringList WorkspaceDisk::volumeMountPoints(const QByteArray &mountinfo, const QString &volume)
{
    // Field 5 of a mountinfo line is the mount point, spaces and the like written as \ooo;
    // a volume name has none of them, so the suffix is compared as written.
    QStringList points;
    if (volume.isEmpty() || volume.contains(u'/') || volume.startsWith(u'.'))
        return points;
    const QByteArray suffix = "/volumes/" + volume.toUtf8() + "/_data";
    for (const QByteArray &line : mountinfo.split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() > 4 && fields.at(4).endsWith(suffix))
            points << QString::fromUtf8(fields.at(4));
    }
    return points;
}

int WorkspaceDisk::releaseLostMounts(const QString &volume, QString *error)
{
#ifdef Q_OS_LINUX
    QFile file(u"/proc/self/mountinfo"_s);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read /proc/self/mountinfo: "_s + file.errorString();
        return 0;
    }
    const QStringList points = volumeMountPoints(file.readAll(), volume);
    int released = 0;
    // Innermost first: a second mount on the same folder hides the first.
    for (auto point = points.crbegin(); point != points.crend(); ++point) {
        if (::umount2(QFile::encodeName(*point).constData(), 0) == 0) {
            ++released;
            continue;
        }
        *error =
            u"cannot unmount %1: %2"_s.arg(*point, QString::fromLocal8Bit(std::strerror(errno)));
        break;
    }
    return released;
#else
    Q_UNUSED(volume);
    Q_UNUSED(error);
    return 0;
#endif
}

} // namespace cardhour::sim
