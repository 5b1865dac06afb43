#include "pages/SnapshotsRestoreDialog.h"

#include "Format.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "pages/SnapshotsModel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::ApiError;
using core::GpuType;
using core::Instance;
using core::ProviderClient;
using core::Reply;
using core::SshKey;

namespace {
constexpr int IdRole = Qt::UserRole + 1;
constexpr qint64 msPerDay = 24LL * 3600 * 1000;
} // namespace

SnapshotsRestoreDialog::SnapshotsRestoreDialog(ProviderClient *client,
                                               const core::Snapshot &snapshot, QWidget *parent)
    : QDialog(parent), m_client(client), m_snapshot(snapshot), m_intro(new QLabel(this)),
      m_nameLabel(new QLabel(this)), m_name(new QLineEdit(this)), m_gpuLabel(new QLabel(this)),
      m_gpu(new QComboBox(this)), m_countLabel(new QLabel(this)), m_count(new QSpinBox(this)),
      m_keysLabel(new QLabel(this)), m_keyList(new QListWidget(this)), m_cost(new QLabel(this)),
      m_error(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(u"snapshotRestoreDialog"_s);
    m_name->setObjectName(u"restoreNameEdit"_s);
    m_gpu->setObjectName(u"restoreGpuCombo"_s);
    m_count->setObjectName(u"restoreCountSpin"_s);
    m_keyList->setObjectName(u"restoreKeyList"_s);
    m_cost->setObjectName(u"restoreCostLabel"_s);
    m_error->setObjectName(u"restoreErrorLabel"_s);
    m_buttons->setObjectName(u"buttonBox"_s);
    m_intro->setWordWrap(true);
    m_cost->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_count->setRange(1, qMax(1, snapshot.gpuCount));
    m_count->setValue(qMax(1, snapshot.gpuCount));
    m_keyList->setMaximumHeight(110);
    m_nameLabel->setBuddy(m_name);
    m_gpuLabel->setBuddy(m_gpu);
    m_countLabel->setBuddy(m_count);
    m_keysLabel->setBuddy(m_keyList);

    auto *form = new QFormLayout;
    form->addRow(m_nameLabel, m_name);
    form->addRow(m_gpuLabel, m_gpu);
    form->addRow(m_countLabel, m_count);
    form->addRow(m_keysLabel, m_keyList);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addWidget(m_cost);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] {
        if (const GpuType *gpu = selectedGpu())
            m_count->setMaximum(qMax(1, gpu->capacity));
        updateCost();
    });
    connect(m_count, &QSpinBox::valueChanged, this, &SnapshotsRestoreDialog::updateCost);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SnapshotsRestoreDialog::onRestore);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
    resize(560, sizeHint().height());
}

void SnapshotsRestoreDialog::retranslate()
{
    setWindowTitle(tr("Restore snapshot"));
    QStringList lost;
    for (const QString &item : std::as_const(m_snapshot.retention.doesNotKeep))
        lost.append(SnapshotsModel::retentionItem(item));
    m_intro->setText(
        tr("<b>%1</b> comes back as a new instance with %2 as they were when it was taken. "
           "Not kept: %3.")
            .arg(m_snapshot.name.toHtmlEscaped(),
                 SnapshotsModel::keepsText(m_snapshot.retention).toHtmlEscaped(),
                 QLocale().createSeparatedList(lost).toHtmlEscaped()));
    m_name->setPlaceholderText(tr("chosen by the provider"));
    m_nameLabel->setText(tr("&Name:"));
    m_gpuLabel->setText(tr("&GPU type:"));
    m_countLabel->setText(tr("&Cards:"));
    m_keysLabel->setText(tr("SSH &keys:"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Restore"));
    m_buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Restore the snapshot"));
    fillGpus();
    updateCost();
}

void SnapshotsRestoreDialog::load()
{
    m_pending = 2;
    m_loadError.clear();
    m_error->setText(tr("Loading the catalog and your keys…"));
    setBusy(true);
    auto done = [this](const ApiError &error) {
        if (error.isError())
            m_loadError = error.userMessage();
        if (--m_pending == 0) {
            m_error->setText(m_loadError);
            setBusy(false);
        }
    };
    m_client->gpuTypes()->onFinished(this, [this, done](const Reply<QList<GpuType>> &r) {
        if (r.ok()) {
            m_gpus = r.value();
            fillGpus();
        }
        done(r.error());
    });
    m_client->sshKeys()->onFinished(this, [this, done](const Reply<QList<SshKey>> &r) {
        if (r.ok()) {
            m_keys = r.value();
            fillKeys();
        }
        done(r.error());
    });
}

void SnapshotsRestoreDialog::fillGpus()
{
    const QString previous =
        m_gpu->currentIndex() >= 0 ? m_gpu->currentData(IdRole).toString() : m_snapshot.gpuType;
    const QSignalBlocker block(m_gpu);
    m_gpu->clear();
    for (const GpuType &gpu : std::as_const(m_gpus)) {
        //: GPU type in the restore dialog: name, price per card-hour, free cards
        m_gpu->addItem(tr("%1 · %2 per card-hour · free: %3")
                           .arg(gpu.name, Format::money(gpu.pricePerHourMicros),
                                QString::number(gpu.available)));
        m_gpu->setItemData(m_gpu->count() - 1, gpu.id, IdRole);
    }
    const int at = m_gpu->findData(previous.isEmpty() ? m_snapshot.gpuType : previous, IdRole);
    m_gpu->setCurrentIndex(at >= 0 ? at : (m_gpu->count() > 0 ? 0 : -1));
    if (const GpuType *gpu = selectedGpu())
        m_count->setMaximum(qMax(1, gpu->capacity));
    updateCost();
}

void SnapshotsRestoreDialog::fillKeys()
{
    m_keyList->clear();
    for (const SshKey &key : std::as_const(m_keys)) {
        auto *item = new QListWidgetItem(
            u"%1   %2"_s.arg(key.name, key.fingerprintSha256.left(20) + u"…"_s), m_keyList);
        item->setData(IdRole, key.id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked); // the user's own keys open the restored instance
    }
    if (m_keys.isEmpty())
        m_error->setText(tr("Your account has no SSH keys: the restored instance cannot be "
                            "logged in to. Add a key on the Keys page first."));
}

const GpuType *SnapshotsRestoreDialog::selectedGpu() const
{
    const QString id = m_gpu->currentData(IdRole).toString();
    for (const GpuType &gpu : m_gpus) {
        if (gpu.id == id)
            return &gpu;
    }
    return nullptr;
}

qint64 SnapshotsRestoreDialog::pricePerHourMicros() const
{
    const GpuType *gpu = selectedGpu();
    return gpu ? gpu->pricePerHourMicros * m_count->value() : 0;
}

core::SnapshotRestore SnapshotsRestoreDialog::request() const
{
    core::SnapshotRestore r;
    r.snapshotId = m_snapshot.id;
    r.name = m_name->text().trimmed();
    if (const GpuType *gpu = selectedGpu())
        r.gpuType = gpu->id;
    r.gpuCount = m_count->value();
    for (int i = 0; i < m_keyList->count(); ++i) {
        const QListWidgetItem *item = m_keyList->item(i);
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
        m_cost->clear();
        return;
    }
    QString text =
        tr("<b>Cost:</b> %1 per hour, %2 per day while it runs (%3 × %4 per "
           "card-hour).")
            .arg(Format::money(perHour), Format::money(core::BillTicker::costOf(msPerDay, perHour)))
            .arg(m_count->value())
            .arg(Format::money(gpu->pricePerHourMicros));
    if (m_count->value() > gpu->available)
        text +=
            u"<br>"_s + tr("Only %n card(s) of this type are free now.", nullptr, gpu->available);
    if (m_snapshot.storageRateMicrosPerHour > 0)
        text += u"<br>"_s
            + tr("The snapshot stays and its storage fee of %1 goes on until you delete it.")
                  .arg(SnapshotsModel::feeText(m_snapshot.storageRateMicrosPerHour));
    m_cost->setText(text);
}

void SnapshotsRestoreDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy && selectedGpu());
}

void SnapshotsRestoreDialog::onRestore()
{
    if (m_busy || !selectedGpu())
        return;
    const core::SnapshotRestore r = request();
    // The very same request again reuses its key: a restore that did reach the provider is
    // answered with that instance instead of making a second.
    if (r.toJson() != m_lastRequest || m_idempotencyKey.isEmpty())
        m_idempotencyKey = ProviderClient::newIdempotencyKey();
    m_lastRequest = r.toJson();
    setBusy(true);
    m_error->setText(tr("Asking the provider…"));
    m_client->restoreSnapshot(r, m_idempotencyKey)
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
            m_error->setText(tr("Not restored: %1").arg(error.userMessage()));
        });
}

void SnapshotsRestoreDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
