#include "LaunchDialog.h"

#include "CostPreview.h"
#include "Format.h"
#include "GpuCardDelegate.h"
#include "GpuSlicePicker.h"
#include "ModelMountPicker.h"
#include "PriceClassChooser.h"
#include "StateStyle.h"
#include "StopPolicyEditor.h"
#include "billing/BillTicker.h"
#include "session/ClientSession.h"
#include "ssh/SshKeyChoice.h"
#include "ssh/SshKeyStore.h"
#include "theme/Design.h"
#include "ui_LaunchDialog.h"

#include <QDir>
#include <QEvent>
#include <QGroupBox>
#include <QListWidgetItem>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

namespace {
constexpr int IdRole = Qt::UserRole + 1;
} // namespace

LaunchDialog::LaunchDialog(ClientSession *session, const BillTicker *ticker, SshKeyStore *keys,
                           QWidget *parent)
    : QDialog(parent), m_ui(std::make_unique<Ui::LaunchDialog>()),
      m_cardDelegate(new GpuCardDelegate(this)), m_session(session), m_ticker(ticker),
      m_keyStore(keys)
{
    m_ui->setupUi(this);
    StateStyle::showAsError(m_ui->errorLabel);
    for (QLabel *title : {m_ui->gpuTitle, m_ui->imageTitle, m_ui->datasetsTitle, m_ui->keysTitle})
        Design::setTextRole(title, TextRole::Heading);
    Design::setPrimary(m_ui->buttonBox->button(QDialogButtonBox::Ok));
    setObjectName(u"launchDialog"_s);
    m_ui->noKeysLabel->hide();
    m_ui->noDatasetsLabel->hide();
    m_ui->keyNoteLabel->hide();
    m_ui->gpuList->setItemDelegate(m_cardDelegate);
    // The whole card or a MIG slice of it, under the cards (built here: the form stays as it is).
    m_slicePicker = new GpuSlicePicker(this);
    m_ui->layout->insertWidget(m_ui->layout->indexOf(m_ui->gpuList) + 1, m_slicePicker);
    // When the provider stops the host by itself, above what it costs.
    m_stopBox = new QGroupBox(this);
    m_stopBox->setObjectName(u"stopBox"_s);
    m_stopBox->setTitle(tr("Stop by itself"));
    auto *stopLayout = new QVBoxLayout(m_stopBox);
    m_stopPolicy = new StopPolicyEditor(m_stopBox);
    m_stopPolicy->setTimeZone(m_session->timeZone());
    stopLayout->addWidget(m_stopPolicy);
    m_ui->layout->insertWidget(m_ui->layout->indexOf(m_ui->costLabel), m_stopBox);
    connect(m_stopPolicy, &StopPolicyEditor::changed, this, &LaunchDialog::validate);
    // On demand or interruptible, with both of the type's prices; above the stop policy.
    m_priceClass = new PriceClassChooser(this);
    m_ui->layout->insertWidget(m_ui->layout->indexOf(m_stopBox), m_priceClass);
    connect(m_priceClass, &PriceClassChooser::changed, this, &LaunchDialog::updateCost);
    scrollChoices();
    // Models to mount, beside the datasets (built here: the form stays as it is).
    m_modelPicker = new ModelMountPicker(m_session, this);
    if (auto *choices = qobject_cast<QBoxLayout *>(m_ui->noDatasetsLabel->parentWidget()->layout()))
        choices->insertWidget(choices->indexOf(m_ui->noDatasetsLabel) + 1, m_modelPicker);
    // Tall enough for two rows of cards, but never taller than the screen: on a 768 or 800
    // pixel high laptop screen the buttons would be off it (the lists scroll instead).
    int height = 900;
    if (const QScreen *shown = screen())
        height = std::min(height, shown->availableGeometry().height() - 60);
    resize(cardsMinWidth + 80, height);
    updateGpuLayout();
    fillCounts();
    connect(m_ui->gpuList, &QListWidget::currentRowChanged, this, [this] {
        m_slicePicker->setCard(selectedCard(), m_gpus);
        fillCounts();
        updateCost();
    });
    connect(m_slicePicker, &GpuSlicePicker::changed, this, [this] {
        fillCounts();
        updateCost();
    });
    connect(m_ui->countCombo, &QComboBox::currentIndexChanged, this, &LaunchDialog::updateCost);
    // How long the balance lasts moves with the balance, also while the dialog is open.
    if (m_ticker)
        connect(m_ticker, &BillTicker::balanceChanged, this, &LaunchDialog::updateCost);
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
    m_pending = 4;
    m_loadError.clear();
    m_ui->errorLabel->setText(tr("Loading the catalog…"));
    auto done = [this](const ApiError &error) {
        if (error.isError())
            m_loadError = error.userMessage();
        if (--m_pending == 0)
            m_ui->errorLabel->setText(m_loadError);
        validate();
    };
    m_session->gpuTypes()->onFinished(this, [this, done](const Reply<QList<GpuType>> &r) {
        if (r.ok()) {
            m_gpus = r.value();
            fillGpus();
        }
        done(r.error());
    });
    m_session->images()->onFinished(this, [this, done](const Reply<QList<Image>> &r) {
        if (r.ok()) {
            m_images = r.value();
            fillImages();
        }
        done(r.error());
    });
    m_session->datasets()->onFinished(this, [this, done](const Reply<QList<Dataset>> &r) {
        if (r.ok()) {
            m_datasets = r.value();
            fillDatasets();
        }
        done(r.error());
    });
    m_modelPicker->load();
    m_session->sshKeys()->onFinished(this, [this, done](const Reply<QList<SshKey>> &r) {
        if (r.ok()) {
            m_keys = r.value();
            m_keysLoaded = true;
            fillKeys();
        }
        done(r.error());
    });
}

bool LaunchDialog::showsGpuCards() const
{
    return m_ui->gpuList->viewMode() == QListView::IconMode;
}

void LaunchDialog::updateGpuLayout()
{
    QListWidget *list = m_ui->gpuList;
    const bool cards = width() >= cardsMinWidth;
    if (cards == showsGpuCards())
        return;
    if (cards) {
        list->setViewMode(QListView::IconMode);
        list->setFlow(QListView::LeftToRight);
        list->setWrapping(true);
        list->setResizeMode(QListView::Adjust);
        list->setMovement(QListView::Static);
        list->setGridSize(GpuCardDelegate::cardSize);
        list->setSpacing(0);
        list->setWordWrap(true);
    } else {
        list->setViewMode(QListView::ListMode);
        list->setFlow(QListView::TopToBottom);
        list->setWrapping(false);
        list->setGridSize({});
        list->setWordWrap(false);
    }
    fitGpuList();
}

void LaunchDialog::fitGpuList()
{
    // As tall as its content, up to three rows of cards or six lines, so the other sections
    // keep their room; more scroll.
    QListWidget *list = m_ui->gpuList;
    const int frame = 2 * list->frameWidth() + 2;
    int height = 0;
    if (showsGpuCards()) {
        const int columns = qMax(1, (list->width() - frame) / GpuCardDelegate::cardSize.width());
        const int rows = qBound(1, int((list->count() + columns - 1) / columns), 3);
        height = rows * GpuCardDelegate::cardSize.height() + frame;
    } else {
        const int row = list->count() > 0 ? list->sizeHintForRow(0) : 2 * fontMetrics().height();
        height = qBound(2, int(list->count()), 6) * row + frame;
    }
    list->setFixedHeight(height);
}

// Everything above what it costs scrolls: two rows of GPU cards, the lists and the stop box
// are taller than a 768 or 800 pixel high laptop screen, and the cost, the error and the
// buttons must stay in view.
void LaunchDialog::scrollChoices()
{
    constexpr int kFixedAtBottom = 3; // costLabel, errorLabel, buttonBox
    auto *content = new QWidget;
    content->setObjectName(u"launchChoices"_s);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    while (m_ui->layout->count() > kFixedAtBottom) {
        QLayoutItem *item = m_ui->layout->takeAt(0);
        if (QWidget *widget = item->widget()) {
            // The old item goes first: a widget keeps the size cache of the first layout item
            // made for it, and a second one made while the first lives would never hear of a
            // new text (a wrapped label then keeps the height of its first text, cut).
            delete item;
            contentLayout->addWidget(widget);
        } else if (QLayout *sub = item->layout()) {
            sub->setParent(nullptr);
            contentLayout->addLayout(sub);
        } else {
            contentLayout->addItem(item);
        }
    }
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(u"launchScroll"_s);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    m_ui->layout->insertWidget(0, scroll, 1);
}

void LaunchDialog::resizeEvent(QResizeEvent *event)
{
    QDialog::resizeEvent(event);
    updateGpuLayout();
    fitGpuList();
}

void LaunchDialog::fillGpus()
{
    const int previous = qMax(0, m_ui->gpuList->currentRow());
    m_ui->gpuList->clear();
    int firstFree = -1;
    for (const GpuType &gpu : std::as_const(m_gpus)) {
        if (gpu.isSlice()) // offered under its card (GpuSlicePicker)
            continue;
        const QString vram = tr("%1 GiB VRAM").arg((gpu.vramMib + 512) / 1024);
        const QString price =
            tr("%1 per card-hour").arg(Format::exactMoney(gpu.pricePerHourMicros));
        //: free cards of this type out of all the provider lends
        const QString free = tr("%1 of %2 free").arg(gpu.available).arg(gpu.capacity);
        // Never leave it to the user to guess whether the card is real.
        const QString kind = gpu.simulated ? tr("simulated") : tr("real GPU");
        const QString sep = u"  ·  "_s;
        QStringList lines{vram, price, free};
        const QString slices = GpuSlicePicker::offerLine(gpu.id, m_gpus);
        if (!slices.isEmpty())
            lines.insert(2, slices);
        const bool takeable = gpu.available > 0 || GpuSlicePicker::anyFree(gpu.id, m_gpus);
        // Two lines in the narrow list, so that it needs no sideways scrolling (the slices'
        // line beside the name).
        auto *item = new QListWidgetItem(gpu.name + (slices.isEmpty() ? QString() : sep + slices)
                                             + u'\n' + vram + sep + price + sep + free + sep + kind,
                                         m_ui->gpuList);
        item->setData(IdRole, gpu.id);
        item->setData(GpuCardDelegate::TitleRole, gpu.name);
        item->setData(GpuCardDelegate::LinesRole, lines);
        item->setData(GpuCardDelegate::BadgeRole, kind);
        item->setData(GpuCardDelegate::ScarceRole, gpu.available <= 0);
        //: how a screen reader says one GPU card: name, memory, price, free cards, kind
        item->setData(Qt::AccessibleTextRole,
                      tr("%1, %2, %3, %4, %5").arg(gpu.name, vram, price, free, kind)
                          + (lines.size() > 3 ? u", "_s + lines.at(2) : QString()));
        item->setData(Qt::AccessibleDescriptionRole, gpu.description);
        item->setToolTip(gpu.description);
        if (!takeable)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        else if (firstFree < 0)
            firstFree = m_ui->gpuList->count() - 1;
    }
    const QListWidgetItem *keep = m_ui->gpuList->item(previous);
    m_ui->gpuList->setCurrentRow(keep && (keep->flags() & Qt::ItemIsEnabled) ? previous
                                                                             : qMax(0, firstFree));
    m_slicePicker->setCard(selectedCard(), m_gpus);
    fillCounts();
    updateCost();
    fitGpuList();
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

void LaunchDialog::fillDatasets()
{
    QStringList checked;
    for (int row = 0; row < m_ui->datasetList->count(); ++row) {
        if (m_ui->datasetList->item(row)->checkState() == Qt::Checked)
            checked << m_ui->datasetList->item(row)->data(IdRole).toString();
    }
    m_ui->datasetList->clear();
    for (const Dataset &dataset : std::as_const(m_datasets)) {
        const QString size = locale().formattedDataSize(dataset.sizeBytes);
        //: a dataset: name, where it is mounted, size, number of files
        QString text =
            tr("%1   ·   %2   ·   %3, files: %4")
                .arg(dataset.name, dataset.mountPath, size, QString::number(dataset.files));
        if (!dataset.available)
            text += u"   ·   "_s + tr("its folder is missing on the provider");
        auto *item = new QListWidgetItem(text, m_ui->datasetList);
        item->setData(IdRole, dataset.name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        // None by default: a dataset is mounted only when asked for.
        item->setCheckState(checked.contains(dataset.name) ? Qt::Checked : Qt::Unchecked);
        if (!dataset.available)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    }
    m_ui->datasetList->setVisible(!m_datasets.isEmpty());
    m_ui->noDatasetsLabel->setVisible(m_datasets.isEmpty());
}

void LaunchDialog::reloadKeys()
{
    m_session->sshKeys()->onFinished(this, [this](const Reply<QList<SshKey>> &r) {
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
    if (m_keyStore)
        m_ui->noKeysLabel->setText(
            tr("You have no SSH key yet: Launch creates one on this computer (ed25519, in %1), "
               "uploads it and installs it on this host. Or choose Manage SSH keys to import "
               "your own.")
                .arg(QDir::toNativeSeparators(m_keyStore->folder())));
}

void LaunchDialog::fillCounts()
{
    const int previous = m_ui->countCombo->currentData().toInt();
    const GpuType *gpu = selectedGpu();
    QSignalBlocker block(m_ui->countCombo);
    m_ui->countCombo->clear();
    // A MIG slice is one per instance.
    const bool slice = gpu && gpu->isSlice();
    for (int count : {1, 2, 4, 8}) {
        if (slice && count > 1)
            break;
        // Counts above what is free stay visible but say why they cannot be had.
        const bool possible = !gpu || count <= gpu->available;
        m_ui->countCombo->addItem(
            possible ? QString::number(count) : tr("%1 (not enough free)").arg(count), count);
    }
    m_ui->countCombo->setEnabled(!slice);
    const int index = m_ui->countCombo->findData(previous > 0 ? previous : 1);
    m_ui->countCombo->setCurrentIndex(qMax(0, index));
}

const GpuType *LaunchDialog::selectedCard() const
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

const GpuType *LaunchDialog::selectedGpu() const
{
    const GpuType *card = selectedCard();
    const QString slice = m_slicePicker ? m_slicePicker->chosenSliceId() : QString();
    if (!card || slice.isEmpty())
        return card;
    for (const GpuType &gpu : m_gpus) {
        if (gpu.id == slice)
            return &gpu;
    }
    return card;
}

qint64 LaunchDialog::pricePerHourMicros() const
{
    const GpuType *gpu = selectedGpu();
    if (!gpu)
        return 0;
    GpuType priced = *gpu;
    priced.pricePerHourMicros = PriceClassChooser::cardPrice(*gpu, m_priceClass->interruptible());
    return CostPreview::computePerHourMicros(priced, m_ui->countCombo->currentData().toInt());
}

NewInstance LaunchDialog::request() const
{
    NewInstance r;
    r.name = m_ui->nameEdit->text().trimmed();
    r.stopPolicy = m_stopPolicy->policy(QDateTime::currentDateTimeUtc());
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
    for (int i = 0; i < m_ui->datasetList->count(); ++i) {
        const QListWidgetItem *item = m_ui->datasetList->item(i);
        if (item->checkState() == Qt::Checked && (item->flags() & Qt::ItemIsEnabled))
            r.datasets << item->data(IdRole).toString();
    }
    r.models = m_modelPicker->chosen();
    r.interruptible = m_priceClass->interruptible();
    r.restartWhenAvailable = m_priceClass->restartWhenAvailable();
    return r;
}

void LaunchDialog::updateCost()
{
    const GpuType *gpu = selectedGpu();
    m_priceClass->setGpu(gpu);
    if (!gpu) {
        m_ui->costLabel->clear();
        validate();
        return;
    }
    // The preview at the chosen class's price.
    GpuType priced = *gpu;
    priced.pricePerHourMicros = PriceClassChooser::cardPrice(*gpu, m_priceClass->interruptible());
    m_ui->costLabel->setText(
        CostPreview::text(priced, qMax(1, m_ui->countCombo->currentData().toInt()), m_ticker));
    validate();
}

void LaunchDialog::validate()
{
    const GpuType *gpu = selectedGpu();
    const int count = m_ui->countCombo->currentData().toInt();
    const QString stopProblem =
        m_stopPolicy ? m_stopPolicy->problem(QDateTime::currentDateTimeUtc()) : QString();
    // Not before everything asked for in load() has answered: until the account's keys are
    // known, Launch would start a host with no key (or make none for a user who has none).
    const bool ok = !m_busy && m_pending == 0 && gpu && count <= gpu->available
        && m_ui->imageList->currentItem() && stopProblem.isEmpty();
    if (m_stopBox)
        m_stopBox->setToolTip(stopProblem);
    // Said under the form, not only in a tooltip: why Launch cannot be pressed.
    if (!stopProblem.isEmpty())
        m_ui->errorLabel->setText(stopProblem);
    else if (!m_shownStopProblem.isEmpty() && m_ui->errorLabel->text() == m_shownStopProblem)
        m_ui->errorLabel->clear();
    m_shownStopProblem = stopProblem;
    QPushButton *launch = m_ui->buttonBox->button(QDialogButtonBox::Ok);
    launch->setText(tr("Launch"));
    launch->setEnabled(ok);
}

bool LaunchDialog::needsKey() const
{
    return m_keyStore && m_keysLoaded && m_keys.isEmpty();
}

void LaunchDialog::fail(const QString &message)
{
    m_busy = false;
    m_ui->errorLabel->setText(message);
    validate();
}

void LaunchDialog::onAccept()
{
    if (!m_ui->buttonBox->button(QDialogButtonBox::Ok)->isEnabled())
        return;
    m_busy = true;
    validate();
    if (needsKey())
        createKeyThenLaunch();
    else
        launch();
}

void LaunchDialog::createKeyThenLaunch()
{
    if (m_createdKey.isValid())
        return uploadCreatedKey();
    m_ui->errorLabel->setText(tr("Creating an SSH key for you…"));
    SshKeyReply *made = m_keyStore->generateManaged(SshKeyStore::managedKeyName());
    connect(made, &SshKeyReply::finished, this, [this, made] {
        if (!made->ok())
            return fail(tr("Not launched: no SSH key could be created. %1").arg(made->error()));
        m_createdKey = made->key();
        m_createdKeyHasPassphrase = made->hasPassphrase();
        uploadCreatedKey();
    });
}

void LaunchDialog::uploadCreatedKey()
{
    m_ui->errorLabel->setText(tr("Uploading your new SSH key…"));
    m_session->uploadSshKey(m_createdKey, SshKeyStore::managedKeyName())
        ->onFinished(this, [this](const Reply<SshKey> &reply) {
            if (!reply.ok())
                return fail(tr("Not launched: your new SSH key could not be uploaded. %1")
                                .arg(reply.error().userMessage()));
            m_keys.append(reply.value());
            fillKeys(); // ticked, as every key is by default
            const QString protection = m_createdKeyHasPassphrase
                ? tr("its passphrase is in your keychain")
                : tr("without a passphrase, as there is no keychain");
            const QString note =
                tr("Created the SSH key “%1” in %2 (%3), uploaded it and ticked it.")
                    .arg(reply.value().name, QDir::toNativeSeparators(m_keyStore->folder()),
                         protection);
            m_createdKey = {};
            m_ui->keyNoteLabel->setText(note);
            m_ui->keyNoteLabel->show();
            m_keyNote = note; // said after launched(), so the window shows it last
            launch();
        });
}

void LaunchDialog::launch()
{
    const NewInstance r = request();
    // A retry of the very same request reuses the key: if the first one did reach the
    // provider, it answers with that instance instead of launching a second.
    if (r.toJson() != m_lastRequest || m_idempotencyKey.isEmpty())
        m_idempotencyKey = ClientSession::newIdempotencyKey();
    m_lastRequest = r.toJson();
    m_busy = true;
    validate();
    m_ui->errorLabel->setText(tr("Asking the provider…"));
    m_session->createInstance(r, m_idempotencyKey)
        ->onFinished(this, [this](const Reply<Instance> &reply) {
            m_busy = false;
            if (reply.ok()) {
                m_idempotencyKey.clear();
                // The key its terminal will use is opened while the host starts, not after.
                if (m_keyStore) {
                    const SshKeyChoice choice =
                        SshKeyChoice::choose(reply.value(), m_keys, m_keyStore->keys());
                    if (choice.key.isValid())
                        m_keyStore->unlockAhead(choice.key);
                }
                Q_EMIT launched(reply.value());
                if (!m_keyNote.isEmpty())
                    Q_EMIT keyCreated(std::exchange(m_keyNote, QString()));
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
                m_session->gpuTypes()->onFinished(this, [this](const Reply<QList<GpuType>> &gpus) {
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
        m_stopBox->setTitle(tr("Stop by itself"));
        fillGpus();
        fillDatasets();
        fillKeys();
        fillCounts();
        updateCost();
    }
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
