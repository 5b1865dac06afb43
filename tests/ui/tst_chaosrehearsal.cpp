// Rehearsed failures (the provider's chaos API) as the window shows them, against a real
// cardhour-sim started with --allow-chaos: a launch through the launch dialog after "fail the
// next launch" ends Failed with the named error in the host's row (never Running), and the
// status bar says what was injected and what it did; a slowed API puts "answering slowly" with
// the time the last answer took in the connection banner, which goes once answers are prompt
// again. Screenshots under <build>/screenshots.
#include "AccountPageDriver.h"
#include "ConnectionBanner.h"
#include "CoreTestSupport.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "session/ClientSession.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::await;
using cardhour::test::SimProcess;

class TestChaosRehearsal : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void failedLaunchShownAsFailed();
    void slowApiShownInTheBanner();

private:
    QString rowText(const QString &name) const;
    void shoot(QWidget *widget, const QString &name);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    std::unique_ptr<ui::MainWindow> m_window;
};

void TestChaosRehearsal::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_chaosrehearsal"_s);
    QSettings().clear();
    QVERIFY(m_scratch.isValid());
    QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s, u"--allow-chaos"_s}),
             qPrintable(m_sim.lastError()));
    QString why;
    m_window = test::signedUpWindow(m_sim.baseUrl(), QDir(m_scratch.path()), u"chaos"_s,
                                    u"chaos@example.com"_s, {1100, 760}, &why);
    QVERIFY2(m_window, qPrintable(why));
    QVERIFY(await(m_window->clientSession()->client()->topUp(500'000'000)).ok);
}

void TestChaosRehearsal::cleanupTestCase()
{
    m_window.reset();
    m_sim.kill();
    QSettings().clear();
}

QString TestChaosRehearsal::rowText(const QString &name) const
{
    ui::InstanceTableModel *model = m_window->instanceModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->instanceAt(row)->name == name)
            return ui::InstanceTableModel::stateText(*model->instanceAt(row));
    }
    return u"(absent)"_s;
}

void TestChaosRehearsal::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

void TestChaosRehearsal::failedLaunchShownAsFailed()
{
    // What a user's script (or `cardhour-sim chaos add fail-launch`) does, with this account.
    core::NewChaosFault fault;
    fault.kind = u"fail_launch"_s;
    fault.reason = u"no capacity in zone b"_s;
    QSignalSpy notices(m_window->clientSession(), &core::ClientSession::notice);
    const auto said = [&notices] {
        QStringList texts;
        for (const QList<QVariant> &args : std::as_const(notices))
            texts.append(args.value(0).toString());
        return texts.join(u'\n');
    };
    const auto armed = await(m_window->clientSession()->client()->addChaosFault(fault));
    QVERIFY2(armed.ok, armed.why());
    QTRY_VERIFY2(said().contains(u"next launch will fail"_s), qPrintable(said()));

    m_window->findChild<QAction *>(u"launchAction"_s)->trigger();
    ui::LaunchDialog *launch = nullptr;
    QTRY_VERIFY((launch = m_window->findChild<ui::LaunchDialog *>(u"launchDialog"_s))
                && launch->isVisible());
    QTRY_VERIFY(launch->findChild<QListWidget *>(u"gpuList"_s)->count() > 0);
    QTRY_VERIFY(launch->findChild<QListWidget *>(u"imageList"_s)->count() > 0);
    QTest::keyClicks(launch->findChild<QLineEdit *>(u"nameEdit"_s), u"rehearsed"_s);
    auto *launchButton =
        launch->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY(launchButton->isEnabled());
    QTest::mouseClick(launchButton, Qt::LeftButton);

    // The row ends Failed with the named error; it never says Running.
    QTRY_VERIFY2_WITH_TIMEOUT(
        rowText(u"rehearsed"_s).startsWith(u"Failed"_s),
        qPrintable(rowText(u"rehearsed"_s) + u" / "_s + m_window->statusBar()->currentMessage()),
        20000);
    const QString row = rowText(u"rehearsed"_s);
    QVERIFY2(row.contains(u"no capacity in zone b"_s), qPrintable(row));
    // The status bar said what the fault did, then the launch's own outcome, with the reason.
    QTRY_VERIFY2(said().contains(u"launch of rehearsed failed on purpose"_s), qPrintable(said()));
    const QString status = m_window->statusBar()->currentMessage();
    QVERIFY2(status.contains(u"no capacity in zone b"_s)
                 && (status.contains(u"failed"_s) || status.contains(u"did not start"_s)),
             qPrintable(status));
    shoot(m_window.get(), u"chaos-failed-launch"_s);
    QVERIFY(!rowText(u"rehearsed"_s).startsWith(u"Running"_s));
}

void TestChaosRehearsal::slowApiShownInTheBanner()
{
    auto *banner = m_window->findChild<ui::ConnectionBanner *>(u"connectionBanner"_s);
    QVERIFY(banner);
    QVERIFY(!banner->isVisible());
    core::ProviderClient *client = m_window->clientSession()->client();
    core::NewChaosFault fault;
    fault.kind = u"slow_api"_s;
    fault.delayMs = 3000;
    fault.durationS = 600;
    const auto slow = await(client->addChaosFault(fault));
    QVERIFY2(slow.ok, slow.why());
    QTRY_VERIFY(m_window->statusBar()->currentMessage().contains(u"3000 ms"_s));

    // The window's next request is held: the banner says so, with the time it took.
    QVERIFY(await(client->me()).ok);
    QTRY_VERIFY(banner->showsSlow());
    const QString said = banner->findChild<QLabel *>(u"connectionBannerText"_s)->text();
    QVERIFY2(said.contains(u"answering slowly"_s) && said.contains(u" s."_s), qPrintable(said));
    QVERIFY(!banner->findChild<QPushButton *>(u"retryButton"_s)->isVisible());
    shoot(m_window.get(), u"chaos-slow-api"_s);

    // Cleared: the next answer is prompt and the banner goes.
    QVERIFY(await(client->clearChaosFault(slow.value->id)).ok);
    QVERIFY(await(client->me()).ok);
    QTRY_VERIFY(!banner->isVisible());
    QTRY_VERIFY(m_window->statusBar()->currentMessage().contains(u"Rehearsal over"_s));
}

QTEST_MAIN(TestChaosRehearsal)
#include "tst_chaosrehearsal.moc"
