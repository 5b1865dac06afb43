#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QHash>
#include <QObject>

namespace cardhour::sim {

// How many connections are open into running boxes (for idle stops). Every way in is a box's
// sshd (port 22; the apps are reached through SSH forwards, which sshd opens to the app's port
// on the box's loopback), so the box's kernel tables (/proc/net/tcp*, read with one `exec` per
// box, no tool needed in the image) tell whether anyone is connected.
class ConnectionCounter final : public QObject
{
    Q_OBJECT
public:
    ConnectionCounter(EngineCommands &engine, const ContainerCache &cache,
                      QObject *parent = nullptr);

    // → counted, later, with the running ones among these that could be read.
    void count(const QStringList &instanceIds);

Q_SIGNALS:
    void counted(const QHash<QString, int> &byInstance);

private:
    EngineCommands &m_engine;
    const ContainerCache &m_cache;
};

} // namespace cardhour::sim
