#include "ssh/SshTarget.h"

#include "api/Models.h"
#include "ssh/SshKeyPair.h"

#include <QHostAddress>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SshTarget SshTarget::fromInstance(const Instance &instance, const SshKeyPair &key,
                                  const QString &passphrase)
{
    SshTarget target;
    target.instanceName = instance.name.isEmpty() ? instance.id : instance.name;
    target.privateKeyPath = key.privatePath();
    target.keyFingerprint = key.fingerprintSha256();
    target.passphrase = passphrase;
    if (!instance.ssh)
        return target;
    target.host = instance.ssh->host;
    target.port = instance.ssh->port;
    target.user = instance.ssh->user;
    target.expectedHostKeySha256 = instance.ssh->hostKeySha256;
    target.hostKeyLine = instance.ssh->hostKey;
    return target;
}

QString SshTarget::hostProblem(const QString &host)
{
    if (host.isEmpty())
        return tr("the provider gave no SSH address");
    const QString shown = host.left(64).simplified();
    // A zone ("%eth0") would be a token to OpenSSH; plain literals only.
    static const QRegularExpression ipChars(u"^[0-9A-Fa-f:.]+$"_s);
    if (ipChars.match(host).hasMatch() && !QHostAddress(host).isNull())
        return {};
    static const QRegularExpression label(u"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$"_s);
    if (host.size() > 253)
        return tr("the provider's SSH address is longer than 253 characters");
    for (const QString &part : host.split(u'.')) {
        if (!label.match(part).hasMatch())
            return tr("the provider's SSH address “%1” is neither a host name nor an IP address")
                .arg(shown);
    }
    return {};
}

QString SshTarget::userProblem(const QString &user)
{
    if (user.isEmpty())
        return tr("the provider gave no SSH user");
    static const QRegularExpression posix(u"^[a-z_][a-z0-9_-]*[$]?$"_s);
    if (user.size() > 32 || !posix.match(user).hasMatch())
        return tr("the provider's SSH user “%1” is not a valid user name")
            .arg(user.left(64).simplified());
    return {};
}

QString SshTarget::problem() const
{
    if (const QString why = hostProblem(host); !why.isEmpty())
        return tr("“%1” cannot be reached over SSH: %2").arg(instanceName, why);
    if (const QString why = userProblem(user); !why.isEmpty())
        return tr("“%1” cannot be reached over SSH: %2").arg(instanceName, why);
    return {};
}

QString SshTarget::describe() const
{
    return u"%1@%2:%3"_s.arg(user, host).arg(port);
}

} // namespace cardhour::core
