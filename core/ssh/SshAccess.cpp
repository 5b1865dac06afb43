#include "ssh/SshAccess.h"

#include "ssh/SshConfigWriter.h"
#include "ssh/SshKeyChoice.h"

namespace cardhour::core {

SshAccess SshAccess::resolve(const Instance &instance, const QList<SshKey> &providerKeys,
                             const QList<SshKeyPair> &localKeys, const QString &knownHostsPath,
                             KeyNeed need)
{
    SshAccess access;
    const SshKeyChoice choice = SshKeyChoice::choose(instance, providerKeys, localKeys);
    if (!choice.key.isValid() && need == KeyNeed::Required) {
        access.error = choice.missing;
        return access;
    }
    access.target = SshTarget::fromInstance(instance, choice.key);
    if (!access.target.isValid()) {
        // A hostile host or user (a newline and ProxyCommand, say) goes no further than here.
        access.error = access.target.host.isEmpty()
            ? tr("“%1” has no SSH address yet.").arg(access.target.instanceName)
            : access.target.problem();
        access.target = {};
        return access;
    }
    if (!SshConfigWriter::pinHostKey(knownHostsPath, access.target, &access.error))
        access.target = {};
    return access;
}

QString SshAccess::copiedCommand(const Instance &instance, const QList<SshKey> &providerKeys,
                                 const QList<SshKeyPair> &localKeys, const QString &knownHostsPath,
                                 QString *error, SshTarget *target)
{
    const SshAccess access =
        resolve(instance, providerKeys, localKeys, knownHostsPath, KeyNeed::Optional);
    if (!access.ok()) {
        *error = access.error;
        return {};
    }
    if (target)
        *target = access.target;
    return SshConfigWriter::sshCommandLine(access.target, knownHostsPath);
}

} // namespace cardhour::core
