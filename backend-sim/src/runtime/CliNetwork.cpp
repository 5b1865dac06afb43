#include "CliRuntime.h"
#include "CliRuntimePrivate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

// A network of its own for each box where the engine would otherwise put every box on one
// shared bridge (docker's default): a box cannot reach another box's ports, only its own
// published sshd on the host's loopback. podman's slirp4netns already gives each box its own
// user-mode network, so there the engine's option stays.

namespace cardhour::sim {

using namespace clidetail;

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

QString CliRuntime::networkName(const QString &instanceId)
{
    return u"cardhour-net-"_s + instanceId;
}

bool CliRuntime::perInstanceNetwork() const
{
    return m_options.network == kPerInstanceNetwork;
}

void CliRuntime::ensureNetwork(const std::shared_ptr<Launch> &launch, std::function<void()> then)
{
    const QString id = launch->id();
    QStringList args{u"network"_s, u"create"_s};
    args << u"--label"_s << kManaged + u"=true"_s << u"--label"_s << kInstance + u'=' + id
         << u"--label"_s << kOwner + u'=' + launch->spec.ownerId << u"--label"_s
         << kProvider + u'=' + m_options.providerId << networkName(id);
    runCli(args, [this, launch, then](const ProcResult &created) {
        const QString cid = launch->id();
        if (!current(cid, launch->token))
            return endOp(cid);
        if (created.ok()) {
            launch->networkReady = true;
            return then();
        }
        const bool exists = created.started && !created.timedOut
            && cli::classify(QString::fromUtf8(created.err)) == cli::Failure::NetworkExists;
        if (!exists)
            return failLaunch(launch, describe(created, what(u"network create"_s)), false);
        // Kept from an earlier attempt of this instance, or a name someone else took: names are
        // not trusted, labels are.
        runCli({u"network"_s, u"inspect"_s, networkName(cid)},
               [this, launch, then](const ProcResult &inspected) {
                   const QString iid = launch->id();
                   if (!current(iid, launch->token))
                       return endOp(iid);
                   if (!inspected.ok())
                       return failLaunch(launch, describe(inspected, what(u"network inspect"_s)),
                                         false);
                   const QHash<QString, QString> labels = networkLabels(inspected.out);
                   if (labels.value(kInstance) != iid
                       || labels.value(kProvider) != m_options.providerId)
                       return failLaunch(
                           launch,
                           u"network %1 exists and does not belong to this instance"_s.arg(
                               networkName(iid)),
                           false);
                   launch->networkReady = true;
                   then();
               });
    });
}

void CliRuntime::removeNetwork(const QString &instanceId, std::function<void()> then)
{
    if (!perInstanceNetwork())
        return then();
    runCli({u"network"_s, u"rm"_s, networkName(instanceId)},
           [this, instanceId, then](const ProcResult &rm) {
               const QString err = QString::fromUtf8(rm.err);
               // Gone already (never made, or removed by an earlier attempt) is what was wanted.
               if (!rm.ok() && !err.contains(u"not found"_s, Qt::CaseInsensitive))
                   qCWarning(lcCli).noquote()
                       << "the network of instance" << instanceId
                       << "is left behind:" << describe(rm, what(u"network rm"_s));
               then();
           });
}

} // namespace cardhour::sim
