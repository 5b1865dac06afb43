// The instance details pane against a real cardhour-sim with the podman runtime: a launch with a
// shared dataset shows the dataset, the SSH address, the pinned host key, the resources and the
// provider's own prices in the pane, and the dataset is at /datasets/NAME in the box; a launch
// of the jupyter image shows its app, whose stage turns ready after SSH is (the instance is
// running first), and "Open in browser" opens it through the SSH forward: the URL answers 200.
// The empty state, and screenshots in light and dark palettes, under <build>/screenshots.
#include "CoreTestSupport.h"
#include "Format.h"
#include "PodmanApiTest.h"
#include "SshActions.h"
#include "SshTestSupport.h"
#include "StateStyle.h"
#include "api/ProviderClient.h"
#include "pages/InstanceDetails.h"
#include "session/ClientSession.h"
#include "session/Session.h"
#include "ssh/SshKeyStore.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x33, 0x33, 0x33));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xd0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

} // namespace

class TestInstanceDetails : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void emptyState();
    void datasetInPaneAndInBox();
    void appStageTurnsReadyAndOpensThroughForward();

private:
    QString label(const QString &name) const;
    void shoot(const QString &name);
    QString launch(const QString &image, const QStringList &datasets);

    SimProcess *m_sim = nullptr;
    std::unique_ptr<core::ClientSession> m_session;
    std::unique_ptr<QWidget> m_window;
    ui::InstanceDetails *m_details = nullptr;
    ui::SshActions *m_ssh = nullptr;
    KeyPair m_key;
    QString m_keyId;
};

void TestInstanceDetails::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    initPodmanTest();
    if (QTest::currentTestFailed() || !m_dir)
        return;
    m_sim = startSim();
    QVERIFY(m_sim);

    // The operator shares a folder as a dataset while the provider runs.
    const QString folder = m_dir->filePath(u"dataset-corpus"_s);
    QVERIFY(QDir().mkpath(folder));
    QFile data(folder + u"/train.csv"_s);
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write("x,y\n1,2\n");
    data.close();
    const Cmd added =
        run(SimProcess::binaryPath(),
            {u"datasets"_s, u"add"_s, u"corpus"_s, folder, u"--data"_s, m_sim->dataDir()});
    QVERIFY2(added.ok(), qPrintable(added.describe()));

    core::ClientSession::Options o;
    o.keychainService = u"CardHourTest-details-%1"_s.arg(QCoreApplication::applicationPid());
    o.keychainTimeoutMs = 3000;
    m_session = std::make_unique<core::ClientSession>(o);
    QSignalSpy loginNeeded(m_session.get(), &core::ClientSession::loginNeeded);
    QSignalSpy loaded(m_session.get(), &core::ClientSession::instancesLoaded);
    m_session->connectToUrl(m_sim->baseUrl());
    QTRY_VERIFY_WITH_TIMEOUT(!loginNeeded.isEmpty(), 20000);
    m_session->signUp(u"details@example.com"_s, u"correct horse battery"_s);
    QTRY_VERIFY_WITH_TIMEOUT(m_session->isLoggedIn() && !loaded.isEmpty(), 20000);

    m_window = std::make_unique<QWidget>();
    m_window->resize(760, 720);
    auto *layout = new QVBoxLayout(m_window.get());
    m_details = new ui::InstanceDetails(m_session.get(), m_window.get());
    layout->addWidget(m_details);
    auto *tabs = new QTabWidget(m_window.get()); // where SshActions would put terminals
    tabs->hide();
    m_ssh = new ui::SshActions(m_session.get(), m_session->secrets(), tabs,
                               m_dir->filePath(u"app/ssh"_s), m_dir->filePath(u"app/known_hosts"_s),
                               m_dir->filePath(u"home/.ssh/config"_s), m_window.get());
    m_ssh->setOpenBrowser(false);
    // The pane names the app; SshActions opens it (one path for every view).
    connect(m_details, &ui::InstanceDetails::openAppRequested, m_ssh,
            [this](const QString &id, const QString &app) {
                m_ssh->openApp(m_session->instance(id), app);
            });

    // A key the pane's SshActions knows (imported), uploaded through the session's client.
    m_key = makeKey(u"details"_s);
    const KeyOutcome imported =
        awaitKey(m_ssh->keyStore()->importPublicKey(m_key.privatePath + u".pub"_s));
    QVERIFY2(imported.ok, qPrintable(imported.error));
    const auto uploaded =
        await(core::SshKeyStore::upload(*m_session->client(), imported.key, u"details"_s));
    QVERIFY2(uploaded.ok, uploaded.why());
    m_keyId = uploaded.value->id;

    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestInstanceDetails::cleanupTestCase()
{
    m_window.reset(); // closes forwards before the containers go
    m_session.reset();
    cleanupPodmanTest();
}

QString TestInstanceDetails::label(const QString &name) const
{
    auto *found = m_details->findChild<QLabel *>(name);
    return found ? found->text() : u"<no label %1>"_s.arg(name);
}

void TestInstanceDetails::shoot(const QString &name)
{
    QCoreApplication::processEvents();
    QVERIFY(QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR)));
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(m_window->grab().save(path), qPrintable(path));
    // And the same in a dark theme: the state colours follow the window's lightness.
    const QPalette light = QApplication::palette();
    QApplication::setPalette(darkPalette());
    QCoreApplication::processEvents();
    const QString darkPath = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u"-dark.png"_s;
    const bool saved = m_window->grab().save(darkPath);
    QApplication::setPalette(light);
    QCoreApplication::processEvents();
    QVERIFY2(saved, qPrintable(darkPath));
}

QString TestInstanceDetails::launch(const QString &image, const QStringList &datasets)
{
    const core::NewInstance request{{}, u"rtx4090"_s, 1, image, {m_keyId}, datasets};
    const auto created = await(m_session->client()->createInstance(request));
    if (!created.ok)
        return {};
    m_instanceIds.append(created.value->id);
    m_session->noteInstance(*created.value);
    return created.value->id;
}

void TestInstanceDetails::emptyState()
{
    m_details->showInstance({});
    QVERIFY(m_details->isShowingEmptyState());
    auto *empty = m_details->findChild<QLabel *>(u"detailsEmptyLabel"_s);
    QVERIFY(empty && empty->isVisible());
    QVERIFY(empty->text().contains(u"Select an instance"_s));
    QVERIFY(!empty->accessibleName().isEmpty());
    shoot(u"details-empty"_s);
    // An id the session does not hold is the empty state too, not a blank pane.
    m_details->showInstance(u"00000000-0000-0000-0000-000000000000"_s);
    QVERIFY(m_details->isShowingEmptyState());
}

void TestInstanceDetails::datasetInPaneAndInBox()
{
    const QString id = launch(u"base"_s, {u"corpus"_s});
    QVERIFY(!id.isEmpty());
    m_details->showInstance(id);
    QVERIFY(!m_details->isShowingEmptyState());
    // While it launches, the pane follows the stream: stages appear, then the SSH address.
    QTRY_VERIFY_WITH_TIMEOUT(m_session->instance(id)
                                 && m_session->instance(id)->state == core::InstanceState::Running,
                             kRunningTimeoutMs);
    const QJsonObject json = instance(*m_sim, m_session->session()->token(), id);
    const QJsonObject sshJson = json.value(u"ssh"_s).toObject();
    const QJsonObject retention = json.value(u"retention"_s).toObject();

    QTRY_COMPARE(label(u"fingerprintLabel"_s), sshJson.value(u"host_key_sha256"_s).toString());
    QCOMPARE(
        label(u"sshLabel"_s),
        u"%1@%2:%3"_s.arg(sshJson.value(u"user"_s).toString(), sshJson.value(u"host"_s).toString())
            .arg(sshJson.value(u"port"_s).toInt()));
    QVERIFY2(label(u"datasetsLabel"_s).contains(u"/datasets/corpus"_s),
             qPrintable(label(u"datasetsLabel"_s)));
    const QString timeline = label(u"timelineLabel"_s);
    for (const QString &stage : {u"image"_s, u"container"_s, u"sshd"_s, u"ready"_s})
        QVERIFY2(timeline.contains(ui::Format::stage(stage) + u": "_s), qPrintable(timeline));
    QVERIFY2(
        label(u"computeLabel"_s)
            .contains(ui::Format::ratePerHour(json.value(u"price_per_hour_micros"_s).toInteger())),
        qPrintable(label(u"computeLabel"_s)));
    // The stopped-disk fee is the provider's: its rate, its GiB and its price per GiB-hour.
    const qint64 storageRate =
        retention.value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger();
    QVERIFY(storageRate > 0);
    const QString storage = label(u"storageLabel"_s);
    QVERIFY2(
        storage.contains(ui::Format::ratePerHour(storageRate))
            && storage.contains(u"%1 GiB"_s.arg(retention.value(u"storage_gib"_s).toInteger())),
        qPrintable(storage));
    QVERIFY2(label(u"retentionLabel"_s).contains(ui::Format::retentionItem(u"workspace_volume"_s))
                 && label(u"retentionLabel"_s).contains(ui::Format::retentionItem(u"gpu_cards"_s)),
             qPrintable(label(u"retentionLabel"_s)));
    QVERIFY2(label(u"resourcesLabel"_s).contains(u"CPUs"_s),
             qPrintable(label(u"resourcesLabel"_s)));
    QVERIFY2(label(u"cardsLabel"_s).contains(json.value(u"gpu_name"_s).toString()),
             qPrintable(label(u"cardsLabel"_s)));
    QCOMPARE(label(u"noAppsLabel"_s), ui::InstanceDetails::tr("This image serves no web apps."));
    // The fingerprint can be selected (and so copied).
    auto *fingerprint = m_details->findChild<QLabel *>(u"fingerprintLabel"_s);
    QVERIFY(fingerprint->textInteractionFlags() & Qt::TextSelectableByMouse);
    QVERIFY(!fingerprint->accessibleName().isEmpty());
    shoot(u"details-dataset"_s);

    // And in the box, where the pane says.
    const Cmd read = ssh(json, knownHostsFor(json), m_key, u"cat /datasets/corpus/train.csv"_s);
    QVERIFY2(read.ok(), qPrintable(read.describe()));
    QCOMPARE(read.out, "x,y\n1,2\n"_ba);
}

void TestInstanceDetails::appStageTurnsReadyAndOpensThroughForward()
{
    const QString id = launch(u"jupyter"_s, {});
    QVERIFY(!id.isEmpty());
    m_details->showInstance(id);
    QTRY_VERIFY_WITH_TIMEOUT(m_session->instance(id)
                                 && m_session->instance(id)->state == core::InstanceState::Running,
                             kRunningTimeoutMs);
    const QString appName = m_session->instance(id)->apps.value(0).name;
    QVERIFY(!appName.isEmpty());
    auto *open = m_details->findChild<QPushButton *>(u"openApp_"_s + appName);
    QVERIFY(open);
    QVERIFY(!open->accessibleName().isEmpty());

    // The app's own stage, after SSH ready: the stream brings it to the pane.
    QTRY_VERIFY_WITH_TIMEOUT(m_session->instance(id)->apps.value(0).ready, 120000);
    const core::Instance shown = *m_session->instance(id);
    QCOMPARE(shown.state, core::InstanceState::Running);
    QDateTime readyAt;
    QDateTime appAt;
    for (const core::LaunchStage &stage : shown.launch.stages) {
        if (stage.name == u"ready"_s)
            readyAt = stage.at;
        if (stage.name == u"app:"_s + appName)
            appAt = stage.at;
    }
    QVERIFY(readyAt.isValid() && appAt.isValid());
    QVERIFY(appAt >= readyAt);
    QCOMPARE(shown.apps.value(0).readyAt, appAt);
    QVERIFY(shown.runningSince.isValid() && shown.runningSince <= appAt); // billed from SSH ready
    const QJsonObject json = instance(*m_sim, m_session->session()->token(), id);
    const QJsonObject app = json.value(u"apps"_s).toArray().at(0).toObject();
    QCOMPARE(app.value(u"ready"_s).toBool(), true);
    QVERIFY(!app.value(u"ready_at"_s).toString().isEmpty());

    QTRY_VERIFY(label(u"appStatus_"_s + appName).startsWith(u"answers"_s));
    QVERIFY2(label(u"timelineLabel"_s).contains(ui::Format::stage(u"app:"_s + appName)),
             qPrintable(label(u"timelineLabel"_s)));
    open = m_details->findChild<QPushButton *>(u"openApp_"_s + appName);
    QVERIFY(open && open->isEnabled());
    shoot(u"details-app"_s);
    QCOMPARE(m_details->findChild<QPushButton *>(u"openApp_"_s + appName), open); // kept

    // One click: the URL handed to the browser is the app's, on the local end of the forward.
    QSignalSpy opened(m_ssh, &ui::SshActions::appOpened);
    QTest::mouseClick(open, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 30000);
    const QUrl url = opened.constFirst().constFirst().toUrl();
    QCOMPARE(url.host(), u"127.0.0.1"_s);
    QCOMPARE(url.port(), int(m_ssh->forwardedPort(id, shown.apps.value(0).port)));
    QUrl status = url;
    status.setPath(url.path() + u"api/status"_s);
    QNetworkAccessManager net;
    int code = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            std::unique_ptr<QNetworkReply> reply(net.get(QNetworkRequest(status)));
            (void)QTest::qWaitFor([&reply] { return reply->isFinished(); }, 5000);
            code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            return code == 200;
        }(),
        30000);
}

QTEST_MAIN(TestInstanceDetails)
#include "tst_instancedetails.moc"
