// Interruptible hosts in the window, against a real cardhour-sim with the test clock: the launch
// dialog offers the class with both of the catalog's prices and launches it; the provider's
// notice comes as a desktop message and a countdown on the host's card (on the provider's
// clock); at the deadline the card and the details say the host was interrupted and stopped.
// Screenshots under <build>/screenshots.
#include "AccountPageDriver.h"
#include "CoreTestSupport.h"
#include "Format.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SimProcess.h"
#include "StopText.h"
#include "TrayNotifier.h"
#include "api/ProviderClient.h"
#include "pages/HomePage.h"
#include "pages/HostCard.h"
#include "pages/InstanceDetails.h"
#include "session/ClientSession.h"

#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::await;
using cardhour::test::SimProcess;

class TestInterruptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void launchDialogOffersTheInterruptibleClass();
    void noticeCountsDownThenTheHostStops();

private:
    void shoot(QWidget *widget, const QString &name);
    ui::HostCard *cardOf(const QString &instanceId);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    std::unique_ptr<ui::MainWindow> m_window;
    QString m_host; // launched interruptible through the dialog
};

void TestInterruptions::initTestCase()
{
    // No keychain: the launch dialog makes its key without a passphrase, at once.
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/cardhour-test-bus");
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"CardHourTest"_s);
    QCoreApplication::setApplicationName(u"tst_interruptions"_s);
    QSettings().clear();
    QVERIFY(m_scratch.isValid());
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));

    QString why;
    m_window = test::signedUpWindow(m_sim.baseUrl(), QDir(m_scratch.path()), u"interrupt"_s,
                                    u"interrupt@example.com"_s, {1100, 760}, &why);
    QVERIFY2(m_window, qPrintable(why));
    QVERIFY(await(m_window->clientSession()->client()->topUp(500'000'000)).ok);
}

void TestInterruptions::cleanupTestCase()
{
    m_window.reset();
    m_sim.kill();
    QSettings().clear();
}

void TestInterruptions::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

ui::HostCard *TestInterruptions::cardOf(const QString &instanceId)
{
    for (ui::HostCard *card : m_window->homePage()->cards())
        if (card->instanceId() == instanceId)
            return card;
    return nullptr;
}

void TestInterruptions::launchDialogOffersTheInterruptibleClass()
{
    m_window->findChild<QAction *>(u"launchAction"_s)->trigger();
    ui::LaunchDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<ui::LaunchDialog *>(u"launchDialog"_s))
                && dialog->isVisible());
    auto *gpus = dialog->findChild<QListWidget *>(u"gpuList"_s);
    QTRY_VERIFY(gpus->count() > 0);
    for (int row = 0; row < gpus->count(); ++row)
        if (gpus->item(row)->data(Qt::UserRole + 1) == u"rtx3090"_s)
            gpus->setCurrentRow(row);
    auto *onDemand = dialog->findChild<QRadioButton *>(u"onDemandRadio"_s);
    auto *interruptible = dialog->findChild<QRadioButton *>(u"interruptibleRadio"_s);
    auto *restart = dialog->findChild<QCheckBox *>(u"restartWhenAvailableCheck"_s);
    QVERIFY(onDemand && interruptible && restart);
    QVERIFY(onDemand->isChecked());
    QVERIFY(!restart->isEnabled());

    // Both prices are the provider's catalog's, for the type chosen.
    const QJsonArray catalog =
        m_sim.authedGet(m_window->clientSession()->client()->token(), u"/v1/catalog/gpus"_s)
            .array();
    qint64 price = -1;
    qint64 cheaper = -1;
    for (const QJsonValue &gpu : catalog)
        if (gpu[u"id"_s] == u"rtx3090"_s) {
            price = gpu[u"price_per_hour_micros"_s].toInteger();
            cheaper = gpu[u"interruptible_price_per_hour_micros"_s].toInteger();
        }
    QVERIFY(cheaper > 0 && cheaper < price);
    QVERIFY2(onDemand->text().contains(ui::Format::exactMoney(price)),
             qPrintable(onDemand->text()));
    QVERIFY2(interruptible->text().contains(ui::Format::exactMoney(cheaper)),
             qPrintable(interruptible->text()));

    QTest::mouseClick(interruptible, Qt::LeftButton, {}, QPoint(5, interruptible->height() / 2));
    QVERIFY(interruptible->isChecked());
    QVERIFY(restart->isEnabled());
    shoot(dialog->findChild<QWidget *>(u"priceClassBox"_s), u"launch-price-class"_s);
    auto *name = dialog->findChild<QLineEdit *>(u"nameEdit"_s);
    name->clear();
    QTest::keyClicks(name, u"spot"_s);
    QPushButton *launch =
        dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY(launch->isEnabled());
    QTest::mouseClick(launch, Qt::LeftButton);

    core::ClientSession *session = m_window->clientSession();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const core::Instance &i : session->instances())
                if (i.name == u"spot"_s && i.state == core::InstanceState::Running)
                    m_host = i.id;
            return !m_host.isEmpty();
        }(),
        20000);
    const std::optional<core::Instance> host = session->instance(m_host);
    QVERIFY(host && host->interruptible);
    QCOMPARE(host->pricePerHourMicros, cheaper);
}

void TestInterruptions::noticeCountsDownThenTheHostStops()
{
    QVERIFY(!m_host.isEmpty());
    m_window->setCurrentView(ui::MainWindow::View::Home);
    ui::HostCard *card = nullptr;
    QTRY_VERIFY((card = cardOf(m_host)) != nullptr);
    auto *line = card->findChild<QLabel *>(u"cardPlannedStop"_s);
    QVERIFY(line);
    card->refreshLive();
    QVERIFY(!line->text().startsWith(u"Interrupted"_s));

    // The provider gives two and a half minutes' notice ("in 2 min" while 2 to 3 are left).
    ui::TrayNotifier *tray = m_window->trayNotifier();
    const auto given = m_sim.request("POST", u"/v1/_test/instances/%1/interrupt"_s.arg(m_host),
                                     QJsonObject{{u"notice_seconds"_s, 150}});
    QVERIFY2(given.status == 200, given.describe().constData());
    QTRY_VERIFY2(tray->lastMessage().contains(u"interrupts spot"_s),
                 qPrintable(tray->lastMessage()));
    QVERIFY(tray->lastMessage().contains(u"/workspace is kept"_s));
    QTRY_VERIFY2(
        [&] {
            card->refreshLive();
            return line->text().startsWith(u"Interrupted at "_s)
                && line->text().contains(u"(in 2 min)"_s);
        }(),
        qPrintable(line->text()));
    QVERIFY(line->font().bold());
    shoot(card, u"hostcard-interruption-notice"_s);

    // A minute on the provider's clock: a minute less.
    QVERIFY(m_sim.advance(60));
    QTRY_VERIFY2(
        [&] {
            card->refreshLive();
            return line->text().contains(u"(in 1 min)"_s);
        }(),
        qPrintable(line->text()));

    // Past the deadline: stopped, and the window says the provider interrupted it.
    QVERIFY(m_sim.advance(90));
    core::ClientSession *session = m_window->clientSession();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const std::optional<core::Instance> i = session->instance(m_host);
            return i && i->wasInterrupted();
        }(),
        10000);
    card->refreshLive();
    QVERIFY2(line->isHidden(), qPrintable(line->text()));
    m_window->setCurrentView(ui::MainWindow::View::Instances);
    m_window->selectInstance(m_host);
    auto *details = m_window->findChild<ui::InstanceDetails *>(u"instanceDetails"_s);
    QVERIFY(details);
    QTRY_COMPARE(details->instanceId(), m_host);
    QLabel *state = nullptr;
    for (QLabel *label : details->findChildren<QLabel *>())
        if (label->text().contains(ui::StopText::reason(u"interrupted"_s)))
            state = label;
    QVERIFY2(state, "the details do not say the host was interrupted");
    shoot(details, u"details-interrupted"_s);
}

QTEST_MAIN(TestInterruptions)
#include "tst_interruptions.moc"
