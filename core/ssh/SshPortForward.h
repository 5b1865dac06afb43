#pragma once

#include "ssh/SshTarget.h"

#include <QObject>
#include <QString>
#include <QUrl>

class QThread;

namespace cardhour::core {

struct InstanceApp;
class SshForwardWorker;

// A local port forward over SSH (like `ssh -L 127.0.0.1:LOCAL:127.0.0.1:REMOTE`): listens on
// 127.0.0.1 only, and every accepted connection becomes a libssh direct-tcpip channel to
// `remotePort` on the instance. Used for one-click apps ("Open in browser"). On Linux a
// connection from another local user is closed at once (peerIsThisUser, LoopbackPeer.h);
// elsewhere every local connection is served.
//
// Threading: like SshShell, one QThread per forward owns the libssh session, the QTcpServer and
// the sockets; a QSocketNotifier on the session's socket drives the channels, so the data
// never passes through the UI thread.
class SshPortForward : public QObject
{
    Q_OBJECT
public:
    SshPortForward(const SshTarget &target, int remotePort, QObject *parent = nullptr);
    ~SshPortForward() override;

    // Connects, then listens on 127.0.0.1:localPort (0: any free port). Then listening(), or
    // failed() with the reason.
    void start(quint16 localPort = 0);
    void stop();

    quint16 localPort() const { return m_localPort; }
    int remotePort() const { return m_remotePort; }
    int openChannels() const { return m_channels; }

    // The URL to open in the browser for a one-click app reached through this forward: the
    // app's own URL (from the provider, token included) with its host and port replaced by
    // 127.0.0.1:localPort. Without a URL from the provider: http://127.0.0.1:localPort/.
    static QUrl appUrl(const InstanceApp &app, quint16 localPort);

Q_SIGNALS:
    void listening(quint16 localPort);
    void failed(const QString &reason); // translated; also when an established forward breaks
    void channelsChanged(int open);

private:
    SshTarget m_target;
    int m_remotePort;
    quint16 m_localPort = 0;
    int m_channels = 0;
    QThread *m_thread = nullptr;
    SshForwardWorker *m_worker = nullptr;
};

} // namespace cardhour::core
