#pragma once

#include "ContainerCache.h"
#include "EngineCommands.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>

namespace cardhour::sim {

// Whether a running instance's one-click apps answer yet. Apps listen on the box's own
// loopback (nothing is published on the host), so the host cannot connect to them; the box's
// kernel says which ports listen (/proc/net/tcp*, one `exec`, no tool needed), and where the
// image has curl, an app counts only once its web UI answers an HTTP request (any status: a
// listening socket whose server is still loading does not). Each app is reported once.
class AppWatcher final : public QObject
{
    Q_OBJECT
public:
    using Apps = QList<QPair<QString, int>>; // name, port inside the box

    AppWatcher(EngineCommands &engine, const ContainerCache &cache, QObject *parent = nullptr);

    // Looks until each app answers, the instance stops running or the deadline passes.
    void watch(const QString &instanceId, const QString &containerId, const Apps &apps);
    void stopWatching(const QString &instanceId);
    bool isWatching(const QString &instanceId) const { return m_watches.contains(instanceId); }

Q_SIGNALS:
    void appAnswered(const QString &instanceId, const QString &appName);

private:
    struct Watch
    {
        quint64 generation = 0;
        QString containerId;
        Apps pending; // apps not answering yet
        QElapsedTimer since;
        bool polling = false; // an `exec` is under way
    };

    void poll(const QString &instanceId, quint64 generation);
    void noteAnswers(const QString &instanceId, quint64 generation, const QByteArray &out);

    EngineCommands &m_engine;
    const ContainerCache &m_cache;
    QHash<QString, Watch> m_watches; // running instances whose apps do not answer yet
    quint64 m_lastGeneration = 0;
};

} // namespace cardhour::sim
