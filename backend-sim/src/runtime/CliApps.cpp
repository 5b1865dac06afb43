// CliRuntime, continued: whether a running instance's one-click apps answer yet. Apps listen on
// the box's own loopback (nothing is published on the host), so the host cannot connect to
// them; the box's kernel says which ports listen, read with `exec cat /proc/net/tcp*`, which
// needs no tool inside the image. Each app is reported once, as stage "app:<name>".
#include "CliRuntimePrivate.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {
// Often while an app usually starts, then seldom: each look is an `exec` in the box.
constexpr int kAppPollMs = 500;
constexpr int kAppSlowPollMs = 5000;
constexpr int kAppFastPollForMs = 30'000;
// An app that has not listened by then is left as not answering (its instance still runs).
constexpr int kAppDeadlineMs = 10 * 60 * 1000;
} // namespace

void CliRuntime::watchApps(const QString &instanceId, const QString &containerId,
                           const QList<QPair<QString, int>> &apps)
{
    stopWatchingApps(instanceId);
    if (apps.isEmpty() || containerId.isEmpty())
        return;
    AppWatch &watch = m_appWatches[instanceId];
    watch.generation = ++m_lastAppWatch;
    watch.containerId = containerId;
    watch.pending = apps;
    watch.since.start();
    pollApps(instanceId, watch.generation);
}

void CliRuntime::stopWatchingApps(const QString &instanceId)
{
    m_appWatches.remove(instanceId);
}

void CliRuntime::pollApps(const QString &instanceId, quint64 generation)
{
    const auto it = m_appWatches.find(instanceId);
    if (it == m_appWatches.end() || it->generation != generation || it->polling)
        return;
    if (!isRunning(instanceId) || it->since.hasExpired(kAppDeadlineMs)) {
        m_appWatches.erase(it);
        return;
    }
    it->polling = true;
    // `cat` exits non-zero when the box has no IPv6 (no tcp6): what it printed still counts.
    runCli(
        {u"exec"_s, it->containerId, u"cat"_s, u"/proc/net/tcp"_s, u"/proc/net/tcp6"_s},
        [this, instanceId, generation](const ProcResult &result) {
            auto watch = m_appWatches.find(instanceId);
            if (watch == m_appWatches.end() || watch->generation != generation)
                return;
            watch->polling = false;
            const QSet<int> listening = cli::listeningPorts(result.out);
            QStringList answered;
            for (auto app = watch->pending.begin(); app != watch->pending.end();) {
                if (listening.contains(app->second)) {
                    answered.append(app->first);
                    app = watch->pending.erase(app);
                } else {
                    ++app;
                }
            }
            const bool done = watch->pending.isEmpty();
            const int delay =
                watch->since.hasExpired(kAppFastPollForMs) ? kAppSlowPollMs : kAppPollMs;
            if (done)
                m_appWatches.erase(watch);
            // The slots may stop or remove the instance (ending the watch): `watch` is not used
            // after this.
            for (const QString &name : std::as_const(answered)) {
                qCInfo(lcCli).noquote()
                    << u"instance %1: app \"%2\" answers"_s.arg(instanceId, name);
                Q_EMIT stageReached(instanceId, u"app:"_s + name);
            }
            if (!done)
                QTimer::singleShot(delay, this, [this, instanceId, generation] {
                    pollApps(instanceId, generation);
                });
        },
        5000);
}

} // namespace cardhour::sim
