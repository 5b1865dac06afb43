#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

namespace cardhour::sim {

class SshProbe;

// The container runtime's requests per instance, one after another. Each op gets a token
// unique for the queue's life; current() tells a step whether its op still counts. A stop or
// remove asked for while a create/start runs makes that one stale (it ends at its next step)
// and ends a wait for sshd at once.
class InstanceOpQueue final : public QObject
{
    Q_OBJECT
public:
    enum class Kind {
        Create,
        Start,
        Stop,
        Remove,
        Snapshot
    };
    using Run = std::function<void(quint64 token)>;

    using QObject::QObject;

    // Runs `run` (on the event loop) once the instance's earlier ops have ended.
    void enqueue(const QString &instanceId, Kind kind, Run run);
    bool current(const QString &instanceId, quint64 token) const;
    // The op in progress is over: the next one starts.
    void end(const QString &instanceId);

    // The sshd probe of the create/start in progress: a stop or remove cancels it.
    void setProbe(const QString &instanceId, SshProbe *probe);
    void clearProbe(const QString &instanceId);
    void cancelProbe(const QString &instanceId);

    // Whether a request for this instance is queued or in progress.
    bool hasPendingWork(const QString &instanceId) const;
    bool hasPendingWork() const { return !m_ops.isEmpty(); }
    bool contains(const QString &instanceId) const { return m_ops.contains(instanceId); }

private:
    struct Op
    {
        Kind kind;
        Run run;
    };
    struct InstanceOps
    {
        quint64 epoch = 0; // token of the op in progress; 0 once a newer request superseded it
        bool busy = false;
        Kind current = Kind::Create;
        QList<Op> queue;
        QPointer<SshProbe> probe;
    };

    QHash<QString, InstanceOps> m_ops;
    quint64 m_lastToken = 0;
};

} // namespace cardhour::sim
