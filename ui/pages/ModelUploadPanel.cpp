#include "pages/ModelUploadPanel.h"

#include "Format.h"
#include "api/ModelUploader.h"
#include "api/ProviderCodes.h"
#include "session/ClientSession.h"

#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::LibraryModel;
using core::ModelUpload;
using core::ModelUploader;
using core::Reply;

namespace {

// Where an open upload's local file is remembered: modelUploads/<upload id>.
const QString kUploadsGroup = u"modelUploads"_s;
constexpr int kProgressSteps = 1000; // the bar counts thousandths: files pass 2 GiB

int progressValue(qint64 done, qint64 total)
{
    return total > 0 ? int(done * kProgressSteps / total) : 0;
}

} // namespace

ModelUploadPanel::ModelUploadPanel(core::ClientSession *session, QSettings *settings,
                                   QWidget *parent)
    : QWidget(parent), m_session(session), m_settings(settings),
      m_uploader(session->newModelUploader(this))
{
    setObjectName(u"modelUploadPanel"_s);
    build();
    connectUploader();
    connect(m_browseButton, &QPushButton::clicked, this, &ModelUploadPanel::browse);
    connect(m_uploadButton, &QPushButton::clicked, this, &ModelUploadPanel::startUpload);
    connect(m_cancelButton, &QPushButton::clicked, m_uploader, &ModelUploader::stop);
    connect(m_resumeButton, &QPushButton::clicked, this, &ModelUploadPanel::resumeSelected);
    connect(m_discardButton, &QPushButton::clicked, this, &ModelUploadPanel::discardSelected);
    connect(m_nameEdit, &QLineEdit::textEdited, this,
            [this](const QString &text) { m_nameEdited = !text.isEmpty(); });
    connect(m_fileEdit, &QLineEdit::textChanged, this, [this](const QString &path) {
        if (!m_nameEdited)
            m_nameEdit->setText(ModelUploader::suggestedName(path));
        updateView();
    });
    connect(m_nameEdit, &QLineEdit::textChanged, this, &ModelUploadPanel::updateView);
    connect(m_uploadsTable, &QTableWidget::itemSelectionChanged, this,
            &ModelUploadPanel::updateView);
    retranslate();
}

ModelUploadPanel::~ModelUploadPanel() = default;

void ModelUploadPanel::build()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);

    auto *form = new QFormLayout;
    m_fileEdit = new QLineEdit(this);
    m_fileEdit->setObjectName(u"modelFileEdit"_s);
    m_browseButton = new QPushButton(this);
    m_browseButton->setObjectName(u"modelBrowseButton"_s);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_fileEdit, 1);
    fileRow->addWidget(m_browseButton);
    m_fileLabel = new QLabel(this);
    m_fileLabel->setBuddy(m_fileEdit);
    form->addRow(m_fileLabel, fileRow);
    m_nameEdit = new QLineEdit(this);
    m_nameEdit->setObjectName(u"modelNameEdit"_s);
    m_uploadButton = new QPushButton(this);
    m_uploadButton->setObjectName(u"modelUploadButton"_s);
    auto *nameRow = new QHBoxLayout;
    nameRow->addWidget(m_nameEdit, 1);
    nameRow->addWidget(m_uploadButton);
    m_nameLabel = new QLabel(this);
    m_nameLabel->setBuddy(m_nameEdit);
    form->addRow(m_nameLabel, nameRow);
    layout->addLayout(form);

    auto *progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"modelUploadProgress"_s);
    m_progress->setRange(0, kProgressSteps);
    m_progress->hide();
    m_cancelButton = new QPushButton(this);
    m_cancelButton->setObjectName(u"modelUploadCancelButton"_s);
    m_cancelButton->hide();
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancelButton);
    layout->addLayout(progressRow);
    m_status = new QLabel(this);
    m_status->setObjectName(u"modelUploadStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    m_uploadsTitle = new QLabel(this);
    m_uploadsTable = new QTableWidget(0, UploadColumnCount, this);
    m_uploadsTable->setObjectName(u"modelUploadsTable"_s);
    m_uploadsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_uploadsTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_uploadsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_uploadsTable->verticalHeader()->hide();
    m_uploadsTable->horizontalHeader()->setStretchLastSection(true);
    m_uploadsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_uploadsTable->setMaximumHeight(120);
    m_resumeButton = new QPushButton(this);
    m_resumeButton->setObjectName(u"resumeUploadButton"_s);
    m_discardButton = new QPushButton(this);
    m_discardButton->setObjectName(u"discardUploadButton"_s);
    auto *uploadsRow = new QHBoxLayout;
    uploadsRow->addWidget(m_uploadsTable, 1);
    auto *uploadButtons = new QVBoxLayout;
    uploadButtons->addWidget(m_resumeButton);
    uploadButtons->addWidget(m_discardButton);
    uploadButtons->addStretch(1);
    uploadsRow->addLayout(uploadButtons);
    layout->addWidget(m_uploadsTitle);
    layout->addLayout(uploadsRow);
}

void ModelUploadPanel::connectUploader()
{
    connect(m_uploader, &ModelUploader::hashProgress, this, [this](qint64 done, qint64 total) {
        m_progress->setValue(progressValue(done, total));
    });
    connect(m_uploader, &ModelUploader::declared, this,
            [this](const ModelUpload &upload, qint64 resumedFrom) {
                remember(upload.id, m_uploader->path());
                //: the progress bar while a model file is sent; %p is the percentage
                m_progress->setFormat(tr("Sending… %p%"));
                m_progress->setValue(progressValue(resumedFrom, upload.sizeBytes));
                m_status->setText(
                    resumedFrom > 0
                        ? tr("Carrying on the upload of “%1” from %2: the provider kept what it "
                             "received before.")
                              .arg(upload.name, sentText(resumedFrom, upload.sizeBytes))
                        : tr("Sending “%1” to the provider…").arg(upload.name));
            });
    connect(m_uploader, &ModelUploader::progress, this, [this](qint64 sent, qint64 total) {
        m_progress->setValue(progressValue(sent, total));
    });
    connect(m_uploader, &ModelUploader::finished, this, [this](const LibraryModel &model) {
        forget(m_uploader->uploadId());
        m_fileEdit->clear();
        m_nameEdit->clear();
        m_nameEdited = false;
        const qint64 monthly = model.storageRatePerHourMicros.value_or(0) * 24 * 30;
        m_status->setText(
            tr("“%1” is in your library: the provider checked its SHA-256 (%2…). "
               "Hosts see it at %3; keeping it costs %4 per 30-day month.")
                .arg(model.name, model.sha256.left(12), model.mountPath, Format::money(monthly)));
        updateView();
        reload();
        Q_EMIT modelAdded(model);
    });
    connect(m_uploader, &ModelUploader::failed, this,
            [this](const QString &message, const core::ApiError &error) {
                // The provider discarded it (or never had it): nothing is left to resume.
                if (error.code == core::ErrorCode::UploadChecksumMismatch
                    || error.code == core::ErrorCode::UnknownUpload)
                    forget(m_uploader->uploadId());
                showError(message);
                updateView();
                reload();
            });
    connect(m_uploader, &ModelUploader::stopped, this, [this] {
        m_status->setText(m_uploader->uploadId().isEmpty()
                              ? tr("Cancelled before anything was sent.")
                              : tr("Cancelled. The provider keeps what it received: Resume "
                                   "carries on from there, Discard deletes it."));
        updateView();
        reload();
    });
    connect(m_uploader, &ModelUploader::discarded, this,
            [this](const QString &uploadId, bool ok, const QString &message) {
                if (ok)
                    forget(uploadId);
                m_status->setText(ok ? tr("The unfinished upload was discarded.") : message);
                reload();
            });
}

void ModelUploadPanel::reload()
{
    if (!m_session->isLoggedIn())
        return;
    const quint64 generation = m_generation;
    m_session->modelUploads()->onFinished(
        this, [this, generation](const Reply<QList<ModelUpload>> &reply) {
            if (generation != m_generation || !reply.ok())
                return;
            m_open = reply.value();
            fillUploads();
        });
}

void ModelUploadPanel::clear()
{
    ++m_generation;
    m_uploader->stop();
    m_open.clear();
    m_status->clear();
    fillUploads();
}

QString ModelUploadPanel::rememberedPath(const QString &uploadId) const
{
    if (!m_settings || uploadId.isEmpty())
        return {};
    return m_settings->value(kUploadsGroup + u'/' + uploadId).toString();
}

void ModelUploadPanel::remember(const QString &uploadId, const QString &path)
{
    if (m_settings && !uploadId.isEmpty()) {
        m_settings->setValue(kUploadsGroup + u'/' + uploadId, path);
        m_settings->sync();
    }
}

void ModelUploadPanel::forget(const QString &uploadId)
{
    if (m_settings && !uploadId.isEmpty()) {
        m_settings->remove(kUploadsGroup + u'/' + uploadId);
        m_settings->sync();
    }
}

QString ModelUploadPanel::sentText(qint64 sent, qint64 total) const
{
    const QLocale locale;
    //: bytes of a model file the provider holds: "1.0 MiB of 3.0 MiB"
    return tr("%1 of %2")
        .arg(locale.formattedDataSize(sent, 1, QLocale::DataSizeIecFormat),
             locale.formattedDataSize(total, 1, QLocale::DataSizeIecFormat));
}

void ModelUploadPanel::fillUploads()
{
    const QString selected =
        m_uploadsTable->currentRow() >= 0 && m_uploadsTable->currentRow() < m_open.size()
        ? m_open.at(m_uploadsTable->currentRow()).id
        : QString();
    m_uploadsTable->setRowCount(int(m_open.size()));
    for (int row = 0; row < m_open.size(); ++row) {
        const ModelUpload &u = m_open.at(row);
        const QString path = rememberedPath(u.id);
        const QStringList cells{
            u.name,
            path.isEmpty() ? tr("not known here: Resume asks for it")
                           : QDir::toNativeSeparators(path),
            sentText(u.offset, u.sizeBytes),
        };
        for (int column = 0; column < UploadColumnCount; ++column)
            m_uploadsTable->setItem(row, column, new QTableWidgetItem(cells.at(column)));
        if (u.id == selected || (selected.isEmpty() && row == 0))
            m_uploadsTable->selectRow(row);
    }
    updateView();
}

void ModelUploadPanel::updateView()
{
    const bool busy = m_uploader->isBusy();
    m_uploadButton->setEnabled(!busy && !m_fileEdit->text().trimmed().isEmpty()
                               && !m_nameEdit->text().trimmed().isEmpty());
    m_browseButton->setEnabled(!busy);
    m_progress->setVisible(busy);
    m_cancelButton->setVisible(busy);
    const bool anyOpen = !m_open.isEmpty();
    m_uploadsTitle->setVisible(anyOpen);
    m_uploadsTable->setVisible(anyOpen);
    m_resumeButton->setVisible(anyOpen);
    m_discardButton->setVisible(anyOpen);
    const bool chosen = m_uploadsTable->currentRow() >= 0;
    m_resumeButton->setEnabled(!busy && chosen);
    m_discardButton->setEnabled(!busy && chosen);
}

void ModelUploadPanel::showError(const QString &message)
{
    m_status->setText(message);
    Q_EMIT errorOccurred(tr("Model not uploaded"), message);
}

void ModelUploadPanel::browse()
{
    auto *dialog = new QFileDialog(this, tr("Model file to upload"));
    dialog->setObjectName(u"modelFileDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    if (!m_fileEdit->text().isEmpty())
        dialog->setDirectory(QFileInfo(m_fileEdit->text()).absolutePath());
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { m_fileEdit->setText(QDir::toNativeSeparators(path)); });
    dialog->open();
}

void ModelUploadPanel::startUpload()
{
    const QString path = QDir::fromNativeSeparators(m_fileEdit->text().trimmed());
    const QString name = m_nameEdit->text().trimmed();
    // The uploader says what is wrong with the file or the name (before anything is read).
    begin(QFileInfo(path).absoluteFilePath(), name);
}

void ModelUploadPanel::resumeSelected()
{
    const int row = m_uploadsTable->currentRow();
    if (row < 0 || row >= m_open.size())
        return;
    const ModelUpload upload = m_open.at(row);
    const QString path = rememberedPath(upload.id);
    if (!path.isEmpty() && QFileInfo(path).isFile())
        return begin(path, upload.name);
    // The file is not known (or moved): the user points at it; its SHA-256 must match.
    auto *dialog = new QFileDialog(this, tr("The file of the upload “%1”").arg(upload.name));
    dialog->setObjectName(u"resumeFileDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, name = upload.name](const QString &chosen) { begin(chosen, name); });
    dialog->open();
}

void ModelUploadPanel::discardSelected()
{
    const int row = m_uploadsTable->currentRow();
    if (row < 0 || row >= m_open.size())
        return;
    m_uploader->discard(m_open.at(row).id);
}

void ModelUploadPanel::begin(const QString &path, const QString &name)
{
    //: the progress bar while a model file's SHA-256 is computed; %p is the percentage
    m_progress->setFormat(tr("Measuring the file… %p%"));
    m_progress->setValue(0);
    m_status->setText(
        tr("Measuring “%1” (size and SHA-256) before it is sent…").arg(QFileInfo(path).fileName()));
    m_uploader->start(path, name);
    updateView();
}

void ModelUploadPanel::retranslate()
{
    m_intro->setText(tr("Upload a model file of your own: the provider checks its SHA-256, "
                        "keeps it for your hosts only and bills its storage while it is kept."));
    m_fileLabel->setText(tr("Model &file:"));
    m_fileEdit->setAccessibleName(tr("Model file to upload"));
    m_browseButton->setText(tr("B&rowse…"));
    m_nameLabel->setText(tr("Model na&me:"));
    m_nameEdit->setPlaceholderText(tr("a-z, 0-9, '.', '_' and '-'"));
    m_nameEdit->setAccessibleName(tr("Model name"));
    m_uploadButton->setText(tr("&Upload model"));
    m_cancelButton->setText(tr("Cancel"));
    m_uploadsTitle->setText(tr("Unfinished uploads"));
    m_uploadsTable->setHorizontalHeaderLabels(
        {tr("Name"), tr("File on this computer"), tr("Received by the provider")});
    m_resumeButton->setText(tr("Resume"));
    m_discardButton->setText(tr("Discard"));
    fillUploads();
}

void ModelUploadPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
