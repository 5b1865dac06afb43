// The Storage page against a real cardhour-sim (in-process runtime). A provider reached by URL
// with no datasets: the empty state, no "add a folder" (that is the local sandbox's). The local
// sandbox with a dataset added beforehand by `cardhour-sim datasets add`: it is listed with its
// size, files and the user's host that mounts it; a folder added through the page (the same
// command, run by core/sandbox/SandboxDatasets) is listed at once, without a restart; a bad name
// is refused with the sandbox's reason and nothing lost. Screens go to <build>/screenshots.
#include "CoreTestSupport.h"
#include "EmptyState.h"
#include "PageTestSupport.h"
#include "SimProcess.h"
#include "api/ProviderClient.h"
#include "pages/StoragePage.h"
#include "sandbox/SandboxDatasets.h"
#include "sandbox/SandboxLauncher.h"

#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

namespace {
const QString kShots = QStringLiteral(CARDHOUR_SCREENSHOT_DIR);

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

int rowNamed(const QTableWidget *table, const QString &name)
{
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, ui::StoragePage::NameColumn)
            && table->item(row, ui::StoragePage::NameColumn)->text() == name)
            return row;
    }
    return -1;
}
} // namespace

class TestStoragePage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_scratch.isValid()); }
    void emptyWithoutSandbox();
    void sandboxListsMountsAndAddsFolders();

private:
    QTemporaryDir m_scratch;
};

void TestStoragePage::emptyWithoutSandbox()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(sim.lastError()));
    core::ClientSession session(pageSessionOptions());
    ui::StoragePage page(&session);
    page.resize(900, 560);
    page.show();
    QSignalSpy loginNeeded(&session, &core::ClientSession::loginNeeded);
    session.connectToUrl(sim.baseUrl());
    QVERIFY(signUpWhenAsked(session, loginNeeded, u"storage@example.com"_s));

    auto *empty = page.findChild<ui::EmptyState *>(u"emptyPage"_s);
    QVERIFY(empty);
    QTRY_COMPARE(empty->title(), u"No datasets yet"_s);
    QCOMPARE(page.findChild<QStackedWidget *>(u"storageStack"_s)->currentIndex(), 0);
    QVERIFY2(empty->text().contains(u"offers none"_s), qPrintable(empty->text()));
    QVERIFY(page.findChild<QGroupBox *>(u"addDatasetBox"_s)->isHidden());
    QVERIFY(page.findChild<QGroupBox *>(u"modelsBox"_s)->isVisible());
    QVERIFY(shootLightAndDark(&page, kShots, u"storage-empty"_s));
}

void TestStoragePage::sandboxListsMountsAndAddsFolders()
{
    // Two folders of this computer: one shared before the sandbox starts, one through the page.
    const QString dataDir = m_scratch.filePath(u"sandbox"_s);
    const QString weights = m_scratch.filePath(u"Weights 2026"_s);
    const QString corpus = m_scratch.filePath(u"corpus"_s);
    QVERIFY(QDir().mkpath(dataDir) && QDir().mkpath(weights) && QDir().mkpath(corpus + u"/a"_s));
    QVERIFY(writeFile(corpus + u"/a/one.txt"_s, QByteArray(1000, 'x')));
    QVERIFY(writeFile(corpus + u"/two.txt"_s, QByteArray(24, 'y')));
    QVERIFY(writeFile(weights + u"/w.bin"_s, QByteArray(4096, 'w')));
    QProcess cli;
    cli.start(SimProcess::binaryPath(),
              {u"datasets"_s, u"add"_s, u"corpus"_s, corpus, u"--data"_s, dataDir});
    QVERIFY(cli.waitForFinished(30000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

    core::ClientSession::Options options = pageSessionOptions();
    options.sandboxExecutable = SimProcess::binaryPath();
    options.sandboxDataDir = dataDir;
    options.sandboxArguments = {u"--runtime"_s, u"inprocess"_s};
    options.sandboxAttach = false;
    core::ClientSession session(options);
    ui::StoragePage page(&session);
    page.resize(1000, 620);
    page.show();
    QSignalSpy loginNeeded(&session, &core::ClientSession::loginNeeded);
    session.connectToSandbox();
    QVERIFY(signUpWhenAsked(session, loginNeeded, u"sandbox-storage@example.com"_s));
    QVERIFY(session.usingSandbox());

    // Listed with what the provider says of it, and the host that mounts it.
    auto *table = page.findChild<QTableWidget *>(u"datasetsTable"_s);
    QTRY_VERIFY(rowNamed(table, u"corpus"_s) >= 0);
    QCOMPARE(page.findChild<QStackedWidget *>(u"storageStack"_s)->currentIndex(), 1);
    int row = rowNamed(table, u"corpus"_s);
    QCOMPARE(table->item(row, ui::StoragePage::MountColumn)->text(), u"/datasets/corpus"_s);
    QCOMPARE(table->item(row, ui::StoragePage::FilesColumn)->text(), QLocale().toString(2));
    QCOMPARE(table->item(row, ui::StoragePage::SizeColumn)->text(),
             QLocale().formattedDataSize(1024, 1, QLocale::DataSizeIecFormat));
    QCOMPARE(table->item(row, ui::StoragePage::MountedByColumn)->text(), u"none of your hosts"_s);

    core::NewInstance request;
    request.name = u"reader"_s;
    request.gpuType = u"rtx4090"_s;
    request.image = u"base"_s;
    request.datasets = {u"corpus"_s};
    const auto launched = await(session.client()->createInstance(request));
    QVERIFY2(launched.ok, launched.why());
    QTRY_COMPARE_WITH_TIMEOUT(
        table->item(rowNamed(table, u"corpus"_s), ui::StoragePage::MountedByColumn)->text(),
        u"reader"_s, 20000);
    QCOMPARE(page.mountedBy(u"corpus"_s), QStringList{u"reader"_s});

    // The add form is there with the sandbox; a folder's name is turned into a dataset name.
    auto *box = page.findChild<QGroupBox *>(u"addDatasetBox"_s);
    QVERIFY(box->isVisible());
    auto *folderEdit = page.findChild<QLineEdit *>(u"datasetFolderEdit"_s);
    auto *nameEdit = page.findChild<QLineEdit *>(u"datasetNameEdit"_s);
    auto *add = page.findChild<QPushButton *>(u"addDatasetButton"_s);
    auto *status = page.findChild<QLabel *>(u"storageStatus"_s);
    QVERIFY(!add->isEnabled());
    folderEdit->setText(weights);
    QCOMPARE(nameEdit->text(), u"weights-2026"_s);
    QVERIFY(add->isEnabled());

    // A name the provider refuses: its reason is shown, the form keeps what was typed.
    nameEdit->clear();
    QTest::keyClicks(nameEdit, u"Bad Name"_s);
    QTest::mouseClick(add, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(u"not a dataset name"_s), 20000);
    QCOMPARE(folderEdit->text(), weights);
    QCOMPARE(nameEdit->text(), u"Bad Name"_s);
    QVERIFY(rowNamed(table, u"Bad Name"_s) < 0);

    // Added through the page: the running sandbox lists it at once.
    nameEdit->clear();
    QTest::keyClicks(nameEdit, u"weights"_s);
    QTest::mouseClick(add, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(table, u"weights"_s) >= 0, 20000);
    QVERIFY2(status->text().contains(u"Added the dataset “weights”"_s), qPrintable(status->text()));
    row = rowNamed(table, u"weights"_s);
    QCOMPARE(table->item(row, ui::StoragePage::MountColumn)->text(), u"/datasets/weights"_s);
    QCOMPARE(table->item(row, ui::StoragePage::FilesColumn)->text(), QLocale().toString(1));
    QCOMPARE(table->item(row, ui::StoragePage::AvailableColumn)->text(), u"yes"_s);
    QVERIFY(folderEdit->text().isEmpty());
    const auto listed = await(session.client()->datasets());
    QVERIFY2(listed.ok, listed.why());
    QCOMPARE(listed.value->size(), 2);
    QVERIFY(shootLightAndDark(&page, kShots, u"storage-sandbox"_s));

    // A folder that went away is said so.
    QVERIFY(QDir(weights).removeRecursively());
    QTest::mouseClick(page.findChild<QPushButton *>(u"refreshStorageButton"_s), Qt::LeftButton);
    QTRY_COMPARE(
        table->item(rowNamed(table, u"weights"_s), ui::StoragePage::AvailableColumn)->text(),
        u"no: its folder is missing"_s);
}

QTEST_MAIN(TestStoragePage)
#include "tst_storagepage.moc"
