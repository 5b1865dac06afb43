#pragma once

#include "ssh/SshTarget.h"

#include <QObject>
#include <QString>

#include <atomic>

class QThread;

namespace cardhour::core {

// Uploads files and folders to an instance (default /workspace) or downloads them back, over
// SFTP, for weights and datasets of several GB:
//  - streamed in chunks (never a whole file in memory);
//  - resumable: a file is written under NAME.cardhour-part and renamed when complete; the next
//    transfer of the same file continues from the partial file's size (remote for uploads,
//    local for downloads), after hashing the part already there;
//  - verified: size, then SHA-256 of the local file against `sha256sum` on the instance. A
//    resumed file that does not verify is sent once more from the start;
//  - contained (downloads): a remote name unsafeNameReason() refuses stops the download before
//    anything is written, every target must stay inside the chosen folder, and an existing
//    local file is never replaced: one identical to the remote file (size and SHA-256) counts as
//    done, any other stops the transfer with an error naming it. Only NAME.cardhour-part
//    files, which only a transfer writes, are resumed.
//
// Threading: each transfer runs on a thread of its own with its own SSH connection (blocking
// libssh calls there); progress() and finished() arrive on this object's thread.
class SftpTransfer : public QObject
{
    Q_OBJECT
public:
    struct Result
    {
        bool ok = false;
        bool cancelled = false;
        QString error; // translated, when !ok && !cancelled
        int files = 0; // files completed and verified
        qint64 bytesTotal = 0; // sizes of all files
        qint64 bytesSent = 0; // moved over the network by this transfer
        qint64 resumedFromBytes = 0; // skipped because a partial file was already there
        qint64 elapsedMs = 0;
        double bytesPerSecond() const
        {
            return elapsedMs > 0 ? bytesSent * 1000.0 / double(elapsedMs) : 0.0;
        }
    };

    explicit SftpTransfer(const SshTarget &target, QObject *parent = nullptr);
    ~SftpTransfer() override; // cancels and waits for the transfer thread

    // `localPath`: a file or a folder; it lands in `remoteDir` under its own name.
    void upload(const QString &localPath, const QString &remoteDir = QStringLiteral("/workspace"));
    // `remotePath`: a file or a folder; it lands in `localDir` under its own name.
    void download(const QString &remotePath, const QString &localDir);
    // Stops after the current chunk; the partial file stays for a later resume.
    void cancel();

    bool isRunning() const { return m_thread != nullptr; }
    Result result() const { return m_result; }

    static QString partialSuffix() { return QStringLiteral(".cardhour-part"); }
    // Why a name the instance listed must not become a local file name (translated), or empty
    // when it may. A tampered or hostile server chooses these names: `/` and `\` would reach
    // another folder, `:` a drive or an NTFS stream on Windows, NUL and control characters
    // confuse every tool that shows the name later; `.`, `..` and empty names are never files.
    static QString unsafeNameReason(const QString &name);
    // Whether `path`, cleaned, is `root` or inside it (both made absolute first). No file
    // system access: the download also checks canonical paths where the files already exist.
    static bool staysInside(const QString &root, const QString &path);
    static constexpr qint64 kChunkBytes = 64 * 1024;

Q_SIGNALS:
    // `bytesPerSecond`: over this transfer so far (resumed bytes not counted).
    void progress(qint64 doneBytes, qint64 totalBytes, double bytesPerSecond,
                  const QString &currentFile);
    void finished(bool ok, const QString &message);

private:
    void begin(bool uploading, const QString &source, const QString &destination);
    void wait();

    SshTarget m_target;
    QThread *m_thread = nullptr;
    std::atomic_bool m_cancel{false};
    Result m_result;
};

} // namespace cardhour::core
