#include "InstanceNetworks.h"

#include "BoxNames.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace cardhour::sim {

namespace {

// `network inspect` of both engines prints an array; docker writes "Labels", podman's own CLI
// "labels".
QHash<QString, QString> networkLabels(const QByteArray &inspectOutput)
{
    QHash<QString, QString> labels;
    const QJsonArray all = QJsonDocument::fromJson(inspectOutput).array();
    if (all.isEmpty())
        return labels;
    const QJsonObject network = all.first().toObject();
    QJsonObject raw = network.value(u"Labels"_s).toObject();
    if (raw.isEmpty())
        raw = network.value(u"labels"_s).toObject();
    for (auto it = raw.begin(); it != raw.end(); ++it)
        labels.insert(it.key(), it.value().toString());
    return labels;
}

} // namespace

InstanceNetworks::InstanceNetworks(LaunchSteps &steps, QString network, QObject *parent)
    : QObject(parent), m_steps(steps), m_engine(steps.engine()), m_network(std::move(network))
{}

bool InstanceNetworks::perInstance() const
{
    return m_network == box::kPerInstanceNetwork;
}

QString InstanceNetworks::runOption(const QString &instanceId) const
{
    return perInstance() ? box::networkName(instanceId) : m_network;
}

void InstanceNetworks::ensure(const std::shared_ptr<Launch> &launch, std::function<void()> then)
{
    const QString id = launch->id();
    const QStringList args = QStringList{u"network"_s, u"create"_s}
        + box::ownerLabels(id, launch->spec.ownerId, m_engine.providerId())
        + QStringList{box::networkName(id)};
    m_engine.run(args, [this, launch, then](const ProcessResult &created) {
        if (m_steps.abandoned(*launch))
            return;
        if (created.ok()) {
            launch->networkReady = true;
            return then();
        }
        const bool exists = created.started && !created.timedOut
            && cli::classify(QString::fromUtf8(created.err)) == cli::Failure::NetworkExists;
        if (!exists)
            return m_steps.fail(
                launch, EngineCommands::describe(created, m_engine.what(u"network create"_s)),
                false);
        adoptExisting(launch, then);
    });
}

void InstanceNetworks::adoptExisting(const std::shared_ptr<Launch> &launch,
                                     std::function<void()> then)
{
    // Kept from an earlier attempt of this instance, or a name someone else took: names are
    // not trusted, labels are.
    m_engine.run(
        {u"network"_s, u"inspect"_s, box::networkName(launch->id())},
        [this, launch, then](const ProcessResult &inspected) {
            const QString iid = launch->id();
            if (m_steps.abandoned(*launch))
                return;
            if (!inspected.ok())
                return m_steps.fail(
                    launch,
                    EngineCommands::describe(inspected, m_engine.what(u"network inspect"_s)),
                    false);
            const QHash<QString, QString> labels = networkLabels(inspected.out);
            if (labels.value(box::kInstance) != iid
                || labels.value(box::kProvider) != m_engine.providerId())
                return m_steps.fail(launch,
                                    u"network %1 exists and does not belong to this instance"_s.arg(
                                        box::networkName(iid)),
                                    false);
            launch->networkReady = true;
            then();
        });
}

void InstanceNetworks::remove(const QString &instanceId, std::function<void()> then)
{
    if (!perInstance())
        return then();
    m_engine.run({u"network"_s, u"rm"_s, box::networkName(instanceId)},
                 [this, instanceId, then](const ProcessResult &rm) {
                     const QString err = QString::fromUtf8(rm.err);
                     // Gone already (never made, or removed by an earlier attempt) is what was
                     // wanted.
                     if (!rm.ok() && !err.contains(u"not found"_s, Qt::CaseInsensitive))
                         qCWarning(lcCli).noquote()
                             << "the network of instance" << instanceId << "is left behind:"
                             << EngineCommands::describe(rm, m_engine.what(u"network rm"_s));
                     then();
                 });
}

} // namespace cardhour::sim
