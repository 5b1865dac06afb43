#include "LaunchDialog.h"

#include "Format.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "ui_LaunchDialog.h"

#include <QEvent>
#include <QListWidgetItem>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

namespace {
constexpr int IdRole = Qt::UserRole + 1;
constexpr qint64 msPerDay = 24LL * 3600 * 1000;
} // namespace

LaunchDialog::LaunchDialog(ProviderClient *client, const BillTicker *ticker, QWidget *parent)
    : QDialog(parent), m_ui(std::make_unique<Ui::LaunchDialog>()), m_client(client),
      m_ticker(ticker)
{
    m_ui->setupUi(this);
    setObjectName(u"launchDialog"_s);
    m_ui->noKeysLabel->hide();
    fillCounts();
    connect(m_ui->gpuList, &QListWidget::currentRowChanged, this, [this] {
        fillCounts();
        updateCost();
    });
    connect(m_ui->countCombo, &QComboBox::currentIndexChanged, this, &LaunchDialog::updateCost);
    connect(m_ui->imageList, &QListWidget::currentRowChanged, this, &LaunchDialog::validate);
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &LaunchDialog::onAccept);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_ui->manageKeysButton, &QPushButton::clicked, this,
            &LaunchDialog::manageKeysRequested);
    updateCost();
}

LaunchDialog::~LaunchDialog() = default;

void LaunchDialog::load()
{
    m_pending = 3;
    m_loadError.clear();
    m_ui->errorLabel->setText(tr("Loading the catalog…"));
    auto done = [this](const ApiError &error) {
        if (error.isError())
            m_loadError = error.userMessage();
        if (--m_pending == 0)
            m_ui->errorLabel->setText(m_loadError);
        validate();
    };
    m_client->gpuTypes()->onFinished(this, [this, done](const Reply<QList<GpuType>> &r) {
        if (r.ok()) {
            m_gpus = r.value();
            fillGpus();
        }
        done(r.error());
    });
    m_client->images()->onFinished(this, [this, done](const Reply<QList<Image>> &r) {
        if (r.ok()) {
            m_images = r.value();
            fillImages();
        }
        done(r.error());
    });
    m_client->sshKeys()->onFinished(this, [this, done](const Reply<QList<SshKey>> &r) {
        if (r.ok()) {
            m_keys = r.value();
            m_keysLoaded = true;
            fillKeys();
        }
        done(r.error());
    });
}

void LaunchDialog::fillGpus()
{
    const int previous = qMax(0, m_ui->gpuList->currentRow());
    m_ui->gpuList->clear();
    int firstFree = -1;
    for (const GpuType &gpu : std::as_const(m_gpus)) {
        //: GPU card in the launch dialog: name, memory, price, free cards
        auto *item = new QListWidgetItem(
            tr("%1   ·   %2 GiB VRAM   ·   %3 per card-hour   ·   free: %4")
                    .arg(gpu.name, QString::number((gpu.vramMib + 512) / 1024),
                         Format::money(gpu.pricePerHourMicros), QString::number(gpu.available))
                // Never leave it to the user to guess whether the card is real.
                + u"   ·   "_s + (gpu.simulated ? tr("simulated") : tr("real GPU")),
            m_ui->gpuList);
        item->setData(IdRole, gpu.id);
        item->setToolTip(gpu.description);
        if (gpu.available <= 0)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        else if (firstFree < 0)
            firstFree = m_ui->gpuList->count() - 1;
    }
    const QListWidgetItem *keep = m_ui->gpuList->item(previous);
    m_ui->gpuList->setCurrentRow(keep && (keep->flags() & Qt::ItemIsEnabled) ? previous
                                                                             : qMax(0, firstFree));
}

void LaunchDialog::fillImages()
{
    const int previous = qMax(0, m_ui->imageList->currentRow());
    m_ui->imageList->clear();
    for (const Image &image : std::as_const(m_images)) {
        QString text = image.name;
        if (!image.description.isEmpty())
            text += u"\n    "_s + image.description;
        auto *item = new QListWidgetItem(text, m_ui->imageList);
        item->setData(IdRole, image.id);
    }
    m_ui->imageList->setCurrentRow(qMin(previous, m_ui->imageList->count() - 1));
}

void LaunchDialog::reloadKeys()
{
    m_client->sshKeys()->onFinished(this, [this](const Reply<QList<SshKey>> &r) {
        if (!r.ok())
            return m_ui->errorLabel->setText(r.error().userMessage());
        m_keys = r.value();
        m_keysLoaded = true;
        fillKeys();
        validate();
    });
}

void LaunchDialog::fillKeys()
{
    QStringList unchecked;
    for (int row = 0; row < m_ui->keyList->count(); ++row) {
        if (m_ui->keyList->item(row)->checkState() == Qt::Unchecked)
            unchecked << m_ui->keyList->item(row)->data(IdRole).toString();
    }
    m_ui->keyList->clear();
    for (const SshKey &key : std::as_const(m_keys)) {
        auto *item =
            new QListWidgetItem(u"%1   %2"_s.arg(key.name, key.fingerprintSha256), m_ui->keyList);
        item->setData(IdRole, key.id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        // Every key by default: an instance nobody can log in to is rarely what is wanted.
        item->setCheckState(unchecked.contains(key.id) ? Qt::Unchecked : Qt::Checked);
    }
    m_ui->keyList->setVisible(!m_keys.isEmpty());
    m_ui->noKeysLabel->setVisible(m_keysLoaded && m_keys.isEmpty());
}

void LaunchDialog::fillCounts()
{
    const int previous = m_ui->countCombo->currentData().toInt();
    const GpuType *gpu = selectedGpu();
    QSignalBlocker block(m_ui->countCombo);
    m_ui->countCombo->clear();
    for (int count : {1, 2, 4, 8}) {
        // Counts above what is free stay visible but say why they cannot be had.
        const bool possible = !gpu || count <= gpu->available;
        m_ui->countCombo->addItem(
            possible ? QString::number(count) : tr("%1 (not enough free)").arg(count), count);
    }
    const int index = m_ui->countCombo->findData(previous > 0 ? previous : 1);
    m_ui->countCombo->setCurrentIndex(qMax(0, index));
}

const GpuType *LaunchDialog::selectedGpu() const
{
    const QListWidgetItem *item = m_ui->gpuList->currentItem();
    if (!item)
        return nullptr;
    const QString id = item->data(IdRole).toString();
    for (const GpuType &gpu : m_gpus) {
        if (gpu.id == id)
            return &gpu;
    }
    return nullptr;
}

qint64 LaunchDialog::pricePerHourMicros() const
{
    const GpuType *gpu = selectedGpu();
    return gpu ? gpu->pricePerHourMicros * qMax(1, m_ui->countCombo->currentData().toInt()) : 0;
}

NewInstance LaunchDialog::request() const
{
    NewInstance r;
    r.name = m_ui->nameEdit->text().trimmed();
    if (const GpuType *gpu = selectedGpu())
        r.gpuType = gpu->id;
    r.gpuCount = qMax(1, m_ui->countCombo->currentData().toInt());
    if (const QListWidgetItem *image = m_ui->imageList->currentItem())
        r.image = image->data(IdRole).toString();
    for (int i = 0; i < m_ui->keyList->count(); ++i) {
        const QListWidgetItem *item = m_ui->keyList->item(i);
        if (item->checkState() == Qt::Checked)
            r.sshKeyIds << item->data(IdRole).toString();
    }
    return r;
}

void LaunchDialog::updateCost()
{
    const qint64 perHour = pricePerHourMicros();
    if (perHour <= 0) {
        m_ui->costLabel->clear();
        validate();
        return;
    }
    QString text =
        tr("<b>Cost:</b> %1 per hour, %2 per day. Billed per second while it runs; nothing "
           "while stopped.")
            .arg(Format::money(perHour), Format::money(BillTicker::costOf(msPerDay, perHour)));
    if (m_ticker && m_ticker->hasData()) {
        // What already runs keeps running: the balance lasts at the combined rate.
        const qint64 rate = m_ticker->spendRateMicrosPerHour() + perHour;
        const qint64 balance = m_ticker->balanceMicros();
        text += u"<br>"_s
            + tr("Your balance of %1 lasts %2 at %3 (with what already runs).")
                  .arg(Format::money(balance),
                       Format::duration(BillTicker::msToSpend(balance, rate)),
                       Format::ratePerHour(rate));
    }
    m_ui->costLabel->setText(text);
    validate();
}

void LaunchDialog::validate()
{
    const GpuType *gpu = selectedGpu();
    const int count = m_ui->countCombo->currentData().toInt();
    const bool ok = !m_busy && gpu && count <= gpu->available && m_ui->imageList->currentItem();
    QPushButton *launch = m_ui->buttonBox->button(QDialogButtonBox::Ok);
    launch->setText(tr("Launch"));
    launch->setEnabled(ok);
}

void LaunchDialog::onAccept()
{
    if (!m_ui->buttonBox->button(QDialogButtonBox::Ok)->isEnabled())
        return;
    const NewInstance r = request();
    // A retry of the very same request reuses the key: if the first one did reach the
    // provider, it answers with that instance instead of launching a second.
    if (r.toJson() != m_lastRequest || m_idempotencyKey.isEmpty())
        m_idempotencyKey = ProviderClient::newIdempotencyKey();
    m_lastRequest = r.toJson();
    m_busy = true;
    validate();
    m_ui->errorLabel->setText(tr("Asking the provider…"));
    m_client->createInstance(r, m_idempotencyKey)
        ->onFinished(this, [this](const Reply<Instance> &reply) {
            m_busy = false;
            if (reply.ok()) {
                m_idempotencyKey.clear();
                Q_EMIT launched(reply.value());
                accept();
                return;
            }
            const ApiError &error = reply.error();
            QString text = error.userMessage();
            if (error.kind == ApiError::Kind::Http && error.httpStatus == 402)
                text = tr("Not launched: your balance does not cover this instance. %1").arg(text);
            else if (error.kind == ApiError::Kind::Http && error.httpStatus == 409)
                text = tr("Not launched: %1 Choose fewer cards or another GPU type.").arg(text);
            if (!error.isUnreachable())
                m_idempotencyKey.clear(); // a definite answer: a new attempt is a new request
            m_ui->errorLabel->setText(text);
            // The free counts have changed, most likely: show the provider's current ones.
            if (error.httpStatus == 409)
                m_client->gpuTypes()->onFinished(this, [this](const Reply<QList<GpuType>> &gpus) {
                    if (gpus.ok()) {
                        m_gpus = gpus.value();
                        fillGpus();
                    }
                });
            validate();
        });
}

void LaunchDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        fillGpus();
        fillCounts();
        updateCost();
    }
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
