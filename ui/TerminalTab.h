#pragma once

#include "api/Models.h"
#include "ssh/SshKeyPair.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;

namespace cardhour::core {
class ClientSession;
class SshKeyStore;
class SshShell;
} // namespace cardhour::core

namespace cardhour::terminal {
class TerminalWidget;
}

namespace cardhour::ui {

// One terminal tab: a TerminalWidget bound to an SshShell on one instance. Opening looks the
// instance up again (its address may have changed since the list was loaded), chooses the key,
// reads its passphrase from the keychain and opens the shell, whose host key must be the one
// the provider reported. A dropped connection leaves the screen as it was and shows the reason
// above it with a Reconnect button.
class TransferBar;

class TerminalTab : public QWidget
{
    Q_OBJECT
public:
    TerminalTab(core::ClientSession *session, core::SshKeyStore *keys,
                const core::Instance &instance, QWidget *parent = nullptr);
    ~TerminalTab() override;

    QString instanceId() const { return m_instanceId; }
    QString title() const; // instance name, then the title the remote set, if any
    terminal::TerminalWidget *terminal() const { return m_terminal; }
    core::SshShell *shell() const { return m_shell; }
    bool isConnected() const;
    QString statusText() const; // what the banner above the terminal says; empty when hidden
    TransferBar *transferBar() const { return m_transfers; }

    // SFTP with the connection's target (key and passphrase): files or folders dropped on the
    // tab go to /workspace; a download lands in `localDir`. False when not connected.
    bool uploadFiles(const QStringList &localPaths);
    bool download(const QString &remotePath, const QString &localDir);

    // When each step of the last (re)connect ended, in ms after reconnect() began (-1: not
    // reached), for measurements (bench/run's launch-to-prompt benchmark).
    struct ConnectSteps
    {
        qint64 instanceKnown = -1; // the provider's answer about the instance
        qint64 keyChosen = -1; // the account's keys listed and one chosen
        qint64 passphraseRead = -1; // the keychain answered
        qint64 shellOpened = -1; // SshShell::opened: connected, authenticated, shell running
    };
    const ConnectSteps &connectSteps() const { return m_steps; }

public Q_SLOTS:
    void reconnect(); // also the first connect

Q_SIGNALS:
    void titleChanged(const QString &title);
    void connected();
    void disconnected(const QString &reason);

protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void chooseKey(const core::Instance &instance, const QList<core::SshKey> &accountKeys);
    void openShell(const core::Instance &instance, const core::SshKeyPair &key,
                   const QString &passphrase);
    void showStatus(const QString &text, bool canReconnect);
    void fail(const QString &reason);
    void retranslate();

    core::ClientSession *m_session;
    QPointer<core::SshKeyStore> m_keys;
    QString m_instanceId;
    QString m_instanceName;
    QString m_remoteTitle;
    int m_attempt = 0; // replies of an earlier attempt are ignored
    QElapsedTimer m_connectClock;
    ConnectSteps m_steps;
    terminal::TerminalWidget *m_terminal;
    core::SshShell *m_shell = nullptr;
    QWidget *m_banner;
    QLabel *m_statusLabel;
    QPushButton *m_reconnectButton;
    TransferBar *m_transfers;
};

} // namespace cardhour::ui
