// ProviderClient's model-library calls against a real cardhour-sim (in-process runtime): the
// public models of the installed packages, one of them by id, another user's or an unknown id
// refused, an upload declared, listed as open, a chunk at the wrong offset refused, the limit's
// error code, the chunk sent, the completed private model listed with its storage rate, deleted;
// the apps of the image catalog with what they mount and their cards, a launch that names models
// (sent as `models`) and one refused for an unknown model.
#include "CoreTestSupport.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using cardhour::test::await;
using cardhour::test::SimProcess;

class TestProviderClientModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void publicModels();
    void uploadAndDelete();
    void appCatalogAndLaunchWithModels();

private:
    QString signUp(ProviderClient &client, const QString &email);

    SimProcess m_sim;
};

void TestProviderClientModels::initTestCase()
{
    QVERIFY2(m_sim.start({u"--test-clock"_s, u"--runtime"_s, u"inprocess"_s}),
             qPrintable(m_sim.lastError()));
}

QString TestProviderClientModels::signUp(ProviderClient &client, const QString &email)
{
    client.setBaseUrl(m_sim.baseUrl());
    const auto session = await(client.signUp(email, u"correct horse battery"_s));
    if (!session.ok)
        qWarning("sign-up failed: %s", session.why());
    client.setToken(session.ok ? session.value->token : QString());
    return client.token();
}

void TestProviderClientModels::publicModels()
{
    ProviderClient client;
    QVERIFY(!signUp(client, u"library@example.com"_s).isEmpty());
    const auto listed = await(client.models());
    QVERIFY2(listed.ok, listed.why());
    const auto eng =
        std::find_if(listed.value->cbegin(), listed.value->cend(),
                     [](const LibraryModel &m) { return m.name == u"tesseract-eng"_s; });
    QVERIFY(eng != listed.value->cend());
    QVERIFY(!eng->isPrivate);
    QCOMPARE(eng->sourcePackage, u"tesseract-ocr-eng"_s);
    QCOMPARE(eng->task, u"ocr"_s);
    QCOMPARE(eng->mountPath, u"/models/tesseract-eng"_s);
    QCOMPARE(eng->sha256.size(), 64);
    QVERIFY(!eng->storageRatePerHourMicros);
    QVERIFY(eng->addedAt.isValid());

    const auto one = await(client.model(u"tesseract-eng"_s));
    QVERIFY2(one.ok, one.why());
    QCOMPARE(one.value->sha256, eng->sha256);
    const auto unknown = await(client.model(u"no-such-model"_s));
    QVERIFY(!unknown.ok);
    QCOMPARE(unknown.error.code, u"unknown_model"_s);
}

void TestProviderClientModels::uploadAndDelete()
{
    ProviderClient owner;
    const QString token = signUp(owner, u"uploader@example.com"_s);
    QVERIFY(!token.isEmpty());
    const QByteArray bytes = "weights";
    const QString sha =
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    NewModelUpload declared;
    declared.name = u"tiny"_s;
    declared.fileName = u"tiny.bin"_s;
    declared.sizeBytes = bytes.size();
    declared.sha256 = sha;
    const auto created = await(owner.createModelUpload(declared));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(created.value->offset, 0);
    QVERIFY(!created.value->complete);
    QCOMPARE(created.value->chunkMaxBytes, 1024 * 1024);
    QVERIFY(!created.value->model);

    NewModelUpload huge = declared;
    huge.name = u"huge"_s;
    huge.sizeBytes = qint64(1) << 45;
    const auto refused = await(owner.createModelUpload(huge));
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.code, u"model_storage_limit"_s);

    // Listed as open at its offset; a chunk at the wrong offset is refused, nothing written.
    const auto open = await(owner.modelUploads());
    QVERIFY2(open.ok, open.why());
    QCOMPARE(open.value->size(), 1);
    QCOMPARE(open.value->first().id, created.value->id);
    const auto early = await(owner.putModelUploadChunk(created.value->id, 1, bytes.sliced(1)));
    QCOMPARE(early.error.code, u"upload_offset_mismatch"_s);
    // The one chunk (with its own SHA-256): the provider checks the file and lists the model.
    const auto put = await(owner.putModelUploadChunk(created.value->id, 0, bytes));
    QVERIFY2(put.ok, put.why());
    QVERIFY(put.value->complete);
    QVERIFY(put.value->model);
    QCOMPARE(put.value->model->sha256, sha);
    const auto gone = await(owner.modelUpload(created.value->id));
    QCOMPARE(gone.error.code, u"unknown_upload"_s);

    const auto listed = await(owner.models());
    QVERIFY2(listed.ok, listed.why());
    const auto tiny = std::find_if(listed.value->cbegin(), listed.value->cend(),
                                   [](const LibraryModel &m) { return m.name == u"tiny"_s; });
    QVERIFY(tiny != listed.value->cend());
    QVERIFY(tiny->isPrivate);
    QCOMPARE(tiny->fileName, u"tiny.bin"_s);
    QCOMPARE(tiny->sha256, sha);
    QCOMPARE(tiny->storageRatePerHourMicros.value_or(-1), 200); // 1 GiB at the built-in price

    // Its fee is in the client's runway: the spend rate the bill ticks at and runs out by.
    const auto bill = await(owner.billingSummary());
    QVERIFY2(bill.ok, bill.why());
    QCOMPARE(bill.value->spendRateMicrosPerHour, *tiny->storageRatePerHourMicros);
    QVERIFY(bill.value->runsOutAt.isValid());

    ProviderClient other;
    QVERIFY(!signUp(other, u"someone-else@example.com"_s).isEmpty());
    QCOMPARE(await(other.model(tiny->id)).error.code, u"unknown_model"_s);
    QCOMPARE(await(other.deleteModel(tiny->id)).error.code, u"unknown_model"_s);

    const auto deleted = await(owner.deleteModel(tiny->id));
    QVERIFY2(deleted.ok, deleted.why());
    QCOMPARE(await(owner.model(tiny->id)).error.code, u"unknown_model"_s);
    const auto after = await(owner.billingSummary());
    QVERIFY2(after.ok, after.why());
    QCOMPARE(after.value->spendRateMicrosPerHour, 0);
    QVERIFY(!after.value->runsOutAt.isValid());
}

void TestProviderClientModels::appCatalogAndLaunchWithModels()
{
    ProviderClient client;
    QVERIFY(!signUp(client, u"apps@example.com"_s).isEmpty());
    const auto images = await(client.images());
    QVERIFY2(images.ok, images.why());
    const auto ocr = std::find_if(images.value->cbegin(), images.value->cend(),
                                  [](const Image &i) { return i.id == u"ocr"_s; });
    QVERIFY(ocr != images.value->cend() && ocr->apps.size() == 1);
    const ImageApp app = ocr->apps.constFirst();
    QCOMPARE(app.gpuCount, 2);
    QCOMPARE(app.path, u"/"_s);
    QCOMPARE(app.models, (QStringList{u"tesseract-eng"_s, u"tesseract-chi-sim"_s}));
    QCOMPARE(app.sampleData, u"/datasets/ocr-samples"_s);
    const auto base = std::find_if(images.value->cbegin(), images.value->cend(),
                                   [](const Image &i) { return i.id == u"base"_s; });
    QVERIFY(base != images.value->cend() && base->apps.isEmpty());

    NewInstance request;
    request.gpuType = u"rtx4090"_s;
    request.image = u"base"_s;
    request.models = {u"tesseract-eng"_s};
    QCOMPARE(request.toJson().value(u"models"_s).toArray(), QJsonArray{u"tesseract-eng"_s});
    const auto created = await(client.createInstance(request));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(created.value->models, QStringList{u"tesseract-eng"_s});
    const auto terminated = await(client.terminateInstance(created.value->id));
    QVERIFY2(terminated.ok, terminated.why());

    request.models = {u"no-such-model"_s};
    const auto refused = await(client.createInstance(request));
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.code, u"unknown_model"_s);
    // Without models the member is left out, as before.
    request.models.clear();
    QVERIFY(!request.toJson().contains(u"models"_s));
}

QTEST_GUILESS_MAIN(TestProviderClientModels)
#include "tst_providerclient_models.moc"
