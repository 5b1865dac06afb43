#include "BoxUserNamespace.h"

#include <QDebug>
#include <QFile>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim::userns {

bool mapsBoxes(cli::Engine engine)
{
#ifdef Q_OS_LINUX
    return engine == cli::Engine::Podman && ::geteuid() == 0;
#else
    Q_UNUSED(engine);
    return false; // the engine's boxes live in a VM of its own
#endif
}

QStringList runArgs(unsigned hostRoot)
{
    const QString map = u"0:%1:%2"_s.arg(hostRoot).arg(kSize);
    return {u"--uidmap"_s, map, u"--gidmap"_s, map};
}

bool giveTo(const QString &path, unsigned uid, unsigned gid, QString *error)
{
#ifdef Q_OS_UNIX
    const QByteArray name = QFile::encodeName(path);
    struct stat info = {};
    if (::lstat(name.constData(), &info) == 0 && info.st_uid == uid && info.st_gid == gid)
        return true;
    if (::lchown(name.constData(), uid, gid) == 0)
        return true;
    *error = u"cannot give %1 to %2:%3: %4"_s.arg(path).arg(uid).arg(gid).arg(
        QString::fromLocal8Bit(std::strerror(errno)));
    return false;
#else
    Q_UNUSED(path);
    Q_UNUSED(uid);
    Q_UNUSED(gid);
    Q_UNUSED(error);
    return true;
#endif
}

void shareWithBoxes(const QString &path)
{
#ifdef Q_OS_LINUX
    if (::geteuid() != 0)
        return;
    const QByteArray name = QFile::encodeName(path);
    struct stat info = {};
    if (::lstat(name.constData(), &info) != 0 || S_ISLNK(info.st_mode))
        return;
    const mode_t read = S_ISDIR(info.st_mode) ? (S_IRGRP | S_IXGRP) : S_IRGRP;
    if (::lchown(name.constData(), uid_t(-1), kHostRoot) != 0
        || ::chmod(name.constData(), (info.st_mode & 07777 & ~S_IWGRP) | read) != 0)
        qWarning().noquote() << "cardhour-sim: boxes may not read" << path << ':'
                             << QString::fromLocal8Bit(std::strerror(errno));
#else
    Q_UNUSED(path);
#endif
}

} // namespace cardhour::sim::userns
