#include "cli/EngineOptions.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

EngineOptions::EngineOptions()
    : m_podman(u"podman"_s, u"The podman program (default: podman)."_s, u"PATH"_s, u"podman"_s),
      m_containersConf(u"containers-conf"_s,
                       u"containers.conf for podman (sets CONTAINERS_CONF)."_s, u"FILE"_s),
      m_tagPrefix(u"tag-prefix"_s, u"Prefix of image tags (default: localhost/cardhour/)."_s,
                  u"PREFIX"_s, u"localhost/cardhour/"_s)
{}

void EngineOptions::addTo(QCommandLineParser *parser) const
{
    parser->addOptions({m_podman, m_containersConf, m_tagPrefix});
}

QString EngineOptions::podman(const QCommandLineParser &parser) const
{
    return parser.value(m_podman);
}

QString EngineOptions::containersConf(const QCommandLineParser &parser,
                                      const QString &fallback) const
{
    return parser.isSet(m_containersConf) ? parser.value(m_containersConf) : fallback;
}

QString EngineOptions::tagPrefix(const QCommandLineParser &parser) const
{
    return parser.value(m_tagPrefix);
}

} // namespace cardhour::sim
