// RuntimeFiles: the sandbox's runtime files are found next to the program (an installed
// layout, made here by copying the real cardhour-sim into bin/ of a scratch prefix), else in
// the build tree's staged copy; never in the source tree.
#include "core/RuntimeFiles.h"
#include "runtime/ImageRecipes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::sim::ImageRecipes;
using cardhour::sim::RuntimeFiles;

namespace {

// Copies a folder tree, keeping the files' permissions (executable scripts stay executable).
bool copyTree(const QString &from, const QString &to)
{
    const QDir source(from);
    if (!QDir().mkpath(to))
        return false;
    for (const QFileInfo &entry :
         source.entryInfoList(QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot | QDir::Hidden)) {
        const QString target = QDir(to).filePath(entry.fileName());
        if (entry.isDir()) {
            if (!copyTree(entry.absoluteFilePath(), target))
                return false;
        } else if (!QFile::copy(entry.absoluteFilePath(), target)
                   || !QFile::setPermissions(target, entry.permissions())) {
            return false;
        }
    }
    return true;
}

struct Run
{
    int exitCode = -1;
    QString output;
};

Run runSim(const QString &program, const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"CONTAINERS_CONF"_s); // the installed containers.conf must be the default
    env.insert(u"PATH"_s, u"/nonexistent"_s); // no podman: nothing here may depend on it
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    Run run;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished(2000);
        return run;
    }
    run.exitCode = process.exitCode();
    run.output = QString::fromUtf8(process.readAll());
    return run;
}

} // namespace

class TestRuntimeFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void buildTreeCopyIsFound();
    void installedLayoutIsFoundFromTheProgram();
};

void TestRuntimeFiles::buildTreeCopyIsFound()
{
    // This test's own folder has no ../share/cardhour: the build tree's staged copy serves.
    const QStringList candidates = RuntimeFiles::candidates();
    QCOMPARE(candidates.size(), 2);
    QCOMPARE(candidates.first(),
             QDir::cleanPath(QCoreApplication::applicationDirPath() + u"/../share/cardhour"_s));
    QCOMPARE(RuntimeFiles::dir(), candidates.last());
    QVERIFY(
        !RuntimeFiles::dir().startsWith(QStringLiteral(CARDHOUR_SOURCE_DIR) + u"/backend-sim"_s));
    QVERIFY(QFileInfo(RuntimeFiles::imagesDir() + u"/base/Containerfile"_s).isFile());
    QVERIFY(QFileInfo(RuntimeFiles::imagesDir() + u"/base/nvidia-smi"_s).isExecutable());
    QVERIFY(QFileInfo(RuntimeFiles::imagesDir() + u"/bootstrap-debian"_s).isExecutable());
    QVERIFY(QFileInfo(RuntimeFiles::containersConf()).isFile());
    QCOMPARE(ImageRecipes::defaultImagesDir(), RuntimeFiles::imagesDir());
    // The staged copy holds every recipe file of the source, byte for byte (same recipe hash).
    const QString source = QStringLiteral(CARDHOUR_SOURCE_DIR) + u"/backend-sim/images/base"_s;
    QCOMPARE(ImageRecipes::recipeHash(RuntimeFiles::imagesDir() + u"/base"_s),
             ImageRecipes::recipeHash(source));
}

void TestRuntimeFiles::installedLayoutIsFoundFromTheProgram()
{
    QTemporaryDir prefix;
    QVERIFY(prefix.isValid());
    const QString bin = prefix.filePath(u"bin"_s);
    QVERIFY(QDir().mkpath(bin));
    const QString sim = QDir(bin).filePath(u"cardhour-sim"_s);
    QVERIFY(QFile::copy(qEnvironmentVariable("CARDHOUR_SIM_BIN"), sim));
    QVERIFY(QFile::setPermissions(sim, QFile::ReadOwner | QFile::ExeOwner));
    const QString share = prefix.filePath(u"share/cardhour"_s);
    QVERIFY(copyTree(RuntimeFiles::dir(), share));

    // `images --help` names the recipe folder it reads by default; doctor the containers.conf
    // it gives podman.
    const Run help = runSim(sim, {u"images"_s, u"--help"_s});
    QVERIFY2(help.output.contains(share + u"/images"_s), qPrintable(help.output));
    const Run doctor = runSim(sim, {u"doctor"_s});
    QVERIFY2(doctor.output.contains(share + u"/podman/containers.conf"_s),
             qPrintable(doctor.output));
}

QTEST_GUILESS_MAIN(TestRuntimeFiles)
#include "tst_runtimefiles.moc"
