#include "SshdReadiness.h"

#include "BoxNames.h"
#include "SshProbe.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// "ssh-ed25519 AAAA..." of the instance's host key, from the .pub file beside it.
QString hostKeyLine(const QString &sshDir)
{
    QFile file(sshDir + QStringLiteral("/ssh_host_ed25519_key.pub"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> fields = file.readAll().trimmed().split(' ');
    return fields.size() >= 2 ? QString::fromLatin1(fields.at(0) + ' ' + fields.at(1)) : QString();
}

} // namespace

SshdReadiness::SshdReadiness(LaunchSteps &steps, AppWatcher &apps, int readyDeadlineMs,
                             QObject *parent)
    : QObject(parent), m_steps(steps), m_apps(apps), m_readyDeadlineMs(readyDeadlineMs)
{}

void SshdReadiness::waitFor(const std::shared_ptr<Launch> &launch)
{
    const QString id = launch->id();
    if (m_steps.abandoned(*launch))
        return;
    Q_EMIT stageReached(id, u"sshd"_s);
    if (m_steps.abandoned(*launch)) // a slot asked for stop/remove (no probe yet to cancel)
        return;
    SshProbe *probe = SshProbe::probeUntilReady(
        box::kLoopback, launch->sshPort, launch->spec.hostKeySha256, m_readyDeadlineMs, this,
        [this, launch](const SshProbe::Result &result) {
            const QString iid = launch->id();
            launch->stopWatchdog();
            forget(*launch);
            m_steps.queue().clearProbe(iid);
            if (m_steps.abandoned(*launch))
                return;
            if (result.isReady())
                return becameReady(launch, result.elapsedMs, result.attempts);
            // Why: the container's own log says more than "not listening" does.
            const QString reason = u"sshd did not become ready: %1"_s.arg(result.message);
            m_steps.failWithContainerLog(launch, reason, true);
        });
    m_steps.queue().setProbe(id, probe);
    m_waiting.insert(id, launch);

    // A container that exits (a broken image, an unusable host key) fails at once, not at the
    // probe's deadline.
    launch->probing = true;
    auto *watchdog = new QTimer(this);
    watchdog->setInterval(1000);
    launch->watchdog = watchdog;
    connect(watchdog, &QTimer::timeout, this, [this, launch] { checkContainer(launch); });
    watchdog->start();
}

void SshdReadiness::becameReady(const std::shared_ptr<Launch> &launch, qint64 probeMs, int probes)
{
    const QString iid = launch->id();
    qCInfo(lcCli).noquote()
        << u"instance %1 ready on %2:%3 after %4 ms (%5; sshd answered after %6 ms, %7 probes)"_s
               .arg(iid, box::kLoopback)
               .arg(launch->sshPort)
               .arg(launch->clock.elapsed())
               .arg(launch->fresh ? u"create"_s : u"start"_s)
               .arg(probeMs)
               .arg(probes);
    Q_EMIT stageReached(iid, u"ready"_s);
    if (m_steps.current(*launch)) {
        Q_EMIT ready(iid,
                     SshEndpoint{box::kLoopback, launch->sshPort, launch->spec.sshUser,
                                 launch->spec.hostKeySha256, hostKeyLine(launch->spec.sshDir)});
        QList<int> appPorts;
        for (const auto &app : std::as_const(launch->spec.apps))
            appPorts.append(app.second);
        m_steps.cache().setAppPorts(iid, appPorts);
        m_apps.watch(iid, launch->containerId, launch->spec.apps);
    }
    m_steps.queue().end(iid);
}

void SshdReadiness::forget(const Launch &launch)
{
    const auto it = m_waiting.constFind(launch.id());
    if (it != m_waiting.cend() && (it->expired() || it->lock().get() == &launch))
        m_waiting.erase(it);
}

void SshdReadiness::checkNow(const QString &instanceId)
{
    if (const std::shared_ptr<Launch> launch = m_waiting.value(instanceId).lock())
        checkContainer(launch);
}

void SshdReadiness::checkContainer(const std::shared_ptr<Launch> &launch)
{
    if (!launch->probing || !m_steps.current(*launch)) {
        launch->stopWatchdog(); // the op ended, or was ended by a newer request
        return;
    }
    if (launch->checking)
        return;
    launch->checking = true;
    m_steps.engine().run({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
                          u"{{.State.Running}} {{.State.ExitCode}}"_s, launch->containerId},
                         [this, launch](const ProcessResult &r) { containerChecked(launch, r); });
}

void SshdReadiness::containerChecked(const std::shared_ptr<Launch> &launch, const ProcessResult &r)
{
    launch->checking = false;
    const QString id = launch->id();
    if (!launch->probing || !m_steps.current(*launch))
        return;
    QString reason;
    if (r.ok()) {
        const QStringList fields = QString::fromUtf8(r.out).simplified().split(u' ');
        if (fields.value(0) != u"false"_s)
            return; // still running: the probe carries on
        reason = u"the container exited (code %1) before sshd was ready"_s.arg(fields.value(1));
    } else if (r.started && !r.timedOut
               && QString::fromUtf8(r.err).contains(u"no such"_s, Qt::CaseInsensitive)) {
        reason = u"the container disappeared before sshd was ready"_s;
    } else {
        return; // engine hiccup: ask again at the next tick
    }
    launch->stopWatchdog();
    forget(*launch);
    m_steps.queue().cancelProbe(id);
    m_steps.cache().setRunning(id, false);
    m_steps.failWithContainerLog(launch, reason, false);
}

} // namespace cardhour::sim
