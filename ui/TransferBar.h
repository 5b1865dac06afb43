#pragma once

#include "ssh/SshTarget.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace cardhour::core {
class SftpTransfer;
}

namespace cardhour::ui {

// Files moving to or from an instance over SFTP, one after another: a progress bar with the
// speed and the file being sent, and Cancel (a cancelled file resumes next time). Hidden while
// idle; the last result stays readable until the next transfer.
class TransferBar : public QWidget
{
    Q_OBJECT
public:
    explicit TransferBar(QWidget *parent = nullptr);
    ~TransferBar() override;

    // Queues files or folders for /workspace (or `remoteDir`).
    void upload(const core::SshTarget &target, const QStringList &localPaths,
                const QString &remoteDir = QStringLiteral("/workspace"));
    void download(const core::SshTarget &target, const QString &remotePath,
                  const QString &localDir);
    bool isBusy() const { return m_transfer != nullptr; }
    QString statusText() const;

public Q_SLOTS:
    void cancel();

Q_SIGNALS:
    void finished(bool ok, const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Job
    {
        core::SshTarget target;
        bool upload = true;
        QString source;
        QString destination;
    };
    void next();
    void retranslate();

    QList<Job> m_queue;
    core::SftpTransfer *m_transfer = nullptr;
    QLabel *m_label;
    QProgressBar *m_progress;
    QPushButton *m_cancelButton;
    QPushButton *m_closeButton;
};

} // namespace cardhour::ui
