#include "UploadTestData.h"
#include "service/UploadDigests.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using cardhour::sim::test::noise;
using cardhour::sim::test::sha256Hex;

namespace {

// Appends `data` at `offset` of `path`, as the provider writes a chunk.
void writeAt(const QString &path, qint64 offset, QByteArrayView data)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.resize(offset) && file.seek(offset));
    QCOMPARE(file.write(data.data(), data.size()), data.size());
}
} // namespace

class TstUploadDigests : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chunksInOrderNeedNoReadBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"part"_s);
        const QByteArray data = noise(3 * 1024 * 1024 + 100, 1);
        UploadDigests digests;
        for (qint64 offset = 0; offset < data.size(); offset += 1024 * 1024) {
            const QByteArrayView chunk = QByteArrayView(data).sliced(
                offset, std::min<qint64>(1024 * 1024, data.size() - offset));
            writeAt(path, offset, chunk);
            digests.written(u"u1"_s, path, offset, chunk);
            QCOMPARE(digests.hashedBytes(u"u1"_s), offset + chunk.size());
        }
        // The file is changed behind its back: finish() must not read it again.
        writeAt(path, 0, "tampered");
        QCOMPARE(digests.finish(u"u1"_s, path, data.size()), sha256Hex(data));
        QCOMPARE(digests.hashedBytes(u"u1"_s), 0); // forgotten
    }

    void afterARestartTheDigestIsRebuiltInSlicesBetweenEvents()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"part"_s);
        const qint64 before = 3 * UploadDigests::kSliceBytes + 5;
        const QByteArray data = noise(before + 1024 * 1024, 2);
        writeAt(path, 0, QByteArrayView(data).first(before)); // what came before the restart
        UploadDigests digests; // a new provider: nothing hashed
        const QByteArrayView next = QByteArrayView(data).sliced(before);
        writeAt(path, before, next);
        digests.written(u"u2"_s, path, before, next);
        QCOMPARE(digests.hashedBytes(u"u2"_s), 0); // not in the request
        QCoreApplication::processEvents();
        QCOMPARE(digests.hashedBytes(u"u2"_s), UploadDigests::kSliceBytes); // a slice a pass
        QTRY_COMPARE(digests.hashedBytes(u"u2"_s), qint64(data.size()));
        QCOMPARE(digests.finish(u"u2"_s, path, data.size()), sha256Hex(data));
    }

    void finishReadsWhatTheCatchUpHasNotReached()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"part"_s);
        const QByteArray data = noise(2 * 1024 * 1024, 3);
        writeAt(path, 0, data);
        UploadDigests digests;
        digests.written(u"u3"_s, path, 1024 * 1024, QByteArrayView(data).sliced(1024 * 1024));
        QCOMPARE(digests.finish(u"u3"_s, path, data.size()), sha256Hex(data));
        QVERIFY(digests.finish(u"u4"_s, dir.filePath(u"missing"_s), 10).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstUploadDigests)
#include "tst_uploaddigests.moc"
