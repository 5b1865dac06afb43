// ImageWait: a launch whose image `images build` is making waits for it and goes on once it is
// built; a failed build or none under way fails the launch, leaving no volume behind.
#include "LaunchFixture.h"
#include "runtime/ImageBuildStatus.h"
#include "runtime/ImageWait.h"

#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using test::LaunchFixture;

class TestImageWait : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noBuildNoWait();
    void waitsForTheBuild();
    void failedBuildFailsTheLaunch();
};

namespace {
const QString kPrefix = u"localhost/cardhour/"_s;
} // namespace

void TestImageWait::noBuildNoWait()
{
    QTemporaryDir data;
    LaunchFixture f;
    ImageWait wait(f.steps, data.path(), kPrefix);
    auto launch = f.begin(u"i-1"_s);
    QVERIFY(!wait.waitFor(launch, [] {}));
    ImageWait noData(f.steps, QString(), kPrefix);
    QVERIFY(!noData.waitFor(launch, [] {}));
    QCOMPARE(ImageWait::missingReason(u"base"_s),
             u"image base is not built: run cardhour-sim images build base"_s);
    wait.dropLaunch(launch, ImageWait::missingReason(u"base"_s));
    QTRY_COMPARE(f.failed.size(), 1);
    QCOMPARE(f.engine.lines(), QStringList{u"volume rm cardhour-ws-i-1"_s});
}

void TestImageWait::waitsForTheBuild()
{
    QTemporaryDir data;
    ImageBuildStatus status(data.path(), kPrefix);
    status.begin({u"base"_s});
    status.set(u"base"_s, ImageBuildStatus::State::Building);
    LaunchFixture f;
    ImageWait wait(f.steps, data.path(), kPrefix);
    auto launch = f.begin(u"i-1"_s);
    bool built = false;
    QVERIFY(wait.waitFor(launch, [&] { built = true; }));
    QTest::qWait(1200);
    QVERIFY(!built);
    status.set(u"base"_s, ImageBuildStatus::State::Built);
    QTRY_VERIFY_WITH_TIMEOUT(built, 3000);
    QCOMPARE(f.failed.size(), 0);
}

void TestImageWait::failedBuildFailsTheLaunch()
{
    QTemporaryDir data;
    ImageBuildStatus status(data.path(), kPrefix);
    status.begin({u"base"_s});
    LaunchFixture f;
    ImageWait wait(f.steps, data.path(), kPrefix);
    auto launch = f.begin(u"i-1"_s);
    bool built = false;
    QVERIFY(wait.waitFor(launch, [&] { built = true; })); // queued counts as under way
    status.set(u"base"_s, ImageBuildStatus::State::Failed, u"debootstrap failed"_s);
    QTRY_COMPARE_WITH_TIMEOUT(f.failed.size(), 1, 3000);
    QVERIFY(!built);
    QCOMPARE(f.failed.at(0).at(1).toString(),
             u"image base could not be built: debootstrap failed"_s);
    QCOMPARE(f.engine.lines(), QStringList{u"volume rm cardhour-ws-i-1"_s});
}

QTEST_GUILESS_MAIN(TestImageWait)
#include "tst_imagewait.moc"
