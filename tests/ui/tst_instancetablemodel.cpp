// InstanceTableModel: rows follow the provider's list and events; launch stages and the
// measured ready time show in the state column; the cost of a running instance moves with
// the clock between events.
#include "InstanceTableModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using Model = ui::InstanceTableModel;

namespace {

core::Instance make(const QString &id, core::InstanceState state)
{
    core::Instance i;
    i.id = id;
    i.name = u"name-"_s + id;
    i.state = state;
    i.gpuName = u"RTX 4090"_s;
    i.gpuCount = 2;
    i.pricePerHourMicros = 3'800'000;
    i.costMicros = 1'000'000;
    return i;
}

} // namespace

class TestInstanceTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsFollowListAndEvents()
    {
        core::ManualClock clock;
        Model model(&clock);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setInstances({make(u"a"_s, core::InstanceState::Running),
                            make(u"t"_s, core::InstanceState::Terminated)});
        QCOMPARE(model.rowCount(), 1); // terminated ones are left out
        model.upsert(make(u"b"_s, core::InstanceState::Creating));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, Model::GpuColumn).data().toString(), u"RTX 4090 × 2"_s);
        model.upsert(make(u"b"_s, core::InstanceState::Terminated));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.rowOf(u"a"_s), 0);
        QCOMPARE(model.index(0, 0).data(Model::StateRole).toString(), u"running"_s);
    }

    void stagesAndReadyTime()
    {
        core::Instance i = make(u"a"_s, core::InstanceState::Starting);
        i.launch.stages = {{u"image"_s, {}}, {u"container"_s, {}}};
        QCOMPARE(Model::stateText(i), u"Starting · image ✓ container ✓ …"_s);
        i.state = core::InstanceState::Running;
        i.launch.stages.append({u"sshd"_s, {}});
        i.launch.stages.append({u"ready"_s, {}});
        i.launch.readyMs = 3249;
        QCOMPARE(Model::stateText(i), u"Running · SSH ready in 3.2 s"_s);
    }

    void costMovesWithTheClock()
    {
        core::ManualClock clock;
        Model model(&clock);
        model.setInstances({make(u"a"_s, core::InstanceState::Running),
                            make(u"s"_s, core::InstanceState::Stopped)});
        QCOMPARE(model.costNowMicros(0), 1'000'000);
        clock.advanceMs(3'600'000 / 2);
        QCOMPARE(model.costNowMicros(0), 1'000'000 + 1'900'000);
        QCOMPARE(model.index(0, Model::CostColumn).data().toString(), u"¥2.9000"_s);
        QCOMPARE(model.costNowMicros(1), 1'000'000); // stopped: nothing billed
        // A provider update replaces the local figure.
        core::Instance update = make(u"a"_s, core::InstanceState::Running);
        update.costMicros = 2'000'000;
        model.upsert(update);
        QCOMPARE(model.costNowMicros(0), 2'000'000);
    }
};

QTEST_MAIN(TestInstanceTableModel)
#include "tst_instancetablemodel.moc"
