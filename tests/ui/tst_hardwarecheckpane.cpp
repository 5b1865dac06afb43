// The hardware check before billing, in the window, against a real cardhour-sim: a host that got
// what was ordered says so in its details (and its launch timeline has the check); one whose box
// was made to get fewer cards than ordered is failed, unbilled, with the difference named in its
// details. Screenshots under <build>/screenshots.
#include "AccountPageDriver.h"
#include "CoreTestSupport.h"
#include "Format.h"
#include "GuiTestWindow.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "pages/InstanceDetails.h"
#include "session/ClientSession.h"

#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::await;
using cardhour::test::SimProcess;

class TestHardwareCheckPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void passedCheckInDetails();
    void shortBoxFailsWithTheDifference();

private:
    // Launches `count` RTX 4090s and waits until the window holds the host in `state`.
    QString launch(const QString &name, int count, core::InstanceState state);
    QString detailsText(const QString &id, const QString &label);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    std::unique_ptr<ui::MainWindow> m_window;
};

void TestHardwareCheckPane::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_hardwarecheckpane"_s);
    QSettings().clear();
    QVERIFY(m_scratch.isValid());
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    QString why;
    m_window = test::signedUpWindow(m_sim.baseUrl(), QDir(m_scratch.path()), u"hwcheck"_s,
                                    u"hwcheck@example.com"_s, {1280, 800}, &why);
    QVERIFY2(m_window, qPrintable(why));
}

void TestHardwareCheckPane::cleanupTestCase()
{
    m_window.reset();
    m_sim.kill();
    QSettings().clear();
}

QString TestHardwareCheckPane::launch(const QString &name, int count, core::InstanceState state)
{
    core::NewInstance request{name, u"rtx4090"_s, count, u"base"_s, {}, {}, {}};
    const auto created = await(m_window->clientSession()->client()->createInstance(request));
    if (!created.ok) {
        qWarning("launch: %s", created.why());
        return {};
    }
    const QString id = created.value->id;
    const bool heard = QTest::qWaitFor(
        [&] {
            const std::optional<core::Instance> held = m_window->clientSession()->instance(id);
            return held && held->state == state;
        },
        10000);
    return heard ? id : QString();
}

QString TestHardwareCheckPane::detailsText(const QString &id, const QString &label)
{
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    m_window->selectInstance(id);
    auto *details = m_window->findChild<ui::InstanceDetails *>(u"instanceDetails"_s);
    auto *value = details ? details->findChild<QLabel *>(label) : nullptr;
    // The pane follows the selection, then the session's copy of the host.
    if (!value
        || !QTest::qWaitFor([&] { return details->instanceId() == id && !value->text().isEmpty(); },
                            10000))
        return {};
    return value->text();
}

void TestHardwareCheckPane::passedCheckInDetails()
{
    const QString id = launch(u"checked"_s, 2, core::InstanceState::Running);
    QVERIFY(!id.isEmpty());
    const QString check = detailsText(id, u"hardwareCheckLabel"_s);
    QVERIFY2(
        check.startsWith(u"passed: the box has what was ordered (2 × NVIDIA GeForce RTX 4090"_s),
        qPrintable(check));
    QVERIFY2(check.contains(u"billed from then on"_s), qPrintable(check));
    const QString timeline = detailsText(id, u"timelineLabel"_s);
    QVERIFY2(timeline.contains(ui::Format::stage(u"hardware_check"_s)), qPrintable(timeline));
    QVERIFY(test::saveScreenshot(m_window.get(), QStringLiteral(CARDHOUR_SCREENSHOT_DIR),
                                 u"hardware-check-passed"_s));
}

void TestHardwareCheckPane::shortBoxFailsWithTheDifference()
{
    // The box really gets one card of the two ordered; the provider finds it inside the box.
    QCOMPARE(m_sim.post(u"/v1/_test/runtime/shortchange-next"_s, {{u"gpu_count"_s, 1}}).status,
             204);
    const QString id = launch(u"short"_s, 2, core::InstanceState::Failed);
    QVERIFY(!id.isEmpty());
    const QString check = detailsText(id, u"hardwareCheckLabel"_s);
    QVERIFY2(check.startsWith(u"failed, not billed:"_s), qPrintable(u"<%1>"_s.arg(check)));
    QVERIFY2(check.contains(u"ordered 2 × NVIDIA GeForce RTX 4090 24 GiB, the box has 1"_s),
             qPrintable(check));
    auto *details = m_window->findChild<ui::InstanceDetails *>(u"instanceDetails"_s);
    const QString state = details->findChild<QLabel *>(u"stateLabel"_s)->text();
    QVERIFY2(state.contains(u"hardware check failed"_s), qPrintable(state));
    QCOMPARE(m_window->clientSession()->instance(id)->costMicros, 0);
    QVERIFY(test::saveScreenshot(m_window.get(), QStringLiteral(CARDHOUR_SCREENSHOT_DIR),
                                 u"hardware-check-failed"_s));
}

QTEST_MAIN(TestHardwareCheckPane)
#include "tst_hardwarecheckpane.moc"
