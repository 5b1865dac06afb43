#include "CliRuntime.h"
#include "CliRuntimePrivate.h"
#include "SshProbe.h"

#include <QFile>
#include <QTimer>

using namespace Qt::StringLiterals;

// From a running container to a ready instance: the provider's own SSH probe (a key exchange
// that checks the host key), and a watchdog that fails a launch whose container exits first.

namespace cardhour::sim {

using namespace clidetail;

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

void CliRuntime::waitForSshd(const std::shared_ptr<Launch> &launch)
{
    const QString id = launch->id();
    if (!current(id, launch->token))
        return endOp(id);
    Q_EMIT stageReached(id, u"sshd"_s);
    if (!current(id, launch->token)) // a slot asked for stop/remove (no probe yet to cancel)
        return endOp(id);
    SshProbe *probe = SshProbe::probeUntilReady(
        kLoopback, launch->sshPort, launch->spec.hostKeySha256, m_options.readyDeadlineMs, this,
        [this, launch](const SshProbe::Result &result) {
            const QString iid = launch->id();
            launch->stopWatchdog();
            auto it = m_ops.find(iid);
            if (it != m_ops.end())
                it->probe = nullptr;
            if (!current(iid, launch->token))
                return endOp(iid);
            if (result.isReady()) {
                qCInfo(lcCli).noquote()
                    << u"instance %1 ready on %2:%3 after %4 ms (%5; sshd answered after %6 ms, %7 probes)"_s
                           .arg(iid, kLoopback)
                           .arg(launch->sshPort)
                           .arg(launch->clock.elapsed())
                           .arg(launch->fresh ? u"create"_s : u"start"_s)
                           .arg(result.elapsedMs)
                           .arg(result.attempts);
                Q_EMIT stageReached(iid, u"ready"_s);
                if (current(iid, launch->token)) {
                    Q_EMIT ready(iid,
                                 SshEndpoint{kLoopback, launch->sshPort, launch->spec.sshUser,
                                             launch->spec.hostKeySha256,
                                             hostKeyLine(launch->spec.sshDir)});
                    QList<int> appPorts;
                    for (const auto &app : std::as_const(launch->spec.apps))
                        appPorts.append(app.second);
                    m_appPorts.insert(iid, appPorts);
                    watchApps(iid, launch->containerId, launch->spec.apps);
                }
                return endOp(iid);
            }
            // Why: the container's own log says more than "not listening" does.
            const QString reason = u"sshd did not become ready: %1"_s.arg(result.message);
            failWithContainerLog(launch, reason, true);
        });
    m_ops[id].probe = probe;
    m_ops[id].launch = launch;

    // A container that exits (a broken image, an unusable host key) fails at once, not at the
    // probe's deadline.
    launch->probing = true;
    auto *watchdog = new QTimer(this);
    watchdog->setInterval(1000);
    launch->watchdog = watchdog;
    connect(watchdog, &QTimer::timeout, this, [this, launch] { checkContainer(launch); });
    watchdog->start();
}

void CliRuntime::failWithContainerLog(const std::shared_ptr<Launch> &launch, const QString &reason,
                                      bool stopContainer)
{
    runCli({u"logs"_s, u"--tail"_s, u"15"_s, launch->containerId},
           [this, launch, reason, stopContainer](const ProcResult &logs) {
               const QString log = cli::tail(logs.out + logs.err, 500);
               failLaunch(launch, log.isEmpty() ? reason : reason + u"; container log: "_s + log,
                          stopContainer);
           });
}

void CliRuntime::checkContainer(const std::shared_ptr<Launch> &launch)
{
    if (!launch->probing || !current(launch->id(), launch->token)) {
        launch->stopWatchdog(); // the op ended, or was ended by a newer request
        return;
    }
    if (launch->checking)
        return;
    launch->checking = true;
    runCli({u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s,
            u"{{.State.Running}} {{.State.ExitCode}}"_s, launch->containerId},
           [this, launch](const ProcResult &r) {
               launch->checking = false;
               const QString id = launch->id();
               if (!launch->probing || !current(id, launch->token))
                   return;
               QString reason;
               if (r.ok()) {
                   const QStringList fields = QString::fromUtf8(r.out).simplified().split(u' ');
                   if (fields.value(0) != u"false"_s)
                       return; // still running: the probe carries on
                   reason = u"the container exited (code %1) before sshd was ready"_s.arg(
                       fields.value(1));
               } else if (r.started && !r.timedOut
                          && QString::fromUtf8(r.err).contains(u"no such"_s, Qt::CaseInsensitive)) {
                   reason = u"the container disappeared before sshd was ready"_s;
               } else {
                   return; // engine hiccup: ask again at the next tick
               }
               launch->stopWatchdog();
               auto it = m_ops.find(id);
               if (it != m_ops.end() && it->probe) {
                   it->probe->cancel();
                   it->probe = nullptr;
               }
               setRunning(id, false);
               failWithContainerLog(launch, reason, false);
           });
}

} // namespace cardhour::sim
