// The Snapshots page against a real cardhour-sim. With the in-process runtime: the empty state
// (with and without an instance to snapshot), a snapshot taken from the page's button that turns
// ready through the provider's `snapshot` event, the restore dialog's defaults and cost preview
// from the catalog, a refused delete while a restored instance runs from it, and a confirmed
// delete that says what is lost and that the fee stops. With podman: a file written to
// /workspace over SSH comes back in the instance restored in one click. Screens are saved under
// <build>/screenshots (light and dark).
#include "CoreTestSupport.h"
#include "EmptyState.h"
#include "Format.h"
#include "PageTestSupport.h"
#include "PodmanApiTest.h"
#include "SshTestSupport.h"
#include "api/ProviderClient.h"
#include "pages/SnapshotsModel.h"
#include "pages/SnapshotsPage.h"
#include "pages/SnapshotsRestoreDialog.h"
#include "ssh/SshCommandJob.h"
#include "ssh/SshKeyStore.h"
#include "ssh/SshTarget.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>

using namespace Qt::StringLiterals;
using namespace cardhour;
using namespace cardhour::test;

namespace {
const QString kShots = QStringLiteral(CARDHOUR_SCREENSHOT_DIR);

struct CommandOutcome
{
    bool done = false;
    bool connected = false;
    core::SshConnection::ExecResult result;
    QString error;
};

CommandOutcome runOverSsh(const core::SshTarget &target, const QString &command)
{
    auto outcome = std::make_shared<CommandOutcome>();
    core::SshCommandJob *job = core::SshCommandJob::start(target, command);
    QObject::connect(job, &core::SshCommandJob::finished, job, [job, outcome] {
        *outcome = {true, job->connected(), job->result(), job->errorMessage()};
    });
    (void)QTest::qWaitFor([&] { return outcome->done; }, 60000);
    return *outcome;
}
} // namespace

class TestSnapshotsPage : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void cleanupTestCase() { cleanupPodmanTest(); }
    void emptyStateTakeRestoreDelete();
    void restoredInstanceHasTheWorkspaceFile();

private:
    struct Signed
    {
        std::unique_ptr<core::ClientSession> session;
        std::unique_ptr<ui::SnapshotsPage> page;
    };
    // A session signed up to `sim` and a shown page on it.
    Signed open(SimProcess &sim, const QString &email);
    ui::SnapshotsRestoreDialog *restoreDialog(ui::SnapshotsPage &page);
    QMessageBox *deleteConfirmation(ui::SnapshotsPage &page);
};

TestSnapshotsPage::Signed TestSnapshotsPage::open(SimProcess &sim, const QString &email)
{
    Signed s;
    s.session = std::make_unique<core::ClientSession>(pageSessionOptions());
    s.page = std::make_unique<ui::SnapshotsPage>(s.session.get());
    s.page->resize(1100, 560);
    s.page->show();
    QSignalSpy loginNeeded(s.session.get(), &core::ClientSession::loginNeeded);
    s.session->connectToUrl(sim.baseUrl());
    if (!signUpWhenAsked(*s.session, loginNeeded, email))
        qWarning("could not sign up %s", qPrintable(email));
    return s;
}

ui::SnapshotsRestoreDialog *TestSnapshotsPage::restoreDialog(ui::SnapshotsPage &page)
{
    for (auto *dialog : page.findChildren<ui::SnapshotsRestoreDialog *>()) {
        if (dialog->isVisible())
            return dialog;
    }
    return nullptr;
}

QMessageBox *TestSnapshotsPage::deleteConfirmation(ui::SnapshotsPage &page)
{
    for (auto *box : page.findChildren<QMessageBox *>(u"deleteSnapshotConfirm"_s)) {
        if (box->isVisible())
            return box;
    }
    return nullptr;
}

void TestSnapshotsPage::emptyStateTakeRestoreDelete()
{
    SimProcess sim;
    QVERIFY2(sim.start({u"--runtime"_s, u"inprocess"_s}), qPrintable(sim.lastError()));
    Signed s = open(sim, u"snapshots@example.com"_s);
    QVERIFY(s.session->isLoggedIn());
    ui::SnapshotsPage &page = *s.page;
    core::ProviderClient *client = s.session->client();

    // ---- empty, nothing to snapshot: says how, offers no button ------------------------------
    auto *stack = page.findChild<QStackedWidget *>(u"snapshotsStack"_s);
    auto *empty = page.findChild<ui::EmptyState *>(u"emptyPage"_s);
    QVERIFY(empty);
    auto *emptyTitle = empty->findChild<QLabel *>(u"emptyTitle"_s);
    auto *emptyText = empty->findChild<QLabel *>(u"emptyText"_s);
    QPushButton *emptyButton = empty->button();
    QVERIFY(stack && emptyTitle && emptyText && emptyButton);
    QTRY_COMPARE(emptyTitle->text(), u"No snapshots yet"_s);
    QCOMPARE(stack->currentIndex(), 0);
    QVERIFY2(emptyText->text().contains(u"Launch an instance first"_s),
             qPrintable(emptyText->text()));
    QVERIFY(emptyButton->isHidden());
    QVERIFY(!page.findChild<QPushButton *>(u"createSnapshotButton"_s)->isEnabled());
    QVERIFY(shootLightAndDark(&page, kShots, u"snapshots-empty"_s));

    // ---- an instance runs: the empty state's button takes its snapshot -----------------------
    const auto key = await(client->addSshKey(u"page-key"_s, testPublicKey()));
    QVERIFY2(key.ok, key.why());
    core::NewInstance request;
    request.name = u"trainer"_s;
    request.gpuType = u"rtx4090"_s;
    request.image = u"base"_s;
    request.sshKeyIds = {key.value->id};
    const auto launched = await(client->createInstance(request));
    QVERIFY2(launched.ok, launched.why());
    const QString sourceId = launched.value->id;
    QTRY_VERIFY_WITH_TIMEOUT(s.session->instance(sourceId)
                                 && s.session->instance(sourceId)->state
                                     == core::InstanceState::Running,
                             20000);
    QTRY_VERIFY(emptyButton->isVisible());
    QCOMPARE(emptyButton->text(), u"Take a snapshot of “trainer”"_s);
    auto *priceNote = page.findChild<QLabel *>(u"snapshotPriceNote"_s);
    const qint64 gibHour = s.session->instance(sourceId)->retention.storagePricePerGibHourMicros;
    QVERIFY(gibHour > 0);
    QVERIFY2(priceNote->text().contains(ui::Format::exactMoney(gibHour)),
             qPrintable(priceNote->text()));
    QVERIFY(shootLightAndDark(&page, kShots, u"snapshots-empty-with-instance"_s));
    QTest::mouseClick(emptyButton, Qt::LeftButton);

    // The row appears at once (the answer), turns ready by the `snapshot` event alone.
    ui::SnapshotsModel *model = page.model();
    QTRY_COMPARE(model->rowCount(), 1);
    QCOMPARE(stack->currentIndex(), 1);
    const QString snapshotId = model->snapshotAt(0)->id;
    QCOMPARE(model->snapshotAt(0)->name, u"trainer-snapshot"_s);
    // A snapshot is a real `podman commit`: its time is the machine's (other tests run beside it).
    QTRY_VERIFY_WITH_TIMEOUT(model->snapshotAt(0)->isReady(), 300000);
    const core::Snapshot ready = *model->snapshotAt(0);
    QVERIFY(ready.sizeBytes.has_value());
    QVERIFY(ready.storageRateMicrosPerHour > 0);
    QCOMPARE(ready.storageRateMicrosPerHour, ready.retention.storageRateMicrosPerHour);
    QCOMPARE(ready.retention.storagePricePerGibHourMicros, gibHour);
    const auto cell = [&](int column) { return model->data(model->index(0, column)).toString(); };
    QCOMPARE(cell(ui::SnapshotsModel::SourceColumn), u"trainer"_s);
    QCOMPARE(cell(ui::SnapshotsModel::GpuColumn), u"rtx4090 × 1"_s);
    QCOMPARE(cell(ui::SnapshotsModel::FeeColumn),
             ui::SnapshotsModel::feeText(ready.storageRateMicrosPerHour));
    QVERIFY(!cell(ui::SnapshotsModel::SinceColumn).isEmpty());
    QVERIFY2(cell(ui::SnapshotsModel::KeepsColumn).contains(u"/workspace"_s),
             qPrintable(cell(ui::SnapshotsModel::KeepsColumn)));
    auto *details = page.findChild<QLabel *>(u"snapshotDetails"_s);
    QVERIFY2(details->text().contains(ui::SnapshotsModel::feeText(ready.storageRateMicrosPerHour))
                 && details->text().contains(u"outlives its instance"_s),
             qPrintable(details->text()));
    QVERIFY(shootLightAndDark(&page, kShots, u"snapshots-list"_s));

    // ---- a second one, named, from the form -------------------------------------------------
    auto *nameEdit = page.findChild<QLineEdit *>(u"snapshotNameEdit"_s);
    QTest::keyClicks(nameEdit, u"before-upgrade"_s);
    QTest::mouseClick(page.findChild<QPushButton *>(u"createSnapshotButton"_s), Qt::LeftButton);
    QTRY_COMPARE(model->rowCount(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(model->snapshotAt(1)->isReady(), 300000);
    QCOMPARE(model->snapshotAt(1)->name, u"before-upgrade"_s);

    // ---- restore: the snapshot's GPU and count, every key ticked, the catalog's price -------
    page.selectSnapshot(snapshotId);
    auto *restoreButton = page.findChild<QPushButton *>(u"restoreSnapshotButton"_s);
    QVERIFY(restoreButton->isEnabled());
    QSignalSpy restored(&page, &ui::SnapshotsPage::restored);
    QTest::mouseClick(restoreButton, Qt::LeftButton);
    ui::SnapshotsRestoreDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = restoreDialog(page)));
    auto *gpuCombo = dialog->findChild<QComboBox *>(u"restoreGpuCombo"_s);
    auto *keyList = dialog->findChild<QListWidget *>(u"restoreKeyList"_s);
    auto *cost = dialog->findChild<QLabel *>(u"restoreCostLabel"_s);
    QTRY_VERIFY(gpuCombo->count() > 0 && keyList->count() == 1);
    QCOMPARE(keyList->item(0)->checkState(), Qt::Checked);
    QCOMPARE(dialog->request().gpuType, u"rtx4090"_s);
    QCOMPARE(dialog->request().gpuCount, 1);
    QCOMPARE(dialog->request().sshKeyIds, QStringList{key.value->id});
    const auto gpus = await(client->gpuTypes());
    QVERIFY2(gpus.ok, gpus.why());
    qint64 cardHour = 0;
    for (const core::GpuType &gpu : *gpus.value) {
        if (gpu.id == u"rtx4090"_s)
            cardHour = gpu.pricePerHourMicros;
    }
    QVERIFY(cardHour > 0);
    QCOMPARE(dialog->pricePerHourMicros(), cardHour);
    QVERIFY2(cost->text().contains(ui::Format::money(cardHour))
                 && cost->text().contains(ui::Format::money(cardHour * 24)),
             qPrintable(cost->text()));
    // Two cards: the preview follows.
    dialog->findChild<QSpinBox *>(u"restoreCountSpin"_s)->setValue(2);
    QCOMPARE(dialog->pricePerHourMicros(), 2 * cardHour);
    QVERIFY2(cost->text().contains(ui::Format::money(2 * cardHour)), qPrintable(cost->text()));
    dialog->findChild<QSpinBox *>(u"restoreCountSpin"_s)->setValue(1);
    QVERIFY(shootLightAndDark(dialog, kShots, u"snapshots-restore-dialog"_s));
    QTest::mouseClick(
        dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok),
        Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 120000);
    const auto restoredInstance = restored.at(0).at(0).value<core::Instance>();
    QCOMPARE(restoredInstance.snapshotId, snapshotId);
    QTRY_VERIFY(!restoreDialog(page));
    QTRY_VERIFY_WITH_TIMEOUT(s.session->instance(restoredInstance.id)
                                 && s.session->instance(restoredInstance.id)->state
                                     == core::InstanceState::Running,
                             20000);

    // ---- delete refused while the restored instance runs from it: said with its name --------
    page.selectSnapshot(snapshotId);
    auto *deleteButton = page.findChild<QPushButton *>(u"deleteSnapshotButton"_s);
    auto *status = page.findChild<QLabel *>(u"snapshotsStatus"_s);
    QSignalSpy errors(&page, &ui::SnapshotsPage::errorOccurred);
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = deleteConfirmation(page)));
    QTest::mouseClick(box->findChild<QPushButton *>(u"confirmDeleteButton"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 10000);
    QVERIFY2(status->text().contains(u"Terminate them first"_s)
                 && status->text().contains(restoredInstance.name),
             qPrintable(status->text()));
    QCOMPARE(model->rowCount(), 2);

    // ---- once it is gone, the confirmed delete states what is lost and that the fee stops ----
    QVERIFY(await(client->terminateInstance(restoredInstance.id)).ok);
    QTRY_VERIFY_WITH_TIMEOUT(!s.session->instance(restoredInstance.id), 60000);
    page.selectSnapshot(snapshotId);
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QTRY_VERIFY((box = deleteConfirmation(page)));
    // The title asks, one sentence says what is lost, the fee is behind Show Details.
    QVERIFY2(box->text().startsWith(u"Delete the snapshot"_s), qPrintable(box->text()));
    QVERIFY2(box->informativeText().contains(u"cannot be restored"_s)
                 && box->informativeText().contains(u"/workspace"_s),
             qPrintable(box->informativeText()));
    QVERIFY2(box->detailedText().contains(u"storage fee of %1 stops"_s.arg(
                 ui::SnapshotsModel::feeText(ready.storageRateMicrosPerHour))),
             qPrintable(box->detailedText()));
    QVERIFY(shootLightAndDark(box, kShots, u"snapshots-delete-confirm"_s));
    // Cancel keeps it.
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!deleteConfirmation(page));
    QCOMPARE(model->rowCount(), 2);
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QTRY_VERIFY((box = deleteConfirmation(page)));
    QTest::mouseClick(box->findChild<QPushButton *>(u"confirmDeleteButton"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    QVERIFY(!model->snapshot(snapshotId));
    QVERIFY2(status->text().contains(u"storage fee has stopped"_s), qPrintable(status->text()));
    const auto listed = await(client->snapshots());
    QVERIFY2(listed.ok, listed.why());
    QCOMPARE(listed.value->size(), 1);

    // ---- another user: the page starts empty ------------------------------------------------
    s.session->logOut();
    QTRY_COMPARE(model->rowCount(), 0);
    QCOMPARE(stack->currentIndex(), 0);
}

void TestSnapshotsPage::restoredInstanceHasTheWorkspaceFile()
{
    initPodmanTest();
    if (QTest::currentTestFailed() || !m_dir)
        return;
    SimProcess *sim = startSim();
    QVERIFY(sim);
    Signed s = open(*sim, u"podman-snapshots@example.com"_s);
    QVERIFY(s.session->isLoggedIn());
    ui::SnapshotsPage &page = *s.page;
    core::ProviderClient *client = s.session->client();

    core::SshKeyStore keys(nullptr, m_dir->filePath(u"keys"_s));
    const KeyOutcome made = awaitKey(keys.generate(u"snapshots"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    const auto uploaded = await(core::SshKeyStore::upload(*client, made.key, u"snapshots"_s));
    QVERIFY2(uploaded.ok, uploaded.why());
    const QString sourceId =
        create(*sim, client->token(), {uploaded.value->id}, {{u"name"_s, u"source"_s}});
    QVERIFY(!sourceId.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(s.session->instance(sourceId)
                                 && s.session->instance(sourceId)->state
                                     == core::InstanceState::Running
                                 && s.session->instance(sourceId)->ssh,
                             kRunningTimeoutMs);

    // A file in /workspace, written over SSH with the pinned host key.
    const core::SshTarget source =
        core::SshTarget::fromInstance(*s.session->instance(sourceId), made.key);
    QVERIFY2(source.isValid(), qPrintable(source.problem()));
    const CommandOutcome wrote =
        runOverSsh(source, u"echo kept-by-the-snapshot-42 > /workspace/proof.txt && sync"_s);
    QVERIFY2(wrote.connected && wrote.result.ok && wrote.result.exitStatus == 0,
             qPrintable(wrote.error + wrote.result.error + QString::fromUtf8(wrote.result.err)));

    // Taken from the page: pick the instance, name it.
    auto *combo = page.findChild<QComboBox *>(u"snapshotInstanceCombo"_s);
    QTRY_VERIFY(combo->findData(sourceId) >= 0);
    combo->setCurrentIndex(combo->findData(sourceId));
    QTest::keyClicks(page.findChild<QLineEdit *>(u"snapshotNameEdit"_s), u"with-proof"_s);
    QTest::mouseClick(page.findChild<QPushButton *>(u"createSnapshotButton"_s), Qt::LeftButton);
    ui::SnapshotsModel *model = page.model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    const QString snapshotId = model->snapshotAt(0)->id;
    QTRY_VERIFY_WITH_TIMEOUT(model->snapshotAt(0)->state != u"creating"_s, 300000);
    QVERIFY2(model->snapshotAt(0)->isReady(), qPrintable(model->snapshotAt(0)->stateReason));
    QVERIFY(shootLightAndDark(&page, kShots, u"snapshots-podman"_s));

    // Restored in one click: the dialog opens with everything chosen; Restore.
    page.selectSnapshot(snapshotId);
    QSignalSpy restored(&page, &ui::SnapshotsPage::restored);
    QTest::mouseClick(page.findChild<QPushButton *>(u"restoreSnapshotButton"_s), Qt::LeftButton);
    ui::SnapshotsRestoreDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = restoreDialog(page)));
    auto *ok = dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s)->button(QDialogButtonBox::Ok);
    QTRY_VERIFY_WITH_TIMEOUT(ok->isEnabled(), 10000);
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 30000);
    const QString restoredId = restored.at(0).at(0).value<core::Instance>().id;
    m_instanceIds.append(restoredId);
    QTRY_VERIFY_WITH_TIMEOUT(s.session->instance(restoredId)
                                 && s.session->instance(restoredId)->state
                                     == core::InstanceState::Running
                                 && s.session->instance(restoredId)->ssh,
                             kRunningTimeoutMs);
    const core::SshTarget copy =
        core::SshTarget::fromInstance(*s.session->instance(restoredId), made.key);
    QVERIFY(copy.isValid());
    QVERIFY(copy.expectedHostKeySha256 != source.expectedHostKeySha256); // a new host
    const CommandOutcome read = runOverSsh(copy, u"cat /workspace/proof.txt"_s);
    QVERIFY2(read.connected && read.result.ok,
             qPrintable(read.error + read.result.error + QString::fromUtf8(read.result.err)));
    QCOMPARE(read.result.out.trimmed(), "kept-by-the-snapshot-42"_ba);

    // Clean up: the restored instance goes, then the snapshot (and its image).
    QVERIFY(await(client->terminateInstance(restoredId)).ok);
    QTRY_VERIFY_WITH_TIMEOUT(!s.session->instance(restoredId), 60000);
    QVERIFY(await(client->deleteSnapshot(snapshotId)).ok);
    podman({u"rmi"_s, u"-f"_s,
            u"localhost/cardhour-snapshot/"_s + snapshotId.toLower() + u":latest"_s});
}

QTEST_MAIN(TestSnapshotsPage)
#include "tst_snapshotspage.moc"
