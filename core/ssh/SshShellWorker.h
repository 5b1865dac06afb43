#pragma once

// Internal to SshShell: lives on the shell's worker thread.
#include "ssh/SshConnection.h"

#include <QObject>

#include <memory>

class QSocketNotifier;

struct ssh_channel_struct;

namespace cardhour::core {

class SshShellWorker : public QObject
{
    Q_OBJECT
public:
    explicit SshShellWorker(const SshTarget &target);
    ~SshShellWorker() override;

    void start(int cols, int rows);
    void write(const QByteArray &bytes);
    void resize(int cols, int rows);
    void stop(const QString &reason);

Q_SIGNALS:
    void opened(qint64 connectMs, qint64 authMs);
    void output(const QByteArray &bytes);
    void closed(const QString &reason);

private:
    void pump();
    void finish(const QString &reason);

    SshTarget m_target;
    std::unique_ptr<SshConnection> m_connection;
    ssh_channel_struct *m_channel = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    bool m_finished = false;
};

} // namespace cardhour::core
