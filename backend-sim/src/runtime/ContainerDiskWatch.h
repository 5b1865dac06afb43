#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>

class QTimer;

namespace cardhour::sim {

// Measures the writable layer ("own disk") of every running container of this provider now
// and then, with its /workspace volume where nothing else bounds that (`withWorkspace`), and
// reports those over their instance's disk (label cardhour.disk-gib) → diskFull.
// The layers' folders are read here where they can be (LayerSize, off the event loop); a
// remote engine's are measured by `ps --size`.
class ContainerDiskWatch final : public QObject
{
    Q_OBJECT
public:
    // intervalMs <= 0: only check() measures.
    ContainerDiskWatch(EngineCommands &engine, const ContainerCache &cache, int intervalMs,
                       bool withWorkspace, QObject *parent = nullptr);

    void check();
    // `boxes`: the running containers as `ps` lists them; `used`: bytes of each one's own disk
    // by container id.
    void apply(const QJsonArray &boxes, const QHash<QString, qint64> &used);

Q_SIGNALS:
    void diskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes);

private:
    QStringList runningArgs() const;
    void listed(const ProcessResult &r);
    void measure(const QJsonArray &boxes);
    void measureByEngine();

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
    QTimer *m_timer = nullptr;
    bool m_inFlight = false;
    // What each running container's own disk may hold beyond its size since it started (by
    // its start time): a box started again after a stop for a full disk may clean up, not grow.
    struct Baseline
    {
        qint64 startedAt = 0;
        qint64 bytes = 0;
    };
    QHash<QString, Baseline> m_baselines;
    QHash<QString, qint64> m_fullBytes; // what it held when last stopped for a full disk
    const bool m_withWorkspace;
    // container id → its writable layer's folder (and its /workspace volume's, withWorkspace)
    QHash<QString, QStringList> m_folders;
};

} // namespace cardhour::sim
