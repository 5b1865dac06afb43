// The Instances page on its own, against a real cardhour-sim (in-process runtime), fed as the
// window feeds it: empty, it says what an instance is and its button opens the launch dialog; an
// instance launched through the session is listed with no hand-back and can be selected; the
// details pane and the chart come when asked; Stop and Terminate ask first and, confirmed, go
// through the session, whose answer the list shows at once.
#include "CoreTestSupport.h"
#include "EmptyState.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MetricsChart.h"
#include "PageTestSupport.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "pages/InstanceDetails.h"
#include "pages/InstancesPage.h"
#include "session/ClientSession.h"

#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

class TestInstancesPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { m_sim.kill(); }
    void emptyThenListed();
    void actionsAskThenGoThroughTheSession();

private:
    // A session signed up as `email`, its instances fed into `model` as MainWindow feeds them.
    bool connectAndFeed(core::ClientSession &session, ui::InstanceTableModel &model,
                        const QString &email);
    ui::InstancesPage::SshFiles sshFiles() const;
    // Confirms the dialog confirm() opened; false when there was none.
    static bool confirmDialog(ui::InstancesPage &page);

    SimProcess m_sim;
    QTemporaryDir m_dir;
};

void TestInstancesPage::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(m_sim.lastError()));
}

bool TestInstancesPage::connectAndFeed(core::ClientSession &session, ui::InstanceTableModel &model,
                                       const QString &email)
{
    QObject::connect(&session, &core::ClientSession::instancesLoaded, &model,
                     &ui::InstanceTableModel::setInstances);
    QObject::connect(&session, &core::ClientSession::instanceChanged, &model,
                     &ui::InstanceTableModel::upsert);
    QSignalSpy loginNeeded(&session, &core::ClientSession::loginNeeded);
    session.connectToUrl(m_sim.baseUrl());
    return signUpWhenAsked(session, loginNeeded, email);
}

ui::InstancesPage::SshFiles TestInstancesPage::sshFiles() const
{
    return {m_dir.filePath(u"ssh"_s),
            m_dir.filePath(u"known_hosts"_s),
            m_dir.filePath(u"ssh_config"_s),
            {}};
}

bool TestInstancesPage::confirmDialog(ui::InstancesPage &page)
{
    auto *box = page.findChild<QMessageBox *>(u"confirmDialog"_s);
    auto *yes = box ? box->findChild<QPushButton *>(u"confirmButton"_s) : nullptr;
    if (!yes)
        return false;
    yes->click();
    return true;
}

void TestInstancesPage::emptyThenListed()
{
    core::ClientSession session(pageSessionOptions());
    ui::InstanceTableModel model;
    ui::InstancesPage page(&session, &model, sshFiles());
    page.resize(900, 560);
    page.show();
    auto *empty = page.findChild<ui::EmptyState *>(u"instancesEmpty"_s);
    QVERIFY(empty);
    QVERIFY(empty->isVisible());
    QCOMPARE(empty->title(), u"No instances yet"_s);
    QCOMPARE(page.tabText(0), u"Instances"_s);
    QVERIFY(page.sshActions());
    QVERIFY(page.terminalTabs().isEmpty());
    QVERIFY(!page.currentTerminal());
    QVERIFY(connectAndFeed(session, model, u"listed@example.com"_s));

    Q_EMIT empty->actionTriggered(); // "Launch an instance…"
    QTRY_VERIFY(page.findChild<ui::LaunchDialog *>());
    page.findChild<ui::LaunchDialog *>()->reject();

    // A launch through the session reaches the list: nobody hands the answer back.
    const core::NewInstance request{u"listed"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    const auto created = await(session.createInstance(request));
    QVERIFY2(created.ok, created.why());
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(!empty->isVisible());
    QSignalSpy selection(&page, &ui::InstancesPage::selectionChanged);
    page.selectInstance(created.value->id);
    QCOMPARE(page.selectedInstanceId(), created.value->id);
    QVERIFY(!selection.isEmpty());

    // The details pane and the chart come when asked for (the page first shown).
    QVERIFY(!page.findChild<ui::InstanceDetails *>());
    page.buildDetails();
    QVERIFY(page.findChild<ui::InstanceDetails *>(u"instanceDetails"_s));
    auto *chart = page.findChild<ui::MetricsChart *>();
    QVERIFY(chart);
    QVERIFY(chart->isVisible());
    page.setChartWanted(false);
    QVERIFY(!chart->isVisible());
    page.setChartWanted(true);
    QVERIFY(chart->isVisible());
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY(page.grab().save(QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u"/instances-page.png"_s));
}

void TestInstancesPage::actionsAskThenGoThroughTheSession()
{
    core::ClientSession session(pageSessionOptions());
    ui::InstanceTableModel model;
    ui::InstancesPage page(&session, &model, sshFiles());
    page.show();
    QVERIFY(connectAndFeed(session, model, u"actions@example.com"_s));
    const core::NewInstance request{u"acted-on"_s, u"rtx4090"_s, 1, u"base"_s, {}, {}};
    const auto created = await(session.createInstance(request));
    QVERIFY2(created.ok, created.why());
    const QString id = created.value->id;
    QVERIFY(awaitState(*session.client(), id, core::InstanceState::Running));
    QTRY_VERIFY(model.instance(id) && model.instance(id)->state == core::InstanceState::Running);
    page.selectInstance(id);

    QSignalSpy done(&page, &ui::InstancesPage::actionDone);
    QSignalSpy errors(&page, &ui::InstancesPage::errorOccurred);
    page.confirm(ui::InstanceActions::Action::Stop, id);
    QVERIFY(confirmDialog(page));
    QTRY_COMPARE(done.count(), 1);
    // The answer is in the list already: stopping (or stopped), not running.
    QVERIFY(model.instance(id));
    QVERIFY(model.instance(id)->state != core::InstanceState::Running);

    page.confirm(ui::InstanceActions::Action::Terminate, id);
    QVERIFY(confirmDialog(page));
    QTRY_COMPARE(done.count(), 2);
    QVERIFY(!session.instance(id).has_value());
    QVERIFY(!model.instance(id));
    QVERIFY(errors.isEmpty());
    // Nothing to ask about an instance that is gone.
    page.confirm(ui::InstanceActions::Action::Stop, id);
    QVERIFY(!page.findChild<QMessageBox *>(u"confirmDialog"_s)
            || !page.findChild<QMessageBox *>(u"confirmDialog"_s)->isVisible());
}

QTEST_MAIN(TestInstancesPage)
#include "tst_instancespage.moc"
