#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace cardhour::sim {

class EngineCommands;

// What a box may reach on the network. By default not the host's own addresses, nor the
// link-local (a cloud's metadata service at 169.254.169.254), private, shared or loopback
// ranges: a tenant's box must not talk to the provider's LAN, its other services or a cloud
// VM's credentials. The rules go into the box's own network namespace (nsenter +
// iptables-restore, from the host) after the container starts and before its sshd is probed;
// the box has no CAP_NET_ADMIN to undo them. Name lookups (port 53) stay open, and so do
// answers to connections made to the box (its published sshd and app ports).
// `cardhour-sim --allow-private-network` turns it off (a LAN-only sandbox that wants it).
class EgressFilter final : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        bool enabled = true;
        QString dataDir; // the rule files are written here
        QString nsenter = QStringLiteral("nsenter");
        QString iptablesRestore = QStringLiteral("iptables-restore");
        QString ip6tablesRestore = QStringLiteral("ip6tables-restore");
        int timeoutMs = 10000;
    };
    // `error` empty: filtered (or turned off). `gone`: the container's process ended before it
    // could be filtered (a box whose command exits): nothing runs to let out, and the caller
    // reports the exit itself, with the container's log.
    using Done = std::function<void(const QString &error, bool gone)>;

    EgressFilter(EngineCommands &engine, Settings settings, QObject *parent = nullptr);

    bool enabled() const { return m_settings.enabled; }
    // Filters the running container's network; `done` gets an error when it could not.
    void apply(const QString &containerId, Done done);

    // iptables-restore input for the OUTPUT chain of a box: the ranges above and `host`.
    static QByteArray rules(QAbstractSocket::NetworkLayerProtocol family,
                            const QList<QHostAddress> &host);
    // The ranges a box may not reach, as "address/prefix".
    static QStringList blockedRanges(QAbstractSocket::NetworkLayerProtocol family);

private:
    void filterPid(qint64 pid, const Done &done);
    QString writeRules(QAbstractSocket::NetworkLayerProtocol family, QString *error) const;

    EngineCommands &m_engine;
    Settings m_settings;
};

} // namespace cardhour::sim
