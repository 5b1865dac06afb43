// MIG slices of a card: derived from their card in the catalog, placed as NVIDIA's MIG placement
// allows (7 compute slices, 8 memory slices a card), and sharing the physical cards with
// whole-card rentals of the same type: never more lent than the cards hold.
#include "ServiceFixture.h"
#include "core/Json.h"
#include "gpu/Telemetry.h"
#include "runtime/BoxGpuEnvironment.h"
#include "service/CardLending.h"

#include <QJsonArray>
#include <QProcess>
#include <QProcessEnvironment>

using namespace cardhour::sim;
using namespace cardhour::sim::testing;
using namespace Qt::StringLiterals;

namespace {
// The built-in catalog with `cards` A100s, written to `dir`.
QString catalogWithA100s(const QString &dir, int cards)
{
    ServiceFixture::writeCatalog(dir, 200);
    QFile file(dir + u"/gpus.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("no test catalog");
    QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonArray gpus = document.value(u"gpus"_s).toArray();
    for (qsizetype i = 0; i < gpus.size(); ++i) {
        QJsonObject gpu = gpus.at(i).toObject();
        if (gpu.value(u"id"_s).toString() == u"a100-80g"_s)
            gpu.insert(u"capacity"_s, cards);
        gpus.replace(i, gpu);
    }
    document.insert(u"gpus"_s, gpus);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write the test catalog");
    file.write(QJsonDocument(document).toJson());
    return dir;
}

QString errorCode(const std::function<void()> &call)
{
    try {
        call();
    } catch (const ApiError &error) {
        return error.code();
    }
    return u"(no error)"_s;
}
} // namespace

class TestCardSlices : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void slicesDerivedFromTheirCard()
    {
        const Catalog catalog = Catalog::load();
        const GpuType card = *catalog.gpu(u"a100-80g"_s);
        const GpuType third = *catalog.gpu(u"a100-80g-3g-40gb"_s);
        QCOMPARE(third.slice.of, card.id);
        QCOMPARE(third.slice.profile, u"3g.40gb"_s);
        QCOMPARE(third.vramMib, card.vramMib / 2); // 4 of 8 memory slices
        QCOMPARE(third.pricePerHourMicros, card.pricePerHourMicros / 2); // max(3/7, 4/8)
        QCOMPARE(third.cpusPerCard, card.cpusPerCard / 2);
        QCOMPARE(third.capacity, card.capacity * 2);
        const GpuType seventh = *catalog.gpu(u"a100-80g-1g-10gb"_s);
        QCOMPARE(seventh.vramMib, card.vramMib / 8);
        QCOMPARE(seventh.pricePerHourMicros, qRound64(card.pricePerHourMicros / 7.0));
        QCOMPARE(seventh.capacity, card.capacity * 7);
        // Disk: the card's share (100 of 200 GiB), but no less than the smallest whole host's.
        QCOMPARE(third.diskGib, card.diskGib / 2);
        QCOMPARE(seventh.diskGib, catalog.gpu(u"rtx4090"_s)->diskGib);
        // 1g.20gb: one compute slice but two memory slices, so it costs a quarter card.
        QCOMPARE(catalog.gpu(u"a100-80g-1g-20gb"_s)->pricePerHourMicros,
                 card.pricePerHourMicros / 4);
        QVERIFY(catalog.gpu(u"h100-80g-7g-80gb"_s));
        QVERIFY(!catalog.gpu(u"rtx4090-1g-10gb"_s)); // a card without MIG has no slices
        QVERIFY(!card.isSlice());
    }

    // A real A100 on this host is offered whole: its simulated slices go with the simulated
    // card it replaces (no MIG set up on real cards); the H100's stay.
    void realCardDropsItsSimulatedSlices()
    {
        Catalog catalog = Catalog::load();
        catalog.offerHostCards({HostCard{0, u"a100-80g"_s, u"NVIDIA A100 80GB PCIe"_s, 81920, 300}},
                               true);
        QVERIFY(!catalog.gpu(u"a100-80g"_s)->simulated);
        QVERIFY(!catalog.gpu(u"a100-80g-3g-40gb"_s));
        QVERIFY(catalog.gpu(u"h100-80g-3g-40gb"_s));
        QVERIFY(catalog.gpu(u"h100-80g"_s));
    }

    // Seven 1g slices fill one card; the eighth and a whole card are refused; a stop frees a
    // place, and the instance comes back to its own place when it is free.
    void sevenSlicesFillACard()
    {
        QTemporaryDir dir;
        ServiceFixture f({}, 60'000, catalogWithA100s(dir.path(), 1));
        const QString user = f.signUp(u"mig@example.com"_s);
        QStringList ids;
        for (int i = 0; i < 7; ++i)
            ids << f.createRunning(user, u"a100-80g-1g-10gb"_s);
        CardLending lending(f.db);
        QList<int> starts;
        for (const QString &id : ids)
            starts << lending.sliceOf(id)->sliceStart;
        QCOMPARE(starts, (QList<int>{0, 1, 2, 3, 4, 5, 6}));
        // The runtime is told it is a slice (the box gets the MIG device, not the card).
        QCOMPARE(f.runtime.lastSpec(ids.at(2)).gpuMigProfile, u"1g.10gb"_s);
        QCOMPARE(f.runtime.lastSpec(ids.at(2)).gpuCards, QList<int>{0});
        QCOMPARE(lending.available(*f.catalog.gpu(u"a100-80g-1g-10gb"_s)), 0);
        QCOMPARE(errorCode([&] { f.createRunning(user, u"a100-80g-1g-10gb"_s); }),
                 u"not_enough_gpus"_s);
        QCOMPARE(errorCode([&] { f.createRunning(user, u"a100-80g"_s); }), u"not_enough_gpus"_s);
        QCOMPARE(errorCode(
                     [&] { f.service->create(user, f.request(u"x"_s, u"a100-80g-1g-10gb"_s, 2)); }),
                 u"invalid_gpu_count"_s);
        f.service->stop(user, ids.at(3));
        QTRY_COMPARE(f.state(user, ids.at(3)), u"stopped"_s);
        QCOMPARE(lending.available(*f.catalog.gpu(u"a100-80g-1g-10gb"_s)), 1);
        f.service->start(user, ids.at(3));
        QTRY_COMPARE(f.state(user, ids.at(3)), u"running"_s);
        QCOMPARE(lending.sliceOf(ids.at(3))->sliceStart, 3);
    }

    // A card cut in slices is not lent whole, and a card lent whole takes no slice.
    void wholeAndSlicesShareTheCards()
    {
        QTemporaryDir dir;
        ServiceFixture f({}, 60'000, catalogWithA100s(dir.path(), 2));
        const QString user = f.signUp(u"share@example.com"_s);
        const QString whole = f.createRunning(user, u"a100-80g"_s);
        const QString slice = f.createRunning(user, u"a100-80g-2g-20gb"_s);
        CardLending lending(f.db);
        QCOMPARE(lending.cardsOf(whole), QList<int>{0});
        QCOMPARE(lending.sliceOf(slice)->card, 1);
        QCOMPARE(errorCode([&] { f.createRunning(user, u"a100-80g"_s); }), u"not_enough_gpus"_s);
        QCOMPARE(lending.available(*f.catalog.gpu(u"a100-80g"_s)), 0);
        // Two more 2g fit beside it (placements 0, 2, 4), a fourth does not.
        QCOMPARE(lending.available(*f.catalog.gpu(u"a100-80g-2g-20gb"_s)), 2);
        const QJsonArray gpus = f.service->gpuCatalog();
        for (const QJsonValue &gpu : gpus)
            if (gpu[u"id"_s].toString() == u"a100-80g"_s)
                QCOMPARE(gpu[u"available"_s].toInt(), 0);
    }

    // Placement, not just counting: a 3g.40gb at the start of a card leaves room for 4 compute
    // slices, but a 4g.40gb may only start at memory slice 0, so it needs another card.
    // What the box reads: the status file the provider writes for a slice names its card, its
    // VRAM and its MIG device at its placement, and the box's nvidia-smi lists them as the real
    // tool does.
    void boxSeesItsSlice()
    {
        QTemporaryDir dir;
        ServiceFixture f({}, 60'000, catalogWithA100s(dir.path(), 1));
        const QString user = f.signUp(u"box@example.com"_s);
        f.createRunning(user, u"a100-80g-3g-40gb"_s);
        const QString id = f.createRunning(user, u"a100-80g-3g-40gb"_s); // memory slices 4..7
        Telemetry::Options options;
        options.dataDir = dir.filePath(u"data"_s);
        Telemetry telemetry(
            f.db, f.catalog, f.runtime, f.events, f.clock,
            [](const QString &, int) { return QPair<double, qint64>(4, 4096); }, options);
        telemetry.sampleNow();
        const QString path = Telemetry::statusDirFor(options.dataDir, id) + u"/status.json"_s;
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        const QJsonObject card =
            QJsonDocument::fromJson(file.readAll()).object().value(u"gpus"_s)[0].toObject();
        QCOMPARE(card.value(u"name"_s).toString(), u"NVIDIA A100 80GB PCIe"_s);
        QCOMPARE(card.value(u"memory_total_mib"_s).toInt(), 40960);
        const QJsonObject mig = card.value(u"mig"_s).toObject();
        QCOMPARE(mig.value(u"profile"_s).toString(), u"3g.40gb"_s);
        QCOMPARE(mig.value(u"placement_start"_s).toInt(), 4);
        QCOMPARE(mig.value(u"gpu_instance_id"_s).toInt(), 2);
        QCOMPARE(mig.value(u"uuid"_s).toString(), migDeviceUuid(id));

        QProcess smi;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"CARDHOUR_GPU_STATUS"_s, path);
        smi.setProcessEnvironment(env);
        smi.start(QStringLiteral(CARDHOUR_NVIDIA_SMI), {u"-L"_s});
        QVERIFY(smi.waitForFinished(30000));
        const QStringList lines = QString::fromUtf8(smi.readAllStandardOutput()).split(u'\n');
        QCOMPARE(
            lines.value(0),
            u"GPU 0: NVIDIA A100 80GB PCIe (UUID: %1)"_s.arg(card.value(u"uuid"_s).toString()));
        QCOMPARE(lines.value(1),
                 u"  MIG 3g.40gb     Device  0: (UUID: %1)"_s.arg(migDeviceUuid(id)));
    }

    void placementAsOnARealCard()
    {
        QTemporaryDir dir;
        ServiceFixture f({}, 60'000, catalogWithA100s(dir.path(), 1));
        const QString user = f.signUp(u"place@example.com"_s);
        const QString first = f.createRunning(user, u"a100-80g-3g-40gb"_s);
        QCOMPARE(CardLending(f.db).sliceOf(first)->sliceStart, 0);
        QCOMPARE(errorCode([&] { f.createRunning(user, u"a100-80g-4g-40gb"_s); }),
                 u"not_enough_gpus"_s);
        const QString second = f.createRunning(user, u"a100-80g-3g-40gb"_s);
        QCOMPARE(CardLending(f.db).sliceOf(second)->sliceStart, 4);
        // 6 of 7 compute slices and every memory slice used: not even a 1g fits.
        QCOMPARE(errorCode([&] { f.createRunning(user, u"a100-80g-1g-10gb"_s); }),
                 u"not_enough_gpus"_s);
    }
};

QTEST_GUILESS_MAIN(TestCardSlices)
#include "tst_cardslices.moc"
