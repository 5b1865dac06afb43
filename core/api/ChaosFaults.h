#pragma once

// Rehearsed failures of the provider's chaos API (POST/GET/DELETE /v1/chaos/faults, and the
// `chaos.fault` event): what was injected, on which host, and what it did.

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QTimeZone>

namespace cardhour::core {

struct ChaosFault
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::core::ChaosFault)

public:
    QString id;
    QString kind; // fail_launch, slow_api, drop_ssh, fill_disk, interrupt
    QString state; // armed, pending, active, clearing, done, failed, expired, cleared
    QString instanceId; // drop_ssh, fill_disk: the host; empty otherwise
    QDateTime createdAt;
    QDateTime firedAt; // invalid until it took effect
    QString detail; // what happened, or why not (the provider's words)
    QString reason; // fail_launch: the error the launch fails with
    QString failedInstanceId; // fail_launch: the instance whose launch it failed
    int delayMs = 0; // slow_api
    int durationS = 0; // slow_api
    QDateTime expiresAt; // slow_api

    static ChaosFault fromJson(const QJsonObject &o);
    // One sentence of what the fault did or does now, for the status bar and the CLI;
    // `hostName` names its host (the instance's name, else its id); times in `zone` (the
    // provider's, where the window says every time is).
    QString describe(const QString &hostName = {},
                     const QTimeZone &zone = QTimeZone::systemTimeZone()) const;
};

// What POST /v1/chaos/faults asks for.
struct NewChaosFault
{
    QString kind;
    QString instanceId; // drop_ssh, fill_disk, interrupt
    QString reason; // fail_launch; empty: the provider's default
    int delayMs = 0; // slow_api
    int durationS = 0; // slow_api

    QJsonObject toJson() const;
};

} // namespace cardhour::core
