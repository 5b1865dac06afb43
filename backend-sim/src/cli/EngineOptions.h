#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

namespace cardhour::sim {

// The options every subcommand that talks to podman shares (`images`, `doctor`): which podman,
// which containers.conf, which tag prefix. Declared once so their names, defaults and help stay
// the same everywhere.
class EngineOptions
{
public:
    EngineOptions();

    void addTo(QCommandLineParser *parser) const;

    // After parsing; `containersConf` is what applies when --containers-conf is not given
    // ($CONTAINERS_CONF, from main.cpp).
    QString podman(const QCommandLineParser &parser) const;
    QString containersConf(const QCommandLineParser &parser, const QString &fallback) const;
    QString tagPrefix(const QCommandLineParser &parser) const;

private:
    QCommandLineOption m_podman;
    QCommandLineOption m_containersConf;
    QCommandLineOption m_tagPrefix;
};

} // namespace cardhour::sim
