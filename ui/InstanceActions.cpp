#include "InstanceActions.h"

#include "Format.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Instance;
using core::InstanceState;

namespace {

QString listOf(const QStringList &items)
{
    QStringList words;
    for (const QString &item : items)
        words << Format::retentionItem(item);
    return words.join(InstanceActions::tr(", "));
}

QString shellQuote(const QString &text)
{
    static const QString safe =
        u"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@"_s;
    const bool plain = !text.isEmpty()
        && std::all_of(text.cbegin(), text.cend(), [](QChar c) { return safe.contains(c); });
    if (plain)
        return text;
    QString quoted = text;
    quoted.replace(u"'"_s, u"'\\''"_s);
    return u"'"_s + quoted + u"'"_s;
}

} // namespace

bool InstanceActions::allowed(Action action, const Instance &instance)
{
    switch (action) {
    case Action::Stop:
        return instance.state == InstanceState::Running || instance.state == InstanceState::Starting
            || instance.state == InstanceState::Creating;
    case Action::Start:
        return instance.state == InstanceState::Stopped;
    case Action::Terminate:
        return instance.state != InstanceState::Terminated
            && instance.state != InstanceState::Unknown;
    }
    return false;
}

QString InstanceActions::question(Action action, const Instance &instance)
{
    switch (action) {
    case Action::Stop:
        return tr("Stop “%1”?").arg(instance.name);
    case Action::Start:
        return tr("Start “%1” again?").arg(instance.name);
    case Action::Terminate:
        return tr("Terminate “%1” for good?").arg(instance.name);
    }
    return {};
}

QString InstanceActions::buttonText(Action action)
{
    switch (action) {
    case Action::Stop:
        return tr("Stop");
    case Action::Start:
        return tr("Start");
    case Action::Terminate:
        return tr("Terminate");
    }
    return {};
}

QString InstanceActions::preview(Action action, const Instance &instance)
{
    const core::Retention &r = instance.retention;
    QStringList lines;
    switch (action) {
    case Action::Stop:
        if (r.stopKeeps.contains(u"workspace_volume"_s))
            lines << tr("/workspace is kept.");
        if (!r.stopKeeps.isEmpty())
            lines << tr("Kept while stopped: %1.").arg(listOf(r.stopKeeps));
        else
            lines << tr("The provider promises to keep no data across a stop.");
        if (!r.stopReleases.isEmpty())
            lines << tr("Released: %1 (a later start needs free cards again).")
                         .arg(listOf(r.stopReleases));
        lines << tr("Billing of %1 stops the moment you stop.")
                     .arg(Format::ratePerHour(instance.pricePerHourMicros));
        if (r.billedWhileStopped.isEmpty())
            lines << tr("Nothing is billed while it is stopped.");
        else
            lines << tr("Still billed while stopped: %1.").arg(listOf(r.billedWhileStopped));
        break;
    case Action::Start:
        lines << tr("Billing starts again at %1 once it is running.")
                     .arg(Format::ratePerHour(instance.pricePerHourMicros));
        if (r.stopKeeps.contains(u"workspace_volume"_s))
            lines << tr("/workspace is as you left it.");
        break;
    case Action::Terminate:
        if (r.terminateDeletes.contains(u"workspace_volume"_s))
            lines << tr("Terminate deletes /workspace: its data cannot be recovered.");
        if (!r.terminateDeletes.isEmpty())
            lines << tr("Deleted: %1.").arg(listOf(r.terminateDeletes));
        lines << tr("Billing ends for good; the cost so far stays on your bill.");
        break;
    }
    return lines.join(u'\n');
}

QString InstanceActions::knownHostsLine(const Instance &instance)
{
    if (!instance.ssh || instance.ssh->hostKey.isEmpty())
        return {};
    const core::SshEndpoint &ssh = *instance.ssh;
    const QString host = ssh.port == 22 ? ssh.host : u"[%1]:%2"_s.arg(ssh.host).arg(ssh.port);
    return host + u' ' + ssh.hostKey.trimmed();
}

bool InstanceActions::writeKnownHost(const Instance &instance, const QString &knownHostsFile)
{
    const QString line = knownHostsLine(instance);
    if (line.isEmpty())
        return false;
    const QString hostField = line.section(u' ', 0, 0);
    QStringList lines;
    QFile in(knownHostsFile);
    if (in.open(QIODevice::ReadOnly | QIODevice::Text)) {
        // Ports are reused by later instances: the old key for this host and port goes.
        const QStringList old = QString::fromUtf8(in.readAll()).split(u'\n', Qt::SkipEmptyParts);
        for (const QString &existing : old) {
            if (existing.section(u' ', 0, 0) != hostField)
                lines << existing;
        }
    }
    lines << line;
    QDir().mkpath(QFileInfo(knownHostsFile).absolutePath());
    QSaveFile out(knownHostsFile);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    out.write((lines.join(u'\n') + u'\n').toUtf8());
    return out.commit();
}

QString InstanceActions::sshCommand(const Instance &instance, const QString &knownHostsFile)
{
    if (!instance.ssh || instance.ssh->port <= 0)
        return {};
    const core::SshEndpoint &ssh = *instance.ssh;
    QStringList parts{u"ssh"_s, u"-p"_s, QString::number(ssh.port)};
    if (!knownHostsFile.isEmpty() && writeKnownHost(instance, knownHostsFile)) {
        parts << u"-o"_s << u"StrictHostKeyChecking=yes"_s << u"-o"_s
              << shellQuote(u"UserKnownHostsFile="_s + knownHostsFile);
    } else {
        // No key from the provider to check against: keep the first one seen, in a file of
        // our own so a reused port never trips over the user's known_hosts.
        parts << u"-o"_s << u"StrictHostKeyChecking=accept-new"_s;
        if (!knownHostsFile.isEmpty())
            parts << u"-o"_s << shellQuote(u"UserKnownHostsFile="_s + knownHostsFile);
    }
    parts << shellQuote(u"%1@%2"_s.arg(ssh.user.isEmpty() ? u"root"_s : ssh.user, ssh.host));
    return parts.join(u' ');
}

} // namespace cardhour::ui
