#pragma once

#include "BoxHardware.h"
#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QStringList>

namespace cardhour::sim {

// Looks at what the engine really gave: inside a running box (the hardware report its PID 1
// writes at every start, read from the host through the box's root where this host runs the
// box's processes, else with one `exec`), and what this provider's boxes hold on the host
// (containers and volumes by label, for the terminate reconciler).
class BoxInspector final : public QObject
{
    Q_OBJECT
public:
    BoxInspector(EngineCommands &engine, const ContainerCache &cache, bool workspaceBounded,
                 QObject *parent = nullptr);

    void inspect(const QString &instanceId); // → inspected
    void findLeftovers(); // → leftoversFound

Q_SIGNALS:
    void inspected(const QString &instanceId, const cardhour::sim::BoxHardware &found);
    void leftoversFound(const QHash<QString, QStringList> &byInstance, bool ok);

private:
    struct Reading
    {
        QString instanceId;
        QString container;
        QString startId; // what the report of this start names; empty: unknown
        qint64 pid = 0;
        QDeadlineTimer deadline;
    };
    void pollReport(const Reading &reading);
    void readReportByExec(const Reading &reading);
    void finish(const QString &instanceId, BoxHardware found);

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
    bool m_workspaceBounded = false;
};

} // namespace cardhour::sim
