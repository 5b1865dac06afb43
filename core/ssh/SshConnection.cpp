#include "ssh/SshConnection.h"

#include "ssh/HostKeyVerifier.h"
#include "ssh/SshKeyPair.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>

#include <libssh/libssh.h>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SshConnection::SshConnection(const SshTarget &target) : m_target(target) {}

SshConnection::~SshConnection()
{
    close();
}

QString SshConnection::shellQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(u"'"_s, u"'\\''"_s);
    return u"'"_s + quoted + u"'"_s;
}

QString SshConnection::libsshError() const
{
    return m_session ? QString::fromUtf8(ssh_get_error(m_session)) : QString();
}

bool SshConnection::fail(Failure failure, const QString &message)
{
    m_failure = failure;
    m_error = message;
    if (m_session) {
        ssh_disconnect(m_session);
        ssh_free(m_session);
        m_session = nullptr;
    }
    m_authenticated = false;
    return false;
}

void SshConnection::close()
{
    if (m_session) {
        ssh_disconnect(m_session);
        ssh_free(m_session);
        m_session = nullptr;
    }
    m_authenticated = false;
}

bool SshConnection::open(int timeoutMs)
{
    close();
    m_failure = Failure::None;
    m_error.clear();
    const QString where = tr("%1 (%2)").arg(m_target.instanceName, m_target.describe());
    if (!m_target.isValid())
        return fail(Failure::Connect,
                    m_target.host.isEmpty()
                        ? tr("%1 has no SSH address yet.").arg(m_target.instanceName)
                        : m_target.problem());

    QElapsedTimer timer;
    timer.start();
    m_session = ssh_new();
    if (!m_session)
        return fail(Failure::Protocol, tr("libssh could not create a session."));
    const QByteArray host = m_target.host.toUtf8();
    const QByteArray user = m_target.user.toUtf8();
    const unsigned int port = unsigned(m_target.port);
    const long timeoutSeconds = std::max(1, timeoutMs / 1000);
    const int no = 0;
    const int yes = 1;
    ssh_options_set(m_session, SSH_OPTIONS_HOST, host.constData());
    ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    ssh_options_set(m_session, SSH_OPTIONS_USER, user.constData());
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeoutSeconds);
    // The user's ~/.ssh/config must not redirect or weaken a connection CardHour checks itself.
    ssh_options_set(m_session, SSH_OPTIONS_PROCESS_CONFIG, &no);
    // Keystrokes and SFTP requests are small writes that wait for an answer: without this,
    // Nagle's algorithm and delayed ACKs hold each one back for up to 40 ms.
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &yes);
    if (ssh_connect(m_session) != SSH_OK)
        return fail(Failure::Connect, tr("Could not connect to %1: %2").arg(where, libsshError()));

    const HostKeyVerifier::Result verified =
        HostKeyVerifier::verify(m_session, m_target.expectedHostKeySha256, where);
    m_serverFingerprint = verified.serverFingerprint;
    if (!verified.ok())
        return fail(Failure::HostKey, verified.message);
    m_serverKeyLine = verified.serverKeyLine;
    m_connectMs = timer.restart();

    ssh_key key = m_target.unlockedKey.isEmpty()
        ? SshKeyPair::importPrivateKey(m_target.privateKeyPath, m_target.passphrase)
        : SshKeyPair::importUnlockedKey(m_target.unlockedKey);
    if (!key) {
        return fail(
            Failure::KeyUnreadable,
            QFile::exists(m_target.privateKeyPath)
                ? tr("The private key %1 could not be opened (wrong or missing passphrase?).")
                      .arg(m_target.privateKeyPath)
                : tr("The private key %1 is missing.").arg(m_target.privateKeyPath));
    }
    const int auth = ssh_userauth_publickey(m_session, nullptr, key);
    ssh_key_free(key);
    if (auth == SSH_AUTH_DENIED || auth == SSH_AUTH_PARTIAL) {
        return fail(Failure::KeyRefused,
                    tr("%1 does not accept your key %2 (%3): that key is missing from the host's "
                       "authorized "
                       "keys. Add it to the instance (Keys…) or connect with a key the instance "
                       "was launched with.")
                        .arg(where, m_target.keyFingerprint, m_target.privateKeyPath));
    }
    if (auth != SSH_AUTH_SUCCESS)
        return fail(Failure::Protocol,
                    tr("Authentication with %1 failed: %2").arg(where, libsshError()));
    m_authMs = timer.elapsed();
    m_authenticated = true;
    return true;
}

SshConnection::ExecResult SshConnection::exec(const QString &command, const QByteArray &input,
                                              int timeoutMs)
{
    ExecResult result;
    if (!m_authenticated) {
        result.error = tr("Not connected.");
        return result;
    }
    ssh_channel channel = ssh_channel_new(m_session);
    if (!channel || ssh_channel_open_session(channel) != SSH_OK
        || ssh_channel_request_exec(channel, command.toUtf8().constData()) != SSH_OK) {
        result.error =
            tr("Could not run a command on %1: %2").arg(m_target.instanceName, libsshError());
        if (channel)
            ssh_channel_free(channel);
        return result;
    }
    if (!input.isEmpty()
        && ssh_channel_write(channel, input.constData(), uint32_t(input.size())) != input.size())
        result.error = tr("Could not send input to the command: %1").arg(libsshError());
    ssh_channel_send_eof(channel);

    const QDeadlineTimer deadline(timeoutMs);
    char buffer[16384];
    bool broken = false;
    while (!deadline.hasExpired()) {
        const int n = ssh_channel_read_timeout(channel, buffer, sizeof buffer, 0, 100);
        if (n > 0)
            result.out.append(buffer, n);
        int e = 0;
        while ((e = ssh_channel_read_nonblocking(channel, buffer, sizeof buffer, 1)) > 0)
            result.err.append(buffer, e);
        if (n == SSH_ERROR || e == SSH_ERROR) {
            broken = true;
            break;
        }
        if (n == 0 && ssh_channel_is_eof(channel))
            break;
    }
    if (broken) {
        result.error = tr("The connection to %1 broke while the command ran: %2")
                           .arg(m_target.instanceName, libsshError());
    } else if (deadline.hasExpired()) {
        result.error = tr("The command on %1 did not finish within %2 s.")
                           .arg(m_target.instanceName)
                           .arg(timeoutMs / 1000);
    } else {
        // The exit status arrives just after EOF; ssh_channel_get_exit_status waits for it.
        result.exitStatus = ssh_channel_get_exit_status(channel);
        result.ok = result.error.isEmpty() && result.exitStatus >= 0;
        if (!result.ok && result.error.isEmpty())
            result.error =
                tr("The command on %1 ended without an exit status.").arg(m_target.instanceName);
    }
    ssh_channel_close(channel);
    ssh_channel_free(channel);
    return result;
}

} // namespace cardhour::core
