#include "BoxNames.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace cardhour::sim::box {

QString containerName(const QString &instanceId)
{
    return u"cardhour-"_s + instanceId;
}

QString volumeName(const QString &instanceId)
{
    return u"cardhour-ws-"_s + instanceId;
}

QString networkName(const QString &instanceId)
{
    return u"cardhour-net-"_s + instanceId;
}

QString snapshotImage(const QString &snapshotId)
{
    // Image names must be lower case; snapshot ids are UUIDs.
    return u"localhost/cardhour-snapshot/"_s + snapshotId.toLower() + u":latest"_s;
}

QString snapshotArchive(const QString &dataDir, const QString &snapshotId)
{
    return QDir(dataDir).filePath(u"snapshots/%1/workspace.tar"_s.arg(snapshotId));
}

QString hostnameFor(const QString &instanceId)
{
    QString shortId;
    for (const QChar c : instanceId) {
        if (shortId.size() == 8)
            break;
        if (c.isLetterOrNumber() && c.unicode() < 128)
            shortId.append(c.toLower());
    }
    return u"cardhour-"_s + (shortId.isEmpty() ? u"instance"_s : shortId);
}

QStringList ownerLabels(const QString &instanceId, const QString &ownerId,
                        const QString &providerId)
{
    return {u"--label"_s, kManaged + u"=true"_s,   u"--label"_s, kInstance + u'=' + instanceId,
            u"--label"_s, kOwner + u'=' + ownerId, u"--label"_s, kProvider + u'=' + providerId};
}

} // namespace cardhour::sim::box
