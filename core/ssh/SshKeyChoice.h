#pragma once

#include "api/Models.h"
#include "ssh/SshKeyPair.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace cardhour::core {

// Which of the user's local keys opens an instance: the provider lists the keys an instance
// was launched with (ids, with fingerprints from GET /v1/ssh-keys); the first one whose
// fingerprint is in the local key store wins. Without one, `missing` says which keys the
// instance accepts and that none of them is on this computer.
class SshKeyChoice
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::SshKeyChoice)
public:
    SshKeyPair key; // invalid when none matches
    QString missing; // translated, when !key.isValid()

    static SshKeyChoice choose(const Instance &instance, const QList<SshKey> &providerKeys,
                               const QList<SshKeyPair> &localKeys);
};

} // namespace cardhour::core
