#include "ssh/SshKeyChoice.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::core {

SshKeyChoice SshKeyChoice::choose(const Instance &instance, const QList<SshKey> &providerKeys,
                                  const QList<SshKeyPair> &localKeys)
{
    SshKeyChoice choice;
    const QString name = instance.name.isEmpty() ? instance.id : instance.name;
    if (instance.sshKeyIds.isEmpty()) {
        choice.missing = tr("“%1” was launched without an SSH key, so no key can log in to it. "
                            "Launch an instance with one of your keys.")
                             .arg(name);
        return choice;
    }
    QStringList wanted;
    for (const QString &id : instance.sshKeyIds) {
        const auto provider = std::find_if(providerKeys.cbegin(), providerKeys.cend(),
                                           [&id](const SshKey &k) { return k.id == id; });
        if (provider == providerKeys.cend()) {
            // Deleted from the account since the launch: the host still has it, we cannot say more.
            wanted << tr("key %1 (no longer in your account)").arg(id);
            continue;
        }
        for (const SshKeyPair &local : localKeys) {
            if (local.fingerprintSha256() == provider->fingerprintSha256) {
                choice.key = local;
                return choice;
            }
        }
        wanted << tr("“%1” (%2)").arg(provider->name, provider->fingerprintSha256);
    }
    choice.missing = tr("The private key for %1 is missing from this computer, and “%2” accepts "
                        "no other key. Import it under SSH keys, or launch with a key from this "
                        "computer.")
                         .arg(wanted.join(tr(", ")), name);
    return choice;
}

} // namespace cardhour::core
