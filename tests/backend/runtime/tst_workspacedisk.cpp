#include "runtime/WorkspaceDisk.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

// The parts of a per-instance disk that can be checked without an engine: the image file and
// the mount a failed start leaves behind (which podman's own start would stack a second one on).
class TestWorkspaceDisk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void allocatesASparsePrivateImage();
    void volumeMountPoints_data();
    void volumeMountPoints();
    void releasesEveryMountOfTheVolume();
};

namespace {

QByteArray mountinfoOf()
{
    QFile file(u"/proc/self/mountinfo"_s);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int run(const QString &program, const QStringList &args, QByteArray *output = nullptr)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    if (!process.waitForFinished(30000))
        return -1;
    if (output)
        *output = process.readAll();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

} // namespace

void TestWorkspaceDisk::allocatesASparsePrivateImage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"instances/i1/workspace.ext4"_s);
    QString error;
    QVERIFY2(WorkspaceDisk::allocate(path, 2, &error), qPrintable(error));
    QFile image(path);
    QCOMPARE(image.size(), qint64(2) * 1024 * 1024 * 1024);
    QCOMPARE(image.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteOther),
             QFile::Permissions());
    // A place that cannot be made: an error, and no file.
    const QString blocked = dir.filePath(u"file"_s);
    QVERIFY(QFile(blocked).open(QIODevice::WriteOnly));
    QVERIFY(!WorkspaceDisk::allocate(blocked + u"/i2/workspace.ext4"_s, 1, &error));
    QVERIFY(error.contains(u"cannot create"_s));
}

void TestWorkspaceDisk::volumeMountPoints_data()
{
    QTest::addColumn<QByteArray>("mountinfo");
    QTest::addColumn<QString>("volume");
    QTest::addColumn<QStringList>("points");
    const QByteArray two =
        "22 1 0:21 / / rw,relatime - overlay overlay rw\n"
        "501 22 7:3 / /var/lib/containers/storage/volumes/cardhour-ws-a1/_data rw,relatime "
        "shared:300 - ext4 /dev/loop3 rw\n"
        "502 22 7:4 / /var/lib/containers/storage/volumes/cardhour-ws-b2/_data rw - ext4 "
        "/dev/loop4 rw\n"
        "503 501 7:5 / /var/lib/containers/storage/volumes/cardhour-ws-a1/_data rw - ext4 "
        "/dev/loop5 rw\n";
    QTest::newRow("two on one folder, in mount order")
        << two << u"cardhour-ws-a1"_s
        << QStringList{u"/var/lib/containers/storage/volumes/cardhour-ws-a1/_data"_s,
                       u"/var/lib/containers/storage/volumes/cardhour-ws-a1/_data"_s};
    QTest::newRow("another volume")
        << two << u"cardhour-ws-b2"_s
        << QStringList{u"/var/lib/containers/storage/volumes/cardhour-ws-b2/_data"_s};
    QTest::newRow("a prefix of a name is not the name") << two << u"ws-a1"_s << QStringList();
    QTest::newRow("not mounted") << two << u"cardhour-ws-c3"_s << QStringList();
    // A name that could reach another folder is no volume's.
    QTest::newRow("a path") << two << u"../volumes/cardhour-ws-a1"_s << QStringList();
    QTest::newRow("empty name") << two << QString() << QStringList();
    QTest::newRow("short lines") << QByteArray("1 2 3\n\n") << u"v"_s << QStringList();
}

void TestWorkspaceDisk::volumeMountPoints()
{
    QFETCH(QByteArray, mountinfo);
    QFETCH(QString, volume);
    QFETCH(QStringList, points);
    QCOMPARE(WorkspaceDisk::volumeMountPoints(mountinfo, volume), points);
}

void TestWorkspaceDisk::releasesEveryMountOfTheVolume()
{
    if (const QString why = WorkspaceDisk::hostUnavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    // Two loop mounts of real ext4 images on one volume folder, as podman's start stacks them.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString volume = u"cardhour-ws-test-%1"_s.arg(::getpid());
    const QString data = dir.filePath(u"volumes/%1/_data"_s.arg(volume));
    QVERIFY(QDir().mkpath(data));
    const auto unmount = qScopeGuard([volume] {
        QString ignored;
        WorkspaceDisk::releaseLostMounts(volume, &ignored);
    });
    for (const QString &name : {u"first.ext4"_s, u"second.ext4"_s}) {
        const QString image = dir.filePath(name);
        QString error;
        QVERIFY2(WorkspaceDisk::allocate(image, 1, &error), qPrintable(error));
        QByteArray output;
        QVERIFY2(run(WorkspaceDisk::mkfsProgram(), WorkspaceDisk::mkfsArgs(image), &output) == 0,
                 output.constData());
        QVERIFY2(run(u"mount"_s, {u"-t"_s, u"ext4"_s, u"-o"_s, u"loop"_s, image, data}, &output)
                     == 0,
                 output.constData());
    }
    QCOMPARE(WorkspaceDisk::volumeMountPoints(mountinfoOf(), volume).size(), 2);
    QString error;
    QCOMPARE(WorkspaceDisk::releaseLostMounts(volume, &error), 2);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(WorkspaceDisk::volumeMountPoints(mountinfoOf(), volume).isEmpty());
    // Nothing left to release: none, and no error.
    QCOMPARE(WorkspaceDisk::releaseLostMounts(volume, &error), 0);
    QVERIFY(error.isEmpty());
    // The loop devices went with the mounts (mount -o loop sets autoclear).
    QByteArray loops;
    QCOMPARE(run(u"losetup"_s, {u"-j"_s, dir.filePath(u"first.ext4"_s)}, &loops), 0);
    QCOMPARE(loops.trimmed(), QByteArray());
}

QTEST_GUILESS_MAIN(TestWorkspaceDisk)
#include "tst_workspacedisk.moc"
