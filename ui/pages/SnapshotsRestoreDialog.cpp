#include "pages/SnapshotsRestoreDialog.h"

#include "Format.h"
#include "billing/BillTicker.h"
#include "pages/SnapshotsModel.h"
#include "session/ClientSession.h"
#include "theme/Design.h"
#include "ui_SnapshotsRestoreDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::ApiError;
using core::ClientSession;
using core::GpuType;
using core::Instance;
using core::Reply;
using core::SshKey;

namespace {
constexpr int IdRole = Qt::UserRole + 1;
constexpr qint64 msPerDay = 24LL * 3600 * 1000;
} // namespace

SnapshotsRestoreDialog::SnapshotsRestoreDialog(ClientSession *session,
                                               const core::Snapshot &snapshot, QWidget *parent)
    : QDialog(parent), m_session(session), m_snapshot(snapshot),
      m_ui(std::make_unique<Ui::SnapshotsRestoreDialog>())
{
    m_ui->setupUi(this);
    setObjectName(u"snapshotRestoreDialog"_s);
    m_ui->restoreCountSpin->setRange(1, qMax(1, snapshot.gpuCount));
    m_ui->restoreCountSpin->setValue(qMax(1, snapshot.gpuCount));

    connect(m_ui->restoreGpuCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (const GpuType *gpu = selectedGpu())
            m_ui->restoreCountSpin->setMaximum(gpu->isSlice() ? 1 : qMax(1, gpu->capacity));
        updateCost();
    });
    connect(m_ui->restoreCountSpin, &QSpinBox::valueChanged, this,
            &SnapshotsRestoreDialog::updateCost);
    Design::setPrimary(m_ui->buttonBox->button(QDialogButtonBox::Ok));
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &SnapshotsRestoreDialog::onRestore);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
    resize(560, sizeHint().height());
}

SnapshotsRestoreDialog::~SnapshotsRestoreDialog() = default;

void SnapshotsRestoreDialog::retranslate()
{
    QStringList lost;
    for (const QString &item : std::as_const(m_snapshot.retention.doesNotKeep))
        lost.append(SnapshotsModel::retentionItem(item));
    m_ui->introLabel->setText(
        tr("<b>%1</b> comes back as a new instance with %2 as they were when it was taken. "
           "Not kept: %3.")
            .arg(m_snapshot.name.toHtmlEscaped(),
                 SnapshotsModel::keepsText(m_snapshot.retention).toHtmlEscaped(),
                 QLocale().createSeparatedList(lost).toHtmlEscaped()));
    QPushButton *restore = m_ui->buttonBox->button(QDialogButtonBox::Ok);
    restore->setText(tr("Restore"));
    restore->setAccessibleName(tr("Restore the snapshot"));
    fillGpus();
    updateCost();
}

void SnapshotsRestoreDialog::load()
{
    m_pending = 2;
    m_loadError.clear();
    m_ui->restoreErrorLabel->setText(tr("Loading the catalog and your keys…"));
    setBusy(true);
    auto done = [this](const ApiError &error) {
        if (error.isError())
            m_loadError = error.userMessage();
        if (--m_pending == 0) {
            m_ui->restoreErrorLabel->setText(m_loadError);
            setBusy(false);
        }
    };
    m_session->gpuTypes()->onFinished(this, [this, done](const Reply<QList<GpuType>> &r) {
        if (r.ok()) {
            m_gpus = r.value();
            fillGpus();
        }
        done(r.error());
    });
    m_session->sshKeys()->onFinished(this, [this, done](const Reply<QList<SshKey>> &r) {
        if (r.ok()) {
            m_keys = r.value();
            fillKeys();
        }
        done(r.error());
    });
}

void SnapshotsRestoreDialog::fillGpus()
{
    const QString previous = m_ui->restoreGpuCombo->currentIndex() >= 0
        ? m_ui->restoreGpuCombo->currentData(IdRole).toString()
        : m_snapshot.gpuType;
    const QSignalBlocker block(m_ui->restoreGpuCombo);
    m_ui->restoreGpuCombo->clear();
    for (const GpuType &gpu : std::as_const(m_gpus)) {
        //: GPU type in the restore dialog: name, price per card-hour, free cards
        m_ui->restoreGpuCombo->addItem(tr("%1 · %2 per card-hour · free: %3")
                                           .arg(gpu.name,
                                                Format::exactMoney(gpu.pricePerHourMicros),
                                                QString::number(gpu.available)));
        m_ui->restoreGpuCombo->setItemData(m_ui->restoreGpuCombo->count() - 1, gpu.id, IdRole);
    }
    const int at =
        m_ui->restoreGpuCombo->findData(previous.isEmpty() ? m_snapshot.gpuType : previous, IdRole);
    m_ui->restoreGpuCombo->setCurrentIndex(at >= 0 ? at
                                                   : (m_ui->restoreGpuCombo->count() > 0 ? 0 : -1));
    if (const GpuType *gpu = selectedGpu())
        m_ui->restoreCountSpin->setMaximum(qMax(1, gpu->capacity));
    updateCost();
}

void SnapshotsRestoreDialog::fillKeys()
{
    m_ui->restoreKeyList->clear();
    for (const SshKey &key : std::as_const(m_keys)) {
        auto *item =
            new QListWidgetItem(u"%1   %2"_s.arg(key.name, key.fingerprintSha256.left(20) + u"…"_s),
                                m_ui->restoreKeyList);
        item->setData(IdRole, key.id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked); // the user's own keys open the restored instance
    }
    if (m_keys.isEmpty())
        m_ui->restoreErrorLabel->setText(
            tr("Your account has no SSH keys: the restored instance cannot be "
               "logged in to. Add a key on the Keys page first."));
}

const GpuType *SnapshotsRestoreDialog::selectedGpu() const
{
    const QString id = m_ui->restoreGpuCombo->currentData(IdRole).toString();
    for (const GpuType &gpu : m_gpus) {
        if (gpu.id == id)
            return &gpu;
    }
    return nullptr;
}

qint64 SnapshotsRestoreDialog::pricePerHourMicros() const
{
    const GpuType *gpu = selectedGpu();
    return gpu ? gpu->pricePerHourMicros * m_ui->restoreCountSpin->value() : 0;
}

core::SnapshotRestore SnapshotsRestoreDialog::request() const
{
    core::SnapshotRestore r;
    r.snapshotId = m_snapshot.id;
    r.name = m_ui->restoreNameEdit->text().trimmed();
    if (const GpuType *gpu = selectedGpu())
        r.gpuType = gpu->id;
    r.gpuCount = m_ui->restoreCountSpin->value();
    for (int i = 0; i < m_ui->restoreKeyList->count(); ++i) {
        const QListWidgetItem *item = m_ui->restoreKeyList->item(i);
        if (item->checkState() == Qt::Checked)
            r.sshKeyIds << item->data(IdRole).toString();
    }
    return r;
}

void SnapshotsRestoreDialog::updateCost()
{
    const GpuType *gpu = selectedGpu();
    const qint64 perHour = pricePerHourMicros();
    if (!gpu) {
        m_ui->restoreCostLabel->clear();
        return;
    }
    QString text = tr("<b>Cost:</b> %1 per hour, %2 per day while it runs (%3 × %4 per "
                      "card-hour).")
                       .arg(Format::exactMoney(perHour),
                            Format::money(core::BillTicker::costOf(msPerDay, perHour)))
                       .arg(m_ui->restoreCountSpin->value())
                       .arg(Format::exactMoney(gpu->pricePerHourMicros));
    if (m_ui->restoreCountSpin->value() > gpu->available)
        text +=
            u"<br>"_s + tr("Only %n card(s) of this type are free now.", nullptr, gpu->available);
    if (m_snapshot.storageRateMicrosPerHour > 0)
        text += u"<br>"_s
            + tr("The snapshot stays and its storage fee of %1 goes on until you delete it.")
                  .arg(SnapshotsModel::feeText(m_snapshot.storageRateMicrosPerHour));
    m_ui->restoreCostLabel->setText(text);
}

void SnapshotsRestoreDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setEnabled(!busy && selectedGpu());
}

void SnapshotsRestoreDialog::onRestore()
{
    if (m_busy || !selectedGpu())
        return;
    const core::SnapshotRestore r = request();
    // The very same request again reuses its key: a restore that did reach the provider is
    // answered with that instance instead of making a second.
    if (r.toJson() != m_lastRequest || m_idempotencyKey.isEmpty())
        m_idempotencyKey = ClientSession::newIdempotencyKey();
    m_lastRequest = r.toJson();
    setBusy(true);
    m_ui->restoreErrorLabel->setText(tr("Asking the provider…"));
    m_session->restoreSnapshot(r, m_idempotencyKey)
        ->onFinished(this, [this](const Reply<Instance> &reply) {
            setBusy(false);
            if (reply.ok()) {
                m_idempotencyKey.clear();
                Q_EMIT restored(reply.value());
                accept();
                return;
            }
            const ApiError &error = reply.error();
            if (!error.isUnreachable())
                m_idempotencyKey.clear(); // a definite answer: a new attempt is a new request
            m_ui->restoreErrorLabel->setText(tr("Not restored: %1").arg(error.userMessage()));
            // Not enough free cards, most likely: show the provider's current counts.
            if (error.kind == ApiError::Kind::Http && error.httpStatus == 409)
                m_session->gpuTypes()->onFinished(this, [this](const Reply<QList<GpuType>> &gpus) {
                    if (gpus.ok()) {
                        m_gpus = gpus.value();
                        fillGpus();
                    }
                });
        });
}

void SnapshotsRestoreDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
    }
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
