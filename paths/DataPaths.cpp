#include "DataPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour {

namespace {

// A program that finds the migration lock taken waits this long for the other one to finish.
constexpr int kMigrationLockWaitMs = 10000;

// A real folder, not the link migrateOldLayout() leaves at an old place.
bool isRealDir(const QString &path)
{
    const QFileInfo info(path);
    return info.isDir() && !info.isSymLink();
}

// Exists, or is a link (even a dangling one): either way the place is taken.
bool isTaken(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() || info.isSymLink();
}

// The new place, except while only the old one exists (see sandboxDataDir()). The old place is
// looked at only when the new one is missing, which after the first start is never.
template<typename OldPath>
QString newOrOld(const QString &newPath, OldPath oldPath)
{
    if (isTaken(newPath))
        return newPath;
    const QString old = oldPath();
    return isRealDir(old) ? old : newPath;
}

// What QStandardPaths::AppDataLocation was for an application of organization "CardHour" before
// issue 12.
QString oldAppDataLocation(const QString &applicationName)
{
#ifdef Q_OS_WIN
    // Under Roaming, not under the generic (Local) data folder: switching the names for a moment
    // is the one way to ask Qt (at start, on the main thread, as migrateOldLayout() is called).
    const QString organization = QCoreApplication::organizationName();
    const QString application = QCoreApplication::applicationName();
    QCoreApplication::setOrganizationName(u"CardHour"_s);
    QCoreApplication::setApplicationName(applicationName);
    const QString location = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QCoreApplication::setOrganizationName(organization);
    QCoreApplication::setApplicationName(application);
    return location;
#else
    // Unix and macOS: the generic data location + organization + application, as Qt builds it.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(u"CardHour/"_s + applicationName);
#endif
}

// A live cardhour-sim holds <dir>/cardhour-sim.lock. A stale time of 0, as the provider sets it,
// means "stale only when its process is gone", so a crashed provider's lock does not count.
bool heldByLiveProvider(const QString &dir, qint64 *pid, QString *problem)
{
    QLockFile lock(QDir(dir).filePath(u"cardhour-sim.lock"_s));
    lock.setStaleLockTime(0);
    if (lock.tryLock(0)) {
        lock.unlock(); // removes the file again, so it does not travel with the folder
        return false;
    }
    if (lock.error() == QLockFile::LockFailedError) {
        QString host, application;
        lock.getLockInfo(pid, &host, &application);
    } else {
        *problem = u"its lock file cannot be checked"_s;
    }
    return true;
}

// On Unix, a link at the old place to the new one: paths written before the move (keys.json,
// the user's ~/.ssh/config blocks, bind mounts of stopped containers) still resolve.
void leaveLinkAtOldPlace(const QString &oldPath, const QString &newPath)
{
#ifdef Q_OS_UNIX
    const QString target = QFileInfo(newPath).absoluteFilePath();
    [[maybe_unused]] const int linked =
        ::symlink(QFile::encodeName(target).constData(), QFile::encodeName(oldPath).constData());
#else
    // No link without privileges on Windows: remove the emptied old parent instead.
    QDir().rmdir(QFileInfo(oldPath).absolutePath());
    Q_UNUSED(newPath);
#endif
}

} // namespace

QString DataPaths::rootDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(u"CardHour"_s);
}

QString DataPaths::clientDataDir()
{
    return rootDir();
}

QString DataPaths::sshKeyDir()
{
    return newOrOld(QDir(clientDataDir()).filePath(u"ssh"_s), &DataPaths::oldSshKeyDir);
}

QString DataPaths::knownHostsPath()
{
    return QDir(sshKeyDir()).filePath(u"known_hosts"_s);
}

QString DataPaths::sandboxDataDir()
{
    return newOrOld(QDir(rootDir()).filePath(u"sandbox"_s), &DataPaths::oldSandboxDataDir);
}

QString DataPaths::oldSshKeyDir()
{
    return QDir(oldAppDataLocation(u"CardHour"_s)).filePath(u"ssh"_s);
}

QString DataPaths::oldSandboxDataDir()
{
    return QDir(oldAppDataLocation(u"cardhour-sim"_s)).filePath(u"sandbox"_s);
}

QStringList DataPaths::migrateOldLayout()
{
    struct Move
    {
        QString what;
        QString from;
        QString to;
        bool providerState;
    };
    const QList<Move> moves{
        {u"the client's SSH folder"_s, oldSshKeyDir(), QDir(clientDataDir()).filePath(u"ssh"_s),
         false},
        {u"the sandbox's data"_s, oldSandboxDataDir(), QDir(rootDir()).filePath(u"sandbox"_s),
         true},
    };
    QStringList notes;
    if (std::none_of(moves.cbegin(), moves.cend(),
                     [](const Move &move) { return isRealDir(move.from); }))
        return notes; // the usual case: nothing is touched, nothing is created

    // The client and the cardhour-sim it starts may both get here: one moves, the other waits.
    QDir().mkpath(rootDir());
    QLockFile migrationLock(QDir(rootDir()).filePath(u".migration.lock"_s));
    if (!migrationLock.tryLock(kMigrationLockWaitMs)) {
        notes << u"another CardHour program is moving the old folders; left them as they are"_s;
        return notes;
    }
    for (const Move &move : moves) {
        if (!isRealDir(move.from))
            continue;
        const QString from = QDir::toNativeSeparators(move.from);
        const QString to = QDir::toNativeSeparators(move.to);
        if (isTaken(move.to)) {
            notes << u"left %1 in %2 where it is: %3 exists already and is the one used (nothing "
                     "was overwritten; remove the old folder once you no longer need it)"_s.arg(
                         move.what, from, to);
            if (move.providerState)
                notes << u"its datasets: cardhour-sim datasets list --data %1"_s.arg(from);
            continue;
        }
        qint64 pid = 0;
        QString problem;
        if (move.providerState && heldByLiveProvider(move.from, &pid, &problem)) {
            notes << (problem.isEmpty()
                          ? u"%1 stays in %2 and is used there: a running cardhour-sim (pid %3) "
                            "holds it; the first start after it stops moves it to %4"_s
                                .arg(move.what, from)
                                .arg(pid)
                                .arg(to)
                          : u"%1 stays in %2 and is used there: %3"_s.arg(move.what, from,
                                                                          problem));
            continue;
        }
        QString error;
        if (!moveDir(move.from, move.to, &error)) {
            notes << u"could not move %1 from %2 to %3 (%4); it is used where it is"_s.arg(
                move.what, from, to, error);
            continue;
        }
        leaveLinkAtOldPlace(move.from, move.to);
        notes << u"moved %1 from %2 to %3"_s.arg(move.what, from, to);
    }
    return notes;
}

bool DataPaths::moveDir(const QString &from, const QString &to, QString *error)
{
    if (isTaken(to)) {
        *error = u"%1 exists already"_s.arg(to);
        return false;
    }
    const QString parent = QFileInfo(to).absolutePath();
    if (!QDir().mkpath(parent)) {
        *error = u"cannot create %1"_s.arg(parent);
        return false;
    }
    if (QDir().rename(from, to))
        return true;
    // Another file system, most likely. The copy goes to a sibling first and is renamed into
    // place when whole, so a half copy never looks like the new folder.
    const QString partial = to + u".partial"_s;
    QDir(partial).removeRecursively();
    if (!copyDirTree(from, partial, error) || !QDir().rename(partial, to)) {
        if (error->isEmpty())
            *error = u"cannot rename %1 to %2"_s.arg(partial, to);
        QDir(partial).removeRecursively();
        return false;
    }
    if (!QDir(from).removeRecursively())
        *error = u"copied, but %1 could not be removed entirely"_s.arg(from);
    return true;
}

bool DataPaths::copyDirTree(const QString &from, const QString &to, QString *error)
{
    if (!QDir().mkpath(to)) {
        *error = u"cannot create %1"_s.arg(to);
        return false;
    }
    const QFileInfoList entries = QDir(from).entryInfoList(QDir::AllEntries | QDir::Hidden
                                                           | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : entries) {
        const QString target = QDir(to).filePath(entry.fileName());
        if (entry.isSymLink()) {
            if (!QFile::link(entry.symLinkTarget(), target)) {
                *error = u"cannot recreate the link %1"_s.arg(target);
                return false;
            }
            continue;
        }
        if (entry.isDir()) {
            if (!copyDirTree(entry.filePath(), target, error))
                return false;
            continue;
        }
        if (!entry.isFile())
            continue; // sockets and the like mean nothing once their process is gone
        // QFile::copy writes through an owner-only temporary file: a private key is never
        // readable by others on the way, and gets its own permissions back below.
        if (!QFile::copy(entry.filePath(), target)
            || !QFile::setPermissions(target, entry.permissions())) {
            *error = u"cannot copy %1 to %2"_s.arg(entry.filePath(), target);
            return false;
        }
    }
    QFile::setPermissions(to, QFileInfo(from).permissions());
    return true;
}

} // namespace cardhour
