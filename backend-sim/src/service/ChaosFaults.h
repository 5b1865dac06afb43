#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <optional>

namespace cardhour::sim {

class Clock;
class ContainerRuntime;
class EventBus;
class InstanceService;

// Rehearsed failures (the chaos API, /v1/chaos/faults, like LocalStack's Chaos API), so a user
// can test how their scripts recover. Each fault acts only on the caller's own account and
// hosts, and only when the operator allowed it (`cardhour-sim --allow-chaos`; the sandbox the
// desktop client starts allows it). Kinds:
//   fail_launch  the account's next create or start fails with `reason` (the runtime's
//                failNextLaunch seam): armed → done, with the instance it failed;
//   slow_api     every answer to the account is held `delay_ms` (1..10000) for `duration_s`
//                (1..600) by the HTTP layer: active → expired;
//   drop_ssh     the running host's SSH connections are cut (sshd keeps listening):
//                pending → done | failed;
//   fill_disk    the running host's bounded /workspace is filled (ENOSPC): pending → active
//                (full until cleared) | failed; clearing deletes the filling;
//   interrupt    the caller's running interruptible host gets the provider's interruption
//                notice (InstanceService::interrupt, reason "chaos") and stops at its
//                deadline: done at once, with the deadline.
// Every change of a fault is published as a `chaos.fault` event carrying the fault. Faults are
// kept in memory only: a restart of the provider forgets them (and ends every slow_api).
class ChaosFaults : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxDelayMs = 10'000;
    static constexpr int kMaxDurationS = 600;
    static constexpr int kMaxLiveFaults = 16; // armed, pending or active, per account
    static constexpr int kMaxKeptFaults = 50; // finished ones listed, per account

    ChaosFaults(ContainerRuntime &runtime, InstanceService &instances, EventBus &events,
                const Clock &clock, QObject *parent = nullptr);

    void setAllowed(bool allowed) { m_allowed = allowed; }
    bool allowed() const { return m_allowed; }

    // POST /v1/chaos/faults with this body; throws ApiError (400, 403, 404, 409, 501).
    QJsonObject add(const QString &userId, const QByteArray &body);
    // The caller's faults, newest first.
    QJsonArray list(const QString &userId);
    // DELETE: disarms, ends or undoes the fault (fill_disk: frees /workspace).
    QJsonObject clear(const QString &userId, const QString &faultId);
    // How long every answer to this account is held now (the longest active slow_api).
    int responseDelayMs(const QString &userId) const;

private:
    struct Fault
    {
        QString id;
        QString userId;
        QString kind;
        QString instanceId;
        QString state;
        QString reason; // fail_launch: the error the launch fails with
        int delayMs = 0;
        int durationS = 0;
        qint64 createdMs = 0;
        qint64 expiresMs = 0; // slow_api, on the provider's clock
        std::optional<qint64> firedMs;
        QString firedInstanceId; // fail_launch: the instance whose launch failed
        QString detail; // what happened, or why not
        qint64 realExpiry = 0; // slow_api: QDateTime::currentMSecsSinceEpoch() deadline
    };

    void requireAllowed() const;
    Fault parse(const QString &userId, const QByteArray &body) const;
    void requireRunningHost(const QString &userId, const Fault &fault);
    void start(Fault &fault);
    Fault *find(const QString &userId, const QString &faultId);
    Fault *liveBoxFault(const QString &instanceId, const QString &kind);
    void publish(const Fault &fault);
    void forgetOldFaults(const QString &userId);
    QJsonObject toJson(const Fault &fault) const;
    void onLaunchFailureUsed(const QString &tag, const QString &instanceId, const QString &reason);
    void onBoxFaultDone(const QString &instanceId, const QString &kind, bool ok,
                        const QString &detail);
    void expire(const QString &faultId);

    ContainerRuntime &m_runtime;
    InstanceService &m_instances;
    EventBus &m_events;
    const Clock &m_clock;
    bool m_allowed = false;
    QHash<QString, Fault> m_faults; // by id
    QList<QString> m_order; // ids, oldest first
};

} // namespace cardhour::sim
