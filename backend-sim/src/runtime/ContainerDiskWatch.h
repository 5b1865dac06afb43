#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QHash>
#include <QList>
#include <QObject>

class QTimer;

namespace cardhour::sim {

// Measures the writable layer ("own disk") of every running container of this provider now
// and then, with its /workspace volume where nothing else bounds that (`withWorkspace`), and
// reports those over their instance's disk (label cardhour.disk-gib) → diskFull.
// The layers' folders are read here where they can be (LayerSize, off the event loop); a
// remote engine's are measured by `ps --size`. One path for podman and docker: their listings
// are read by cli::parseContainerList, and what differs (docker lists short ids and no start
// time) is made up from `inspect`.
class ContainerDiskWatch final : public QObject
{
    Q_OBJECT
public:
    // intervalMs <= 0: only check() measures.
    ContainerDiskWatch(EngineCommands &engine, const ContainerCache &cache, int intervalMs,
                       bool withWorkspace, QObject *parent = nullptr);

    void check();
    // `boxes`: the running containers as `ps` lists them; `used`: bytes of each one's own disk
    // by container id as listed.
    void apply(const QList<cli::ContainerInfo> &boxes, const QHash<QString, qint64> &used);

Q_SIGNALS:
    void diskFull(const QString &instanceId, qint64 usedBytes, qint64 limitBytes);

private:
    QStringList runningArgs(bool withSizes) const;
    void listed(const ProcessResult &r);
    void inspected(const QByteArray &lines, const QStringList &unknown);
    void measure(const QList<cli::ContainerInfo> &boxes);
    void measureByEngine();

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
    QTimer *m_timer = nullptr;
    bool m_inFlight = false;
    // What each running container's own disk may hold beyond its size since it started (by
    // its start time): a box started again after a stop for a full disk may clean up, not grow.
    struct Baseline
    {
        QString startedAt;
        qint64 bytes = 0;
    };
    QHash<QString, Baseline> m_baselines;
    QHash<QString, qint64> m_fullBytes; // what it held when last stopped for a full disk
    const bool m_withWorkspace;
    // What `inspect` said of a running container, by its id as listed: its writable layer's
    // folder (and its /workspace volume's, withWorkspace), and when it started.
    struct Inspected
    {
        QStringList folders;
        QString startedAt;
    };
    QHash<QString, Inspected> m_inspected;
};

} // namespace cardhour::sim
