#include "ssh/SshTarget.h"

#include "api/Models.h"
#include "ssh/SshKeyPair.h"

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

QString SshTarget::describe() const
{
    return u"%1@%2:%3"_s.arg(user, host).arg(port);
}

} // namespace cardhour::core
