// The real main window against a real cardhour-sim (test clock, in-process runtime): what a
// page shows follows the provider while it is shown, and what the user types reaches the
// provider as typed.
//  - The Billing page's Spending limits tab shows what has been spent when it is shown and
//    while it stays shown as the bill moves (not ¥0.00 until Reload).
//  - The Keys page lists the key the launch dialog made and uploaded for a user who had none,
//    while it is shown and when it is shown again.
//  - "Stop after 0.1 h" in the launch dialog sets a stop time 6 minutes after the click at the
//    provider (not 2 h); what the field cannot take is said under the form, Launch refused.
//  - Log-out closes every terminal tab (a next user sees none of the previous one's shells).
// Saves liveviews-*.png under <build>/screenshots.
#include "AccountPageDriver.h"
#include "CoreTestSupport.h"
#include "GuiTestWindow.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "SpendingLimitsPanel.h"
#include "SshActions.h"
#include "StopPolicyEditor.h"
#include "TerminalTab.h"
#include "api/ProviderClient.h"
#include "pages/BillingPage.h"
#include "pages/KeysPage.h"
#include "session/ClientSession.h"
#include "session/Session.h"
#include "ssh/SshKeyStore.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::await;
using cardhour::test::SimProcess;

class TestLiveViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void keysPageListsTheKeyMadeAtLaunch();
    void stopAfterAFractionOfAnHour();
    void spendingLimitsFollowTheBill();
    void logOutClosesTerminalTabs();

private:
    ui::LaunchDialog *openLaunchDialog();
    void launchThroughDialog(ui::LaunchDialog *dialog, const QString &name);
    QString spentShownFor(const QString &period) const;
    QString spentAtProvider(const QString &period) const;
    void shoot(QWidget *widget, const QString &name);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    std::unique_ptr<ui::MainWindow> m_window;
    core::ClientSession *m_session = nullptr;
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

QPushButton *launchButtonOf(QWidget *dialog)
{
    return dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
}

} // namespace

void TestLiveViews::initTestCase()
{
    // No keychain: the launch dialog makes its key without a passphrase, at once.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/cardhour-test-bus");
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_scratch.isValid());
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    m_window = std::make_unique<ui::MainWindow>(
        test::isolatedWindowOptions(QDir(m_scratch.path()), u"liveviews"_s));
    m_window->resize(1280, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_session = m_window->clientSession();
    m_window->connectToUrl(m_sim.baseUrl());
    QString why;
    QVERIFY2(test::signUpThroughPage(*m_window, u"live@example.com"_s, &why), qPrintable(why));
    // Enough for hours of the hosts to come: none stops for want of money.
    const auto topUp = await(m_session->client()->topUp(100'000'000));
    QVERIFY2(topUp.ok, topUp.why());
}

void TestLiveViews::cleanupTestCase()
{
    m_window.reset();
    m_sim.kill();
}

void TestLiveViews::shoot(QWidget *widget, const QString &name)
{
    QVERIFY(test::saveScreenshot(widget, QStringLiteral(CARDHOUR_SCREENSHOT_DIR), name));
}

ui::LaunchDialog *TestLiveViews::openLaunchDialog()
{
    m_window->findChild<QAction *>(u"launchAction"_s)->trigger();
    ui::LaunchDialog *dialog = nullptr;
    if (!QTest::qWaitFor([&] {
            return (dialog = shownChild<ui::LaunchDialog>(m_window.get(), u"launchDialog"_s))
                != nullptr;
        }))
        return nullptr;
    auto *gpus = dialog->findChild<QListWidget *>(u"gpuList"_s);
    if (!QTest::qWaitFor([&] { return gpus->count() > 0 && launchButtonOf(dialog)->isEnabled(); },
                         20000))
        return nullptr;
    return dialog;
}

void TestLiveViews::launchThroughDialog(ui::LaunchDialog *dialog, const QString &name)
{
    auto *nameEdit = dialog->findChild<QLineEdit *>(u"nameEdit"_s);
    nameEdit->clear();
    QTest::keyClicks(nameEdit, name);
    QTRY_VERIFY(launchButtonOf(dialog)->isEnabled());
    QTest::mouseClick(launchButtonOf(dialog), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!shownChild<ui::LaunchDialog>(m_window.get(), u"launchDialog"_s),
                             20000);
}

void TestLiveViews::keysPageListsTheKeyMadeAtLaunch()
{
    // The Keys page looked at first, with no key yet.
    m_window->setCurrentView(ui::MainWindow::View::Keys);
    ui::KeysPage *keys = m_window->keysPage();
    QTRY_VERIFY(keys->isVisible());
    auto *tree = keys->findChild<QTreeWidget *>(u"keyTree"_s);
    QCOMPARE(tree->topLevelItemCount(), 0);

    // The launch dialog, opened over it, makes and uploads a key for this user who has none.
    ui::LaunchDialog *dialog = openLaunchDialog();
    QVERIFY(dialog);
    QSignalSpy keysChanged(m_session, &core::ClientSession::sshKeysChanged);
    launchThroughDialog(dialog, u"with-key"_s);
    QCOMPARE(keysChanged.size(), 1);
    const QList<core::SshKeyPair> local = m_window->sshActions()->keyStore()->keys();
    QCOMPARE(local.size(), 1);
    const auto provider = await(m_session->client()->sshKeys());
    QVERIFY2(provider.ok, provider.why());
    QCOMPARE(provider.value->size(), 1);

    // The page, still shown, lists it as uploaded, under the provider's name for it.
    QTRY_COMPARE(tree->topLevelItemCount(), 1);
    QCOMPARE(tree->topLevelItem(0)->text(2), local.constFirst().fingerprintSha256());
    QTRY_COMPARE(tree->topLevelItem(0)->text(3),
                 u"uploaded as “%1”"_s.arg(provider.value->constFirst().name));
    shoot(m_window.get(), u"liveviews-keys-after-launch"_s);

    // Shown again later, it asks again: a key uploaded while another page was shown is listed.
    m_window->setCurrentView(ui::MainWindow::View::Home);
    QTRY_VERIFY(!keys->isVisible());
    core::SshKeyStore *store = m_window->sshActions()->keyStore();
    core::SshKeyReply *made = store->generate(u"second"_s);
    QSignalSpy madeDone(made, &core::SshKeyReply::finished);
    QVERIFY(madeDone.wait(20000));
    QVERIFY2(made->ok(), qPrintable(made->error()));
    const auto uploaded =
        await(core::SshKeyStore::upload(*m_session->client(), made->key(), u"second"_s));
    QVERIFY2(uploaded.ok, uploaded.why());
    m_window->setCurrentView(ui::MainWindow::View::Keys);
    QTRY_COMPARE(tree->topLevelItemCount(), 2);
    QTRY_VERIFY(tree->findItems(u"uploaded as “second”"_s, Qt::MatchExactly, 3).size() == 1);
}

void TestLiveViews::stopAfterAFractionOfAnHour()
{
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    ui::LaunchDialog *dialog = openLaunchDialog();
    QVERIFY(dialog);
    auto *rule = dialog->findChild<QComboBox *>(u"stopTimeRule"_s);
    auto *hours = dialog->findChild<QDoubleSpinBox *>(u"stopAfterHours"_s);
    auto *error = dialog->findChild<QLabel *>(u"errorLabel"_s);
    QVERIFY(rule && hours && error);
    rule->setCurrentIndex(rule->findData(int(ui::StopPolicyEditor::TimeRule::After)));
    QTRY_VERIFY(hours->isVisible());

    // What the field cannot hold is said, and Launch waits for a number it can.
    hours->setFocus();
    hours->selectAll();
    QTest::keyClicks(hours, u"0"_s);
    QCOMPARE(hours->text(), u"0 h"_s);
    QVERIFY(!launchButtonOf(dialog)->isEnabled());
    QVERIFY2(error->text().startsWith(u"Stop after: enter a number of hours from 0.01"_s),
             qPrintable(error->text()));
    QVERIFY(error->isVisible());
    shoot(dialog, u"liveviews-stop-after-refused"_s);

    // 0.1 h as typed: six minutes after the click, at the provider.
    QTest::keyClicks(hours, u".1"_s);
    QCOMPARE(hours->text(), u"0.1 h"_s);
    QTRY_VERIFY(launchButtonOf(dialog)->isEnabled());
    QVERIFY2(error->text().isEmpty(), qPrintable(error->text()));
    shoot(dialog, u"liveviews-stop-after-0.1"_s);
    QSignalSpy launched(dialog, &ui::LaunchDialog::launched);
    const QDateTime before = QDateTime::currentDateTimeUtc();
    auto *nameEdit = dialog->findChild<QLineEdit *>(u"nameEdit"_s);
    nameEdit->clear();
    QTest::keyClicks(nameEdit, u"six-minutes"_s);
    QTest::mouseClick(launchButtonOf(dialog), Qt::LeftButton);
    const QDateTime after = QDateTime::currentDateTimeUtc();
    QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 20000);
    const QString id = launched.at(0).at(0).value<core::Instance>().id;
    const auto stored = await(m_session->client()->instance(id));
    QVERIFY2(stored.ok, stored.why());
    const QDateTime stopAt = stored.value->stopPolicy.stopAt;
    QVERIFY(stopAt.isValid());
    // The provider keeps whole milliseconds; the request was made between before and after.
    QVERIFY2(stopAt >= before.addMSecs(360'000 - 1) && stopAt <= after.addMSecs(360'000 + 1),
             qPrintable(u"stop at %1, clicked between %2 and %3"_s.arg(
                 stopAt.toString(Qt::ISODateWithMs), before.toString(Qt::ISODateWithMs),
                 after.toString(Qt::ISODateWithMs))));
}

QString TestLiveViews::spentShownFor(const QString &period) const
{
    auto *label = m_window->findChild<QLabel *>(u"limitsSpent_"_s + period);
    return label ? label->text() : QString();
}

// What the panel must say for `period`, from the provider's own answer now.
QString TestLiveViews::spentAtProvider(const QString &period) const
{
    const auto limits = await(m_session->client()->spendingLimits());
    if (!limits.ok)
        return u"(no answer: %1)"_s.arg(QString::fromUtf8(limits.why()));
    const std::optional<core::SpendingPeriod> p = limits.value->period(period);
    return p ? ui::SpendingLimitsPanel::spentText(*p) : u"(no period)"_s;
}

void TestLiveViews::spendingLimitsFollowTheBill()
{
    // The tab is looked at once, before anything has been spent by the hosts to come.
    m_window->setCurrentView(ui::MainWindow::View::Billing);
    auto *billing = static_cast<ui::BillingPage *>(m_window->page(ui::MainWindow::View::Billing));
    billing->tabs()->setCurrentWidget(billing->limits());
    QTRY_VERIFY(billing->limits()->isVisible());
    QTRY_COMPARE(spentShownFor(u"day"_s), spentAtProvider(u"day"_s));
    m_window->setCurrentView(ui::MainWindow::View::Home);

    // An hour of the running hosts, while another page is shown: shown again, the tab says it.
    const QString spentBefore = spentShownFor(u"day"_s);
    QVERIFY(m_sim.advance(3600));
    QTRY_VERIFY(spentAtProvider(u"day"_s) != spentBefore);
    m_window->setCurrentView(ui::MainWindow::View::Billing);
    QTRY_VERIFY(billing->limits()->isVisible());
    QTRY_COMPARE(spentShownFor(u"day"_s), spentAtProvider(u"day"_s));
    QTRY_COMPARE(spentShownFor(u"month"_s), spentAtProvider(u"month"_s));
    QTRY_COMPARE(spentShownFor(u"total"_s), spentAtProvider(u"total"_s));

    // While it stays shown, the bill's next move reaches it without Reload.
    const QString shown = spentShownFor(u"total"_s);
    QVERIFY(m_sim.advance(1800));
    QTRY_VERIFY(spentAtProvider(u"total"_s) != shown);
    QTRY_COMPARE(spentShownFor(u"total"_s), spentAtProvider(u"total"_s));
    QTRY_COMPARE(spentShownFor(u"day"_s), spentAtProvider(u"day"_s));
    shoot(m_window.get(), u"liveviews-spending-limits"_s);
}

void TestLiveViews::logOutClosesTerminalTabs()
{
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    const QList<core::Instance> instances = m_session->instances();
    QVERIFY(!instances.isEmpty());
    // The in-process runtime has no SSH: the tabs stay on their "cannot connect" screen, which
    // is as much the previous user's as a shell.
    QList<QPointer<ui::TerminalTab>> tabs;
    for (const core::Instance &instance : instances)
        tabs << m_window->sshActions()->openTerminal(instance);
    QCOMPARE(m_window->terminalTabs().size(), instances.size());
    QTRY_VERIFY(!tabs.constFirst()->statusText().isEmpty());

    m_window->findChild<QAction *>(u"logOutAction"_s)->trigger();
    QTRY_VERIFY(!m_session->isLoggedIn());
    QCOMPARE(m_window->terminalTabs().size(), 0);
    for (const QPointer<ui::TerminalTab> &tab : std::as_const(tabs))
        QTRY_VERIFY(tab.isNull()); // gone with its screen and connection, not only hidden

    // Another user signs in: no tab of the first is there.
    ui::AccountPage *account = nullptr;
    QTRY_VERIFY((account = test::shownAccountPage(*m_window)));
    account->findChild<QLineEdit *>(u"emailEdit"_s)->clear(); // the last address is kept
    test::signUpOnPage(account, u"next@example.com"_s);
    QTRY_VERIFY_WITH_TIMEOUT(m_session->isLoggedIn(), 20000);
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    QCOMPARE(m_window->terminalTabs().size(), 0);
    shoot(m_window.get(), u"liveviews-after-log-out"_s);
}

QTEST_MAIN(TestLiveViews)
#include "tst_liveviews.moc"
