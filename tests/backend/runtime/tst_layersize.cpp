// LayerSize: a container's writable layer counted as the engine counts it (files, not folders;
// a hard-linked file once; a symbolic link by its own length), on a folder made here, and
// against `podman ps --size` on a real container's UpperDir.
#include "PodmanTestSupport.h"
#include "runtime/LayerSize.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using namespace cardhour::test;

class TestLayerSize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void countsFilesOnce();
    void unreadableIsMinusOne();
    void measuresOffTheEventLoop();
    void matchesTheEngine();
};

namespace {
void write(const QString &path, qsizetype bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(QByteArray(bytes, 'x')), bytes);
}
} // namespace

void TestLayerSize::countsFilesOnce()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    write(dir.filePath(u"a"_s), 1000);
    write(dir.filePath(u"deep/er/b"_s), 234);
    write(dir.filePath(u"empty"_s), 0);
    QVERIFY(::link(QFile::encodeName(dir.filePath(u"a"_s)).constData(),
                   QFile::encodeName(dir.filePath(u"deep/a-again"_s)).constData())
            == 0);
    const QByteArray target = QFile::encodeName(dir.filePath(u"deep/er/b"_s));
    QVERIFY(::symlink(target.constData(), QFile::encodeName(dir.filePath(u"link"_s)).constData())
            == 0);
    // A link to a big file outside: its length counts, not the file's.
    QTemporaryDir outside;
    write(outside.filePath(u"big"_s), 1 << 20);
    const QByteArray bigPath = QFile::encodeName(outside.filePath(u"big"_s));
    QVERIFY(::symlink(bigPath.constData(), QFile::encodeName(dir.filePath(u"out"_s)).constData())
            == 0);
    QCOMPARE(LayerSize::bytesIn(dir.path()), 1000 + 234 + target.size() + bigPath.size());
}

void TestLayerSize::unreadableIsMinusOne()
{
    QTemporaryDir dir;
    QCOMPARE(LayerSize::bytesIn(dir.filePath(u"missing"_s)), -1);
    QCOMPARE(LayerSize::bytesIn(QString()), -1);
    write(dir.filePath(u"file"_s), 10);
    QCOMPARE(LayerSize::bytesIn(dir.filePath(u"file"_s)), -1); // not a folder
    QCOMPARE(LayerSize::bytesIn(dir.path()), 10);
}

void TestLayerSize::measuresOffTheEventLoop()
{
    QTemporaryDir dir;
    write(dir.filePath(u"one/f"_s), 7);
    write(dir.filePath(u"two/f"_s), 5);
    write(dir.filePath(u"two/g"_s), 6);
    QHash<QString, qint64> got;
    bool called = false;
    QObject context;
    LayerSize::measure(&context,
                       {{u"one"_s, {dir.filePath(u"one"_s)}},
                        {u"two"_s, {dir.filePath(u"two"_s)}},
                        {u"gone"_s, {dir.filePath(u"two"_s), dir.filePath(u"nothing"_s)}}},
                       [&](const QHash<QString, qint64> &sizes) {
                           called = true;
                           got = sizes;
                       });
    QTRY_VERIFY(called);
    QCOMPARE(got.value(u"one"_s), 7);
    QCOMPARE(got.value(u"two"_s), 11);
    QCOMPARE(got.value(u"gone"_s), -1);

    // A context destroyed before the result: the callback never runs.
    bool late = false;
    {
        QObject shortLived;
        LayerSize::measure(&shortLived, {{u"one"_s, {dir.filePath(u"one"_s)}}},
                           [&](const QHash<QString, qint64> &) { late = true; });
    }
    QTest::qWait(300);
    QVERIFY(!late);
}

void TestLayerSize::matchesTheEngine()
{
    const ImageCheck image = ensureBaseImage();
    if (!image.skip.isEmpty())
        QSKIP(qPrintable(image.skip));
    QVERIFY2(image.error.isEmpty(), qPrintable(image.error));
    const QString name = u"cardhour-test-layersize-"_s + randomSuffix();
    const Run run = podman({u"run"_s, u"-d"_s, u"--rm"_s, u"--pull=never"_s, u"--network=none"_s,
                            u"--name"_s, name, baseImageTag(), u"sleep"_s, u"300"_s});
    QVERIFY2(run.ok(), qPrintable(run.errTail()));
    auto cleanup = qScopeGuard([&name] { podman({u"rm"_s, u"-f"_s, u"-t"_s, u"0"_s, name}); });
    const Run fill =
        podman({u"exec"_s, name, u"sh"_s, u"-c"_s,
                u"head -c 3000000 /dev/urandom > /root/f && ln /root/f /root/g && "
                "ln -s /root/f /root/h && mkdir -p /root/d/e && echo hi > /root/d/e/x"_s});
    QVERIFY2(fill.ok(), qPrintable(fill.errTail()));
    const Run upper =
        podman({u"inspect"_s, u"--format"_s, u"{{.GraphDriver.Data.UpperDir}}"_s, name});
    QVERIFY2(upper.ok(), qPrintable(upper.errTail()));
    const Run sized = podman(
        {u"ps"_s, u"--size"_s, u"--filter"_s, u"name=^"_s + name + u'$', u"--format"_s, u"json"_s});
    QVERIFY2(sized.ok(), qPrintable(sized.errTail()));
    const QJsonArray listed = QJsonDocument::fromJson(sized.out).array();
    QCOMPARE(listed.size(), 1);
    const qint64 engine =
        listed.first().toObject().value(u"Size"_s).toObject().value(u"rwSize"_s).toInteger(-1);
    QVERIFY(engine > 3000000);
    QCOMPARE(LayerSize::bytesIn(QString::fromUtf8(upper.out.trimmed())), engine);
}

QTEST_GUILESS_MAIN(TestLayerSize)
#include "tst_layersize.moc"
