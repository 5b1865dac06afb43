#pragma once

#include "api/Models.h"

#include <QCoreApplication>
#include <QString>

namespace cardhour::ui {

// The words around stop, start and terminate: pure functions of an instance as the provider
// describes it, so what the confirmation promises is what the provider's `retention` says, not
// what the UI assumes. (SSH commands are core/ssh's: SshAccess.)
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
};

} // namespace cardhour::ui
