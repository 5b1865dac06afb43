// The model library end to end over HTTP (in-process runtime): public models registered from
// the installed Debian packages, the operator's `cardhour-sim models` command, a resumable and
// checksummed upload of a 200 MB private model that survives two provider crashes, a corrupted
// chunk and a wrong offset refused, the per-user limit, another user's 404 (also at launch),
// the launch that records the mount, the storage fee in the ledger, deletion (refused while an
// instance mounts the model), and the fee in the spend rate and runway the clients show.
#include "SimProcess.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kChunk = 1024 * 1024;

QString sha256Hex(QByteArrayView data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

QString fileSha256(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliRun runSim(const QStringList &args)
{
    QProcess p;
    p.start(SimProcess::binaryPath(), args);
    p.waitForFinished(60'000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QJsonObject findByName(const QJsonArray &models, const QString &name)
{
    for (const QJsonValue &m : models) {
        if (m[u"name"_s].toString() == name)
            return m.toObject();
    }
    return {};
}

} // namespace

class TestApiModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void publicModelsFromInstalledPackages();
    void operatorAddsAndRemovesModels();
    void resumableUploadSurvivesTwoCrashes();
    void uploadLimitAndNames();
    void modelStorageInTheRunway();

private:
    // PUT one chunk of `data` at `offset`, with its digest (or `digest` instead).
    Reply putChunk(const QString &token, const QString &uploadId, qint64 offset,
                   const QByteArray &data, const QString &digest = {});

    std::unique_ptr<SimProcess> m_sim;
};

void TestApiModels::init()
{
    m_sim = std::make_unique<SimProcess>();
    QVERIFY2(m_sim->start({u"--test-clock"_s, u"--runtime"_s, u"inprocess"_s}),
             qPrintable(m_sim->lastError()));
}

void TestApiModels::cleanup()
{
    m_sim.reset();
}

Reply TestApiModels::putChunk(const QString &token, const QString &uploadId, qint64 offset,
                              const QByteArray &data, const QString &digest)
{
    Headers headers = SimProcess::bearer(token);
    headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/octet-stream")));
    headers.append(qMakePair(QByteArray("Upload-Offset"), QByteArray(QByteArray::number(offset))));
    headers.append(qMakePair(QByteArray("Upload-Chunk-SHA256"),
                             (digest.isEmpty() ? sha256Hex(data) : digest).toLatin1()));
    return m_sim->request("PUT", u"/v1/model-uploads/"_s + uploadId, data, headers);
}

void TestApiModels::publicModelsFromInstalledPackages()
{
    const QString token = m_sim->signUp(u"public@example.com"_s);
    const Reply listed = m_sim->authedGet(token, u"/v1/models"_s);
    QCOMPARE(listed.status, 200);
    const struct
    {
        const char *name;
        const char *package;
        const char *file; // one file of the model, compared byte for byte through its digest
        const char *task;
    } expected[] = {
        {"tesseract-eng", "tesseract-ocr-eng",
         "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata", "ocr"},
        {"tesseract-chi-sim", "tesseract-ocr-chi-sim",
         "/usr/share/tesseract-ocr/5/tessdata/chi_sim.traineddata", "ocr"},
        {"pocketsphinx-en-us", "pocketsphinx-en-us",
         "/usr/share/pocketsphinx/model/en-us/en-us/mdef", "speech-to-text"},
        {"opencv-haarcascades", "opencv-data",
         "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml", "object-detection"},
    };
    for (const auto &e : expected) {
        QVERIFY2(QFile::exists(QString::fromLatin1(e.file)),
                 qPrintable(u"%1 is missing: scripts/deps installs %2"_s.arg(
                     QString::fromLatin1(e.file), QString::fromLatin1(e.package))));
        const QJsonObject m = findByName(listed.array(), QString::fromLatin1(e.name));
        QVERIFY2(!m.isEmpty(), listed.body.constData());
        QCOMPARE(m[u"visibility"_s].toString(), u"public"_s);
        QCOMPARE(m[u"source_package"_s].toString(), QString::fromLatin1(e.package));
        QCOMPARE(m[u"task"_s].toString(), QString::fromLatin1(e.task));
        QCOMPARE(m[u"mount_path"_s].toString(), u"/models/"_s + QString::fromLatin1(e.name));
        QVERIFY2(!m[u"licence"_s].toString().isEmpty(), e.name);
        QVERIFY(m[u"size_bytes"_s].toInteger() >= QFileInfo(QString::fromLatin1(e.file)).size());
        QCOMPARE(m[u"sha256"_s].toString().size(), 64);
        QVERIFY(m[u"available"_s].toBool());
        const Reply one = m_sim->authedGet(token, u"/v1/models/"_s + QString::fromLatin1(e.name));
        QCOMPARE(one.status, 200);
        QCOMPARE(one.object(), m);
    }
    // A one-file model's digest is its file's.
    const QJsonObject eng = findByName(listed.array(), u"tesseract-eng"_s);
    QCOMPARE(eng[u"sha256"_s].toString(),
             fileSha256(u"/usr/share/tesseract-ocr/5/tessdata/eng.traineddata"_s));
    QCOMPARE(eng[u"files"_s].toInteger(), 1);
    QCOMPARE(eng[u"languages"_s].toArray(), QJsonArray{u"en"_s});
    QCOMPARE(m_sim->authedGet(token, u"/v1/models/nope"_s).errorCode(), u"unknown_model"_s);
}

void TestApiModels::operatorAddsAndRemovesModels()
{
    QTemporaryDir folder;
    QFile weights(folder.filePath(u"weights.bin"_s));
    QVERIFY(weights.open(QIODevice::WriteOnly));
    weights.write("0123456789");
    weights.close();
    const CliRun added = runSim({u"models"_s, u"add"_s, u"demo-net"_s, folder.path(), u"--task"_s,
                                 u"classification"_s, u"--languages"_s, u"en,de"_s, u"--licence"_s,
                                 u"MIT"_s, u"--data"_s, m_sim->dataDir()});
    QVERIFY2(added.exitCode == 0, added.err.constData());
    QVERIFY(added.out.contains("/models/demo-net"));
    const CliRun listed = runSim({u"models"_s, u"list"_s, u"--data"_s, m_sim->dataDir()});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.contains("demo-net") && listed.out.contains("tesseract-eng"),
             listed.out.constData());

    const QString token = m_sim->signUp(u"operator@example.com"_s);
    const QJsonObject m = m_sim->authedGet(token, u"/v1/models/demo-net"_s).object();
    QCOMPARE(m[u"task"_s].toString(), u"classification"_s);
    QCOMPARE(m[u"licence"_s].toString(), u"MIT"_s);
    QCOMPARE(m[u"languages"_s].toArray(), (QJsonArray{u"en"_s, u"de"_s}));
    QCOMPARE(m[u"sha256"_s].toString(), sha256Hex("0123456789"));
    QVERIFY(m[u"source_package"_s].isNull());

    QCOMPARE(
        runSim({u"models"_s, u"add"_s, u"Bad/Name"_s, folder.path(), u"--data"_s, m_sim->dataDir()})
            .exitCode,
        1);
    QCOMPARE(runSim({u"models"_s, u"rm"_s, u"demo-net"_s, u"--data"_s, m_sim->dataDir()}).exitCode,
             0);
    QCOMPARE(m_sim->authedGet(token, u"/v1/models/demo-net"_s).status, 404);
    QVERIFY(QFile::exists(folder.filePath(u"weights.bin"_s)));
    QCOMPARE(runSim({u"models"_s, u"rm"_s, u"demo-net"_s, u"--data"_s, m_sim->dataDir()}).exitCode,
             1);
}

void TestApiModels::resumableUploadSurvivesTwoCrashes()
{
    // 200 MB of reproducible noise.
    constexpr qint64 kSize = 200LL * 1000 * 1000;
    QByteArray data(kSize, Qt::Uninitialized);
    QRandomGenerator generator(18);
    generator.fillRange(reinterpret_cast<quint32 *>(data.data()), kSize / 4);
    const QString sha = sha256Hex(data);

    const QString owner = m_sim->signUp(u"owner@example.com"_s);
    const QString other = m_sim->signUp(u"other@example.com"_s);
    const Reply created = m_sim->authedPost(owner, u"/v1/model-uploads"_s,
                                            QJsonObject{{u"name"_s, u"my-weights"_s},
                                                        {u"file_name"_s, u"weights.bin"_s},
                                                        {u"size_bytes"_s, kSize},
                                                        {u"sha256"_s, sha}});
    QCOMPARE(created.status, 201);
    const QString uploadId = created.value(u"id"_s).toString();
    QCOMPARE(created.value(u"offset"_s).toInteger(), 0);
    const qint64 chunkMax = created.value(u"chunk_max_bytes"_s).toInteger();
    QCOMPARE(chunkMax, kChunk);

    // The client forgets its position at each crash and asks the provider where to go on.
    const qint64 crashAt[] = {60 * kChunk, 140 * kChunk};
    int crashes = 0;
    qint64 offset = 0;
    bool corruptedOnce = false;
    QJsonObject completed;
    while (offset < kSize) {
        const QByteArray chunk = data.mid(offset, std::min(chunkMax, kSize - offset));
        if (!corruptedOnce && offset >= 100 * kChunk) {
            // Damaged on the way: the digest is of the bytes that were meant to be sent.
            QByteArray damaged = chunk;
            damaged[7] = char(damaged[7] ^ 0x40);
            const Reply refused = putChunk(owner, uploadId, offset, damaged, sha256Hex(chunk));
            QCOMPARE(refused.status, 422);
            QCOMPARE(refused.errorCode(), u"chunk_checksum_mismatch"_s);
            corruptedOnce = true;
        }
        const Reply stored = putChunk(owner, uploadId, offset, chunk);
        QVERIFY2(stored.status == 200 || stored.status == 201, stored.describe().constData());
        offset = stored.value(u"offset"_s).toInteger();
        if (stored.status == 201)
            completed = stored.object();
        if (crashes < 2 && offset >= crashAt[crashes]) {
            const qint64 acknowledged = offset;
            m_sim->kill();
            QVERIFY2(m_sim->restart(), qPrintable(m_sim->lastError()));
            ++crashes;
            offset = -1; // a restarted client knows only the upload's id
            const Reply resumed = m_sim->authedGet(owner, u"/v1/model-uploads/"_s + uploadId);
            QCOMPARE(resumed.status, 200);
            offset = resumed.value(u"offset"_s).toInteger();
            QCOMPARE(offset, acknowledged); // every acknowledged chunk was kept
            // Sending again from an old position is refused and names where to go on.
            const Reply stale = putChunk(owner, uploadId, 0, data.left(kChunk));
            QCOMPARE(stale.status, 409);
            QCOMPARE(stale.errorCode(), u"upload_offset_mismatch"_s);
            QVERIFY(
                stale.value(u"error"_s)[u"message"_s].toString().contains(QString::number(offset)));
        }
    }
    QCOMPARE(crashes, 2);
    QVERIFY(corruptedOnce);
    QCOMPARE(completed.value(u"state"_s).toString(), u"complete"_s);
    const QJsonObject model = completed.value(u"model"_s).toObject();
    QCOMPARE(model[u"sha256"_s].toString(), sha);
    QCOMPARE(model[u"size_bytes"_s].toInteger(), kSize);
    QCOMPARE(model[u"visibility"_s].toString(), u"private"_s);
    const QString modelId = model[u"id"_s].toString();
    // What the provider keeps is the very file.
    const QString stored = m_sim->dataDir() + u"/models/private/"_s + modelId + u"/weights.bin"_s;
    QCOMPARE(fileSha256(stored), sha);
    QVERIFY(m_sim->authedGet(owner, u"/v1/model-uploads"_s).array().isEmpty());

    // The owner sees it; the other user gets 404 everywhere, also at launch.
    QCOMPARE(findByName(m_sim->authedGet(owner, u"/v1/models"_s).array(), u"my-weights"_s)[u"id"_s]
                 .toString(),
             modelId);
    QVERIFY(
        findByName(m_sim->authedGet(other, u"/v1/models"_s).array(), u"my-weights"_s).isEmpty());
    QCOMPARE(m_sim->authedGet(other, u"/v1/models/"_s + modelId).status, 404);
    QCOMPARE(m_sim->authedDelete(other, u"/v1/models/"_s + modelId).status, 404);
    QCOMPARE(m_sim->authedGet(other, u"/v1/model-uploads/"_s + uploadId).status, 404);
    const QJsonObject launch{{u"gpu_type"_s, u"rtx4090"_s},
                             {u"image"_s, u"base"_s},
                             {u"models"_s, QJsonArray{u"my-weights"_s, u"tesseract-eng"_s}}};
    const Reply refused = m_sim->authedPost(other, u"/v1/instances"_s, launch);
    QCOMPARE(refused.status, 404);
    QCOMPARE(refused.errorCode(), u"unknown_model"_s);
    QVERIFY(m_sim->authedGet(other, u"/v1/instances"_s).array().isEmpty());
    const Reply launched = m_sim->authedPost(owner, u"/v1/instances"_s, launch);
    QCOMPARE(launched.status, 202);
    QCOMPARE(launched.value(u"models"_s).toArray(),
             (QJsonArray{u"my-weights"_s, u"tesseract-eng"_s}));

    // Billed per GiB-hour at the catalog's storage price: 200 MB is one GiB.
    const qint64 rate = model[u"storage_rate_micros_per_hour"_s].toInteger();
    QCOMPARE(rate, 200); // the built-in catalog: 200 micro-yuan per GiB-hour
    QVERIFY(m_sim->advance(3600));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const QJsonValue &p : m_sim->allPostings(owner))
                if (p[u"kind"_s].toString() == u"model_storage"_s)
                    return true;
            return false;
        }(),
        10'000);
    // Mounted by an instance that is not terminated (running, then stopped: it mounts the
    // model again when it starts): refused, naming the instance, and nothing is lost.
    const QString instanceId = launched.value(u"id"_s).toString();
    const auto stateOf = [&] {
        return m_sim->authedGet(owner, u"/v1/instances/"_s + instanceId)
            .value(u"state"_s)
            .toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(), u"running"_s, 10'000);
    const Reply inUse = m_sim->authedDelete(owner, u"/v1/models/"_s + modelId);
    QCOMPARE(inUse.status, 409);
    QCOMPARE(inUse.errorCode(), u"model_in_use"_s);
    QVERIFY(inUse.value(u"error"_s)[u"message"_s].toString().contains(instanceId));
    // The instances by id, for a client to name them in its own words.
    QCOMPARE(inUse.value(u"error"_s)[u"details"_s][u"instances"_s].toArray(),
             QJsonArray{instanceId});
    QCOMPARE(m_sim->authedPost(owner, u"/v1/instances/%1/stop"_s.arg(instanceId)).status, 202);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(), u"stopped"_s, 10'000);
    QCOMPARE(m_sim->authedDelete(owner, u"/v1/models/"_s + modelId).errorCode(), u"model_in_use"_s);
    QCOMPARE(fileSha256(stored), sha);
    QCOMPARE(m_sim->authedGet(owner, u"/v1/models/"_s + modelId).status, 200);
    QCOMPARE(m_sim->authedDelete(owner, u"/v1/instances/"_s + instanceId).status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(), u"terminated"_s, 10'000);

    const Reply deleted = m_sim->authedDelete(owner, u"/v1/models/"_s + modelId);
    QCOMPARE(deleted.status, 200);
    qint64 charged = 0;
    for (const QJsonValue &p : m_sim->allPostings(owner))
        if (p[u"kind"_s].toString() == u"model_storage"_s) {
            charged -= p[u"amount_micros"_s].toInteger();
            QVERIFY(p[u"description"_s].toString().contains(u"Model storage: my-weights"_s));
        }
    QVERIFY2(charged >= rate && charged <= rate + 2, qPrintable(QString::number(charged)));
    QCOMPARE(m_sim->verifyLedger(), QString());
    QVERIFY(!QFile::exists(stored));
    QCOMPARE(m_sim->authedGet(owner, u"/v1/models/"_s + modelId).status, 404);
}

void TestApiModels::uploadLimitAndNames()
{
    const QString token = m_sim->signUp(u"limits@example.com"_s);
    const QString sha = sha256Hex("x");
    const auto declare = [&](const QString &name, qint64 size) {
        return m_sim->authedPost(
            token, u"/v1/model-uploads"_s,
            QJsonObject{{u"name"_s, name}, {u"size_bytes"_s, size}, {u"sha256"_s, sha}});
    };
    // The built-in catalog allows 10 GiB per user, counted at declared sizes.
    const Reply big = declare(u"big"_s, 6LL << 30);
    QCOMPARE(big.status, 201);
    const Reply over = declare(u"bigger"_s, 5LL << 30);
    QCOMPARE(over.status, 409);
    QCOMPARE(over.errorCode(), u"model_storage_limit"_s);
    QVERIFY(over.value(u"error"_s)[u"message"_s].toString().contains(u"10240.0 MiB"_s));
    const QJsonValue limitDetails = over.value(u"error"_s)[u"details"_s];
    QCOMPARE(limitDetails[u"size_bytes"_s].toInteger(), 5LL << 30);
    QCOMPARE(limitDetails[u"used_bytes"_s].toInteger(), 6LL << 30);
    QCOMPARE(limitDetails[u"limit_bytes"_s].toInteger(), 10LL << 30);
    QCOMPARE(
        m_sim->authedDelete(token, u"/v1/model-uploads/"_s + big.value(u"id"_s).toString()).status,
        200);
    QCOMPARE(declare(u"bigger"_s, 5LL << 30).status, 201);
    // Names: not a public model's, not twice, not a path.
    QCOMPARE(declare(u"tesseract-eng"_s, 1).errorCode(), u"model_name_taken"_s);
    QCOMPARE(declare(u"bigger"_s, 1).errorCode(), u"model_name_taken"_s);
    QCOMPARE(declare(u"../etc"_s, 1).errorCode(), u"invalid_field"_s);
    // A whole file that is not what was declared is discarded.
    const Reply small = declare(u"small"_s, 1);
    const Reply wrong = putChunk(token, small.value(u"id"_s).toString(), 0, "y");
    QCOMPARE(wrong.status, 422);
    QCOMPARE(wrong.errorCode(), u"upload_checksum_mismatch"_s);
    QCOMPARE(
        m_sim->authedGet(token, u"/v1/model-uploads/"_s + small.value(u"id"_s).toString()).status,
        404);
    // A chunk must be raw bytes.
    Headers json = SimProcess::bearer(token);
    json.append(qMakePair(QByteArray("Upload-Offset"), QByteArray("0")));
    json.append(qMakePair(QByteArray("Upload-Chunk-SHA256"), QByteArray(sha.toLatin1())));
    const Reply notBinary = m_sim->request(
        "PUT", u"/v1/model-uploads/"_s + declare(u"s2"_s, 1).value(u"id"_s).toString(), "x"_ba,
        json);
    QCOMPARE(notBinary.status, 415);
}

void TestApiModels::modelStorageInTheRunway()
{
    const QString token = m_sim->signUp(u"runway@example.com"_s);
    const auto summary = [&] { return m_sim->authedGet(token, u"/v1/billing/summary"_s); };
    const Reply before = summary();
    QCOMPARE(before.status, 200);
    QCOMPARE(before.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(before.value(u"runs_out_at"_s).isNull());

    const QByteArray data(4096, 'w');
    const Reply created = m_sim->authedPost(token, u"/v1/model-uploads"_s,
                                            QJsonObject{{u"name"_s, u"tiny"_s},
                                                        {u"size_bytes"_s, 4096},
                                                        {u"sha256"_s, sha256Hex(data)}});
    QCOMPARE(created.status, 201);
    const Reply done = putChunk(token, created.value(u"id"_s).toString(), 0, data);
    QCOMPARE(done.status, 201);
    const QJsonObject model = done.value(u"model"_s).toObject();
    // The provider's own price for it: one GiB-hour at the catalog's storage price.
    const qint64 rate = model[u"storage_rate_micros_per_hour"_s].toInteger();
    QVERIFY(rate > 0);

    const Reply listed = summary();
    QCOMPARE(listed.value(u"model_storage_spend_rate_micros_per_hour"_s).toInteger(), rate);
    QCOMPARE(listed.value(u"storage_spend_rate_micros_per_hour"_s).toInteger(), rate);
    QCOMPARE(listed.value(u"spend_rate_micros_per_hour"_s).toInteger(), rate);
    QCOMPARE(
        m_sim->authedGet(token, u"/v1/me"_s).value(u"spend_rate_micros_per_hour"_s).toInteger(),
        rate);
    // The balance runs out when the fee has eaten it: balance / rate hours from now.
    const qint64 balance = listed.value(u"balance_micros"_s).toInteger();
    QVERIFY(balance > 0);
    const QDateTime asOf =
        QDateTime::fromString(listed.value(u"as_of"_s).toString(), Qt::ISODateWithMs);
    const QDateTime runsOut =
        QDateTime::fromString(listed.value(u"runs_out_at"_s).toString(), Qt::ISODateWithMs);
    QVERIFY2(runsOut.isValid(), listed.describe().constData());
    const double expectedMs = double(balance) / double(rate) * 3'600'000.0;
    QVERIFY2(
        std::abs(double(asOf.msecsTo(runsOut)) - expectedMs) <= 3'600'000.0 / double(rate) + 1,
        qPrintable(u"runs out in %1 ms, expected %2"_s.arg(asOf.msecsTo(runsOut)).arg(expectedMs)));

    // Between postings the live balance already counts what the model owes.
    QVERIFY(m_sim->advance(1800));
    const qint64 halfHour = summary().value(u"balance_micros"_s).toInteger();
    QVERIFY2(halfHour <= balance - rate / 2 + 1 && halfHour >= balance - rate / 2 - 1,
             qPrintable(u"%1 after half an hour from %2"_s.arg(halfHour).arg(balance)));

    QCOMPARE(m_sim->authedDelete(token, u"/v1/models/"_s + model[u"id"_s].toString()).status, 200);
    const Reply after = summary();
    QCOMPARE(after.value(u"spend_rate_micros_per_hour"_s).toInteger(), 0);
    QCOMPARE(after.value(u"model_storage_spend_rate_micros_per_hour"_s).toInteger(), 0);
    QVERIFY(after.value(u"runs_out_at"_s).isNull());
}

QTEST_GUILESS_MAIN(TestApiModels)
#include "tst_api_models.moc"
