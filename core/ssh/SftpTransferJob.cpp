#include "ssh/SftpTransferJob.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <libssh/libssh.h>
#include <libssh/sftp.h>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

QString joinRemote(const QString &dir, const QString &name)
{
    return dir.endsWith(u'/') ? dir + name : dir + u'/' + name;
}

// A name for an error message: control characters shown as \xNN, so the message stays one line.
QString printableName(const QString &name)
{
    QString shown;
    for (const QChar c : name) {
        if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f))
            shown += u"\\x%1"_s.arg(uint(c.unicode()), 2, 16, QChar(u'0'));
        else
            shown += c;
    }
    return shown;
}

QString remoteBaseName(const QString &path)
{
    QString trimmed = path;
    while (trimmed.size() > 1 && trimmed.endsWith(u'/'))
        trimmed.chop(1);
    return trimmed.section(u'/', -1);
}

struct Attributes
{
    bool exists = false;
    bool directory = false;
    qint64 size = 0;
};

Attributes statRemote(sftp_session sftp, const QString &path)
{
    Attributes result;
    sftp_attributes attributes = sftp_stat(sftp, path.toUtf8().constData());
    if (!attributes)
        return result;
    result.exists = true;
    result.directory = attributes->type == SSH_FILEXFER_TYPE_DIRECTORY;
    result.size = qint64(attributes->size);
    sftp_attributes_free(attributes);
    return result;
}

} // namespace

SftpTransferJob::SftpTransferJob(const SshTarget &target, const std::atomic_bool &cancel,
                                 Progress progress)
    : m_connection(target), m_cancel(cancel), m_progress(std::move(progress))
{}

SftpTransferJob::~SftpTransferJob()
{
    if (m_sftp)
        sftp_free(m_sftp);
}

bool SftpTransferJob::fail(const QString &message)
{
    if (m_result.error.isEmpty())
        m_result.error = message;
    return false;
}

QString SftpTransferJob::sftpError() const
{
    const int code = m_sftp ? sftp_get_error(m_sftp) : 0;
    switch (code) {
    case SSH_FX_NO_SUCH_FILE:
        return tr("no such file or folder");
    case SSH_FX_PERMISSION_DENIED:
        return tr("permission denied");
    case SSH_FX_FAILURE:
        return tr("the server could not do it (is the disk full?)");
    default:
        return m_connection.libsshError();
    }
}

bool SftpTransferJob::open()
{
    m_clock.start();
    if (!m_connection.open())
        return fail(m_connection.errorMessage());
    m_sftp = sftp_new(m_connection.session());
    if (!m_sftp || sftp_init(m_sftp) != SSH_OK)
        return fail(
            tr("The instance's SFTP service did not start: %1").arg(m_connection.libsshError()));
    return true;
}

void SftpTransferJob::report(const QString &file, bool force)
{
    const qint64 now = m_clock.elapsed();
    if (!force && now - m_lastReportMs < 100)
        return;
    m_lastReportMs = now;
    const double speed = now > 0 ? m_result.bytesSent * 1000.0 / double(now) : 0.0;
    m_progress(m_done, m_result.bytesTotal, speed, file);
}

bool SftpTransferJob::hashLocalPrefix(const QString &path, qint64 length, QCryptographicHash *hash)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(tr("Could not read %1: %2").arg(path, file.errorString()));
    QByteArray buffer(SftpTransfer::kChunkBytes * 4, Qt::Uninitialized);
    qint64 left = length;
    while (left > 0) {
        if (cancelled())
            return false;
        const qint64 n = file.read(buffer.data(), std::min<qint64>(left, buffer.size()));
        if (n <= 0)
            return fail(tr("Could not read %1: %2").arg(path, file.errorString()));
        hash->addData(QByteArrayView(buffer.constData(), n));
        left -= n;
    }
    return true;
}

QString SftpTransferJob::remoteSha256(const QString &path)
{
    const SshConnection::ExecResult r =
        m_connection.exec(u"sha256sum -- "_s + SshConnection::shellQuote(path), {}, 30 * 60 * 1000);
    if (!r.ok || r.exitStatus != 0)
        return {};
    return QString::fromLatin1(r.out.left(64));
}

bool SftpTransferJob::verify(const QString &label, qint64 expectedSize, qint64 actualSize,
                             const QByteArray &localSha, const QString &remotePath)
{
    if (actualSize != expectedSize)
        return fail(tr("%1 is %2 bytes after the transfer instead of %3.")
                        .arg(label)
                        .arg(actualSize)
                        .arg(expectedSize));
    const QString remote = remoteSha256(remotePath);
    if (remote.isEmpty())
        return fail(tr("Could not compute the SHA-256 of %1 on the instance.").arg(remotePath));
    if (remote != QString::fromLatin1(localSha.toHex()))
        return fail(
            tr("The SHA-256 of %1 differs between this computer and the instance.").arg(label));
    return true;
}

bool SftpTransferJob::ensureRemoteDir(const QString &path)
{
    const Attributes a = statRemote(m_sftp, path);
    if (a.exists) {
        if (a.directory)
            return true;
        return fail(tr("%1 exists on the instance and is not a folder.").arg(path));
    }
    if (sftp_mkdir(m_sftp, path.toUtf8().constData(), 0755) != SSH_OK
        && sftp_get_error(m_sftp) != SSH_FX_FILE_ALREADY_EXISTS)
        return fail(
            tr("Could not create the folder %1 on the instance: %2").arg(path, sftpError()));
    return true;
}

SftpTransfer::Result SftpTransferJob::upload(const QString &localPath, const QString &remoteDir)
{
    const QFileInfo root(localPath);
    QList<Item> files;
    QStringList dirs;
    if (root.isDir()) {
        const QString top = joinRemote(remoteDir, root.fileName());
        dirs.append(top);
        const QDir base(root.absoluteFilePath());
        QDirIterator it(root.absoluteFilePath(),
                        QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo info(it.next());
            const QString remote = joinRemote(top, base.relativeFilePath(info.absoluteFilePath()));
            if (info.isDir())
                dirs.append(remote);
            else if (info.isFile() && !info.fileName().endsWith(SftpTransfer::partialSuffix()))
                files.append({info.absoluteFilePath(), remote, info.size()});
        }
    } else if (root.isFile()) {
        files.append(
            {root.absoluteFilePath(), joinRemote(remoteDir, root.fileName()), root.size()});
    } else {
        fail(tr("%1 does not exist.").arg(localPath));
        return m_result;
    }
    for (const Item &f : std::as_const(files))
        m_result.bytesTotal += f.size;

    if (open() && ensureRemoteDir(remoteDir)) {
        bool ok = true;
        for (const QString &dir : std::as_const(dirs))
            if (!(ok = ensureRemoteDir(dir)))
                break;
        for (int i = 0; ok && i < files.size(); ++i)
            ok = uploadFile(files.at(i));
        m_result.ok = ok && !cancelled();
    }
    m_result.cancelled = cancelled();
    m_result.elapsedMs = m_clock.elapsed();
    report(QString(), true);
    return m_result;
}

bool SftpTransferJob::uploadFile(const Item &item)
{
    const QString part = item.remote + SftpTransfer::partialSuffix();
    const qint64 doneBefore = m_done;
    for (int attempt = 0; attempt < 2; ++attempt) {
        m_done = doneBefore;
        // Resume from the partial file on the instance, unless it is longer than ours.
        const Attributes existing = attempt == 0 ? statRemote(m_sftp, part) : Attributes{};
        const qint64 offset = existing.exists && existing.size <= item.size ? existing.size : 0;
        QCryptographicHash sha(QCryptographicHash::Sha256);
        if (!hashLocalPrefix(item.local, offset, &sha))
            return false;
        m_result.resumedFromBytes += offset;
        m_done += offset;

        QFile local(item.local);
        if (!local.open(QIODevice::ReadOnly) || !local.seek(offset))
            return fail(tr("Could not read %1: %2").arg(item.local, local.errorString()));
        const int flags = O_WRONLY | O_CREAT | (offset == 0 ? O_TRUNC : 0);
        sftp_file remote = sftp_open(m_sftp, part.toUtf8().constData(), flags, 0644);
        if (!remote)
            return fail(tr("Could not write %1 on the instance: %2").arg(part, sftpError()));
        sftp_seek64(remote, quint64(offset));
        QByteArray buffer(kWriteChunkBytes, Qt::Uninitialized);
        bool ok = true;
        while (ok && !cancelled()) {
            const qint64 n = local.read(buffer.data(), buffer.size());
            if (n < 0)
                ok = fail(tr("Could not read %1: %2").arg(item.local, local.errorString()));
            if (n <= 0)
                break;
            for (qint64 written = 0; ok && written < n;) {
                const ssize_t w =
                    sftp_write(remote, buffer.constData() + written, size_t(n - written));
                if (w <= 0)
                    ok = fail(tr("Could not write %1 on the instance: %2").arg(part, sftpError()));
                else
                    written += w;
            }
            sha.addData(QByteArrayView(buffer.constData(), n));
            m_done += n;
            m_result.bytesSent += n;
            report(item.remote);
        }
        if (sftp_close(remote) != SSH_OK && ok)
            ok = fail(tr("Could not finish writing %1 on the instance: %2").arg(part, sftpError()));
        if (!ok || cancelled())
            return false;
        const Attributes written = statRemote(m_sftp, part);
        if (verify(item.remote, item.size, written.size, sha.result(), part)) {
            sftp_unlink(m_sftp,
                        item.remote.toUtf8().constData()); // rename does not replace on SFTP v3
            if (sftp_rename(m_sftp, part.toUtf8().constData(), item.remote.toUtf8().constData())
                != SSH_OK)
                return fail(tr("Could not rename %1 to %2 on the instance: %3")
                                .arg(part, item.remote, sftpError()));
            ++m_result.files;
            return true;
        }
        if (offset == 0)
            return false; // a fresh copy that does not verify: report it, do not loop
        m_result.error.clear(); // the resumed part was stale: once more from the start
        m_result.resumedFromBytes -= offset;
    }
    return false;
}

bool SftpTransferJob::listRemote(const QString &remote, const QString &local, QList<Item> *files,
                                 QStringList *dirs)
{
    dirs->append(local);
    sftp_dir dir = sftp_opendir(m_sftp, remote.toUtf8().constData());
    if (!dir)
        return fail(tr("Could not list %1 on the instance: %2").arg(remote, sftpError()));
    QList<QPair<QString, QString>> subdirs;
    while (sftp_attributes entry = sftp_readdir(m_sftp, dir)) {
        const QString name = QString::fromUtf8(entry->name);
        const bool isDir = entry->type == SSH_FILEXFER_TYPE_DIRECTORY;
        const bool isFile = entry->type == SSH_FILEXFER_TYPE_REGULAR;
        const qint64 size = qint64(entry->size);
        sftp_attributes_free(entry);
        if (name == u"."_s || name == u".."_s || name.endsWith(SftpTransfer::partialSuffix()))
            continue;
        // Checked before anything is written: the server chose this name.
        if (const QString why = SftpTransfer::unsafeNameReason(name); !why.isEmpty()) {
            sftp_closedir(dir);
            return fail(tr("The instance's folder %1 holds a name that cannot be saved safely "
                           "here: \"%2\" (%3). Nothing was downloaded.")
                            .arg(remote, printableName(name), why));
        }
        if (isDir)
            subdirs.append({joinRemote(remote, name), QDir(local).filePath(name)});
        else if (isFile)
            files->append({QDir(local).filePath(name), joinRemote(remote, name), size});
    }
    sftp_closedir(dir);
    for (const auto &[r, l] : std::as_const(subdirs))
        if (!listRemote(r, l, files, dirs))
            return false;
    return true;
}

SftpTransfer::Result SftpTransferJob::download(const QString &remotePath, const QString &localDir)
{
    if (!open()) {
        m_result.elapsedMs = m_clock.elapsed();
        return m_result;
    }
    QList<Item> files;
    QStringList dirs;
    const Attributes root = statRemote(m_sftp, remotePath);
    const QString baseName = remoteBaseName(remotePath);
    const QString localTarget = QDir(localDir).filePath(baseName);
    bool ok = true;
    if (!root.exists)
        ok = fail(tr("%1 does not exist on the instance.").arg(remotePath));
    else if (const QString why = SftpTransfer::unsafeNameReason(baseName); !why.isEmpty())
        ok = fail(tr("%1 cannot be saved under its name here (%2).").arg(remotePath, why));
    else if (root.directory)
        ok = listRemote(remotePath, localTarget, &files, &dirs);
    else
        files.append({localTarget, remotePath, root.size});
    // Names are checked one by one above; this holds the whole path to the folder chosen.
    for (const Item &f : std::as_const(files))
        if (ok && !SftpTransfer::staysInside(localDir, f.local))
            ok = fail(tr("%1 would be written outside %2; nothing was downloaded.")
                          .arg(f.remote, QDir::toNativeSeparators(localDir)));
    for (const QString &dir : std::as_const(dirs))
        if (ok && !SftpTransfer::staysInside(localDir, dir))
            ok = fail(tr("%1 would be written outside %2; nothing was downloaded.")
                          .arg(dir, QDir::toNativeSeparators(localDir)));
    m_localRoot = localDir;
    for (const Item &f : std::as_const(files))
        m_result.bytesTotal += f.size;
    if (ok && !QDir().mkpath(localDir))
        ok = fail(tr("Could not create the folder %1.").arg(localDir));
    for (const QString &dir : std::as_const(dirs))
        if (ok && !QDir().mkpath(dir))
            ok = fail(tr("Could not create the folder %1.").arg(dir));
    for (int i = 0; ok && i < files.size(); ++i)
        ok = downloadFile(files.at(i));
    m_result.ok = ok && !cancelled();
    m_result.cancelled = cancelled();
    m_result.elapsedMs = m_clock.elapsed();
    report(QString(), true);
    return m_result;
}

bool SftpTransferJob::targetIsSafe(const Item &item)
{
    // The folder it lands in, as it really is on disk (a symbolic link in the way would lead
    // elsewhere), must be inside the chosen folder, as must the partial file.
    const QString root = QFileInfo(m_localRoot).canonicalFilePath();
    const QString parent = QFileInfo(QFileInfo(item.local).absolutePath()).canonicalFilePath();
    if (root.isEmpty() || parent.isEmpty() || !SftpTransfer::staysInside(root, parent))
        return fail(
            tr("%1 would be written outside %2; it was not downloaded.")
                .arg(QDir::toNativeSeparators(item.local), QDir::toNativeSeparators(m_localRoot)));
    if (QFileInfo(item.local + SftpTransfer::partialSuffix()).isSymLink())
        return fail(tr("%1 is a symbolic link; it was not followed.")
                        .arg(QDir::toNativeSeparators(item.local + SftpTransfer::partialSuffix())));
    return true;
}

bool SftpTransferJob::keepExisting(const Item &item)
{
    // Never replaced without asking. The same content (an earlier run of this download got it)
    // counts as done; anything else is the user's file and stops the transfer.
    const QFileInfo present(item.local);
    const QString shown = QDir::toNativeSeparators(item.local);
    if (present.isSymLink() || !present.isFile() || present.size() != item.size)
        return fail(tr("%1 already exists and differs from %2 on the instance; it was not "
                       "replaced. Move it away or download into another folder.")
                        .arg(shown, item.remote));
    QCryptographicHash sha(QCryptographicHash::Sha256);
    if (!hashLocalPrefix(item.local, item.size, &sha))
        return false;
    if (remoteSha256(item.remote) != QString::fromLatin1(sha.result().toHex()))
        return fail(tr("%1 already exists and differs from %2 on the instance; it was not "
                       "replaced. Move it away or download into another folder.")
                        .arg(shown, item.remote));
    m_done += item.size;
    m_result.resumedFromBytes += item.size;
    ++m_result.files;
    report(item.remote, true);
    return true;
}

bool SftpTransferJob::readPipelined(sftp_file_struct *remote, const Item &item, qint64 offset,
                                    QFile *local, QCryptographicHash *sha)
{
    // Several read requests in flight, answered in order: one round trip per request would
    // bound the speed by latency, not bandwidth.
    struct Request
    {
        int id;
        uint32_t length;
    };
    QList<Request> inFlight;
    QByteArray buffer(SftpTransfer::kChunkBytes, Qt::Uninitialized);
    qint64 requested = offset;
    qint64 position = offset;
    sftp_seek64(remote, quint64(offset));
    const auto discardInFlight = [&] {
        for (const Request &r : std::as_const(inFlight))
            sftp_async_read(remote, buffer.data(), r.length, uint32_t(r.id));
        inFlight.clear();
    };
    bool ok = true;
    while (ok && !cancelled()) {
        while (inFlight.size() < kReadsInFlight && requested < item.size) {
            const auto length =
                uint32_t(std::min<qint64>(SftpTransfer::kChunkBytes, item.size - requested));
            const int id = sftp_async_read_begin(remote, length);
            if (id < 0) {
                ok =
                    fail(tr("Could not read %1 on the instance: %2").arg(item.remote, sftpError()));
                break;
            }
            inFlight.append({id, length});
            requested += length;
        }
        if (!ok || inFlight.isEmpty())
            break;
        const Request next = inFlight.takeFirst();
        const int n = sftp_async_read(remote, buffer.data(), next.length, uint32_t(next.id));
        if (n < 0) {
            ok = fail(tr("Could not read %1 on the instance: %2").arg(item.remote, sftpError()));
            break;
        }
        if (n == 0)
            break; // shorter than it was: the size check reports it
        if (local->write(buffer.constData(), n) != n) {
            ok = fail(tr("Could not write %1: %2").arg(local->fileName(), local->errorString()));
            break;
        }
        sha->addData(QByteArrayView(buffer.constData(), n));
        position += n;
        m_done += n;
        m_result.bytesSent += n;
        report(item.remote);
        if (uint32_t(n) < next.length) {
            // A short answer leaves a gap before the requests already sent: ask again from here.
            discardInFlight();
            sftp_seek64(remote, quint64(position));
            requested = position;
        }
    }
    discardInFlight();
    return ok && !cancelled();
}

bool SftpTransferJob::downloadFile(const Item &item)
{
    const QString part = item.local + SftpTransfer::partialSuffix();
    const qint64 doneBefore = m_done;
    if (!targetIsSafe(item))
        return false;
    const QFileInfo present(item.local);
    if (present.exists() || present.isSymLink())
        return keepExisting(item);
    for (int attempt = 0; attempt < 2; ++attempt) {
        m_done = doneBefore;
        const QFileInfo existing(part);
        const qint64 offset =
            attempt == 0 && existing.isFile() && existing.size() <= item.size ? existing.size() : 0;
        QCryptographicHash sha(QCryptographicHash::Sha256);
        if (offset > 0 && !hashLocalPrefix(part, offset, &sha))
            return false;
        m_result.resumedFromBytes += offset;
        m_done += offset;

        QFile local(part);
        const QIODevice::OpenMode mode =
            offset > 0 ? QIODevice::ReadWrite : QIODevice::WriteOnly | QIODevice::Truncate;
        if (!local.open(mode) || !local.resize(offset) || !local.seek(offset))
            return fail(tr("Could not write %1: %2").arg(part, local.errorString()));
        sftp_file remote = sftp_open(m_sftp, item.remote.toUtf8().constData(), O_RDONLY, 0);
        if (!remote)
            return fail(tr("Could not read %1 on the instance: %2").arg(item.remote, sftpError()));
        bool ok = readPipelined(remote, item, offset, &local, &sha);
        sftp_close(remote);
        if (!local.flush() && ok)
            ok = fail(tr("Could not write %1: %2").arg(part, local.errorString()));
        local.close();
        if (!ok || cancelled())
            return false;
        if (verify(item.local, item.size, QFileInfo(part).size(), sha.result(), item.remote)) {
            // QFile::rename never replaces a file: one that appeared meanwhile stays.
            if (!QFile::rename(part, item.local))
                return fail(
                    tr("Could not rename %1 to %2 (does %2 exist now?).").arg(part, item.local));
            ++m_result.files;
            return true;
        }
        if (offset == 0)
            return false;
        m_result.error.clear();
        m_result.resumedFromBytes -= offset;
    }
    return false;
}

} // namespace cardhour::core
