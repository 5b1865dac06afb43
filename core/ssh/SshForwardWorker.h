#pragma once

// Internal to SshPortForward: lives on the forward's worker thread.
#include "ssh/SshConnection.h"

#include <QHash>
#include <QObject>

#include <memory>

class QSocketNotifier;
class QTcpServer;
class QTcpSocket;

struct ssh_channel_struct;

namespace cardhour::core {

class SshForwardWorker : public QObject
{
    Q_OBJECT
public:
    SshForwardWorker(const SshTarget &target, int remotePort);
    ~SshForwardWorker() override;

    void start(quint16 localPort);
    void stop();

Q_SIGNALS:
    void listening(quint16 localPort);
    void failed(const QString &reason);
    void channelsChanged(int open);

private:
    void accept();
    void fromSocket(QTcpSocket *socket);
    void pump();
    void drop(QTcpSocket *socket);
    void fail(const QString &reason);

    SshTarget m_target;
    int m_remotePort;
    std::unique_ptr<SshConnection> m_connection;
    QTcpServer *m_server = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QHash<QTcpSocket *, ssh_channel_struct *> m_channels;
    bool m_failed = false;
};

} // namespace cardhour::core
