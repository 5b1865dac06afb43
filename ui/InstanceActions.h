#pragma once

#include "api/Models.h"

#include <QCoreApplication>
#include <QString>

namespace cardhour::ui {

// The words around stop, start and terminate, and the SSH command: pure functions of an
// instance as the provider describes it, so what the confirmation promises is what the
// provider's `retention` says, not what the UI assumes.
class InstanceActions
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::InstanceActions)
public:
    enum class Action {
        Stop,
        Start,
        Terminate
    };

    static bool allowed(Action action, const core::Instance &instance);
    // The confirmation's question and the preview of what happens to data and billing.
    static QString question(Action action, const core::Instance &instance);
    static QString preview(Action action, const core::Instance &instance);
    static QString buttonText(Action action);

    // "ssh -p PORT -o StrictHostKeyChecking=yes -o UserKnownHostsFile=FILE root@127.0.0.1".
    // Where the provider reported the host key, it is written to `knownHostsFile` first (one line
    // per host and port, replaced), so ssh checks the key the provider vouches for instead of
    // trusting whatever answers on first use. Empty when the instance has no SSH endpoint.
    static QString sshCommand(const core::Instance &instance, const QString &knownHostsFile);
    // The known_hosts line for the instance ("[127.0.0.1]:2222 ssh-ed25519 AAAA…").
    static QString knownHostsLine(const core::Instance &instance);
    static bool writeKnownHost(const core::Instance &instance, const QString &knownHostsFile);
};

} // namespace cardhour::ui
