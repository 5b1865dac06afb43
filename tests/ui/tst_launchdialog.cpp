// LaunchDialog against a real cardhour-sim (--test-clock, in-process runtime): GPU types as cards
// with the catalog's VRAM, price and free count (keyboard and screen reader included), the plain
// list when narrow; the cost preview running and stopped from the provider's own figures (and
// following a catalog with another storage price); datasets listed with their size and sent;
// the first launch without keys making, uploading and using one; a 402 refusal said in words
// with the dialog left open. Saves launch-cards.png, launch-stop-policy.png, launch-narrow.png,
// launch-dark.png.
#include "AppSettings.h"
#include "CoreTestSupport.h"
#include "GpuCardDelegate.h"
#include "LaunchDialog.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "session/ClientSession.h"
#include "session/SecretStore.h"
#include "ssh/SshKeyPair.h"
#include "ssh/SshKeyStore.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour;
using cardhour::test::SimProcess;

class TestLaunchDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // No keychain for this process (firstLaunchMakesKey is about that case).
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/cardhour-test-bus");
        QVERIFY2(m_sim.start({u"--test-clock"_s}), qPrintable(m_sim.lastError()));
    }

    void cardsShowTheCatalog();
    void previewAndRefusal();
    void storagePriceFollowsCatalog_data();
    void storagePriceFollowsCatalog();
    void datasetIsSent();
    void firstLaunchMakesKey();
    void launchesAMigSlice();
    void launchAtOnceStillMakesKey();

private:
    struct Client
    {
        core::ClientSession session{core::ClientSession::Options{}};
        core::ProviderClient &client = *session.client(); // set up by the test
        core::ManualClock clock;
        core::BillTicker ticker{&clock};
    };
    std::unique_ptr<Client> logIn(SimProcess &sim, const QString &email, qint64 balance = 0);
    static QListWidget *list(QWidget &dialog, const QString &name)
    {
        return dialog.findChild<QListWidget *>(name);
    }
    static QString cost(QWidget &dialog)
    {
        return dialog.findChild<QLabel *>(u"costLabel"_s)->text();
    }
    static void selectGpu(QWidget &dialog, const QString &id);
    static QPushButton *launchButton(QWidget &dialog)
    {
        return dialog.findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    }
    void shoot(QWidget *widget, const QString &name);

    SimProcess m_sim;
};

std::unique_ptr<TestLaunchDialog::Client>
TestLaunchDialog::logIn(SimProcess &sim, const QString &email, qint64 balance)
{
    const QString token = sim.signUp(email);
    if (token.isEmpty())
        return nullptr;
    auto c = std::make_unique<Client>();
    c->client.setBaseUrl(sim.baseUrl());
    c->client.setToken(token);
    c->ticker.setTickIntervalMs(0);
    if (balance > 0)
        c->ticker.update(balance, 0);
    return c;
}

void TestLaunchDialog::selectGpu(QWidget &dialog, const QString &id)
{
    QListWidget *gpus = list(dialog, u"gpuList"_s);
    for (int row = 0; row < gpus->count(); ++row) {
        if (gpus->item(row)->data(Qt::UserRole + 1).toString() == id)
            gpus->setCurrentRow(row);
    }
}

void TestLaunchDialog::shoot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    QDir().mkpath(QStringLiteral(CARDHOUR_SCREENSHOT_DIR));
    const QString path = QStringLiteral(CARDHOUR_SCREENSHOT_DIR) + u'/' + name + u".png"_s;
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

void TestLaunchDialog::cardsShowTheCatalog()
{
    auto c = logIn(m_sim, u"cards@example.com"_s, 10'000'000);
    QVERIFY(c);
    // Two cards of one type lent already: the free count must say so.
    const QString busy = m_sim.createRunning(
        c->client.token(),
        {{u"gpu_type"_s, u"rtx4090"_s}, {u"gpu_count"_s, 2}, {u"image"_s, u"base"_s}});
    QVERIFY2(!busy.isEmpty(), qPrintable(m_sim.lastError()));
    // Whole cards are the cards; MIG slices are offered under their card (launchesAMigSlice).
    QJsonArray catalog;
    QHash<QString, qint64> cheapestSlice; // by card
    for (const QJsonValue &gpu :
         m_sim.authedGet(c->client.token(), u"/v1/catalog/gpus"_s).array()) {
        if (gpu[u"slice"_s].isNull()) {
            catalog.append(gpu);
            continue;
        }
        qint64 &cheapest = cheapestSlice[gpu[u"slice"_s][u"of"_s].toString()];
        const qint64 price = gpu[u"price_per_hour_micros"_s].toInteger();
        cheapest = cheapest == 0 ? price : std::min(cheapest, price);
    }
    QVERIFY(catalog.size() >= 6);
    QVERIFY(cheapestSlice.value(u"a100-80g"_s) > 0);

    ui::LaunchDialog dialog(&c->session, &c->ticker, nullptr);
    dialog.resize(ui::LaunchDialog::cardsMinWidth + 80, 860);
    dialog.load();
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QListWidget *gpus = list(dialog, u"gpuList"_s);
    QTRY_COMPARE(gpus->count(), catalog.size());
    QVERIFY(dialog.showsGpuCards());
    QCOMPARE(gpus->viewMode(), QListView::IconMode);
    for (int row = 0; row < gpus->count(); ++row) {
        const QJsonObject gpu = catalog.at(row).toObject();
        const QListWidgetItem *item = gpus->item(row);
        QCOMPARE(item->data(Qt::UserRole + 1).toString(), gpu.value(u"id"_s).toString());
        QCOMPARE(item->data(ui::GpuCardDelegate::TitleRole).toString(),
                 gpu.value(u"name"_s).toString());
        QStringList lines = item->data(ui::GpuCardDelegate::LinesRole).toStringList();
        // A card offered in slices too says so, from the cheapest slice's price.
        if (const qint64 cheapest = cheapestSlice.value(gpu.value(u"id"_s).toString())) {
            QCOMPARE(lines.size(), 4);
            QCOMPARE(lines.takeAt(2),
                     u"or MIG slices from ¥%1.%2/h"_s.arg(cheapest / 1'000'000)
                         .arg(cheapest % 1'000'000, 6, 10, QChar(u'0')));
        }
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.at(0),
                 u"%1 GiB VRAM"_s.arg((gpu.value(u"vram_mib"_s).toInt() + 512) / 1024));
        const qint64 price = gpu.value(u"price_per_hour_micros"_s).toInteger();
        QCOMPARE(lines.at(1),
                 u"¥%1.%2 per card-hour"_s.arg(price / 1'000'000)
                     .arg((price % 1'000'000) / 10'000, 2, 10, QChar(u'0')));
        QCOMPARE(lines.at(2),
                 u"%1 of %2 free"_s.arg(gpu.value(u"available"_s).toInt())
                     .arg(gpu.value(u"capacity"_s).toInt()));
        QCOMPARE(item->data(ui::GpuCardDelegate::BadgeRole).toString(), u"simulated"_s);
        // A screen reader hears all of it, in the same words.
        const QString spoken = item->data(Qt::AccessibleTextRole).toString();
        for (const QString &part : lines)
            QVERIFY2(spoken.contains(part), qPrintable(spoken));
        QVERIFY(spoken.startsWith(gpu.value(u"name"_s).toString()));
    }
    const int rtx4090 = [&] {
        for (int row = 0; row < gpus->count(); ++row)
            if (gpus->item(row)->data(Qt::UserRole + 1) == u"rtx4090"_s)
                return row;
        return -1;
    }();
    QVERIFY(rtx4090 >= 0);
    QCOMPARE(gpus->item(rtx4090)->data(ui::GpuCardDelegate::LinesRole).toStringList().at(2),
             u"6 of 8 free"_s);
    QCOMPARE(gpus->accessibleName(), u"GPU types"_s);

    // The cards lie in a grid (several on a row) and the arrow keys move between them.
    QCOMPARE(gpus->visualItemRect(gpus->item(1)).top(), gpus->visualItemRect(gpus->item(0)).top());
    QVERIFY(gpus->visualItemRect(gpus->item(1)).left()
            > gpus->visualItemRect(gpus->item(0)).left());
    gpus->setFocus();
    gpus->setCurrentRow(0);
    QTest::keyClick(gpus, Qt::Key_Right);
    QCOMPARE(gpus->currentRow(), 1);
    QTest::keyClick(gpus, Qt::Key_Left);
    QCOMPARE(gpus->currentRow(), 0);
    QTRY_VERIFY(list(dialog, u"imageList"_s)->count() > 0);
    selectGpu(dialog, u"h100-80g"_s);
    shoot(&dialog, u"launch-cards"_s);
    // The choices scroll; what is below the cards is shot on its own.
    auto *stopBox = dialog.findChild<QWidget *>(u"stopBox"_s);
    QVERIFY(stopBox);
    shoot(stopBox, u"launch-stop-policy"_s);

    // Narrow: the plain list, one type a line, the same words.
    dialog.resize(520, 860);
    QTRY_VERIFY(!dialog.showsGpuCards());
    QCOMPARE(gpus->viewMode(), QListView::ListMode);
    QVERIFY(gpus->item(rtx4090)->text().startsWith(u"NVIDIA GeForce RTX 4090\n24 GiB VRAM"_s));
    QVERIFY(gpus->item(rtx4090)->text().contains(u"6 of 8 free"_s));
    QCOMPARE(gpus->horizontalScrollBar()->maximum(), 0); // nothing cut off at the side
    QVERIFY(gpus->item(rtx4090)->text().endsWith(u"simulated"_s));
    QCOMPARE(gpus->visualItemRect(gpus->item(1)).left(),
             gpus->visualItemRect(gpus->item(0)).left());
    shoot(&dialog, u"launch-narrow"_s);
    dialog.resize(ui::LaunchDialog::cardsMinWidth + 80, 860);
    QTRY_VERIFY(dialog.showsGpuCards());

    // Dark theme: the cards take the palette's colours.
    ui::Theme::apply(u"dark"_s);
    QCoreApplication::processEvents();
    QVERIFY(dialog.palette().color(QPalette::Window).lightness() < 80);
    shoot(&dialog, u"launch-dark"_s);
    ui::Theme::apply(u"light"_s);
}

void TestLaunchDialog::previewAndRefusal()
{
    auto c = logIn(m_sim, u"launch@example.com"_s, 10'000'000);
    QVERIFY(c);
    ui::LaunchDialog dialog(&c->session, &c->ticker, nullptr);
    dialog.load();
    dialog.show();
    QListWidget *gpus = list(dialog, u"gpuList"_s);
    QTRY_VERIFY(gpus->count() >= 6);
    // The sandbox under test lends simulated cards, and every card says which it is.
    for (int row = 0; row < gpus->count(); ++row)
        QVERIFY2(gpus->item(row)->text().endsWith(u"simulated"_s),
                 qPrintable(gpus->item(row)->text()));
    QTRY_VERIFY(list(dialog, u"imageList"_s)->count() > 0);
    // No keys yet and no key store to make one in: the dialog says so and offers the SSH keys
    // dialog.
    QTRY_VERIFY(dialog.findChild<QLabel *>(u"noKeysLabel"_s)->isVisible());
    QVERIFY(dialog.findChild<QLabel *>(u"noKeysLabel"_s)->text().contains(u"upload"_s));
    auto *manageKeys = dialog.findChild<QPushButton *>(u"manageKeysButton"_s);
    QVERIFY(manageKeys && manageKeys->isVisible());
    QSignalSpy manageRequested(&dialog, &ui::LaunchDialog::manageKeysRequested);
    QTest::mouseClick(manageKeys, Qt::LeftButton);
    QCOMPARE(manageRequested.size(), 1);
    // A key uploaded meanwhile (the SSH keys dialog does this) shows after reloadKeys().
    core::SshKeyPair key;
    QString keyError;
    QTemporaryDir keyDir;
    QVERIFY2(core::SshKeyPair::generate(keyDir.filePath(u"id"_s), {}, u"t"_s, &key, &keyError),
             qPrintable(keyError));
    QVERIFY(test::await(c->client.addSshKey(u"fresh"_s, key.publicKeyLine())).ok);
    dialog.reloadKeys();
    QTRY_COMPARE(list(dialog, u"keyList"_s)->count(), 1);
    QVERIFY(!dialog.findChild<QLabel *>(u"noKeysLabel"_s)->isVisible());
    QCOMPARE(dialog.request().sshKeyIds.size(), 1);

    // 8 × H100: per hour, per day, its disk while stopped, and how long ¥10 lasts.
    selectGpu(dialog, u"h100-80g"_s);
    auto *count = dialog.findChild<QComboBox *>(u"countCombo"_s);
    count->setCurrentIndex(count->findData(8));
    QCOMPARE(dialog.request().gpuCount, 8);
    QCOMPARE(dialog.pricePerHourMicros(), 8 * 15'000'000LL);
    const QString text = cost(dialog);
    QVERIFY2(text.contains(u"¥120.00 per hour"_s) && text.contains(u"¥2,880.00 per day"_s),
             qPrintable(text));
    // The built-in catalog: 200 GiB for an H100 host at 200 micro-yuan per GiB-hour.
    QVERIFY2(text.contains(u"its 200 GiB disk is billed at ¥0.0002 per GiB-hour: ¥0.04 per "
                           "hour, ¥0.96 per day"_s),
             qPrintable(text));
    QVERIFY2(!text.contains(u"nothing while stopped"_s), qPrintable(text));
    QVERIFY2(text.contains(u"lasts 5 min"_s), qPrintable(text));
    // ¥10 at ¥0.04 per hour: 250 h.
    QVERIFY2(text.contains(u"Stopped, it lasts 10 d 10 h."_s), qPrintable(text));
    // The balance moves while the dialog is open: the preview follows, ¥5 at ¥120.04 per hour.
    c->ticker.update(5'000'000, 0);
    QTRY_VERIFY2(cost(dialog).contains(u"lasts 2 min"_s), qPrintable(cost(dialog)));
    c->ticker.update(10'000'000, 0);

    // Spend the trial credit elsewhere, then ask: 402, said in words, dialog still open.
    const QString id = m_sim.createRunning(c->client.token(),
                                           {{u"gpu_type"_s, u"h100-80g"_s},
                                            {u"gpu_count"_s, 8},
                                            {u"image"_s, u"base"_s},
                                            {u"name"_s, u"hog"_s}});
    QVERIFY2(!id.isEmpty(), qPrintable(m_sim.lastError()));
    QVERIFY(m_sim.advance(3600));
    m_sim.waitForState(c->client.token(), id, u"stopped"_s);
    gpus->setCurrentRow(0);
    count->setCurrentIndex(count->findData(1));
    QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
    QPushButton *launch = launchButton(dialog);
    QVERIFY(launch->isEnabled());
    QTest::mouseClick(launch, Qt::LeftButton);
    auto *error = dialog.findChild<QLabel *>(u"errorLabel"_s);
    QTRY_VERIFY2(
        error->text().startsWith(u"Not launched: your balance does not cover this instance."_s),
        qPrintable(error->text()));
    QVERIFY(dialog.isVisible());
    QCOMPARE(launched.size(), 0);
    QVERIFY(launch->isEnabled()); // the user may change the choice and try again
}

void TestLaunchDialog::storagePriceFollowsCatalog_data()
{
    QTest::addColumn<qint64>("price");
    QTest::newRow("1234 per GiB-hour") << qint64(1234);
    QTest::newRow("free disks") << qint64(0);
}

void TestLaunchDialog::storagePriceFollowsCatalog()
{
    QFETCH(qint64, price);
    // The built-in catalog with the storage price changed, as an operator would.
    QTemporaryDir catalogDir;
    const QDir source(QStringLiteral(CARDHOUR_SOURCE_CATALOG));
    for (const QString &name : {u"gpus.json"_s, u"images.json"_s}) {
        QFile in(source.filePath(name));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject document = QJsonDocument::fromJson(in.readAll()).object();
        if (name == u"gpus.json"_s)
            document.insert(u"storage_price_per_gib_hour_micros"_s, price);
        QFile out(catalogDir.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        QVERIFY(out.write(QJsonDocument(document).toJson()) > 0);
    }
    SimProcess sim;
    QVERIFY2(sim.start({u"--test-clock"_s, u"--catalog"_s, catalogDir.path()}),
             qPrintable(sim.lastError()));
    auto c = logIn(sim, u"storage@example.com"_s);
    QVERIFY(c);
    ui::LaunchDialog dialog(&c->session, nullptr, nullptr);
    dialog.load();
    QTRY_VERIFY(list(dialog, u"gpuList"_s)->count() >= 6);
    // An RTX 4090 host is given 50 GiB (gpus.json disk_gib).
    selectGpu(dialog, u"rtx4090"_s);
    const QString text = cost(dialog);
    if (price == 0) {
        QVERIFY2(text.contains(u"<b>Stopped:</b> its 50 GiB disk costs nothing (the provider's "
                               "storage price is ¥0.00 per GiB-hour)."_s),
                 qPrintable(text));
        return;
    }
    // 50 × ¥0.001234 = ¥0.0617 per hour; × 24 = ¥1.4808 per day.
    QVERIFY2(text.contains(u"its 50 GiB disk is billed at ¥0.001234 per GiB-hour: ¥0.0617 per "
                           "hour, ¥1.4808 per day."_s),
             qPrintable(text));
    // The same figure the provider states for the type.
    const QJsonArray catalog = sim.authedGet(c->client.token(), u"/v1/catalog/gpus"_s).array();
    for (const QJsonValue &gpu : catalog) {
        if (gpu.toObject().value(u"id"_s) == u"rtx4090"_s)
            QCOMPARE(
                gpu.toObject().value(u"storage_rate_micros_per_hour_when_stopped"_s).toInteger(),
                50 * price);
    }
}

void TestLaunchDialog::datasetIsSent()
{
    // A folder the operator shares; then the dialog lists it with its size.
    QTemporaryDir folder;
    QFile data(folder.filePath(u"train.csv"_s));
    QVERIFY(data.open(QIODevice::WriteOnly));
    QCOMPARE(data.write("x,y\n1,2\n3,4\n"), 12);
    data.close();
    QProcess add;
    add.start(SimProcess::binaryPath(),
              {u"datasets"_s, u"add"_s, u"demo"_s, folder.path(), u"--data"_s, m_sim.dataDir()});
    QVERIFY(add.waitForFinished(30000));
    QVERIFY2(add.exitCode() == 0, add.readAllStandardError().constData());

    auto c = logIn(m_sim, u"datasets@example.com"_s);
    QVERIFY(c);
    ui::LaunchDialog dialog(&c->session, nullptr, nullptr);
    dialog.load();
    dialog.show();
    QListWidget *datasets = list(dialog, u"datasetList"_s);
    QTRY_COMPARE(datasets->count(), 1);
    QVERIFY(!dialog.findChild<QLabel *>(u"noDatasetsLabel"_s)->isVisible());
    QListWidgetItem *demo = datasets->item(0);
    QVERIFY2(demo->text().startsWith(u"demo   ·   /datasets/demo   ·   12 bytes, files: 1"_s),
             qPrintable(demo->text()));
    QCOMPARE(demo->checkState(), Qt::Unchecked); // mounted only when asked for
    QVERIFY(dialog.request().datasets.isEmpty());
    demo->setCheckState(Qt::Checked);
    QCOMPARE(dialog.request().datasets, QStringList{u"demo"_s});

    QTRY_VERIFY(launchButton(dialog)->isEnabled());
    QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
    QTest::mouseClick(launchButton(dialog), Qt::LeftButton);
    QTRY_COMPARE(launched.size(), 1);
    const auto instance = launched.at(0).at(0).value<core::Instance>();
    QCOMPARE(instance.datasets, QStringList{u"demo"_s});
    const QJsonObject stored =
        m_sim.authedGet(c->client.token(), u"/v1/instances/"_s + instance.id).object();
    QCOMPARE(stored.value(u"datasets"_s).toArray(), QJsonArray{u"demo"_s});
}

void TestLaunchDialog::firstLaunchMakesKey()
{
    auto c = logIn(m_sim, u"firstkey@example.com"_s);
    QVERIFY(c);
    QTemporaryDir keyFolder;
    // A keychain that cannot be reached (initTestCase points D-Bus at nothing): the key is
    // made without a passphrase instead, and the protected attempt leaves no file behind.
    // tst_launchdialog_podman runs with a real keychain and checks the passphrase there.
    core::SecretStore secrets(u"CardHourTest-%1"_s.arg(QCoreApplication::applicationPid()));
    secrets.setTimeoutMs(3000);
    core::SshKeyStore keys(&secrets, keyFolder.filePath(u"ssh"_s));
    ui::LaunchDialog dialog(&c->session, nullptr, &keys);
    dialog.load();
    dialog.show();
    auto *noKeys = dialog.findChild<QLabel *>(u"noKeysLabel"_s);
    QTRY_VERIFY(noKeys->isVisible());
    QVERIFY2(noKeys->text().contains(u"Launch creates one on this computer"_s),
             qPrintable(noKeys->text()));
    QTRY_VERIFY(launchButton(dialog)->isEnabled());
    QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
    QSignalSpy created(&dialog, &ui::LaunchDialog::keyCreated);
    QTest::mouseClick(launchButton(dialog), Qt::LeftButton);
    QTRY_COMPARE(launched.size(), 1);
    QCOMPARE(created.size(), 1);

    // One key in the store, the same one at the provider, and the instance has it.
    QCOMPARE(keys.keys().size(), 1);
    const core::SshKeyPair key = keys.keys().constFirst();
    QCOMPARE(key.type(), u"ssh-ed25519"_s);
    const QStringList files = QDir(keys.folder()).entryList(QDir::Files, QDir::Name);
    QCOMPARE(files,
             (QStringList{QFileInfo(key.privatePath()).fileName(),
                          QFileInfo(key.publicPath()).fileName(), u"keys.json"_s}));
    QString why;
    QVERIFY2(key.checkPrivateKey({}, &why), qPrintable(why));
    const QFileDevice::Permissions permissions = QFile::permissions(key.privatePath());
    QVERIFY(permissions.testFlag(QFileDevice::ReadOwner));
    QCOMPARE(permissions
                 & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther
                    | QFileDevice::WriteOther),
             QFileDevice::Permissions());
    const auto provider = test::await(c->client.sshKeys());
    QVERIFY(provider.ok);
    QCOMPARE(provider.value->size(), 1);
    QCOMPARE(provider.value->constFirst().fingerprintSha256, key.fingerprintSha256());
    const auto instance = launched.at(0).at(0).value<core::Instance>();
    QCOMPARE(instance.sshKeyIds, QStringList{provider.value->constFirst().id});
    const QString note = created.at(0).at(0).toString();
    QVERIFY2(note.startsWith(u"Created the SSH key “%1” in %2"_s.arg(
                 provider.value->constFirst().name, keyFolder.filePath(u"ssh"_s)))
                 && note.contains(u"without a passphrase"_s),
             qPrintable(note));
    QCOMPARE(dialog.findChild<QLabel *>(u"keyNoteLabel"_s)->text(), note);

    // A second launch has a key now: nothing more is made.
    ui::LaunchDialog again(&c->session, nullptr, &keys);
    again.load();
    QTRY_COMPARE(list(again, u"keyList"_s)->count(), 1);
    QVERIFY(!again.findChild<QLabel *>(u"noKeysLabel"_s)->isVisible());
    QTRY_VERIFY(launchButton(again)->isEnabled());
    QSignalSpy launchedAgain(&again, &ui::LaunchDialog::launched);
    QTest::mouseClick(launchButton(again), Qt::LeftButton);
    QTRY_COMPARE(launchedAgain.size(), 1);
    QCOMPARE(keys.keys().size(), 1);
}

// An A100 rented as a MIG slice: the card offers its slices (profile, VRAM, share of the SMs,
// price per hour, free count, all from the catalog), one slice per instance, the cost preview
// priced from the slice, and the launch asks the provider for the slice type.
void TestLaunchDialog::launchesAMigSlice()
{
    auto c = logIn(m_sim, u"slice@example.com"_s, 10'000'000);
    QVERIFY(c);
    QJsonObject slice;
    for (const QJsonValue &gpu : m_sim.authedGet(c->client.token(), u"/v1/catalog/gpus"_s).array())
        if (gpu[u"id"_s] == u"a100-80g-3g-40gb"_s)
            slice = gpu.toObject();
    QVERIFY(!slice.isEmpty());
    const qint64 price = slice.value(u"price_per_hour_micros"_s).toInteger();

    ui::LaunchDialog dialog(&c->session, &c->ticker, nullptr);
    dialog.resize(ui::LaunchDialog::cardsMinWidth + 80, 860);
    dialog.load();
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY(list(dialog, u"gpuList"_s)->count() > 0);
    QTRY_VERIFY(list(dialog, u"imageList"_s)->count() > 0);
    auto *picker = dialog.findChild<QWidget *>(u"gpuSlicePicker"_s);
    QVERIFY2(picker, "no whole-card / slice choice in the launch dialog");
    selectGpu(dialog, u"rtx4090"_s);
    QVERIFY(!picker->isVisible()); // no MIG on a GeForce card
    selectGpu(dialog, u"a100-80g"_s);
    QVERIFY(picker->isVisible());
    auto *whole = dialog.findChild<QRadioButton *>(u"wholeCardButton"_s);
    QVERIFY(whole->isChecked());
    QCOMPARE(dialog.request().gpuType, u"a100-80g"_s);

    QTest::mouseClick(dialog.findChild<QRadioButton *>(u"sliceButton"_s), Qt::LeftButton);
    auto *slices = dialog.findChild<QComboBox *>(u"sliceCombo"_s);
    QVERIFY(slices->isEnabled());
    const int row = slices->findData(u"a100-80g-3g-40gb"_s);
    QVERIFY(row >= 0);
    slices->setCurrentIndex(row);
    const QString offered = slices->itemText(row);
    QVERIFY2(offered.startsWith(u"3g.40gb"_s), qPrintable(offered));
    QVERIFY2(offered.contains(u"%1 GiB VRAM"_s.arg((slice[u"vram_mib"_s].toInt() + 512) / 1024)),
             qPrintable(offered));
    QVERIFY2(offered.contains(u"3/7 of the SMs"_s), qPrintable(offered));
    const QString rate =
        u"¥%1.%2/h"_s.arg(price / 1'000'000).arg((price % 1'000'000) / 10'000, 2, 10, QChar(u'0'));
    QVERIFY2(offered.contains(rate), qPrintable(offered));
    QVERIFY2(offered.contains(u"%1 free"_s.arg(slice[u"available"_s].toInt())),
             qPrintable(offered));
    // One slice per instance; the preview is the slice's price, not the card's.
    auto *counts = dialog.findChild<QComboBox *>(u"countCombo"_s);
    QCOMPARE(counts->count(), 1);
    QVERIFY(!counts->isEnabled());
    QCOMPARE(dialog.pricePerHourMicros(), price);
    QVERIFY2(cost(dialog).contains(u"one MIG slice 3g.40gb, 3/7 of the card's SMs"_s),
             qPrintable(cost(dialog)));
    QVERIFY2(cost(dialog).contains(rate.chopped(2)), qPrintable(cost(dialog)));
    shoot(&dialog, u"launch-slice"_s);

    QTRY_VERIFY(launchButton(dialog)->isEnabled());
    QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
    QTest::mouseClick(launchButton(dialog), Qt::LeftButton);
    QTRY_COMPARE(launched.size(), 1);
    const auto instance = launched.at(0).at(0).value<core::Instance>();
    const QJsonObject stored =
        m_sim.authedGet(c->client.token(), u"/v1/instances/"_s + instance.id).object();
    QCOMPARE(stored.value(u"gpu_type"_s).toString(), u"a100-80g-3g-40gb"_s);
    QCOMPARE(stored.value(u"gpu_count"_s).toInt(), 1);
    QCOMPARE(stored.value(u"price_per_hour_micros"_s).toInteger(), price);
}

// A user who presses Launch the moment it can be pressed: the account's keys must be known by
// then, or the host is launched with no key. The second launch of a session is where it shows:
// the catalog and images are known already, and only the key list (changed by the key the
// first launch made and uploaded) takes a round trip.
void TestLaunchDialog::launchAtOnceStillMakesKey()
{
    auto c = logIn(m_sim, u"quick@example.com"_s);
    QVERIFY(c);
    QTemporaryDir keyFolder;
    core::SecretStore secrets(u"CardHourTest-%1"_s.arg(QCoreApplication::applicationPid()));
    secrets.setTimeoutMs(3000);
    core::SshKeyStore keys(&secrets, keyFolder.filePath(u"ssh"_s));
    // Presses Launch in the very turn of the event loop that enables it.
    struct ClickWhenEnabled : QObject
    {
        bool eventFilter(QObject *watched, QEvent *event) override
        {
            auto *button = static_cast<QPushButton *>(watched);
            if (event->type() == QEvent::EnabledChange && button->isEnabled() && !clicked) {
                clicked = true;
                QMetaObject::invokeMethod(button, &QPushButton::click, Qt::QueuedConnection);
            }
            return false;
        }
        bool clicked = false;
    };
    for (int launch = 1; launch <= 2; ++launch) {
        ui::LaunchDialog dialog(&c->session, nullptr, &keys);
        ClickWhenEnabled clicker;
        launchButton(dialog)->installEventFilter(&clicker);
        QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
        dialog.load();
        dialog.show();
        QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 30000);
        const auto instance = launched.at(0).at(0).value<core::Instance>();
        QCOMPARE(keys.keys().size(), 1); // made by the first launch, used by both
        QVERIFY2(instance.sshKeyIds.size() == 1, qPrintable(u"launch %1"_s.arg(launch)));
    }
}

QTEST_MAIN(TestLaunchDialog)
#include "tst_launchdialog.moc"
