#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QObject>
#include <QString>

namespace cardhour::sim {

// Rehearsed failures inside running boxes (the chaos API), each one `exec` of a shell script
// (no tool beyond coreutils and util-linux in the image):
//   drop_ssh     kills every sshd process but the listener (PID 1), so each client sees its
//                connection closed, as after a network cut, and can log in again at once;
//   fill_disk    fills /workspace with fallocate'd files until not one block is left, so writes
//                fail with ENOSPC (only where /workspace is a bounded file system of its own);
//   unfill_disk  deletes those files again.
// → done(instanceId, fault, ok, detail): what was found (connections ended, bytes used of the
// bound) or why it could not be done.
class BoxFaults final : public QObject
{
    Q_OBJECT
public:
    BoxFaults(EngineCommands &engine, const ContainerCache &cache, QObject *parent = nullptr);

    void dropSsh(const QString &instanceId);
    void fillWorkspace(const QString &instanceId);
    void unfillWorkspace(const QString &instanceId);

    // The scripts (for their own tests, which run them on the host).
    static QString dropSshScript();
    static QString fillScript(const QString &dir);
    static QString unfillScript(const QString &dir);
    // "<size> <used> <available> <enospc 0|1>" as the fill and unfill scripts print them.
    static QString describeFill(const QByteArray &out, bool filled, bool *ok);

Q_SIGNALS:
    void done(const QString &instanceId, const QString &fault, bool ok, const QString &detail);

private:
    void runIn(const QString &instanceId, const QString &fault, const QString &script);

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
};

} // namespace cardhour::sim
