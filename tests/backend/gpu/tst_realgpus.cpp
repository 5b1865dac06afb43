// The real-GPU path, run where this machine has NVIDIA GPUs: the host's cards become the
// catalog, telemetry reads the lent cards through nvidia-smi (and sees real work on them), and a
// container is given exactly its lent cards. Where there is no GPU, every function is skipped
// and ctest reports the test as skipped (SKIP_REGULAR_EXPRESSION), never as passed.
#include "PodmanApiTest.h"
#include "ServiceFixture.h"
#include "gpu/NvidiaGpus.h"
#include "gpu/Telemetry.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;
using namespace cardhour::test;
using cardhour::sim::Catalog;
using cardhour::sim::HostCard;
using cardhour::sim::NvidiaGpus;
using cardhour::sim::Telemetry;
using cardhour::sim::testing::ServiceFixture;

class TestRealGpus : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup() { cleanupPodmanTest(); }
    void cleanupTestCase() { cleanupPodmanTest(); }

    void hostCardsBecomeTheCatalog();
    void telemetryReadsTheLentCards();
    void containerSeesExactlyItsCards();

private:
    QList<HostCard> hostCards() const;
    NvidiaGpus::Inventory m_inventory;
};

void TestRealGpus::initTestCase()
{
    m_inventory = NvidiaGpus::detect();
    if (m_inventory.cards.isEmpty())
        QSKIP(qPrintable(u"no NVIDIA GPU on this machine (%1)"_s.arg(m_inventory.problem)));
    for (const NvidiaGpus::Card &card : std::as_const(m_inventory.cards))
        qInfo("GPU %d: %s, %d MiB, power limit %.0f W, %s", card.index, qPrintable(card.name),
              card.memoryMib, card.powerLimitW, qPrintable(card.uuid));
}

QList<HostCard> TestRealGpus::hostCards() const
{
    QList<HostCard> cards;
    for (const NvidiaGpus::Card &card : m_inventory.cards)
        cards.append(HostCard{card.index, NvidiaGpus::catalogIdFor(card.name), card.name,
                              card.memoryMib, card.powerLimitW});
    return cards;
}

void TestRealGpus::hostCardsBecomeTheCatalog()
{
    Catalog catalog = Catalog::load();
    catalog.offerHostCards(hostCards(), false);
    int offered = 0;
    for (const cardhour::sim::GpuType &type : catalog.gpus()) {
        QVERIFY2(!type.simulated, qPrintable(type.id));
        offered += type.capacity;
        for (int index : type.hostCards) {
            const auto card =
                std::find_if(m_inventory.cards.cbegin(), m_inventory.cards.cend(),
                             [&](const NvidiaGpus::Card &c) { return c.index == index; });
            QVERIFY(card != m_inventory.cards.cend());
            QCOMPARE(type.name, card->name);
            QCOMPARE(type.vramMib, card->memoryMib);
        }
    }
    QCOMPARE(offered, int(m_inventory.cards.size()));
}

void TestRealGpus::telemetryReadsTheLentCards()
{
    ServiceFixture f;
    f.catalog.offerHostCards(hostCards(), false);
    const QString type = NvidiaGpus::catalogIdFor(m_inventory.cards.first().name);
    const QString user = f.signUp(u"real@example.com"_s);
    const QString id = f.createRunning(user, type, 1);
    const int card = f.service->get(user, id).value(u"gpu_cards"_s).toArray().first().toInt();
    Telemetry telemetry(
        f.db, f.catalog, f.runtime, f.events, f.clock,
        [](const QString &, int) { return QPair<double, qint64>(1, 1024); }, Telemetry::Options{});

    // Real work on the lent card, where this machine has PyTorch with CUDA: utilisation must rise.
    QProcess load;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CUDA_VISIBLE_DEVICES"_s, QString::number(card));
    load.setProcessEnvironment(env);
    load.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    load.start(u"python3"_s,
               {u"-c"_s,
                u"import time, torch\n"
                "a = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)\n"
                "print('busy', flush=True)\n"
                "end = time.time() + 12\n"
                "while time.time() < end:\n"
                "    b = a @ a\n"
                "torch.cuda.synchronize()\n"_s});
    const bool loaded = load.waitForStarted(5000) && load.waitForReadyRead(60'000);
    double peakUtil = 0, peakPower = 0, lastTemperature = 0, peakMemory = 0;
    for (int tick = 0; tick < 8; ++tick) {
        telemetry.sampleNow();
        QTest::qWait(1000);
        const QList<Telemetry::Sample> samples = telemetry.samples(id, 0, 1);
        if (samples.isEmpty() || samples.last().cards.isEmpty())
            continue;
        QCOMPARE(samples.last().cards.size(), 1);
        const Telemetry::CardSample &c = samples.last().cards.first();
        peakUtil = std::max(peakUtil, double(c.utilizationPct));
        peakPower = std::max(peakPower, double(c.powerW));
        peakMemory = std::max(peakMemory, double(c.memoryUsedMib));
        lastTemperature = c.temperatureC;
    }
    load.kill();
    load.waitForFinished(10'000);
    qInfo("card %d: peak utilisation %.0f %%, peak power %.0f W, peak VRAM %.0f MiB, temperature "
          "%.0f C (load %s)",
          card, peakUtil, peakPower, peakMemory, lastTemperature, loaded ? "ran" : "did not run");
    QVERIFY2(lastTemperature > 0,
             "nvidia-smi's temperature of the lent card never reached the samples");
    const QJsonObject metrics = telemetry.metricsJson(id, 0, 1);
    QCOMPARE(metrics.value(u"simulated"_s).toBool(true), false);
    if (!loaded)
        QSKIP("no PyTorch with CUDA here to load the card; readings checked, load not");
    QVERIFY2(peakUtil >= 50,
             qPrintable(u"utilisation under a matmul loop peaked at %1 %"_s.arg(peakUtil)));
    QVERIFY(peakMemory > 256); // the 128 MiB matrices and CUDA's context
}

void TestRealGpus::containerSeesExactlyItsCards()
{
    initPodmanTest(); // skips where podman or ssh cannot run
    if (m_inventory.cdiSpec.isEmpty())
        QSKIP("no CDI spec for nvidia.com/gpu (nvidia-ctk cdi generate "
              "--output=/etc/cdi/nvidia.yaml)");
    SimProcess *sim = startSim({u"--gpus"_s, u"real"_s});
    QVERIFY(sim);
    const QString token = sim->signUp(u"realgpu@example.com"_s);
    const KeyPair key = makeKey(u"realgpu"_s);
    const QString keyId = addKey(*sim, token, key);
    const QString type = NvidiaGpus::catalogIdFor(m_inventory.cards.first().name);
    const QString id =
        create(*sim, token, {keyId}, QJsonObject{{u"gpu_type"_s, type}, {u"gpu_count"_s, 1}});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*sim, token, id, u"running"_s);
    QCOMPARE(running.value(u"gpu_simulated"_s).toBool(true), false);
    const int card = running.value(u"gpu_cards"_s).toArray().first().toInt();
    QString uuid;
    for (const NvidiaGpus::Card &c : std::as_const(m_inventory.cards))
        if (c.index == card)
            uuid = c.uuid;
    const Cmd list = ssh(running, knownHostsFor(running), key, u"nvidia-smi -L"_s);
    QVERIFY2(list.ok(), qPrintable(list.describe()));
    const QStringList lines = QString::fromUtf8(list.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1); // exactly the lent card, no other
    QVERIFY2(lines.first().contains(uuid), qPrintable(lines.first()));
}

QTEST_GUILESS_MAIN(TestRealGpus)
#include "tst_realgpus.moc"
