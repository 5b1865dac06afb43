#include "core/RuntimeFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#ifndef CARDHOUR_RELATIVE_DATADIR
#error "CARDHOUR_RELATIVE_DATADIR must name <datadir>/cardhour relative to the installed bindir"
#endif
#ifndef CARDHOUR_BUILD_RUNTIME_DIR
#error "CARDHOUR_BUILD_RUNTIME_DIR must name the build tree's share/cardhour"
#endif

using namespace Qt::StringLiterals;

namespace cardhour::sim {

QStringList RuntimeFiles::candidates()
{
    QStringList result;
    // Without a QCoreApplication (a unit test's static set-up) there is no program folder.
    if (QCoreApplication::instance()) {
        const QDir programDir(QCoreApplication::applicationDirPath());
        result.append(QDir::cleanPath(
            programDir.absoluteFilePath(QString::fromUtf8(CARDHOUR_RELATIVE_DATADIR))));
    }
    const QString build = QDir::cleanPath(QString::fromUtf8(CARDHOUR_BUILD_RUNTIME_DIR));
    if (!result.contains(build))
        result.append(build);
    return result;
}

QString RuntimeFiles::dir()
{
    const QStringList folders = candidates();
    for (const QString &folder : folders) {
        if (QFileInfo(QDir(folder).filePath(u"images"_s)).isDir())
            return folder;
    }
    return folders.first();
}

QString RuntimeFiles::imagesDir()
{
    return QDir(dir()).filePath(u"images"_s);
}

QString RuntimeFiles::containersConf()
{
    return QDir(dir()).filePath(u"podman/containers.conf"_s);
}

} // namespace cardhour::sim
