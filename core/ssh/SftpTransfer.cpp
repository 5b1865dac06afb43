#include "ssh/SftpTransfer.h"

#include "ssh/SftpTransferJob.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SftpTransfer::SftpTransfer(const SshTarget &target, QObject *parent)
    : QObject(parent), m_target(target)
{}

SftpTransfer::~SftpTransfer()
{
    cancel();
    wait();
}

void SftpTransfer::upload(const QString &localPath, const QString &remoteDir)
{
    begin(true, localPath, remoteDir);
}

void SftpTransfer::download(const QString &remotePath, const QString &localDir)
{
    begin(false, remotePath, localDir);
}

QString SftpTransfer::unsafeNameReason(const QString &name)
{
    if (name.isEmpty() || name == u"."_s || name == u".."_s)
        return tr("it is not a file name");
    for (const QChar c : name) {
        if (c == u'/' || c == u'\\')
            return tr("it holds a path separator");
        if (c == u':')
            return tr("it holds a colon, which names a drive or a stream on Windows");
        if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f))
            return tr("it holds a control character");
    }
#ifdef Q_OS_WIN
    // Names Windows maps to devices or silently changes.
    static const QRegularExpression device(u"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?$"_s,
                                           QRegularExpression::CaseInsensitiveOption);
    if (device.match(name).hasMatch())
        return tr("Windows reserves it for a device");
    if (name.endsWith(u'.') || name.endsWith(u' ')
        || name.contains(QRegularExpression(u"[<>\"|?*]"_s)))
        return tr("Windows does not allow it");
#endif
    return {};
}

bool SftpTransfer::staysInside(const QString &root, const QString &path)
{
    const QString cleanRoot = QDir::cleanPath(QFileInfo(root).absoluteFilePath());
    const QString cleanPath = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    if (cleanPath == cleanRoot)
        return true;
    const QString prefix = cleanRoot.endsWith(u'/') ? cleanRoot : cleanRoot + u'/';
    return cleanPath.startsWith(prefix, Qt::CaseSensitive);
}

void SftpTransfer::cancel()
{
    m_cancel = true;
}

void SftpTransfer::wait()
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
}

void SftpTransfer::begin(bool uploading, const QString &source, const QString &destination)
{
    if (m_thread)
        return; // one transfer at a time per object
    m_cancel = false;
    m_result = {};
    const auto progress = [this](qint64 done, qint64 total, double speed, const QString &file) {
        // Runs on the transfer thread: hand the numbers to this object's thread.
        QMetaObject::invokeMethod(
            this,
            [this, done, total, speed, file] { Q_EMIT this->progress(done, total, speed, file); },
            Qt::QueuedConnection);
    };
    m_thread = QThread::create([this, uploading, source, destination, progress] {
        SftpTransferJob job(m_target, m_cancel, progress);
        const Result result =
            uploading ? job.upload(source, destination) : job.download(source, destination);
        QMetaObject::invokeMethod(
            this,
            [this, result] {
                wait();
                m_result = result;
                const QString message = result.ok
                    ? tr("%n file(s) transferred and verified.", nullptr, result.files)
                    : result.cancelled
                    ? tr("The transfer was cancelled; it resumes where it stopped.")
                    : result.error;
                Q_EMIT finished(result.ok, message);
            },
            Qt::QueuedConnection);
    });
    m_thread->setObjectName(u"sftp"_s);
    m_thread->start();
}

} // namespace cardhour::core
