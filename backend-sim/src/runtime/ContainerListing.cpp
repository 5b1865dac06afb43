#include "ContainerListing.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

constexpr int kEventRefreshMs = 20; // events of one stop (died, stop, cleanup) come together
// podman may send an event a moment before its listing shows it (a `rm -f`'s "remove"): one
// more listing this long after the last event-driven one.
constexpr int kEventSettleMs = 1000;

// Why a blocking run did not get to an exit status: empty when it did.
QString whyUnfinished(const ProcessResult &result, int timeoutMs)
{
    if (!result.started)
        return result.startError;
    if (result.timedOut)
        return u"timed out after %1 s"_s.arg(timeoutMs / 1000);
    return {};
}

} // namespace

ContainerListing::ContainerListing(EngineCommands &engine, ContainerCache &cache, QObject *parent)
    : QObject(parent), m_engine(engine), m_cache(cache)
{
    m_eventRefresh = new QTimer(this);
    m_eventRefresh->setSingleShot(true);
    m_eventRefresh->setInterval(kEventRefreshMs);
    connect(m_eventRefresh, &QTimer::timeout, this, &ContainerListing::refresh);
    auto *settle = new QTimer(this);
    settle->setSingleShot(true);
    settle->setInterval(kEventSettleMs);
    connect(settle, &QTimer::timeout, this, &ContainerListing::refresh);
    connect(m_eventRefresh, &QTimer::timeout, settle, qOverload<>(&QTimer::start));
}

void ContainerListing::refreshSoon(bool again)
{
    if (again || !m_eventRefresh->isActive())
        m_eventRefresh->start();
}

void ContainerListing::refresh()
{
    const quint64 stamp = m_cache.stamp();
    m_engine.run(m_engine.listArgs(), [this, stamp](const ProcessResult &r) {
        if (!r.ok()) {
            qCWarning(lcCli).noquote() << EngineCommands::describe(r, m_engine.what(u"ps"_s));
            Q_EMIT refreshed({}, false);
            return;
        }
        m_cache.applyRefresh(cli::parseContainerList(r.out, m_engine.providerId()), stamp);
        Q_EMIT refreshed(m_cache.runningById(), true);
    });
}

bool ContainerListing::refreshNow(int timeoutMs)
{
    const quint64 stamp = m_cache.stamp();
    const ProcessResult r = m_engine.runBlocking(m_engine.listArgs(), timeoutMs);
    if (!r.ok()) {
        const QString unfinished = whyUnfinished(r, timeoutMs);
        qCWarning(lcCli).noquote()
            << m_engine.what(u"ps"_s)
            << "failed:" << (unfinished.isEmpty() ? cli::tail(r.err) : unfinished);
        Q_EMIT refreshed({}, false);
        return false;
    }
    const QList<cli::ContainerInfo> found = cli::parseContainerList(r.out, m_engine.providerId());
    // A provider that died in the middle of a snapshot left its container frozen: thawed here.
    for (const cli::ContainerInfo &info : found) {
        if (info.state == u"paused"_s) {
            const ProcessResult up =
                m_engine.runBlocking({u"unpause"_s, info.containerId}, timeoutMs);
            if (!up.ok())
                qCWarning(lcCli).noquote() << m_engine.what(u"unpause"_s) << info.containerId
                                           << "failed:" << cli::tail(up.err);
        }
    }
    m_cache.applyRefresh(found, stamp);
    Q_EMIT refreshed(m_cache.runningById(), true);
    return true;
}

} // namespace cardhour::sim
