#include "AppWatcher.h"

#include <QSet>
#include <QTimer>

#include <optional>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// One `exec` per look: the listening sockets, then "answer PORT HTTP-CODE" per pending port.
QStringList probeCommand(const AppWatcher::Apps &pending)
{
    QStringList ports;
    for (const auto &app : pending)
        ports.append(QString::number(app.second));
    return {u"sh"_s, u"-c"_s,
            u"cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; command -v curl >/dev/null || exit 0;"
            " for p in %1; do printf 'answer %s %s\\n' $p \"$(curl -s -o /dev/null -m 2 -w"
            " '%{http_code}' http://127.0.0.1:$p/)\"; done"_s.arg(ports.join(u' '))};
}

// Ports that answered HTTP, or nullopt when the probe could not ask (no curl in the image).
std::optional<QSet<int>> answeringPorts(const QByteArray &out)
{
    std::optional<QSet<int>> ports;
    for (const QByteArray &line : out.split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() != 3 || fields.at(0) != "answer")
            continue;
        if (!ports)
            ports.emplace();
        if (fields.at(2) != "000")
            ports->insert(fields.at(1).toInt());
    }
    return ports;
}

// Often while an app usually starts, then seldom: each look is an `exec` in the box.
constexpr int kAppPollMs = 500;
constexpr int kAppSlowPollMs = 5000;
constexpr int kAppFastPollForMs = 30'000;
// An app that has not listened by then is left as not answering (its instance still runs).
constexpr int kAppDeadlineMs = 10 * 60 * 1000;
} // namespace

AppWatcher::AppWatcher(EngineCommands &engine, const ContainerCache &cache, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache)
{}

void AppWatcher::watch(const QString &instanceId, const QString &containerId, const Apps &apps)
{
    stopWatching(instanceId);
    if (apps.isEmpty() || containerId.isEmpty())
        return;
    Watch &watch = m_watches[instanceId];
    watch.generation = ++m_lastGeneration;
    watch.containerId = containerId;
    watch.pending = apps;
    watch.since.start();
    poll(instanceId, watch.generation);
}

void AppWatcher::stopWatching(const QString &instanceId)
{
    m_watches.remove(instanceId);
}

void AppWatcher::poll(const QString &instanceId, quint64 generation)
{
    const auto it = m_watches.find(instanceId);
    if (it == m_watches.end() || it->generation != generation || it->polling)
        return;
    if (!m_cache.isRunning(instanceId) || it->since.hasExpired(kAppDeadlineMs)) {
        m_watches.erase(it);
        return;
    }
    it->polling = true;
    // `cat` fails when the box has no IPv6 (no tcp6): what it printed still counts.
    m_engine.run(
        QStringList{u"exec"_s, it->containerId} + probeCommand(it->pending),
        [this, instanceId, generation](const ProcessResult &result) {
            noteAnswers(instanceId, generation, result.out);
        },
        5000);
}

void AppWatcher::noteAnswers(const QString &instanceId, quint64 generation, const QByteArray &out)
{
    auto watch = m_watches.find(instanceId);
    if (watch == m_watches.end() || watch->generation != generation)
        return;
    watch->polling = false;
    const QSet<int> listening = cli::listeningPorts(out);
    const std::optional<QSet<int>> answering = answeringPorts(out);
    QStringList answered;
    for (auto app = watch->pending.begin(); app != watch->pending.end();) {
        if (listening.contains(app->second) && (!answering || answering->contains(app->second))) {
            answered.append(app->first);
            app = watch->pending.erase(app);
        } else {
            ++app;
        }
    }
    const bool done = watch->pending.isEmpty();
    const int delay = watch->since.hasExpired(kAppFastPollForMs) ? kAppSlowPollMs : kAppPollMs;
    if (done)
        m_watches.erase(watch);
    // The slots may stop or remove the instance (ending the watch): `watch` is not used after
    // this.
    for (const QString &name : std::as_const(answered)) {
        qCInfo(lcCli).noquote() << u"instance %1: app \"%2\" answers"_s.arg(instanceId, name);
        Q_EMIT appAnswered(instanceId, name);
    }
    if (!done)
        QTimer::singleShot(delay, this,
                           [this, instanceId, generation] { poll(instanceId, generation); });
}

} // namespace cardhour::sim
