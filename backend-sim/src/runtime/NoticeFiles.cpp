#include "NoticeFiles.h"

#include "InstanceFiles.h"

#include <QDebug>
#include <QDir>
#include <QFile>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace cardhour::sim::notices {

QString hostDirFor(const QString &dataDir, const QString &instanceId)
{
    if (dataDir.isEmpty() || !InstanceFiles::isSafeId(instanceId))
        return {};
    return InstanceFiles::instanceDirFor(dataDir, instanceId) + u"/notices"_s;
}

bool write(const QString &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir + u'/' + name;
    if (content.isEmpty())
        return !QFile::exists(path) || QFile::remove(path);
    QSaveFile file(path);
    const bool written = QDir().mkpath(dir) && file.open(QIODevice::WriteOnly)
        && file.write(content) == content.size()
        && file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup
                               | QFile::ReadOther)
        && file.commit();
    if (!written)
        qWarning().noquote() << "cardhour-sim: cannot write the notice" << path << ':'
                             << file.errorString();
    return written;
}

} // namespace cardhour::sim::notices
