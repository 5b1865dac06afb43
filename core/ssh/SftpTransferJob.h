#pragma once

// Internal to SftpTransfer: the blocking work of one transfer, run on its thread.
#include "ssh/SftpTransfer.h"
#include "ssh/SshConnection.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>

#include <atomic>
#include <functional>

struct sftp_session_struct;
struct sftp_file_struct;
class QFile;

namespace cardhour::core {

class SftpTransferJob
{
    Q_DECLARE_TR_FUNCTIONS(SftpTransfer)
public:
    using Progress =
        std::function<void(qint64 done, qint64 total, double speed, const QString &file)>;

    SftpTransferJob(const SshTarget &target, const std::atomic_bool &cancel, Progress progress);
    ~SftpTransferJob();

    SftpTransfer::Result upload(const QString &localPath, const QString &remoteDir);
    SftpTransfer::Result download(const QString &remotePath, const QString &localDir);

    // Uploads: bytes per SFTP write (within every server's limit; OpenSSH takes up to 255 KiB),
    // each waited for (libssh 0.10 has no asynchronous write). Downloads: requests in flight.
    static constexpr qint64 kWriteChunkBytes = 128 * 1024;
    static constexpr int kReadsInFlight = 16;

private:
    struct Item
    {
        QString local;
        QString remote;
        qint64 size = 0;
    };
    bool open();
    bool uploadFile(const Item &item);
    bool downloadFile(const Item &item);
    bool targetIsSafe(const Item &item);
    bool keepExisting(const Item &item);
    bool readPipelined(sftp_file_struct *remote, const Item &item, qint64 offset, QFile *local,
                       QCryptographicHash *sha);
    bool listRemote(const QString &remote, const QString &local, QList<Item> *files,
                    QStringList *dirs);
    bool ensureRemoteDir(const QString &path);
    bool hashLocalPrefix(const QString &path, qint64 length, QCryptographicHash *hash);
    QString remoteSha256(const QString &path);
    bool verify(const QString &label, qint64 expectedSize, qint64 actualSize,
                const QByteArray &localSha, const QString &remotePath);
    void report(const QString &file, bool force = false);
    bool cancelled() const { return m_cancel.load(); }
    bool fail(const QString &message);
    QString sftpError() const;

    SshConnection m_connection;
    sftp_session_struct *m_sftp = nullptr;
    const std::atomic_bool &m_cancel;
    Progress m_progress;
    SftpTransfer::Result m_result;
    qint64 m_done = 0; // bytes of the total accounted for (resumed or sent)
    QElapsedTimer m_clock;
    qint64 m_lastReportMs = -1000;
    QString m_localRoot; // downloads: the folder the user chose
};

} // namespace cardhour::core
