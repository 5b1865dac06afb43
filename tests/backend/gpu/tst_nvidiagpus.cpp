// NvidiaGpus: nvidia-smi's CSV as real drivers print it, the CDI spec lookup, and, where this
// machine has NVIDIA GPUs, the real thing (skipped, not passed, where it has none).
#include "gpu/NvidiaGpus.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestNvidiaGpus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void inventory();
    void readings();
    void cdiSpec();
    void catalogIds_data();
    void catalogIds();
    void realGpus();
};

void TestNvidiaGpus::inventory()
{
    const QByteArray csv =
        "0, NVIDIA H200, GPU-1c2d3e4f-aaaa-bbbb-cccc-0123456789ab, 143771, 00000000:19:00.0\n"
        "1, NVIDIA GeForce RTX 4090, GPU-ffff0000-1111-2222-3333-444455556666, 24564, "
        "00000000:3B:00.0\n"
        "WARNING: infoROM is corrupted at gpu 0000:19:00.0\n"
        "\n";
    const QList<NvidiaGpus::Card> cards = NvidiaGpus::parseInventory(csv);
    QCOMPARE(cards.size(), 2);
    QCOMPARE(cards.at(0).index, 0);
    QCOMPARE(cards.at(0).name, u"NVIDIA H200"_s);
    QCOMPARE(cards.at(0).memoryMib, 143771);
    QCOMPARE(cards.at(0).busId, u"00000000:19:00.0"_s);
    QCOMPARE(cards.at(1).uuid, u"GPU-ffff0000-1111-2222-3333-444455556666"_s);
    QVERIFY(NvidiaGpus::parseInventory("").isEmpty());
    QVERIFY(NvidiaGpus::parseInventory("No devices were found\n").isEmpty());
}

void TestNvidiaGpus::readings()
{
    const QByteArray csv = "0, 87, 70123, 64, 512.33\n1, 0, 1, 31, [N/A]\n";
    const QList<NvidiaGpus::Reading> r = NvidiaGpus::parseReadings(csv);
    QCOMPARE(r.size(), 2);
    QCOMPARE(r.at(0).utilizationPct, 87.0);
    QCOMPARE(r.at(0).memoryUsedMib, 70123.0);
    QCOMPARE(r.at(0).temperatureC, 64.0);
    QCOMPARE(r.at(0).powerW, 512.33);
    QCOMPARE(r.at(1).powerW, 0.0);
}

void TestNvidiaGpus::cdiSpec()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QCOMPARE(NvidiaGpus::findCdiSpec({dir.path()}), QString());
    QFile other(dir.filePath(u"amd.yaml"_s));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("cdiVersion: 0.5.0\nkind: amd.com/gpu\n");
    other.close();
    QCOMPARE(NvidiaGpus::findCdiSpec({dir.path()}), QString());
    QFile spec(dir.filePath(u"nvidia.yaml"_s));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write("cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n- name: \"0\"\n");
    spec.close();
    QCOMPARE(NvidiaGpus::findCdiSpec({dir.path()}), spec.fileName());
}

void TestNvidiaGpus::catalogIds_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("id");
    QTest::newRow("h200") << u"NVIDIA H200"_s << u"h200"_s;
    QTest::newRow("4090") << u"NVIDIA GeForce RTX 4090"_s << u"rtx4090"_s;
    QTest::newRow("a100") << u"NVIDIA A100-SXM4-80GB"_s << u"a100-sxm4-80gb"_s;
    QTest::newRow("empty") << QString() << u"nvidia-gpu"_s;
}

void TestNvidiaGpus::catalogIds()
{
    QFETCH(QString, name);
    QFETCH(QString, id);
    QCOMPARE(NvidiaGpus::catalogIdFor(name), id);
}

void TestNvidiaGpus::realGpus()
{
    const NvidiaGpus::Inventory inventory = NvidiaGpus::detect();
    if (inventory.cards.isEmpty())
        QSKIP(qPrintable(u"no NVIDIA GPU on this machine: %1"_s.arg(inventory.problem)));
    for (const NvidiaGpus::Card &card : inventory.cards) {
        qInfo("GPU %d: %s, %d MiB, %s", card.index, qPrintable(card.name), card.memoryMib,
              qPrintable(card.uuid));
        QVERIFY(card.memoryMib > 0);
        QVERIFY(card.uuid.startsWith(u"GPU-"_s));
    }
    qInfo("CDI spec: %s", qPrintable(inventory.cdiSpec.isEmpty() ? u"none"_s : inventory.cdiSpec));
}

QTEST_GUILESS_MAIN(TestNvidiaGpus)
#include "tst_nvidiagpus.moc"
