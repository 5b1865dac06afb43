#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QHash>
#include <QObject>

class QTimer;

namespace cardhour::sim {

// Lists this provider's containers (`ps -a` by label) into the ContainerCache: on request, at
// start-up (blocking), and shortly after the engine's events say that one ended or started.
class ContainerListing final : public QObject
{
    Q_OBJECT
public:
    ContainerListing(EngineCommands &engine, ContainerCache &cache, QObject *parent = nullptr);

    void refresh(); // → refreshed
    // The same, blocking; a container a provider that died mid-snapshot left paused is
    // unpaused. For the provider's start-up only.
    bool refreshNow(int timeoutMs);
    // A listing soon (events of one stop come together, one listing for them all); `again`:
    // restart the wait when one is already due.
    void refreshSoon(bool again = false);

Q_SIGNALS:
    // Every instance of this provider that has a container, and whether it runs.
    void refreshed(const QHash<QString, bool> &runningById, bool ok);

private:
    EngineCommands &m_engine;
    ContainerCache &m_cache;
    QTimer *m_eventRefresh = nullptr; // one refresh for a burst of events
};

} // namespace cardhour::sim
