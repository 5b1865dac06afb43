#include "EngineCommands.h"

#include "BoxNames.h"

using namespace Qt::StringLiterals;

namespace cardhour::sim {

Q_LOGGING_CATEGORY(lcCli, "cardhour.sim.containers", QtInfoMsg)

EngineCommands::EngineCommands(cli::Engine engine, QString providerId)
    : m_engine(engine), m_providerId(std::move(providerId))
{}

EngineCommands::~EngineCommands() = default;

QString EngineCommands::name() const
{
    return cli::engineName(m_engine);
}

QString EngineCommands::what(const QString &verb) const
{
    return name() + u' ' + verb;
}

QString EngineCommands::describe(const ProcessResult &result, const QString &what)
{
    if (!result.started)
        return u"%1: could not be run (%2)"_s.arg(what, result.startError);
    if (result.timedOut)
        return u"%1 timed out: %2"_s.arg(what, cli::tail(result.err));
    const QString detail = cli::tail(result.err.trimmed().isEmpty() ? result.out : result.err);
    return u"%1 failed (exit %2)%3"_s.arg(what)
        .arg(result.exitCode)
        .arg(detail.isEmpty() ? QString() : u": "_s + detail);
}

QStringList EngineCommands::labelFilter(const QString &instanceId) const
{
    QStringList args{u"--filter"_s, u"label="_s + box::kManaged + u"=true"_s, u"--filter"_s,
                     u"label="_s + box::kProvider + u'=' + m_providerId};
    if (!instanceId.isEmpty())
        args << u"--filter"_s << u"label="_s + box::kInstance + u'=' + instanceId;
    return args;
}

QStringList EngineCommands::listArgs(const QString &instanceId) const
{
    return QStringList{u"ps"_s, u"-a"_s} + labelFilter(instanceId)
        + QStringList{u"--format"_s, u"json"_s};
}

void EngineCommands::findContainer(const QString &instanceId, FindCallback done)
{
    run(listArgs(instanceId), [this, instanceId, done = std::move(done)](const ProcessResult &r) {
        if (!r.ok()) {
            done(false, describe(r, what(u"ps"_s)), {});
            return;
        }
        QList<cli::ContainerInfo> found;
        const QList<cli::ContainerInfo> all = cli::parseContainerList(r.out, m_providerId);
        for (const cli::ContainerInfo &info : all) {
            if (info.instanceId == instanceId)
                found.append(info);
        }
        done(true, {}, found);
    });
}

} // namespace cardhour::sim
