// InstanceTableModel: rows follow the provider's list and events; launch stages and the
// measured ready time show in the state column; the cost of a running instance moves with
// the clock between events.
#include "InstanceTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

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

// The same, as the provider saw it `afterMs` after a fixed moment (which view is newer).
core::Instance madeAt(const QString &id, core::InstanceState state, qint64 afterMs)
{
    core::Instance i = make(id, state);
    i.updatedAt = QDateTime::fromMSecsSinceEpoch(1'800'000'000'000 + afterMs, QTimeZone::utc());
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

    void launchedAgoAndStagesInTheProviderZone()
    {
        // "Launched 3 min ago" by the provider's clock, the time itself in its zone; the
        // stages' times too (they were in this machine's zone).
        core::ManualClock local;
        core::ManualClock provider(1'800'000'000'000 + 3 * 60'000 + 5'000);
        Model model(&local);
        model.setTimeZone(QTimeZone("Asia/Shanghai"), &provider);
        core::Instance i = make(u"a"_s, core::InstanceState::Running);
        i.createdAt = QDateTime::fromMSecsSinceEpoch(1'800'000'000'000, QTimeZone::utc());
        i.launch.stages = {{u"ready"_s, i.createdAt.addSecs(3)}};
        model.upsert(i);
        QCOMPARE(model.index(0, Model::NameColumn).data(Qt::ToolTipRole).toString(),
                 u"name-a\nLaunched 3 min ago (2027-01-15 16:00:00)"_s);
        QVERIFY2(model.index(0, Model::StateColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .endsWith(u"16:00:03"_s),
                 qPrintable(model.index(0, Model::StateColumn).data(Qt::ToolTipRole).toString()));
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
        QCOMPARE(model.index(0, Model::CostColumn).data().toString(), u"¥2.90"_s);
        QCOMPARE(model.costNowMicros(1), 1'000'000); // stopped: nothing billed
        // A provider update replaces the local figure.
        core::Instance update = make(u"a"_s, core::InstanceState::Running);
        update.costMicros = 2'000'000;
        model.upsert(update);
        QCOMPARE(model.costNowMicros(0), 2'000'000);
    }

    // The sparkline: the last minute of utilisation per instance (cards averaged), from the
    // metrics events; only that cell changes; gone with its instance.
    void sparklineFromMetricsEvents()
    {
        core::ManualClock clock;
        Model model(&clock);
        model.setInstances({make(u"a"_s, core::InstanceState::Running),
                            make(u"b"_s, core::InstanceState::Running)});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        auto sample = [](const QString &id, QList<double> cards) {
            core::MetricsSample s;
            s.instanceId = id;
            for (int i = 0; i < cards.size(); ++i) {
                core::GpuSample gpu;
                gpu.index = i;
                gpu.utilizationPct = cards[i];
                s.gpus.append(gpu);
            }
            return s;
        };
        model.addSample(sample(u"b"_s, {20, 60}));
        model.addSample(sample(u"b"_s, {100}));
        model.addSample(sample(u"gone"_s, {50})); // not listed: ignored
        const QModelIndex cell = model.index(1, Model::ActivityColumn);
        QCOMPARE(cell.data(Model::SparklineRole).value<QList<double>>(), (QList<double>{40, 100}));
        QVERIFY(model.index(0, Model::ActivityColumn)
                    .data(Model::SparklineRole)
                    .value<QList<double>>()
                    .isEmpty());
        // Announced once for the frame, not once per sample.
        QVERIFY(changed.isEmpty());
        QTRY_COMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).value<QModelIndex>(), cell);
        QCOMPARE(changed.at(0).at(1).value<QModelIndex>(), cell);
        model.addSample(sample(u"a"_s, {10}));
        model.addSample(sample(u"b"_s, {30}));
        QTRY_COMPARE(changed.size(), 2); // both rows in one change
        QCOMPARE(changed.at(1).at(0).value<QModelIndex>(), model.index(0, Model::ActivityColumn));
        QCOMPARE(changed.at(1).at(1).value<QModelIndex>(), cell);
        QCOMPARE(cell.data(Model::SparklineRole).value<QList<double>>().size(), 3);
        for (int i = 0; i < 100; ++i)
            model.addSample(sample(u"b"_s, {double(i)}));
        const auto values = cell.data(Model::SparklineRole).value<QList<double>>();
        QCOMPARE(values.size(), Model::kSparklinePoints);
        QCOMPARE(values.last(), 99.0);
        model.upsert(make(u"b"_s, core::InstanceState::Terminated));
        model.upsert(make(u"b"_s, core::InstanceState::Running));
        QVERIFY(model.index(model.rowOf(u"b"_s), Model::ActivityColumn)
                    .data(Model::SparklineRole)
                    .value<QList<double>>()
                    .isEmpty());
    }

    // An older view of an instance (an action's answer overtaken by the event of the next
    // change) does not replace a newer one.
    void olderViewDoesNotWin()
    {
        core::ManualClock clock;
        Model model(&clock);
        model.upsert(madeAt(u"a"_s, core::InstanceState::Running, 800));
        model.upsert(madeAt(u"a"_s, core::InstanceState::Starting, 0));
        QCOMPARE(model.index(0, 0).data(Model::StateRole).toString(), u"running"_s);
        model.upsert(madeAt(u"a"_s, core::InstanceState::Stopping, 900));
        QCOMPARE(model.index(0, 0).data(Model::StateRole).toString(), u"stopping"_s);
    }

    // A whole list asked for before an event that is already shown (a launch made elsewhere,
    // running by the time the list arrives saying creating) keeps the newer row; a newer list
    // row still replaces it, and rows the list does not name go.
    void olderListDoesNotWin()
    {
        core::ManualClock clock;
        Model model(&clock);
        model.upsert(madeAt(u"a"_s, core::InstanceState::Running, 300));
        model.setInstances({madeAt(u"a"_s, core::InstanceState::Creating, 0),
                            madeAt(u"b"_s, core::InstanceState::Stopped, 0)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data(Model::StateRole).toString(), u"running"_s);
        model.setInstances({madeAt(u"a"_s, core::InstanceState::Stopping, 400)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data(Model::StateRole).toString(), u"stopping"_s);
    }
};

QTEST_MAIN(TestInstanceTableModel)
#include "tst_instancetablemodel.moc"
