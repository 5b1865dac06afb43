#include "EgressFilter.h"

#include "EngineCommands.h"
#include "Process.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkInterface>
#include <QSaveFile>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

bool isV4(QAbstractSocket::NetworkLayerProtocol family)
{
    return family == QAbstractSocket::IPv4Protocol;
}

} // namespace

EgressFilter::EgressFilter(EngineCommands &engine, Settings settings, QObject *parent)
    : QObject(parent), m_engine(engine), m_settings(std::move(settings))
{}

QStringList EgressFilter::blockedRanges(QAbstractSocket::NetworkLayerProtocol family)
{
    if (isV4(family))
        return {u"0.0.0.0/8"_s,      u"10.0.0.0/8"_s,    u"100.64.0.0/10"_s, u"127.0.0.0/8"_s,
                u"169.254.0.0/16"_s, u"172.16.0.0/12"_s, u"192.0.0.0/24"_s,  u"192.168.0.0/16"_s,
                u"198.18.0.0/15"_s,  u"224.0.0.0/4"_s,   u"240.0.0.0/4"_s};
    return {u"::/127"_s, u"::ffff:0:0/96"_s, u"fc00::/7"_s, u"fe80::/10"_s, u"ff00::/8"_s};
}

QByteArray EgressFilter::rules(QAbstractSocket::NetworkLayerProtocol family,
                               const QList<QHostAddress> &host)
{
    QStringList lines{u"*filter"_s, u":OUTPUT ACCEPT [0:0]"_s,
                      // The box's own loopback, and answers on connections made to it.
                      u"-A OUTPUT -o lo -j ACCEPT"_s,
                      u"-A OUTPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT"_s,
                      // Name lookups go to whatever resolver the engine gave the box.
                      u"-A OUTPUT -p udp --dport 53 -j ACCEPT"_s,
                      u"-A OUTPUT -p tcp --dport 53 -j ACCEPT"_s};
    QStringList targets = blockedRanges(family);
    for (QHostAddress address : host) {
        // Loopback and link-local ones are in the ranges already (and a link-local one has a
        // scope, "%eth0", that iptables does not take).
        if (address.protocol() != family || address.isLoopback() || address.isLinkLocal())
            continue;
        address.setScopeId({});
        targets << address.toString() + (isV4(family) ? u"/32"_s : u"/128"_s);
    }
    // A refused connection, at once: TCP is reset, the rest told the port is unreachable.
    const QString unreachable =
        isV4(family) ? u"icmp-port-unreachable"_s : u"icmp6-port-unreachable"_s;
    for (const QString &target : std::as_const(targets)) {
        lines << u"-A OUTPUT -d %1 -p tcp -j REJECT --reject-with tcp-reset"_s.arg(target)
              << u"-A OUTPUT -d %1 -j REJECT --reject-with %2"_s.arg(target, unreachable);
    }
    lines << u"COMMIT"_s << QString();
    return lines.join(u'\n').toLatin1();
}

QString EgressFilter::writeRules(QAbstractSocket::NetworkLayerProtocol family, QString *error) const
{
    // Read again at each launch: the host's addresses change (DHCP, a VPN).
    const QByteArray text = rules(family, QNetworkInterface::allAddresses());
    const QString path = QDir(m_settings.dataDir.isEmpty() ? QDir::tempPath() : m_settings.dataDir)
                             .filePath(isV4(family) ? u"egress-rules.v4"_s : u"egress-rules.v6"_s);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        *error = u"cannot write %1: %2"_s.arg(path, file.errorString());
        return {};
    }
    return path;
}

void EgressFilter::apply(const QString &containerId, Done done)
{
    if (!m_settings.enabled)
        return done({}, false);
    m_engine.run(
        {u"inspect"_s, u"--type"_s, u"container"_s, u"--format"_s, u"json"_s, containerId},
        [this, done = std::move(done)](const ProcessResult &r) {
            if (m_engine.isShuttingDown())
                return;
            if (!r.ok())
                return done(u"the network filter found no process: "_s
                                + EngineCommands::describe(r, m_engine.what(u"inspect"_s)),
                            r.started && !r.timedOut);
            const QJsonArray found = QJsonDocument::fromJson(r.out).array();
            const qint64 pid =
                found.at(0).toObject().value(u"State"_s).toObject().value(u"Pid"_s).toInteger();
            if (pid <= 0)
                return done(u"the network filter found no process of the container"_s, true);
            filterPid(pid, done);
        });
}

void EgressFilter::filterPid(qint64 pid, const Done &done)
{
    QString error;
    const QString v4 = writeRules(QAbstractSocket::IPv4Protocol, &error);
    const QString v6 = v4.isEmpty() ? QString() : writeRules(QAbstractSocket::IPv6Protocol, &error);
    if (v6.isEmpty())
        return done(u"the network filter: "_s + error, false);
    QStringList enter{u"--target"_s, QString::number(pid), u"--net"_s};
#ifdef Q_OS_UNIX
    // Rootless engines own the box's network namespace from a user namespace of theirs.
    if (geteuid() != 0)
        enter << u"--user"_s << u"--preserve-credentials"_s;
#endif
    Process::Options options;
    options.timeoutMs = m_settings.timeoutMs;
    options.mergeChannels = true;
    const QString nsenter = m_settings.nsenter;
    Process::start(
        this, nsenter, QStringList(enter) << m_settings.iptablesRestore << v4, options,
        [this, enter, v6, options, nsenter, done](const ProcessResult &four) {
            // The process gone between the inspection and now: its namespace with it.
            const bool gone = four.out.contains("/ns/net: No such file");
            if (!four.ok())
                return done(u"the network filter could not be set (run cardhour-sim as root, or "
                            "with --allow-private-network): "_s
                                + EngineCommands::describe(four, u"iptables-restore"_s),
                            gone);
            // IPv6 as well where the box has it; a namespace without IPv6 needs no rules.
            Process::start(this, nsenter, QStringList(enter) << m_settings.ip6tablesRestore << v6,
                           options, [done](const ProcessResult &six) {
                               const bool noIpv6 = six.out.contains("Address family not supported")
                                   || six.out.contains("can't initialize ip6tables");
                               if (!six.ok() && !noIpv6)
                                   return done(
                                       u"the network filter (IPv6) could not be set: "_s
                                           + EngineCommands::describe(six, u"ip6tables-restore"_s),
                                       six.out.contains("/ns/net: No such file"));
                               done({}, false);
                           });
        });
}

} // namespace cardhour::sim
