// WorkspaceVolumes: a launch's /workspace volume made, or taken when an earlier try of the same
// instance left it, never someone else's; volumes with an ext4 image mounted around the commands
// that need them mounted.
#include "LaunchFixture.h"
#include "runtime/WorkspaceDisk.h"
#include "runtime/WorkspaceVolumes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <optional>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::FakeEngine;
using test::LaunchFixture;

class TestWorkspaceVolumes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void podmanMakesANewVolume();
    void takesItsOwnVolume();
    void refusesSomeoneElsesVolume();
    void mountsAnImageVolumeAroundACommand();
};

namespace {
const QByteArray kOwnVolume =
    R"([{"Name":"cardhour-ws-i-1","Labels":{"cardhour.instance":"i-1","cardhour.provider":"prov"}}])";
} // namespace

void TestWorkspaceVolumes::podmanMakesANewVolume()
{
    LaunchFixture f;
    WorkspaceVolumes volumes(f.steps, DiskQuota{}, QString(), 1000);
    auto launch = f.begin(u"i-1"_s);
    launch->spec.diskGib = 20; // not bounded here: a plain volume
    std::optional<bool> fresh;
    volumes.create(launch, [&](bool isNew) { fresh = isNew; });
    QTRY_VERIFY(fresh.has_value());
    QVERIFY(*fresh);
    QCOMPARE(f.engine.lines(),
             QStringList{u"volume create --label cardhour.managed=true --label "
                         "cardhour.instance=i-1 --label cardhour.owner=u-1 --label "
                         "cardhour.provider=prov cardhour-ws-i-1"_s});
}

void TestWorkspaceVolumes::takesItsOwnVolume()
{
    // podman refuses the name; docker's create succeeds for an existing one: both inspect it.
    for (const cli::Engine engine : {cli::Engine::Podman, cli::Engine::Docker}) {
        LaunchFixture f(engine);
        if (engine == cli::Engine::Podman)
            f.engine.answer(u"volume create"_s,
                            FakeEngine::failed("Error: volume with name cardhour-ws-i-1 already "
                                               "exists: volume already exists"));
        f.engine.answer(u"volume inspect"_s, FakeEngine::ok(kOwnVolume));
        WorkspaceVolumes volumes(f.steps, DiskQuota{}, QString(), 1000);
        auto launch = f.begin(u"i-1"_s);
        std::optional<bool> fresh;
        volumes.create(launch, [&](bool isNew) { fresh = isNew; });
        QTRY_VERIFY(fresh.has_value());
        QVERIFY(!*fresh);
        QCOMPARE(f.engine.count(u"volume inspect cardhour-ws-i-1"_s), 1);
    }
}

void TestWorkspaceVolumes::refusesSomeoneElsesVolume()
{
    LaunchFixture f(cli::Engine::Docker);
    f.engine.answer(
        u"volume inspect"_s,
        FakeEngine::ok(R"([{"Name":"cardhour-ws-i-1","Labels":{"cardhour.instance":"i-9"}}])"));
    WorkspaceVolumes volumes(f.steps, DiskQuota{}, QString(), 1000);
    auto launch = f.begin(u"i-1"_s);
    bool ready = false;
    volumes.create(launch, [&](bool) { ready = true; });
    QTRY_COMPARE(f.failed.size(), 1);
    QVERIFY(!ready);
    QCOMPARE(f.failed.at(0).at(1).toString(),
             u"volume cardhour-ws-i-1 exists and does not belong to this instance"_s);
    QVERIFY(!f.queue.hasPendingWork(u"i-1"_s));
}

void TestWorkspaceVolumes::mountsAnImageVolumeAroundACommand()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    LaunchFixture f;
    WorkspaceVolumes volumes(f.steps, DiskQuota{}, data.path(), 1000);
    // No image: the command alone.
    std::optional<ProcessResult> done;
    volumes.runOnWorkspace(
        u"i-1"_s, {u"volume"_s, u"export"_s, u"cardhour-ws-i-1"_s},
        [&](const ProcessResult &r) { done = r; }, 500);
    QTRY_VERIFY(done.has_value());
    QCOMPARE(f.engine.lines(), QStringList{u"volume export cardhour-ws-i-1"_s});
    // With one: mounted first, unmounted after, the command's own result handed on; a snapshot's
    // step dies with the provider.
    const QString image = WorkspaceDisk::imagePath(data.path(), u"i-1"_s);
    QVERIFY(QDir().mkpath(QFileInfo(image).absolutePath()));
    QFile file(image);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    f.engine.calls.clear();
    f.engine.answer(u"volume export"_s, FakeEngine::failed("disk full"));
    done.reset();
    volumes.runOnWorkspace(
        u"i-1"_s, {u"volume"_s, u"export"_s, u"cardhour-ws-i-1"_s},
        [&](const ProcessResult &r) { done = r; }, 500, true);
    QTRY_VERIFY(done.has_value());
    QCOMPARE(done->err, "disk full");
    QCOMPARE(f.engine.lines(),
             (QStringList{u"volume mount cardhour-ws-i-1"_s, u"volume export cardhour-ws-i-1"_s,
                          u"volume unmount cardhour-ws-i-1"_s}));
    QVERIFY(f.engine.calls.at(1).snapshotStep);
    QCOMPARE(f.engine.calls.at(1).timeoutMs, 500);
}

QTEST_GUILESS_MAIN(TestWorkspaceVolumes)
#include "tst_workspacevolumes.moc"
