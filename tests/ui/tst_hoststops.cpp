// The stops the provider makes by itself, in the window, against a real cardhour-sim with the
// test clock: the Home card counts down on the provider's clock (moved an hour, the card says an
// hour less, whatever this machine's clock says); the host's details move and remove its stop
// time (a time in the past is refused and changes nothing); an idle stop's warning puts
// "Keep running HOST" in the tray menu, which postpones the stop, and clicking the message opens
// the host. Screenshots under <build>/screenshots.
#include "AccountPageDriver.h"
#include "CoreTestSupport.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "StopText.h"
#include "TrayNotifier.h"
#include "api/ProviderClient.h"
#include "pages/HomePage.h"
#include "pages/HostCard.h"
#include "pages/InstanceDetails.h"
#include "session/ClientSession.h"
#include "session/Session.h"

#include <QAction>
#include <QDateTimeEdit>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::await;
using cardhour::test::SimProcess;

class TestHostStops : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void countdownOnTheProvidersClock();
    void stopTimeMovedAndRemovedInDetails();
    void keepRunningFromTheTray();

private:
    QDateTime providerNow();
    QString launch(const QString &name, const core::StopPolicy &policy);
    void shoot(QWidget *widget, const QString &name);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    std::unique_ptr<ui::MainWindow> m_window;
    QString m_timed; // the host with a stop time
};

void TestHostStops::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_hoststops"_s);
    QSettings().clear();
    QVERIFY(m_scratch.isValid());
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));

    QString why;
    m_window = test::signedUpWindow(m_sim.baseUrl(), QDir(m_scratch.path()), u"stops"_s,
                                    u"stops@example.com"_s, {1100, 760}, &why);
    QVERIFY2(m_window, qPrintable(why));
    QVERIFY(await(m_window->clientSession()->client()->topUp(500'000'000)).ok);
}

void TestHostStops::cleanupTestCase()
{
    m_window.reset();
    m_sim.kill();
    QSettings().clear();
}

QDateTime TestHostStops::providerNow()
{
    const auto health = await(m_window->clientSession()->client()->health());
    return health.ok ? health.value->time : QDateTime();
}

QString TestHostStops::launch(const QString &name, const core::StopPolicy &policy)
{
    core::NewInstance request{name, u"rtx3090"_s, 1, u"base"_s, {}, {}, {}};
    request.stopPolicy = policy;
    const auto created = await(m_window->clientSession()->client()->createInstance(request));
    if (!created.ok) {
        qWarning("launch: %s", created.why());
        return {};
    }
    const QString id = created.value->id;
    const auto running =
        test::awaitState(*m_window->clientSession()->client(), id, core::InstanceState::Running);
    if (!running)
        return {};
    // The window hears of it through the stream.
    const bool heard = QTest::qWaitFor(
        [&] {
            const std::optional<core::Instance> held = m_window->clientSession()->instance(id);
            return held && held->state == core::InstanceState::Running;
        },
        10000);
    return heard ? id : QString();
}

void TestHostStops::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

void TestHostStops::countdownOnTheProvidersClock()
{
    const QDateTime start = providerNow();
    QVERIFY(start.isValid());
    core::StopPolicy policy;
    policy.stopAt = start.addSecs(2 * 3600 + 5 * 60);
    m_timed = launch(u"timed"_s, policy);
    QVERIFY(!m_timed.isEmpty());

    m_window->setCurrentView(ui::MainWindow::View::Home);
    ui::HomePage *home = m_window->homePage();
    QVERIFY(home);
    ui::HostCard *card = nullptr;
    QTRY_VERIFY([&] {
        for (ui::HostCard *c : home->cards())
            if (c->instanceId() == m_timed)
                card = c;
        return card != nullptr;
    }());
    auto *line = card->findChild<QLabel *>(u"cardPlannedStop"_s);
    QVERIFY(line);
    QTRY_VERIFY2(
        [&] {
            card->refreshLive();
            return line->text().contains(u"(in 2 h 0"_s);
        }(),
        qPrintable(line->text()));

    // The provider's clock moves an hour on (this machine's does not): an hour less to go.
    QVERIFY(m_sim.advance(3600));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            card->refreshLive();
            return line->text().contains(u"(in 1 h 0"_s);
        }(),
        10000);
    QVERIFY2(line->text().endsWith(ui::StopText::reason(u"max_duration"_s)),
             qPrintable(line->text()));
    shoot(card, u"hostcard-provider-clock"_s);
}

void TestHostStops::stopTimeMovedAndRemovedInDetails()
{
    QVERIFY(!m_timed.isEmpty());
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    m_window->selectInstance(m_timed);
    auto *details = m_window->findChild<ui::InstanceDetails *>(u"instanceDetails"_s);
    QVERIFY(details);
    QTRY_COMPARE(details->instanceId(), m_timed);
    auto *text = details->findChild<QLabel *>(u"stopTimerText"_s);
    auto *edit = details->findChild<QDateTimeEdit *>(u"stopTimerEdit"_s);
    auto *move = details->findChild<QPushButton *>(u"stopTimerMove"_s);
    auto *remove = details->findChild<QPushButton *>(u"stopTimerRemove"_s);
    auto *status = details->findChild<QLabel *>(u"stopTimerStatus"_s);
    QVERIFY(text && edit && move && remove && status);
    QVERIFY(move->isEnabled() && remove->isEnabled());
    QVERIFY2(text->text().startsWith(u"Stops at "_s), qPrintable(text->text()));

    // Moved three hours on from the provider's now (whole minutes: what the field shows), typed
    // as the provider's wall time: the field is in its zone, as every time shown is (it was in
    // this machine's).
    const QTimeZone shanghai("Asia/Shanghai");
    // The launch timeline tells time in the provider's zone too (it said "13:54:14 UTC").
    const std::optional<core::Instance> shown = m_window->clientSession()->instance(m_timed);
    QVERIFY(shown && shown->launch.requestedAt.isValid());
    const QString timeline = details->findChild<QLabel *>(u"timelineLabel"_s)->text();
    QVERIFY2(timeline.startsWith(u"requested at "_s
                                 + shown->launch.requestedAt.toTimeZone(shanghai).toString(
                                     u"yyyy-MM-dd HH:mm:ss"_s)),
             qPrintable(timeline));
    const QDateTime now = providerNow();
    QDateTime later = now.addSecs(3 * 3600).toTimeZone(shanghai);
    later.setTime(QTime(later.time().hour(), later.time().minute()));
    edit->setDate(later.date());
    edit->setTime(later.time());
    QTest::mouseClick(move, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(status->isVisible() && status->text().contains(u"now stops at"_s),
                             10000);
    const auto moved = await(m_window->clientSession()->client()->instance(m_timed));
    QVERIFY2(moved.ok, moved.why());
    QCOMPARE(moved.value->stopPolicy.stopAt, later.toUTC());
    QVERIFY(moved.value->plannedStop);
    QCOMPARE(moved.value->plannedStop->at, later.toUTC());
    QCOMPARE(moved.value->plannedStop->reason, u"max_duration"_s);
    QTRY_COMPARE(
        m_window->clientSession()->instance(m_timed).value_or(core::Instance{}).stopPolicy.stopAt,
        later.toUTC());
    shoot(details, u"details-stop-time"_s);

    // A time already past is refused by the provider, said, and the stop time stays.
    const QDateTime past = now.addSecs(-3600).toTimeZone(shanghai);
    edit->setDate(past.date());
    edit->setTime(past.time());
    QTest::mouseClick(move, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(u"The stop time was not changed"_s), 10000);
    QVERIFY2(status->text().contains(u"not in the future"_s), qPrintable(status->text()));
    const auto kept = await(m_window->clientSession()->client()->instance(m_timed));
    QVERIFY(kept.ok);
    QCOMPARE(kept.value->stopPolicy.stopAt, later.toUTC());
    shoot(details, u"details-stop-time-refused"_s);

    // Removed: no planned stop, and the host runs on past the old time.
    QTest::mouseClick(remove, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(u"no longer stops at a set time"_s), 10000);
    QTRY_VERIFY(!remove->isEnabled());
    QCOMPARE(move->text(), u"Set"_s);
    QCOMPARE(text->text(), u"No stop time."_s);
    const auto removed = await(m_window->clientSession()->client()->instance(m_timed));
    QVERIFY(removed.ok);
    QVERIFY(!removed.value->stopPolicy.stopAt.isValid());
    QVERIFY(!removed.value->plannedStop);
    QVERIFY(m_sim.advance(4 * 3600));
    const auto after = await(m_window->clientSession()->client()->instance(m_timed));
    QVERIFY(after.ok);
    QCOMPARE(after.value->state, core::InstanceState::Running);
    QVERIFY(await(m_window->clientSession()->client()->stopInstance(m_timed)).ok);
}

void TestHostStops::keepRunningFromTheTray()
{
    core::StopPolicy policy;
    core::IdlePolicy idle;
    idle.thresholdPercent = 10;
    idle.windowSeconds = 120;
    idle.warningSeconds = 60;
    policy.idle = idle;
    const QString id = launch(u"idler"_s, policy);
    QVERIFY(!id.isEmpty());
    const auto held = [&] {
        return m_window->clientSession()->instance(id).value_or(core::Instance{});
    };
    QTRY_VERIFY_WITH_TIMEOUT(held().plannedStop && held().plannedStop->reason == u"idle"_s, 15000);
    const QDateTime firstStop = held().plannedStop->at;

    // Into the warning time: the tray says so and its menu offers to keep the host running.
    QVERIFY(m_sim.advance(70));
    ui::TrayNotifier *tray = m_window->trayNotifier();
    QTRY_VERIFY_WITH_TIMEOUT(!tray->keepRunningActions().isEmpty(), 15000);
    QCOMPARE(tray->lastTitle(), u"A host will stop"_s);
    QVERIFY2(tray->lastMessage().startsWith(u"idler will stop at "_s),
             qPrintable(tray->lastMessage()));
    QAction *keep = tray->keepRunningActions().constFirst();
    QCOMPARE(keep->text(), u"Keep running idler"_s);
    if (auto *box = m_window->findChild<QMessageBox *>(u"stopWarningDialog"_s)) {
        shoot(box, u"stop-warning-dialog"_s);
        box->close();
    }

    // Clicking the message opens the host.
    m_window->setCurrentView(ui::MainWindow::View::Home);
    tray->activateLastMessage();
    QCOMPARE(m_window->selectedInstanceId(), id);

    // Kept running: the idle window starts again from now, the entry goes.
    keep->trigger();
    QTRY_VERIFY(tray->keepRunningActions().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const core::Instance i = held();
            return i.plannedStop && !i.plannedStop->warning && i.plannedStop->at > firstStop;
        }(),
        10000);
    const auto view = await(m_window->clientSession()->client()->instance(id));
    QVERIFY(view.ok);
    QCOMPARE(view.value->state, core::InstanceState::Running);
    QVERIFY(view.value->plannedStop && view.value->plannedStop->at > firstStop);
    shoot(m_window.get(), u"tray-kept-running"_s);

    // Left idle now, it stops for that reason.
    QVERIFY(m_sim.advance(130));
    QVERIFY(m_sim.advance(5));
    const auto stopped =
        test::awaitState(*m_window->clientSession()->client(), id, core::InstanceState::Stopped);
    QVERIFY(stopped);
    QCOMPARE(stopped->state, core::InstanceState::Stopped);
    QCOMPARE(stopped->stateReason, u"idle"_s);
}

QTEST_MAIN(TestHostStops)
#include "tst_hoststops.moc"
