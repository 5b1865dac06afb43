// SimulatedGpu: utilisation and VRAM follow the real load at once; temperature, power and fan
// follow utilisation with a lag, and come back down when the load goes.
#include "gpu/SimulatedGpu.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestSimulatedGpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void followsLoad_data();
    void followsLoad();
    void heatsWithLagAndCools();
    void clampsNonsense();
};

namespace {
SimulatedGpu::Spec spec4090()
{
    SimulatedGpu::Spec spec;
    spec.vramMib = 24564;
    spec.powerLimitW = 450;
    return spec;
}

SimulatedGpu run(SimulatedGpu gpu, const SimulatedGpu::Load &load, int seconds)
{
    for (int i = 0; i < seconds; ++i)
        gpu = SimulatedGpu::step(gpu, spec4090(), load, 1.0);
    return gpu;
}
} // namespace

void TestSimulatedGpu::followsLoad_data()
{
    QTest::addColumn<double>("cpuShare");
    QTest::addColumn<double>("memoryShare");
    QTest::addColumn<double>("utilization");
    QTest::addColumn<double>("vramMib");
    QTest::addColumn<QString>("pstate");
    QTest::newRow("idle") << 0.0 << 0.0 << 0.0 << 0.0 << u"P8"_s;
    QTest::newRow("one core of four") << 0.25 << 0.1 << 25.0 << 2456.0 << u"P2"_s;
    QTest::newRow("all cores") << 1.0 << 0.5 << 100.0 << 12282.0 << u"P0"_s;
}

void TestSimulatedGpu::followsLoad()
{
    QFETCH(double, cpuShare);
    QFETCH(double, memoryShare);
    QFETCH(double, utilization);
    QFETCH(double, vramMib);
    QFETCH(QString, pstate);
    const SimulatedGpu gpu = SimulatedGpu::step(SimulatedGpu::idle(spec4090()), spec4090(),
                                                {cpuShare, memoryShare}, 1.0);
    QCOMPARE(gpu.utilizationPct, utilization);
    QCOMPARE(gpu.memoryUsedMib, vramMib);
    QCOMPARE(gpu.pstate(), pstate);
}

void TestSimulatedGpu::heatsWithLagAndCools()
{
    const SimulatedGpu idle = SimulatedGpu::idle(spec4090());
    QCOMPARE(idle.temperatureC, 30.0);
    QVERIFY(idle.powerW > 0 && idle.powerW < 50);

    const SimulatedGpu oneSecond = run(idle, {1.0, 0.2}, 1);
    QVERIFY2(oneSecond.temperatureC > 30 && oneSecond.temperatureC < 40, "not at once");
    const SimulatedGpu aMinute = run(idle, {1.0, 0.2}, 60);
    QVERIFY2(aMinute.temperatureC > 76 && aMinute.temperatureC <= 78,
             qPrintable(QString::number(aMinute.temperatureC)));
    QVERIFY(aMinute.powerW > 440 && aMinute.powerW <= 450);
    QVERIFY(aMinute.fanPct > 50);

    const SimulatedGpu cooled = run(aMinute, {0.0, 0.0}, 60);
    QCOMPARE(cooled.utilizationPct, 0.0);
    QVERIFY(cooled.temperatureC < 33);
    QVERIFY(cooled.powerW < 35);
    QCOMPARE(cooled.fanPct, 0.0);
    // Monotonic on the way up.
    SimulatedGpu gpu = idle;
    for (int i = 0; i < 30; ++i) {
        const SimulatedGpu next = SimulatedGpu::step(gpu, spec4090(), {1.0, 0.0}, 1.0);
        QVERIFY(next.temperatureC >= gpu.temperatureC);
        gpu = next;
    }
}

void TestSimulatedGpu::clampsNonsense()
{
    const SimulatedGpu idle = SimulatedGpu::idle(spec4090());
    const SimulatedGpu over = SimulatedGpu::step(idle, spec4090(), {3.5, 7.0}, 1.0);
    QCOMPARE(over.utilizationPct, 100.0);
    QCOMPARE(over.memoryUsedMib, 24564.0);
    const SimulatedGpu under = SimulatedGpu::step(idle, spec4090(), {-1.0, -2.0}, 1.0);
    QCOMPARE(under.utilizationPct, 0.0);
    QCOMPARE(under.memoryUsedMib, 0.0);
    const SimulatedGpu nan =
        SimulatedGpu::step(idle, spec4090(), {std::nan(""), std::nan("")}, 1.0);
    QCOMPARE(nan.utilizationPct, 0.0);
    const SimulatedGpu noTime = SimulatedGpu::step(idle, spec4090(), {1.0, 0.0}, 0.0);
    QCOMPARE(noTime.temperatureC, idle.temperatureC);
}

QTEST_GUILESS_MAIN(TestSimulatedGpu)
#include "tst_simulatedgpu.moc"
