#pragma once

#include "ssh/SshConnection.h"

#include <QObject>

class QThread;

namespace cardhour::core {

// Connects and runs one command off the UI thread, e.g. "check that my key is accepted":
// finished() arrives once, on the creator's thread, then the job deletes itself. The reason a
// connection failed (host key, key refused, which key on which host) is in errorMessage().
class SshCommandJob : public QObject
{
    Q_OBJECT
public:
    // An empty command only connects and authenticates.
    static SshCommandJob *start(const SshTarget &target, const QString &command,
                                QObject *parent = nullptr);
    ~SshCommandJob() override;

    bool connected() const { return m_failure == SshConnection::Failure::None; }
    SshConnection::Failure failure() const { return m_failure; }
    QString errorMessage() const { return m_error; }
    SshConnection::ExecResult result() const { return m_result; }
    qint64 connectMs() const { return m_connectMs; }
    qint64 authMs() const { return m_authMs; }

Q_SIGNALS:
    void finished();

private:
    explicit SshCommandJob(QObject *parent) : QObject(parent) {}

    QThread *m_thread = nullptr;
    SshConnection::Failure m_failure = SshConnection::Failure::None;
    QString m_error;
    SshConnection::ExecResult m_result;
    qint64 m_connectMs = 0;
    qint64 m_authMs = 0;
};

} // namespace cardhour::core
