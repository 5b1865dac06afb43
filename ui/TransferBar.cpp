#include "TransferBar.h"

#include "ssh/SftpTransfer.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

TransferBar::TransferBar(QWidget *parent)
    : QWidget(parent), m_label(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_cancelButton(new QPushButton(this)), m_closeButton(new QPushButton(this))
{
    setObjectName(u"transferBar"_s);
    m_label->setObjectName(u"transferStatus"_s);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(u"transferProgress"_s);
    m_progress->setRange(0, 1000);
    m_cancelButton->setObjectName(u"cancelTransferButton"_s);
    m_closeButton->setObjectName(u"closeTransferButton"_s);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancelButton);
    layout->addWidget(m_closeButton);
    connect(m_cancelButton, &QPushButton::clicked, this, &TransferBar::cancel);
    connect(m_closeButton, &QPushButton::clicked, this, &QWidget::hide);
    retranslate();
    hide();
}

TransferBar::~TransferBar()
{
    m_queue.clear();
    delete m_transfer; // cancels and joins its thread
}

QString TransferBar::statusText() const
{
    return m_label->text();
}

void TransferBar::upload(const core::SshTarget &target, const QStringList &localPaths,
                         const QString &remoteDir)
{
    for (const QString &path : localPaths)
        m_queue.append({target, true, path, remoteDir});
    if (!m_transfer)
        next();
}

void TransferBar::download(const core::SshTarget &target, const QString &remotePath,
                           const QString &localDir)
{
    m_queue.append({target, false, remotePath, localDir});
    if (!m_transfer)
        next();
}

void TransferBar::cancel()
{
    m_queue.clear();
    if (m_transfer)
        m_transfer->cancel();
}

void TransferBar::next()
{
    if (m_queue.isEmpty())
        return;
    const Job job = m_queue.takeFirst();
    m_transfer = new core::SftpTransfer(job.target, this);
    const QString name = QFileInfo(job.source).fileName();
    m_label->setText(job.upload ? tr("Uploading %1 to %2…").arg(name, job.destination)
                                : tr("Downloading %1…").arg(name));
    m_progress->setValue(0);
    m_progress->show();
    m_cancelButton->show();
    m_closeButton->hide();
    show();
    connect(m_transfer, &core::SftpTransfer::progress, this,
            [this, up = job.upload](qint64 done, qint64 total, double speed, const QString &file) {
                m_progress->setValue(total > 0 ? int(done * 1000 / total) : 0);
                const QLocale locale;
                //: upload/download progress: file, bytes done / total, speed
                m_label->setText(
                    tr("%1 %2: %3 of %4, %5/s")
                        .arg(up ? tr("Uploading") : tr("Downloading"), QFileInfo(file).fileName(),
                             locale.formattedDataSize(done), locale.formattedDataSize(total),
                             locale.formattedDataSize(qint64(speed))));
            });
    connect(m_transfer, &core::SftpTransfer::finished, this,
            [this, job](bool ok, const QString &message) {
                const core::SftpTransfer::Result result = m_transfer->result();
                m_transfer->deleteLater();
                m_transfer = nullptr;
                QString text;
                if (ok) {
                    text = job.upload
                        ? tr("Uploaded %1 to %2 (%3 files, %4/s).")
                              .arg(QFileInfo(job.source).fileName(), job.destination)
                              .arg(result.files)
                              .arg(QLocale().formattedDataSize(qint64(result.bytesPerSecond())))
                        : tr("Downloaded %1 to %2.")
                              .arg(QFileInfo(job.source).fileName(), job.destination);
                } else if (result.cancelled) {
                    text = tr("Cancelled; the partial file resumes next time.");
                } else {
                    text = message;
                }
                m_label->setText(text);
                m_progress->hide();
                m_cancelButton->hide();
                m_closeButton->show();
                Q_EMIT finished(ok, text);
                if (!m_queue.isEmpty())
                    next();
            });
    if (job.upload)
        m_transfer->upload(job.source, job.destination);
    else
        m_transfer->download(job.source, job.destination);
}

void TransferBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void TransferBar::retranslate()
{
    m_cancelButton->setText(tr("Cancel"));
    m_closeButton->setText(tr("Close"));
}

} // namespace cardhour::ui
