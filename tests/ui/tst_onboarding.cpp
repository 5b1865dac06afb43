// A new user's first minutes in the real main window against a real cardhour-sim (in-process
// runtime): the account page offers sign-up first and says what the provider's trial gives, a
// returning user (the same settings file, a new window) gets log-in and the provider URL they
// used; a malformed provider URL is refused with the whole reason and a good example; Launch
// takes the user to the new host and its stages and says when it runs; a one-click app asks,
// with its hourly cost, before it rents cards. Screens are saved under <build>/screenshots.
#include "AccountPageDriver.h"
#include "AppsPanel.h"
#include "ConnectPage.h"
#include "CoreTestSupport.h"
#include "CostPreview.h"
#include "Format.h"
#include "GuiTestWindow.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "pages/HomePage.h"
#include "pages/InstanceDetails.h"
#include "pages/SnapshotsPage.h"
#include "session/ClientSession.h"
#include "session/Session.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

class TestOnboarding : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void newUserSignsUpReturningUserLogsIn();
    void malformedProviderUrlIsRefusedWhole();
    void launchShowsTheNewHostAndItsStages();
    void appAsksWithItsHourlyCostBeforeRenting();

private:
    ui::MainWindow::Options options(const QString &tag) const;
    void shoot(QWidget *widget, const QString &name);
    // A window signed up as `email` on the account page, on the Home page.
    std::unique_ptr<ui::MainWindow> signedUpWindow(const QString &email);
    int instanceCount(ui::MainWindow &window);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
};

namespace {

template<typename T>
T *shownChild(QWidget *root, const QString &name)
{
    for (T *child : root->findChildren<T *>(name)) {
        if (child->isVisible())
            return child;
    }
    return nullptr;
}

} // namespace

void TestOnboarding::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_scratch.isValid());
    QVERIFY2(m_sim.start(), qPrintable(m_sim.lastError()));
}

void TestOnboarding::cleanupTestCase()
{
    m_sim.kill();
}

ui::MainWindow::Options TestOnboarding::options(const QString &tag) const
{
    ui::MainWindow::Options o = test::isolatedWindowOptions(QDir(m_scratch.path()), tag);
    // A settings file of this test's own: a "restart" is a new window over the same file.
    o.useSettings = true;
    o.settingsFile = m_scratch.filePath(tag + u"/settings.ini"_s);
    o.reconnectMinMs = 100;
    o.reconnectMaxMs = 500;
    o.sandboxAttach = false;
    return o;
}

void TestOnboarding::shoot(QWidget *widget, const QString &name)
{
    QVERIFY(test::saveScreenshot(widget, QStringLiteral(CARDHOUR_SCREENSHOT_DIR), name));
}

std::unique_ptr<ui::MainWindow> TestOnboarding::signedUpWindow(const QString &email)
{
    auto window = std::make_unique<ui::MainWindow>(options(email));
    window->resize(1280, 800);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    window->connectToUrl(m_sim.baseUrl());
    QString why;
    if (!test::signUpThroughPage(*window, email, &why)) {
        qWarning("%s", qPrintable(why));
        return nullptr;
    }
    return window;
}

int TestOnboarding::instanceCount(ui::MainWindow &window)
{
    const auto list = test::await(window.clientSession()->client()->instances());
    return list.ok ? int(list.value->size()) : -1;
}

// Before: "Create a new account" was an unticked box with no word of the trial, and neither the
// account nor a custom provider URL was remembered.
void TestOnboarding::newUserSignsUpReturningUserLogsIn()
{
    const auto health = m_sim.get(u"/v1/health"_s);
    QCOMPARE(health.status, 200);
    const qint64 trial = health.object().value(u"trial_credit_micros"_s).toInteger(-1);
    QVERIFY2(trial > 0, health.body.constData());
    const QString email = u"newcomer@example.com"_s;
    {
        ui::MainWindow window(options(u"returning"_s));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *connect = window.findChild<ui::ConnectPage *>(u"connectPage"_s);
        QTest::mouseClick(connect->findChild<QRadioButton *>(u"urlRadio"_s), Qt::LeftButton);
        QTest::keyClicks(connect->findChild<QLineEdit *>(u"urlEdit"_s), m_sim.baseUrl().toString());
        QTest::mouseClick(connect->findChild<QPushButton *>(u"connectButton"_s), Qt::LeftButton);
        ui::AccountPage *page = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((page = test::shownAccountPage(window)), 20000);
        // A new user: sign-up is what is offered, with the provider's own trial amount.
        QVERIFY(page->isSignUp());
        auto *trialLabel = page->findChild<QLabel *>(u"trialLabel"_s);
        QVERIFY(trialLabel && trialLabel->isVisible());
        QVERIFY2(trialLabel->text().contains(ui::Format::money(trial)),
                 qPrintable(trialLabel->text()));
        QCOMPARE(page->findChild<QPushButton *>(u"submitButton"_s)->text(), u"Sign up"_s);
        shoot(&window, u"onboarding-signup"_s);
        // Sign-up needs no click on anything but the fields.
        auto *emailEdit = page->findChild<QLineEdit *>(u"emailEdit"_s);
        QTest::keyClicks(emailEdit, email);
        QTest::keyClicks(page->findChild<QLineEdit *>(u"passwordEdit"_s), test::testPassword());
        auto *confirm = page->findChild<QLineEdit *>(u"confirmEdit"_s);
        QTest::keyClicks(confirm, test::testPassword());
        QTest::keyClick(confirm, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->isLoggedIn(), 20000);
        window.findChild<QAction *>(u"logOutAction"_s)->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.session()->isLoggedIn(), 20000);
    }

    // A restart: the provider URL is offered again, and log-in for the known account.
    ui::MainWindow window(options(u"returning"_s));
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *connect = window.findChild<ui::ConnectPage *>(u"connectPage"_s);
    QVERIFY(connect->findChild<QRadioButton *>(u"urlRadio"_s)->isChecked());
    QCOMPARE(connect->findChild<QLineEdit *>(u"urlEdit"_s)->text(), m_sim.baseUrl().toString());
    QTest::mouseClick(connect->findChild<QPushButton *>(u"connectButton"_s), Qt::LeftButton);
    ui::AccountPage *page = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((page = test::shownAccountPage(window)), 20000);
    QVERIFY(!page->isSignUp());
    QCOMPARE(page->email(), email);
    QVERIFY(!page->findChild<QLabel *>(u"trialLabel"_s)->isVisible());
    QTRY_COMPARE(QApplication::focusWidget(), page->findChild<QLineEdit *>(u"passwordEdit"_s));
    shoot(&window, u"onboarding-returning"_s);
}

// Before: "htp:/x" and "::::" got one generic line, "http://x:99999" was taken for a remote
// host named "http", and the URL error had no example of a good address.
void TestOnboarding::malformedProviderUrlIsRefusedWhole()
{
    ui::MainWindow window(options(u"urls"_s));
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *connect = window.findChild<ui::ConnectPage *>(u"connectPage"_s);
    QTest::mouseClick(connect->findChild<QRadioButton *>(u"urlRadio"_s), Qt::LeftButton);
    auto *edit = connect->findChild<QLineEdit *>(u"urlEdit"_s);
    auto *button = connect->findChild<QPushButton *>(u"connectButton"_s);
    auto *hint = connect->findChild<QLabel *>(u"urlHint"_s);
    const QList<std::pair<QString, QString>> bad = {{u"htp:/x"_s, u"htp"_s},
                                                    {u"localhost:abc"_s, u"abc"_s},
                                                    {u"::::"_s, u"::::"_s},
                                                    {u"http://x:99999"_s, u"99999"_s}};
    for (const auto &[text, named] : bad) {
        edit->clear();
        QTest::keyClicks(edit, text);
        QVERIFY2(!button->isEnabled(), qPrintable(text));
        QVERIFY(hint->isVisible());
        // What is wrong, and what a good address looks like.
        QVERIFY2(hint->text().contains(named), qPrintable(hint->text()));
        QVERIFY2(hint->text().contains(u"http://127.0.0.1:8787"_s), qPrintable(hint->text()));
        // Wrapped, never cut: the label is as tall as its text needs at its width.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QVERIFY(hint->wordWrap());
        QVERIFY2(hint->height() >= hint->heightForWidth(hint->width()),
                 qPrintable(u"%1: %2 < %3"_s.arg(text)
                                .arg(hint->height())
                                .arg(hint->heightForWidth(hint->width()))));
        QTest::keyClick(edit, Qt::Key_Return); // refused: nothing is asked
        QVERIFY(connect->isVisible());
    }
    shoot(&window, u"onboarding-bad-url"_s);
    // A well-formed address the client refuses (plain http:// across the network): the
    // problem, several lines long, is shown whole as well.
    edit->clear();
    QTest::keyClicks(edit, u"http://gpu.example.com"_s);
    QVERIFY(button->isEnabled());
    QVERIFY(!hint->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    auto *problem = connect->findChild<QLabel *>(u"progressLabel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled() && problem->text().contains(u"https://"_s), 20000);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY2(problem->heightForWidth(problem->width()) > 2 * problem->fontMetrics().height(),
             qPrintable(problem->text())); // more than two lines at this width
    QVERIFY2(problem->height() >= problem->heightForWidth(problem->width()),
             qPrintable(u"%1 < %2: %3"_s.arg(problem->height())
                            .arg(problem->heightForWidth(problem->width()))
                            .arg(problem->text())));
    shoot(&window, u"onboarding-refused-url"_s);
}

// Before: the window stayed where Launch was pressed (Home), and "Launching train-1…" was all
// the status bar said, even once the host ran.
void TestOnboarding::launchShowsTheNewHostAndItsStages()
{
    std::unique_ptr<ui::MainWindow> window = signedUpWindow(u"launcher@example.com"_s);
    QVERIFY(window);
    // A key of the account's (no key made at launch, whose note the status bar would say last).
    QCOMPARE(m_sim
                 .authedPost(window->session()->token(), u"/v1/ssh-keys"_s,
                             {{u"name"_s, u"laptop"_s}, {u"public_key"_s, test::testPublicKey()}})
                 .status,
             201);
    window->setCurrentView(ui::MainWindow::View::Home);
    window->findChild<QAction *>(u"launchAction"_s)->trigger();
    ui::LaunchDialog *launch = nullptr;
    QTRY_VERIFY((launch = shownChild<ui::LaunchDialog>(window.get(), u"launchDialog"_s)));
    QTRY_VERIFY(launch->findChild<QListWidget *>(u"gpuList"_s)->count() > 0);
    QTRY_VERIFY(launch->findChild<QListWidget *>(u"imageList"_s)->count() > 0);
    QTest::keyClicks(launch->findChild<QLineEdit *>(u"nameEdit"_s), u"train-1"_s);
    QPushButton *ok =
        launch->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY(ok->isEnabled());
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!shownChild<ui::LaunchDialog>(window.get(), u"launchDialog"_s), 20000);

    // The Instances page, the new host selected, its details pane following its stages.
    QCOMPARE(window->currentView(), ui::MainWindow::View::Instances);
    const QList<core::Instance> held = window->clientSession()->instances();
    QCOMPARE(held.size(), 1);
    const QString id = held.constFirst().id;
    QCOMPARE(window->selectedInstanceId(), id);
    auto *details = window->findChild<ui::InstanceDetails *>(u"instanceDetails"_s);
    QTRY_VERIFY(details && details->isVisible());
    QCOMPARE(details->instanceId(), id);
    auto *timeline = details->findChild<QLabel *>(u"timelineLabel"_s);
    QTRY_VERIFY_WITH_TIMEOUT(
        window->clientSession()->instance(id)->state == core::InstanceState::Running, 20000);
    const core::Instance running = *window->clientSession()->instance(id);
    QVERIFY(!running.launch.stages.isEmpty());
    for (const core::LaunchStage &stage : running.launch.stages)
        QVERIFY2(timeline->text().contains(ui::Format::stage(stage.name)),
                 qPrintable(timeline->text()));
    // Running: the status bar says so, not "Launching…".
    QTRY_COMPARE(window->statusBar()->currentMessage(), u"“train-1” is running."_s);
    shoot(window.get(), u"onboarding-launched"_s);

    // A snapshot restored into a new host is a launch as well (the page's restored(), which
    // tst_snapshotspage drives with real containers): the window goes to that host.
    const QString other = m_sim.createRunning(
        window->session()->token(),
        {{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}, {u"name"_s, u"restored-1"_s}});
    QVERIFY2(!other.isEmpty(), qPrintable(m_sim.lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(window->clientSession()->instance(other).has_value(), 20000);
    window->setCurrentView(ui::MainWindow::View::Snapshots);
    auto *snapshots =
        qobject_cast<ui::SnapshotsPage *>(window->page(ui::MainWindow::View::Snapshots));
    QVERIFY(snapshots);
    Q_EMIT snapshots->restored(*window->clientSession()->instance(other));
    QCOMPARE(window->currentView(), ui::MainWindow::View::Instances);
    QCOMPARE(window->selectedInstanceId(), other);
    QTRY_COMPARE(window->statusBar()->currentMessage(), u"“restored-1” is running."_s);
}

// Before: one click on an app's Launch rented its two cards at once.
void TestOnboarding::appAsksWithItsHourlyCostBeforeRenting()
{
    std::unique_ptr<ui::MainWindow> window = signedUpWindow(u"apps@example.com"_s);
    QVERIFY(window);
    const QString token = window->session()->token();
    QCOMPARE(m_sim
                 .authedPost(token, u"/v1/ssh-keys"_s,
                             {{u"name"_s, u"laptop"_s}, {u"public_key"_s, test::testPublicKey()}})
                 .status,
             201);
    window->setCurrentView(ui::MainWindow::View::Home);
    ui::AppsPanel *apps = window->homePage()->appsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(
        apps->launchButton(u"ocr"_s) && apps->launchButton(u"ocr"_s)->isEnabled(), 20000);
    const auto gpus = test::await(window->clientSession()->client()->gpuTypes());
    QVERIFY(gpus.ok);
    const auto gpu = std::find_if(gpus.value->cbegin(), gpus.value->cend(),
                                  [](const core::GpuType &g) { return g.available >= 2; });
    QVERIFY(gpu != gpus.value->cend());
    const QString hourly = ui::Format::money(ui::CostPreview::computePerHourMicros(*gpu, 2));

    for (const bool yes : {false, true}) {
        QTest::mouseClick(apps->launchButton(u"ocr"_s), Qt::LeftButton);
        QMessageBox *ask = nullptr;
        QTRY_VERIFY((ask = shownChild<QMessageBox>(window.get(), u"appLaunchConfirm"_s)));
        QVERIFY2(ask->text().contains(hourly), qPrintable(ask->text()));
        QVERIFY2(ask->informativeText().contains(hourly), qPrintable(ask->informativeText()));
        QCOMPARE(instanceCount(*window), 0); // nothing rented while it asks
        if (!yes) {
            shoot(ask, u"onboarding-app-confirm"_s);
            QTest::mouseClick(ask->button(QMessageBox::Cancel), Qt::LeftButton);
            QTRY_VERIFY(!shownChild<QMessageBox>(window.get(), u"appLaunchConfirm"_s));
            QCOMPARE(instanceCount(*window), 0);
            continue;
        }
        QSignalSpy launched(apps, &ui::AppsPanel::launched);
        QTest::mouseClick(ask->findChild<QPushButton *>(u"confirmButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 20000);
        QCOMPARE(launched.constFirst().constFirst().value<core::Instance>().gpuCount, 2);
        QCOMPARE(instanceCount(*window), 1);
    }
}

QTEST_MAIN(TestOnboarding)
#include "tst_onboarding.moc"
