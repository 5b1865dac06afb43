#pragma once

#include "ssh/SshTarget.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

struct ssh_session_struct;

namespace cardhour::core {

// One libssh session to an instance: connect, verify the host key against the provider's,
// authenticate with the user's key, run commands. Every call blocks, so a SshConnection lives
// on a worker thread (SshShell, SshPortForward and SftpTransfer each own one there) or in code
// that may wait (tests, SshCommandJob). A session is used by one thread only: libssh sessions are
// not thread-safe.
class SshConnection
{
    Q_DECLARE_TR_FUNCTIONS(SshConnection)
public:
    enum class Failure {
        None,
        Connect, // TCP or SSH handshake
        HostKey, // the host key does not match the provider's (or there is none to compare)
        KeyUnreadable, // our private key cannot be opened (missing, wrong passphrase)
        KeyRefused, // the server does not accept our key
        Protocol, // anything else libssh reports
    };

    struct ExecResult
    {
        bool ok = false; // the command ran to the end and its exit status is known
        int exitStatus = -1;
        QByteArray out;
        QByteArray err;
        QString error; // translated, when !ok
    };

    explicit SshConnection(const SshTarget &target);
    ~SshConnection();
    SshConnection(const SshConnection &) = delete;
    SshConnection &operator=(const SshConnection &) = delete;

    // Connects, verifies the host key, authenticates. False: see failure() and errorMessage().
    bool open(int timeoutMs = 15000);
    void close();
    bool isOpen() const { return m_authenticated; }

    // Runs `command` (through the user's shell on the host), feeding `input` to its stdin.
    ExecResult exec(const QString &command, const QByteArray &input = {}, int timeoutMs = 60000);

    Failure failure() const { return m_failure; }
    QString errorMessage() const { return m_error; }
    const SshTarget &target() const { return m_target; }
    ssh_session_struct *session() const { return m_session; }
    QString serverFingerprint() const { return m_serverFingerprint; }
    QString serverKeyLine() const { return m_serverKeyLine; } // "ssh-ed25519 AAAA..." once verified
    qint64 connectMs() const { return m_connectMs; } // TCP + handshake + host key check
    qint64 authMs() const { return m_authMs; }
    // libssh's last error text for this session (for messages).
    QString libsshError() const;

    // Single quotes for a POSIX shell.
    static QString shellQuote(const QString &text);

private:
    bool fail(Failure failure, const QString &message);

    SshTarget m_target;
    ssh_session_struct *m_session = nullptr;
    bool m_authenticated = false;
    Failure m_failure = Failure::None;
    QString m_error;
    QString m_serverFingerprint;
    QString m_serverKeyLine;
    qint64 m_connectMs = 0;
    qint64 m_authMs = 0;
};

} // namespace cardhour::core
