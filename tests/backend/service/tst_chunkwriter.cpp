#include "UploadTestData.h"
#include "service/ChunkWriter.h"
#include "service/Sha256.h"
#include "service/UploadDigests.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <optional>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using cardhour::sim::test::noise;
using cardhour::sim::test::sha256Hex;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
} // namespace

class TstChunkWriter : public QObject
{
    Q_OBJECT

private:
    // Writes one chunk and waits for its result, which must come on this thread, not from
    // within write().
    std::optional<ChunkWriter::Result> writeAndWait(ChunkWriter &writer, ChunkWriter::Chunk chunk)
    {
        std::optional<ChunkWriter::Result> result;
        bool onThisThread = false;
        writer.write(std::move(chunk), [&](const ChunkWriter::Result &r) {
            onThisThread = QThread::currentThread() == thread();
            result = r;
        });
        if (result)
            return std::nullopt; // answered from within write(): the caller's thread blocked
        if (!QTest::qWaitFor([&] { return result.has_value(); }, 10'000) || !onThisThread)
            return std::nullopt;
        return result;
    }

private Q_SLOTS:
    void chunksAreWrittenAndHashedOffTheCallersThread()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"part"_s);
        const QByteArray data = noise(2 * 1024 * 1024 + 12, 1);
        UploadDigests digests;
        ChunkWriter writer(digests);
        for (qint64 offset = 0; offset < data.size(); offset += 1024 * 1024) {
            const QByteArray chunk = data.mid(offset, 1024 * 1024);
            const auto result =
                writeAndWait(writer, {u"u1"_s, path, offset, chunk, sha256Hex(chunk)});
            QVERIFY(result);
            QCOMPARE(int(result->outcome), int(ChunkWriter::Outcome::Written));
            QCOMPARE(digests.hashedBytes(u"u1"_s), offset + chunk.size());
        }
        QCOMPARE(contents(path), data);
        QCOMPARE(digests.finish(u"u1"_s, path, data.size()), sha256Hex(data));
    }

    void aDamagedChunkWritesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"part"_s);
        const QByteArray first = noise(1000, 2);
        UploadDigests digests;
        ChunkWriter writer(digests);
        QVERIFY(writeAndWait(writer, {u"u2"_s, path, 0, first, sha256Hex(first)}));
        const QByteArray meant = noise(500, 3);
        QByteArray damaged = meant;
        damaged[7] = char(damaged[7] ^ 0x40);
        const auto result = writeAndWait(writer, {u"u2"_s, path, 1000, damaged, sha256Hex(meant)});
        QVERIFY(result);
        QCOMPARE(int(result->outcome), int(ChunkWriter::Outcome::ChecksumMismatch));
        QCOMPARE(contents(path), first);
        QCOMPARE(digests.hashedBytes(u"u2"_s), 1000);
    }

    void aChunkThatCannotBeWrittenSaysWhy()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"missing-folder/part"_s);
        UploadDigests digests;
        ChunkWriter writer(digests);
        const auto result = writeAndWait(writer, {u"u3"_s, path, 0, "abc"_ba, sha256Hex("abc")});
        QVERIFY(result);
        QCOMPARE(int(result->outcome), int(ChunkWriter::Outcome::WriteFailed));
        QVERIFY(!result->error.isEmpty());
        QCOMPARE(digests.hashedBytes(u"u3"_s), 0);
    }

    void sha256MatchesQt()
    {
        const QByteArray data = noise(3 * 1024 * 1024 + 5, 4);
        QCOMPARE(Sha256::hexOf(data), sha256Hex(data));
        QCOMPARE(Sha256::hexOf({}), sha256Hex({}));
        Sha256 running;
        running.addData(QByteArrayView(data).first(100));
        QCOMPARE(running.hex(), sha256Hex(QByteArrayView(data).first(100)));
        running.addData(QByteArrayView(data).sliced(100)); // hex() left it going
        QCOMPARE(running.hex(), sha256Hex(data));
        running.reset();
        QCOMPARE(running.hex(), sha256Hex({}));
    }
};

QTEST_GUILESS_MAIN(TstChunkWriter)
#include "tst_chunkwriter.moc"
