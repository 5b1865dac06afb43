// The lent cards' variables a box gets: the toolkit's NVIDIA_VISIBLE_DEVICES in host numbers,
// CUDA_VISIBLE_DEVICES in the box's, and NCCL settings only where there are several cards.
#include "runtime/BoxGpuEnvironment.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestBoxGpuEnvironment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneCard();
    void severalLentCards();
    void noCards();
    void migSlice();
};

namespace {
QString valueOf(const QList<QPair<QString, QString>> &env, const QString &name)
{
    for (const auto &[key, value] : env) {
        if (key == name)
            return value;
    }
    return u"<unset>"_s;
}
} // namespace

void TestBoxGpuEnvironment::oneCard()
{
    InstanceSpec spec;
    spec.gpuCount = 1;
    spec.gpuCards = {5};
    const auto env = boxGpuEnvironment(spec);
    QCOMPARE(valueOf(env, u"NVIDIA_VISIBLE_DEVICES"_s), u"5"_s);
    QCOMPARE(valueOf(env, u"CUDA_VISIBLE_DEVICES"_s), u"0"_s);
    QCOMPARE(valueOf(env, u"CUDA_DEVICE_ORDER"_s), u"PCI_BUS_ID"_s);
    QCOMPARE(valueOf(env, u"NCCL_SOCKET_IFNAME"_s), u"<unset>"_s);
}

void TestBoxGpuEnvironment::severalLentCards()
{
    InstanceSpec spec;
    spec.gpuCount = 3;
    spec.gpuCards = {2, 3, 7};
    const auto env = boxGpuEnvironment(spec);
    QCOMPARE(valueOf(env, u"NVIDIA_VISIBLE_DEVICES"_s), u"2,3,7"_s);
    QCOMPARE(valueOf(env, u"CUDA_VISIBLE_DEVICES"_s), u"0,1,2"_s);
    QCOMPARE(valueOf(env, u"NCCL_SOCKET_IFNAME"_s), u"lo"_s);
    QCOMPARE(valueOf(env, u"NCCL_IB_DISABLE"_s), u"1"_s);
    // Without recorded cards (an older row), the count decides.
    spec.gpuCards.clear();
    spec.gpuCount = 2;
    QCOMPARE(valueOf(boxGpuEnvironment(spec), u"NVIDIA_VISIBLE_DEVICES"_s), u"0,1"_s);
}

void TestBoxGpuEnvironment::noCards()
{
    InstanceSpec spec;
    spec.gpuCount = 0;
    QVERIFY(boxGpuEnvironment(spec).isEmpty());
}

// A MIG slice: the toolkit passes the MIG device by its UUID (the one nvidia-smi -L shows in
// the box), and it is CUDA's device 0 there; no NCCL settings for one device.
void TestBoxGpuEnvironment::migSlice()
{
    InstanceSpec spec;
    spec.instanceId = u"0b6f6a4e-1111-4222-8333-944455556666"_s;
    spec.gpuCount = 1;
    spec.gpuCards = {3};
    spec.gpuMigProfile = u"3g.40gb"_s;
    const auto env = boxGpuEnvironment(spec);
    QCOMPARE(valueOf(env, u"NVIDIA_VISIBLE_DEVICES"_s), migDeviceUuid(spec.instanceId));
    QVERIFY(migDeviceUuid(spec.instanceId).startsWith(u"MIG-"_s));
    QCOMPARE(migDeviceUuid(spec.instanceId).size(), 40); // MIG- and a UUID's 36
    QVERIFY(migDeviceUuid(spec.instanceId) != migDeviceUuid(u"another"_s));
    QCOMPARE(valueOf(env, u"CUDA_VISIBLE_DEVICES"_s), u"0"_s);
    QCOMPARE(valueOf(env, u"NCCL_SOCKET_IFNAME"_s), u"<unset>"_s);
}

QTEST_GUILESS_MAIN(TestBoxGpuEnvironment)
#include "tst_boxgpuenvironment.moc"
