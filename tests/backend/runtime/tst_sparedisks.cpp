#include "runtime/SpareDisks.h"
#include "runtime/WorkspaceDisk.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

// Spare /workspace images: whole when ready, moved by a launch, made again, few sizes kept.
class TestSpareDisks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void aSpareIsAFormattedImageALaunchMoves();
    void oneSpareOfASize();
    void keepsTheLastSizesAskedFor();
    void aNewProviderKeepsWholeSparesOnly();
    void aSpareThatCannotBeMovedIsDropped();

private:
    static bool isExt4(const QString &path);
    static bool makeSpare(SpareDisks &spares, qint64 gib);
};

void TestSpareDisks::init()
{
    if (WorkspaceDisk::mkfsProgram().isEmpty())
        QSKIP("mkfs.ext4 (e2fsprogs) is not installed");
}

bool TestSpareDisks::isExt4(const QString &path)
{
    // The ext2/3/4 superblock starts at byte 1024; its magic 0xEF53 (little-endian) at +0x38.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(1024 + 0x38))
        return false;
    return file.read(2) == QByteArray("\x53\xEF", 2);
}

bool TestSpareDisks::makeSpare(SpareDisks &spares, qint64 gib)
{
    QSignalSpy made(&spares, &SpareDisks::made);
    spares.replenish(gib, 0);
    if (!made.wait(30000) || made.first().at(0).toLongLong() != gib)
        return false;
    return made.first().at(1).toString().isEmpty();
}

void TestSpareDisks::aSpareIsAFormattedImageALaunchMoves()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SpareDisks spares(dir.filePath(u"spare-disks"_s), 3);
    const QString image = dir.filePath(u"instances/i1/workspace.ext4"_s);
    QVERIFY(!spares.take(1, image)); // none yet: the launch formats its own
    QVERIFY(!QFileInfo::exists(image));
    QVERIFY(makeSpare(spares, 1));
    QCOMPARE(spares.readySizes(), QList<qint64>{1});

    QVERIFY(spares.take(1, image));
    const QFileInfo moved(image);
    QCOMPARE(moved.size(), qint64(1) << 30);
    QCOMPARE(moved.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteOther),
             QFile::Permissions());
    QVERIFY(isExt4(image));
    // Taken: none left of that size, nor any of another.
    QVERIFY(spares.readySizes().isEmpty());
    QVERIFY(!spares.take(1, dir.filePath(u"instances/i2/workspace.ext4"_s)));
    QVERIFY(!spares.take(2, dir.filePath(u"instances/i2/workspace.ext4"_s)));
    QCOMPARE(QDir(spares.folder()).entryList(QDir::Files), QStringList());
}

void TestSpareDisks::oneSpareOfASize()
{
    QTemporaryDir dir;
    SpareDisks spares(dir.filePath(u"spare-disks"_s), 3);
    QVERIFY(makeSpare(spares, 1));
    // Asked again while one is ready: nothing is made.
    QSignalSpy made(&spares, &SpareDisks::made);
    spares.replenish(1, 0);
    spares.replenish(1, 0);
    QVERIFY(!made.wait(500));
    QCOMPARE(QDir(spares.folder()).entryList(QDir::Files), QStringList{u"1g.ext4"_s});
    // Nothing for sizes that are no size.
    spares.replenish(0, 0);
    spares.replenish(-3, 0);
    QVERIFY(!made.wait(300));
}

void TestSpareDisks::keepsTheLastSizesAskedFor()
{
    QTemporaryDir dir;
    SpareDisks spares(dir.filePath(u"spare-disks"_s), 2);
    QVERIFY(makeSpare(spares, 1));
    QVERIFY(makeSpare(spares, 2));
    QCOMPARE(spares.readySizes(), (QList<qint64>{1, 2}));
    // A third size drops the one asked for longest ago, its file too.
    QVERIFY(makeSpare(spares, 3));
    QCOMPARE(spares.readySizes(), (QList<qint64>{2, 3}));
    QCOMPARE(QDir(spares.folder()).entryList(QDir::Files, QDir::Name),
             (QStringList{u"2g.ext4"_s, u"3g.ext4"_s}));
    // Asking for 2 again makes it the newest: 4 then drops 3.
    spares.replenish(2, 0);
    QVERIFY(makeSpare(spares, 4));
    QCOMPARE(spares.readySizes(), (QList<qint64>{2, 4}));
}

void TestSpareDisks::aNewProviderKeepsWholeSparesOnly()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(u"spare-disks"_s);
    {
        SpareDisks spares(folder, 3);
        QVERIFY(makeSpare(spares, 1));
    }
    // What a provider that died mid-mkfs leaves, and files that are no spare of ours.
    for (const QString &name : {u"2g.ext4.part"_s, u"xg.ext4"_s, u"01g.ext4"_s, u"0g.ext4"_s}) {
        QFile file(QDir(folder).filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    SpareDisks again(folder, 3);
    QCOMPARE(again.readySizes(), QList<qint64>{1});
    QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList{u"1g.ext4"_s});
    QVERIFY(again.take(1, dir.filePath(u"i1.ext4"_s)));
    QVERIFY(isExt4(dir.filePath(u"i1.ext4"_s)));
}

void TestSpareDisks::aSpareThatCannotBeMovedIsDropped()
{
    QTemporaryDir dir;
    SpareDisks spares(dir.filePath(u"spare-disks"_s), 3);
    QVERIFY(makeSpare(spares, 1));
    // The instance's folder cannot be made (a file is in the way).
    QFile blocker(dir.filePath(u"instances"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    QVERIFY(!spares.take(1, dir.filePath(u"instances/i1/workspace.ext4"_s)));
    QVERIFY(spares.readySizes().isEmpty());
    QCOMPARE(QDir(spares.folder()).entryList(QDir::Files), QStringList());
}

QTEST_GUILESS_MAIN(TestSpareDisks)
#include "tst_sparedisks.moc"
