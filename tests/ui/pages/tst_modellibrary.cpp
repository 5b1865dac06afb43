// The model library on the Storage page and in the launch dialog, driven through the real
// widgets against a real cardhour-sim (in-process runtime): the provider's public models listed
// (the page said "no model library yet" before); a file uploaded with its real SHA-256 and
// listed with the fee of the provider's own rate; an upload cancelled and the page closed,
// then resumed from the provider's offset by a new page (no byte before the offset sent again);
// a file changed while it is sent refused by the provider's checksum check; a bad and a taken
// name refused with clear words; delete of a model a host mounts explained with the host's name,
// then done once the host is terminated; the launch dialog sends the models ticked.
#include "CoreTestSupport.h"
#include "Format.h"
#include "LaunchDialog.h"
#include "PageTestSupport.h"
#include "SimProcess.h"
#include "Translations.h"
#include "api/ModelUploader.h"
#include "api/ProviderClient.h"
#include "pages/ModelLibrarySection.h"
#include "pages/ModelUploadPanel.h"
#include "pages/StoragePage.h"

#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>

#include <memory>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;
using Section = ui::ModelLibrarySection;

namespace {
const QString kShots = QStringLiteral(CARDHOUR_SCREENSHOT_DIR);
constexpr qint64 kMiB = 1024 * 1024;

QByteArray someBytes(qint64 size, quint32 seed)
{
    QRandomGenerator generator(seed);
    QByteArray bytes(size, Qt::Uninitialized);
    for (char &byte : bytes)
        byte = char(generator.bounded(256));
    return bytes;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QString sha256(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

int rowNamed(const QTableWidget *table, const QString &name)
{
    for (int row = 0; row < table->rowCount(); ++row) {
        if (table->item(row, 0) && table->item(row, 0)->text() == name)
            return row;
    }
    return -1;
}

QString cell(const QTableWidget *table, const QString &name, int column)
{
    const int row = rowNamed(table, name);
    return row >= 0 && table->item(row, column) ? table->item(row, column)->text() : QString();
}

// One user's Storage page on its own session.
struct Window
{
    explicit Window(QSettings *settings)
        : session(pageSessionOptions()), page(&session, nullptr, settings)
    {
        page.resize(1100, 900);
        page.show();
    }
    QTableWidget *models() const { return page.findChild<QTableWidget *>(u"modelsTable"_s); }
    QTableWidget *uploads() const { return page.findChild<QTableWidget *>(u"modelUploadsTable"_s); }
    QLabel *uploadStatus() const { return page.findChild<QLabel *>(u"modelUploadStatus"_s); }
    QPushButton *button(const QString &name) const { return page.findChild<QPushButton *>(name); }
    core::ModelUploader *uploader() const { return page.modelLibrary()->uploadPanel()->uploader(); }
    // Fills in the form and clicks Upload.
    void upload(const QString &path, const QString &name)
    {
        page.findChild<QLineEdit *>(u"modelFileEdit"_s)->setText(path);
        auto *nameEdit = page.findChild<QLineEdit *>(u"modelNameEdit"_s);
        nameEdit->clear();
        QTest::keyClicks(nameEdit, name);
        QTest::mouseClick(button(u"modelUploadButton"_s), Qt::LeftButton);
    }

    core::ClientSession session;
    ui::StoragePage page;
};

} // namespace

class TestModelLibrary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void listsPublicModels();
    void uploadsWithChecksumAndFee();
    void badNamesAreRefused();
    void interruptedUploadResumesFromOffset();
    void networkErrorThenResume();
    void changedFileFailsChecksum();
    void deleteInUseIsExplained();
    void launchDialogSendsModels();

private:
    std::unique_ptr<Window> open(const QString &email, QSettings *settings = nullptr,
                                 bool existing = false, SimProcess *sim = nullptr);
    QList<core::LibraryModel> providerModels(Window &w);

    SimProcess m_sim;
    QTemporaryDir m_scratch;
    std::unique_ptr<QSettings> m_settings;
};

void TestModelLibrary::initTestCase()
{
    QVERIFY(m_scratch.isValid());
    m_settings =
        std::make_unique<QSettings>(m_scratch.filePath(u"settings.ini"_s), QSettings::IniFormat);
    QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(m_sim.lastError()));
}

std::unique_ptr<Window> TestModelLibrary::open(const QString &email, QSettings *settings,
                                               bool existing, SimProcess *sim)
{
    // Never the user's own settings: unfinished uploads are remembered in the scratch folder.
    auto w = std::make_unique<Window>(settings ? settings : m_settings.get());
    QSignalSpy loginNeeded(&w->session, &core::ClientSession::loginNeeded);
    w->session.connectToUrl((sim ? sim : &m_sim)->baseUrl());
    if (!existing)
        return signUpWhenAsked(w->session, loginNeeded, email) ? std::move(w) : nullptr;
    // The same user again (the app started anew): logged in from the keychain, or by hand.
    if (!QTest::qWaitFor([&] { return loginNeeded.count() > 0 || w->session.isLoggedIn(); }, 60000))
        return nullptr;
    if (!w->session.isLoggedIn())
        w->session.logIn(email, u"correct horse battery"_s);
    if (!QTest::qWaitFor([&] { return w->session.isLoggedIn(); }, 30000))
        return nullptr;
    return w;
}

QList<core::LibraryModel> TestModelLibrary::providerModels(Window &w)
{
    const auto listed = await(w.session.client()->models());
    return listed.ok ? *listed.value : QList<core::LibraryModel>{};
}

void TestModelLibrary::listsPublicModels()
{
    auto w = open(u"library-list@example.com"_s);
    QVERIFY(w);
    const QList<core::LibraryModel> offered = providerModels(*w);
    QCOMPARE(offered.size(), 4); // the public models of this machine's packages
    QTableWidget *table = w->models();
    QVERIFY2(table, "the Storage page has no model list");
    QTRY_COMPARE(table->rowCount(), int(offered.size()));
    for (const core::LibraryModel &m : offered) {
        QCOMPARE(cell(table, m.name, Section::OwnerColumn), u"public"_s);
        QCOMPARE(cell(table, m.name, Section::TaskColumn), m.task);
        QCOMPARE(cell(table, m.name, Section::MountColumn), m.mountPath);
        QCOMPARE(cell(table, m.name, Section::SizeColumn),
                 QLocale().formattedDataSize(m.sizeBytes, 1, QLocale::DataSizeIecFormat));
        QCOMPARE(cell(table, m.name, Section::FeeColumn), u"free"_s);
    }
    QVERIFY(!cell(table, u"tesseract-eng"_s, Section::LanguagesColumn).isEmpty());
    // No private model yet: the page says how to add one; public ones cannot be deleted.
    auto *empty = w->page.findChild<QLabel *>(u"noPrivateModelsLabel"_s);
    QVERIFY(empty->isVisible());
    QVERIFY2(empty->text().contains(u"upload"_s), qPrintable(empty->text()));
    table->selectRow(rowNamed(table, u"tesseract-eng"_s));
    QVERIFY(!w->button(u"deleteModelButton"_s)->isEnabled());
    QVERIFY(shootLightAndDark(&w->page, kShots, u"storage-models"_s));
    // The page as a 1280×800 window shows it, beside the side bar.
    w->page.resize(1040, 690);
    QVERIFY(shootLightAndDark(&w->page, kShots, u"storage-models-1280"_s));
    // In Chinese: the section retranslates itself, the provider's names stay as they are.
    ui::Translations translations;
    QVERIFY(translations.setLanguage(u"zh_CN"_s));
    QTRY_COMPARE(cell(table, u"tesseract-eng"_s, Section::OwnerColumn), u"公共"_s);
    QVERIFY(shootLightAndDark(&w->page, kShots, u"storage-models-zh"_s));
    QVERIFY(translations.setLanguage(u"en"_s));
    QTRY_COMPARE(cell(table, u"tesseract-eng"_s, Section::OwnerColumn), u"public"_s);
}

void TestModelLibrary::uploadsWithChecksumAndFee()
{
    auto w = open(u"library-upload@example.com"_s);
    QVERIFY(w);
    const QByteArray bytes = someBytes(2 * kMiB + 12345, 7);
    const QString path = m_scratch.filePath(u"Weights v1.bin"_s);
    QVERIFY(writeFile(path, bytes));
    QSignalSpy hashProgress(w->uploader(), &core::ModelUploader::hashProgress);
    QSignalSpy chunks(w->uploader(), &core::ModelUploader::chunkSent);

    // The name is made from the file's; the upload runs with a progress bar and Cancel.
    w->page.findChild<QLineEdit *>(u"modelFileEdit"_s)->setText(path);
    QCOMPARE(w->page.findChild<QLineEdit *>(u"modelNameEdit"_s)->text(), u"weights-v1"_s);
    QTest::mouseClick(w->button(u"modelUploadButton"_s), Qt::LeftButton);
    QVERIFY(w->page.findChild<QProgressBar *>(u"modelUploadProgress"_s)->isVisible());
    QVERIFY(w->button(u"modelUploadCancelButton"_s)->isVisible());
    QTRY_VERIFY2_WITH_TIMEOUT(rowNamed(w->models(), u"weights-v1"_s) >= 0,
                              qPrintable(w->uploadStatus()->text()), 30000);
    QVERIFY(!hashProgress.isEmpty());
    QCOMPARE(chunks.size(), 3); // 1 MiB chunks

    // The provider checked the file against the SHA-256 measured here.
    const QList<core::LibraryModel> listed = providerModels(*w);
    const auto model = std::find_if(listed.cbegin(), listed.cend(),
                                    [](const auto &m) { return m.name == u"weights-v1"_s; });
    QVERIFY(model != listed.cend());
    QCOMPARE(model->sha256, sha256(bytes));
    QCOMPARE(model->sizeBytes, bytes.size());
    QCOMPARE(model->fileName, u"Weights-v1.bin"_s); // a name the provider keeps
    QVERIFY(model->storageRatePerHourMicros.value_or(0) > 0);
    QVERIFY2(w->uploadStatus()->text().contains(u"checked its SHA-256"_s),
             qPrintable(w->uploadStatus()->text()));

    // Listed as the user's, with the fee of the provider's rate for a 30-day month.
    QTableWidget *table = w->models();
    QCOMPARE(cell(table, u"weights-v1"_s, Section::OwnerColumn), u"yours (private)"_s);
    QCOMPARE(cell(table, u"weights-v1"_s, Section::FeeColumn),
             u"%1 per 30-day month"_s.arg(
                 ui::Format::money(*model->storageRatePerHourMicros * 24 * 30)));
    QCOMPARE(cell(table, u"weights-v1"_s, Section::MountColumn), u"/models/weights-v1"_s);
    QCOMPARE(cell(table, u"weights-v1"_s, Section::SizeColumn),
             QLocale().formattedDataSize(bytes.size(), 1, QLocale::DataSizeIecFormat));
    QVERIFY(!w->page.findChild<QLabel *>(u"noPrivateModelsLabel"_s)->isVisible());
    QVERIFY(!w->page.findChild<QProgressBar *>(u"modelUploadProgress"_s)->isVisible());
    QVERIFY(w->uploads()->isHidden()); // nothing unfinished
    QVERIFY(shootLightAndDark(&w->page, kShots, u"storage-models-private"_s));
}

void TestModelLibrary::badNamesAreRefused()
{
    auto w = open(u"library-names@example.com"_s);
    QVERIFY(w);
    const QString path = m_scratch.filePath(u"names.bin"_s);
    QVERIFY(writeFile(path, someBytes(1000, 3)));
    QSignalSpy errors(&w->page, &ui::StoragePage::errorOccurred);

    w->upload(path, u"Bad Name"_s);
    QTRY_VERIFY(errors.size() == 1);
    QVERIFY2(w->uploadStatus()->text().contains(u"is not a model name"_s),
             qPrintable(w->uploadStatus()->text()));
    QCOMPARE(w->page.findChild<QLineEdit *>(u"modelNameEdit"_s)->text(), u"Bad Name"_s);

    // A public model's name: the provider's model_name_taken, in words.
    w->upload(path, u"tesseract-eng"_s);
    QTRY_VERIFY_WITH_TIMEOUT(errors.size() == 2, 20000);
    QVERIFY2(w->uploadStatus()->text().contains(u"Choose another name"_s),
             qPrintable(w->uploadStatus()->text()));
    QVERIFY(w->uploads()->isHidden());
}

void TestModelLibrary::interruptedUploadResumesFromOffset()
{
    QSettings settings(m_scratch.filePath(u"resume.ini"_s), QSettings::IniFormat);
    const QByteArray bytes = someBytes(3 * kMiB + 777, 11);
    const QString path = m_scratch.filePath(u"big-model.bin"_s);
    QVERIFY(writeFile(path, bytes));
    const QString email = u"library-resume@example.com"_s;
    QString uploadId;
    {
        auto first = open(email, &settings);
        QVERIFY(first);
        // Cancelled once the provider stored the first chunk; then the window goes away.
        core::ModelUploader *uploader = first->uploader();
        QPushButton *cancel = first->button(u"modelUploadCancelButton"_s);
        connect(uploader, &core::ModelUploader::chunkSent, cancel,
                [cancel] { QTest::mouseClick(cancel, Qt::LeftButton); });
        first->upload(path, u"big-model"_s);
        QTRY_VERIFY_WITH_TIMEOUT(uploader->stage() == core::ModelUploader::Stage::Stopped, 30000);
        uploadId = uploader->uploadId();
        QCOMPARE(uploader->bytesSent(), kMiB);
        QVERIFY2(first->uploadStatus()->text().contains(u"Resume carries on"_s),
                 qPrintable(first->uploadStatus()->text()));
        QTRY_COMPARE(first->uploads()->rowCount(), 1);
        const auto open = await(first->session.client()->modelUpload(uploadId));
        QVERIFY2(open.ok, open.why());
        QCOMPARE(open.value->offset, kMiB);
    }

    // The next start: the page lists the unfinished upload with the file it remembers.
    auto second = open(email, &settings, true);
    QVERIFY(second);
    QTableWidget *uploads = second->uploads();
    QTRY_COMPARE(uploads->rowCount(), 1);
    QCOMPARE(uploads->item(0, ui::ModelUploadPanel::UploadNameColumn)->text(), u"big-model"_s);
    QCOMPARE(uploads->item(0, ui::ModelUploadPanel::UploadFileColumn)->text(),
             QDir::toNativeSeparators(path));
    QVERIFY2(uploads->item(0, ui::ModelUploadPanel::UploadSentColumn)
                 ->text()
                 .startsWith(QLocale().formattedDataSize(kMiB, 1, QLocale::DataSizeIecFormat)),
             qPrintable(uploads->item(0, ui::ModelUploadPanel::UploadSentColumn)->text()));
    QVERIFY(shootLightAndDark(&second->page, kShots, u"storage-models-unfinished"_s));

    QList<qint64> offsets;
    connect(second->uploader(), &core::ModelUploader::chunkSent, &second->page,
            [&offsets](qint64 offset, qint64) { offsets << offset; });
    QTest::mouseClick(second->button(u"resumeUploadButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(second->models(), u"big-model"_s) >= 0, 30000);
    // Carried on where the provider stopped: nothing before its offset went again.
    QCOMPARE(second->uploader()->uploadId(), uploadId);
    QCOMPARE(second->uploader()->resumedFrom(), kMiB);
    QCOMPARE(offsets, (QList<qint64>{kMiB, 2 * kMiB, 3 * kMiB}));
    QCOMPARE(second->uploader()->bytesSent(), bytes.size() - kMiB);
    const QList<core::LibraryModel> listed = providerModels(*second);
    const auto model = std::find_if(listed.cbegin(), listed.cend(),
                                    [](const auto &m) { return m.name == u"big-model"_s; });
    QVERIFY(model != listed.cend());
    QCOMPARE(model->sha256, sha256(bytes));
    QTRY_COMPARE(uploads->rowCount(), 0);
    QVERIFY(settings.value(u"modelUploads/"_s + uploadId).isNull()); // forgotten when done
}

void TestModelLibrary::networkErrorThenResume()
{
    // A provider of its own, to be cut off in the middle of an upload.
    SimProcess sim;
    QVERIFY2(sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(sim.lastError()));
    QSettings settings(m_scratch.filePath(u"network.ini"_s), QSettings::IniFormat);
    const QByteArray bytes = someBytes(2 * kMiB + 99, 13);
    const QString path = m_scratch.filePath(u"cut-off.bin"_s);
    QVERIFY(writeFile(path, bytes));
    const QString email = u"library-network@example.com"_s;
    {
        auto first = open(email, &settings, false, &sim);
        QVERIFY(first);
        // The provider goes away once it stored the first chunk: the next one finds nobody.
        connect(first->uploader(), &core::ModelUploader::chunkSent, &first->page,
                [&sim] { sim.kill(); });
        QSignalSpy errors(&first->page, &ui::StoragePage::errorOccurred);
        first->upload(path, u"cut-off"_s);
        QTRY_VERIFY_WITH_TIMEOUT(errors.size() == 1, 30000);
        QCOMPARE(first->uploader()->stage(), core::ModelUploader::Stage::Failed);
        QVERIFY2(first->uploadStatus()->text().contains(u"cannot be reached"_s),
                 qPrintable(first->uploadStatus()->text()));
        QVERIFY(!first->page.findChild<QProgressBar *>(u"modelUploadProgress"_s)->isVisible());
    }
    // The provider back (on a new port), the app started again: the upload goes on.
    QVERIFY2(sim.restart(), qPrintable(sim.lastError()));
    auto second = open(email, &settings, true, &sim);
    QVERIFY(second);
    QTRY_COMPARE_WITH_TIMEOUT(second->uploads()->rowCount(), 1, 20000);
    QList<qint64> offsets;
    connect(second->uploader(), &core::ModelUploader::chunkSent, &second->page,
            [&offsets](qint64 offset, qint64) { offsets << offset; });
    QTest::mouseClick(second->button(u"resumeUploadButton"_s), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(second->models(), u"cut-off"_s) >= 0, 30000);
    QCOMPARE(offsets, (QList<qint64>{kMiB, 2 * kMiB}));
    const QList<core::LibraryModel> listed = providerModels(*second);
    const auto model = std::find_if(listed.cbegin(), listed.cend(),
                                    [](const auto &m) { return m.name == u"cut-off"_s; });
    QVERIFY(model != listed.cend());
    QCOMPARE(model->sha256, sha256(bytes));
}

void TestModelLibrary::changedFileFailsChecksum()
{
    auto w = open(u"library-mismatch@example.com"_s);
    QVERIFY(w);
    const QString path = m_scratch.filePath(u"changing.bin"_s);
    QVERIFY(writeFile(path, someBytes(kMiB + 5, 21)));
    // The file changes after it was measured and before it is sent: what arrives is not what
    // was declared.
    connect(w->uploader(), &core::ModelUploader::hashed, &w->page,
            [path] { writeFile(path, someBytes(kMiB + 5, 22)); });
    QSignalSpy errors(&w->page, &ui::StoragePage::errorOccurred);
    w->upload(path, u"changing"_s);
    QTRY_VERIFY_WITH_TIMEOUT(errors.size() == 1, 30000);
    QCOMPARE(errors.at(0).at(0).toString(), u"Model not uploaded"_s);
    QVERIFY2(w->uploadStatus()->text().contains(u"does not match the SHA-256"_s),
             qPrintable(w->uploadStatus()->text()));
    QVERIFY(rowNamed(w->models(), u"changing"_s) < 0);
    QVERIFY(shootLightAndDark(&w->page, kShots, u"storage-models-mismatch"_s));
    QVERIFY(!w->page.findChild<QProgressBar *>(u"modelUploadProgress"_s)->isVisible());
    // The provider discarded it: nothing is left to resume.
    const auto open = await(w->session.client()->modelUploads());
    QVERIFY2(open.ok, open.why());
    QVERIFY(open.value->isEmpty());
}

void TestModelLibrary::deleteInUseIsExplained()
{
    auto w = open(u"library-delete@example.com"_s);
    QVERIFY(w);
    const QString path = m_scratch.filePath(u"mounted.bin"_s);
    QVERIFY(writeFile(path, someBytes(4096, 5)));
    w->upload(path, u"mounted"_s);
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w->models(), u"mounted"_s) >= 0, 30000);

    core::NewInstance request;
    request.name = u"reader"_s;
    request.gpuType = u"rtx4090"_s;
    request.image = u"base"_s;
    request.models = {u"mounted"_s};
    const auto launched = await(w->session.createInstance(request));
    QVERIFY2(launched.ok, launched.why());

    const auto confirmDelete = [&] {
        QTableWidget *table = w->models();
        table->selectRow(rowNamed(table, u"mounted"_s));
        QPushButton *remove = w->button(u"deleteModelButton"_s);
        if (!remove->isEnabled())
            return false;
        QTest::mouseClick(remove, Qt::LeftButton);
        QMessageBox *box = nullptr;
        if (!QTest::qWaitFor([&] {
                box = w->page.findChild<QMessageBox *>(u"deleteModelConfirm"_s);
                return box && box->isVisible();
            }))
            return false;
        QTest::mouseClick(box->findChild<QPushButton *>(u"confirmDeleteModelButton"_s),
                          Qt::LeftButton);
        return true;
    };
    QSignalSpy errors(&w->page, &ui::StoragePage::errorOccurred);
    QVERIFY(confirmDelete());
    QTRY_VERIFY_WITH_TIMEOUT(errors.size() == 1, 20000);
    const QString said = errors.at(0).at(1).toString();
    QVERIFY2(said.contains(u"“reader”"_s)
                 && said.contains(u"terminate the hosts that use it first"_s),
             qPrintable(said));
    QVERIFY(rowNamed(w->models(), u"mounted"_s) >= 0);
    QVERIFY(shootLightAndDark(&w->page, kShots, u"storage-models-in-use"_s));

    // Once the host is terminated the model goes, and its fee with it.
    const auto terminated = await(w->session.terminateInstance(launched.value->id));
    QVERIFY2(terminated.ok, terminated.why());
    QVERIFY(confirmDelete());
    QTRY_VERIFY_WITH_TIMEOUT(rowNamed(w->models(), u"mounted"_s) < 0, 20000);
    QVERIFY(w->page.findChild<QLabel *>(u"modelsStatus"_s)->text().contains(u"fee has stopped"_s));
}

void TestModelLibrary::launchDialogSendsModels()
{
    auto w = open(u"library-launch@example.com"_s);
    QVERIFY(w);
    ui::LaunchDialog dialog(&w->session, nullptr, nullptr);
    dialog.load();
    dialog.show();
    auto *list = dialog.findChild<QListWidget *>(u"modelList"_s);
    QVERIFY2(list, "the launch dialog offers no models");
    QTRY_COMPARE(list->count(), 4);
    QVERIFY(dialog.request().models.isEmpty()); // none unless asked for
    for (int row = 0; row < list->count(); ++row) {
        if (list->item(row)->text().startsWith(u"tesseract-eng "_s))
            list->item(row)->setCheckState(Qt::Checked);
    }
    QCOMPARE(dialog.request().models, QStringList{u"tesseract-eng"_s});
    dialog.findChild<QScrollArea *>(u"launchScroll"_s)->ensureWidgetVisible(list);
    QVERIFY(shootLightAndDark(&dialog, kShots, u"launch-models"_s));
    QPushButton *launch =
        dialog.findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY(launch->isEnabled());
    QSignalSpy launched(&dialog, &ui::LaunchDialog::launched);
    QTest::mouseClick(launch, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(launched.size() == 1, 20000);
    const auto instance = launched.at(0).at(0).value<core::Instance>();
    const QJsonObject stored =
        m_sim.authedGet(w->session.client()->token(), u"/v1/instances/"_s + instance.id).object();
    QCOMPARE(stored.value(u"models"_s).toArray(), QJsonArray{u"tesseract-eng"_s});
}

QTEST_MAIN(TestModelLibrary)
#include "tst_modellibrary.moc"
