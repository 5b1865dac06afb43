// InstanceActions: the confirmations say what the provider's `retention` says. (The SSH
// command and its host-key check are core's: tests/core/ssh/tst_sshaccess.cpp.)
#include "InstanceActions.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using Action = ui::InstanceActions::Action;

namespace {

core::Instance running()
{
    core::Instance i;
    i.id = u"i-1"_s;
    i.name = u"train-1"_s;
    i.state = core::InstanceState::Running;
    i.pricePerHourMicros = 1'900'000;
    i.retention.stopKeeps = {u"workspace_volume"_s, u"container_disk"_s, u"host_key"_s,
                             u"ssh_port"_s};
    i.retention.stopReleases = {u"gpu_cards"_s};
    i.retention.terminateDeletes = i.retention.stopKeeps;
    i.retention.billedWhileRunning = {u"compute"_s};
    return i;
}

} // namespace

class TestInstanceActions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void allowed()
    {
        core::Instance i = running();
        QVERIFY(ui::InstanceActions::allowed(Action::Stop, i));
        QVERIFY(!ui::InstanceActions::allowed(Action::Start, i));
        QVERIFY(ui::InstanceActions::allowed(Action::Terminate, i));
        i.state = core::InstanceState::Stopped;
        QVERIFY(!ui::InstanceActions::allowed(Action::Stop, i));
        QVERIFY(ui::InstanceActions::allowed(Action::Start, i));
        i.state = core::InstanceState::Terminated;
        QVERIFY(!ui::InstanceActions::allowed(Action::Terminate, i));
    }

    void previewsFollowRetention()
    {
        core::Instance i = running();
        const QString stop = ui::InstanceActions::preview(Action::Stop, i);
        QVERIFY2(stop.contains(u"/workspace is kept."_s), qPrintable(stop));
        QVERIFY2(stop.contains(u"Nothing is billed while it is stopped."_s), qPrintable(stop));
        QVERIFY2(stop.contains(u"¥1.90/h"_s), qPrintable(stop));
        const QString terminate = ui::InstanceActions::preview(Action::Terminate, i);
        QVERIFY2(terminate.contains(u"Terminate deletes /workspace"_s), qPrintable(terminate));

        // What the provider does not promise is not promised.
        i.retention.stopKeeps.clear();
        i.retention.terminateDeletes.clear();
        i.retention.billedWhileStopped = {u"storage"_s};
        QVERIFY(!ui::InstanceActions::preview(Action::Stop, i).contains(u"/workspace is kept"_s));
        QVERIFY(ui::InstanceActions::preview(Action::Stop, i).contains(u"keep no data"_s));
        QVERIFY(ui::InstanceActions::preview(Action::Stop, i)
                    .contains(u"Still billed while stopped: storage."_s));
        // The rate the provider states for this instance's disk, not a sentence of our own.
        i.retention.storageGib = 50;
        i.retention.storagePricePerGibHourMicros = 200;
        i.retention.storageRateMicrosPerHourWhenStopped = 10'000;
        const QString billed = ui::InstanceActions::preview(Action::Stop, i);
        QVERIFY2(billed.contains(u"Its 50 GiB disk costs ¥0.01 per hour while stopped (¥0.0002 "
                                 "per GiB-hour)."_s),
                 qPrintable(billed));
        QVERIFY(!ui::InstanceActions::preview(Action::Terminate, i).contains(u"/workspace"_s));
    }
};

QTEST_GUILESS_MAIN(TestInstanceActions)
#include "tst_instanceactions.moc"
