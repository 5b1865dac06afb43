// MIG slices over HTTP against the real cardhour-sim: the catalog offers each MIG card's slices
// with prices and VRAM derived from the card's, and launches racing for one card's slices and
// for the card itself never lend more than its MIG placement holds.
#include "SimProcess.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

QJsonObject findGpu(const QJsonArray &gpus, const QString &id)
{
    for (const QJsonValue &gpu : gpus)
        if (gpu[u"id"_s].toString() == id)
            return gpu.toObject();
    return {};
}

QByteArray createRequest(const QString &token, const QString &gpuType)
{
    return rawRequest(
        "POST", u"/v1/instances"_s,
        QJsonDocument(
            QJsonObject{{u"gpu_type"_s, gpuType}, {u"gpu_count"_s, 1}, {u"image"_s, u"base"_s}})
            .toJson(QJsonDocument::Compact),
        {{"Authorization"_ba, "Bearer "_ba + token.toLatin1()}});
}

} // namespace

class TestApiSlices : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void catalogOffersSlices();
    void racingLaunchesNeverOverfillACard();
    void wholeCardAndSliceRace();

private:
    // A provider whose catalog has `a100s` A100 cards (the built-in catalog otherwise).
    bool startWith(int a100s);

    std::unique_ptr<QTemporaryDir> m_catalogDir;
    std::unique_ptr<SimProcess> m_sim;
    QString m_token;
};

bool TestApiSlices::startWith(int a100s)
{
    m_catalogDir = std::make_unique<QTemporaryDir>();
    const QDir source(QStringLiteral(CARDHOUR_SOURCE_CATALOG));
    for (const QString &name : {u"gpus.json"_s, u"images.json"_s}) {
        QFile in(source.filePath(name));
        if (!in.open(QIODevice::ReadOnly))
            return false;
        QJsonObject document = QJsonDocument::fromJson(in.readAll()).object();
        if (name == u"gpus.json"_s) {
            QJsonArray gpus = document.value(u"gpus"_s).toArray();
            for (qsizetype i = 0; i < gpus.size(); ++i) {
                QJsonObject gpu = gpus.at(i).toObject();
                if (gpu.value(u"id"_s).toString() == u"a100-80g"_s)
                    gpu.insert(u"capacity"_s, a100s);
                gpus.replace(i, gpu);
            }
            document.insert(u"gpus"_s, gpus);
        }
        QFile out(m_catalogDir->filePath(name));
        if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(document).toJson()) < 0)
            return false;
    }
    m_sim = std::make_unique<SimProcess>();
    if (!m_sim->start({u"--test-clock"_s, u"--catalog"_s, m_catalogDir->path()})) {
        qWarning("%s", qPrintable(m_sim->lastError()));
        return false;
    }
    m_token = m_sim->signUp(u"slices@example.com"_s);
    return !m_token.isEmpty();
}

void TestApiSlices::catalogOffersSlices()
{
    QVERIFY(startWith(8));
    const QJsonArray gpus = m_sim->authedGet(m_token, u"/v1/catalog/gpus"_s).array();
    const QJsonObject card = findGpu(gpus, u"a100-80g"_s);
    QVERIFY(card.value(u"slice"_s).isNull());
    const QJsonObject half = findGpu(gpus, u"a100-80g-3g-40gb"_s);
    QVERIFY2(!half.isEmpty(), "no 3g.40gb slice of the A100 on offer");
    const QJsonObject slice = half.value(u"slice"_s).toObject();
    QCOMPARE(slice.value(u"of"_s).toString(), u"a100-80g"_s);
    QCOMPARE(slice.value(u"profile"_s).toString(), u"3g.40gb"_s);
    QCOMPARE(slice.value(u"compute_slices"_s).toInt(), 3);
    QCOMPARE(slice.value(u"card_compute_slices"_s).toInt(), 7);
    QCOMPARE(slice.value(u"memory_slices"_s).toInt(), 4);
    QCOMPARE(slice.value(u"card_memory_slices"_s).toInt(), 8);
    // Half the card's memory slices: half its VRAM and half its price.
    QCOMPARE(half.value(u"vram_mib"_s).toInt(), card.value(u"vram_mib"_s).toInt() / 2);
    QCOMPARE(half.value(u"price_per_hour_micros"_s).toInteger(),
             card.value(u"price_per_hour_micros"_s).toInteger() / 2);
    QCOMPARE(half.value(u"available"_s).toInt(), 16); // two a card
    const QJsonObject seventh = findGpu(gpus, u"h100-80g-1g-10gb"_s);
    QCOMPARE(seventh.value(u"available"_s).toInt(), 56);
    QVERIFY(findGpu(gpus, u"rtx4090-1g-10gb"_s).isEmpty()); // no MIG on a GeForce card
}

void TestApiSlices::racingLaunchesNeverOverfillACard()
{
    QVERIFY(startWith(1));
    const QString other = m_sim->signUp(u"slices.b@example.com"_s);
    QList<QByteArray> requests;
    for (int i = 0; i < 10; ++i)
        requests.append(createRequest(i % 2 ? other : m_token, u"a100-80g-1g-10gb"_s));
    const QList<Reply> replies = m_sim->sendConcurrently(requests);
    QCOMPARE(replies.size(), 10);
    int lent = 0;
    for (const Reply &r : replies) {
        QVERIFY2(r.status == 202 || r.status == 409, r.describe().constData());
        if (r.status == 409)
            QCOMPARE(r.errorCode(), u"not_enough_gpus"_s);
        lent += r.status == 202;
    }
    QCOMPARE(lent, 7); // seven 1g slices on one card, no more
    const QJsonArray gpus = m_sim->authedGet(m_token, u"/v1/catalog/gpus"_s).array();
    for (const QJsonValue &gpu : gpus)
        if (gpu[u"id"_s].toString().startsWith(u"a100-80g"_s))
            QCOMPARE(gpu[u"available"_s].toInt(), 0);
    const Reply whole = m_sim->sendConcurrently({createRequest(m_token, u"a100-80g"_s)}).value(0);
    QCOMPARE(whole.status, 409);
    QCOMPARE(whole.errorCode(), u"not_enough_gpus"_s);
    QCOMPARE(m_sim->verifyLedger(), QString());
}

void TestApiSlices::wholeCardAndSliceRace()
{
    QVERIFY(startWith(1));
    const QList<Reply> replies = m_sim->sendConcurrently(
        {createRequest(m_token, u"a100-80g"_s), createRequest(m_token, u"a100-80g-3g-40gb"_s)});
    QList<int> statuses{replies.value(0).status, replies.value(1).status};
    std::sort(statuses.begin(), statuses.end());
    QCOMPARE(statuses, (QList<int>{202, 409})); // one card: the whole of it or a slice of it
    // A slice asks for one card's share: more than one is refused.
    const Reply two = m_sim->authedPost(m_token, u"/v1/instances"_s,
                                        QJsonObject{{u"gpu_type"_s, u"h100-80g-3g-40gb"_s},
                                                    {u"gpu_count"_s, 2},
                                                    {u"image"_s, u"base"_s}});
    QCOMPARE(two.status, 400);
    QCOMPARE(two.errorCode(), u"invalid_gpu_count"_s);
}

QTEST_GUILESS_MAIN(TestApiSlices)
#include "tst_api_slices.moc"
