#include "pages/StoragePage.h"

#include "EmptyState.h"
#include "pages/ModelLibrarySection.h"
#include "sandbox/SandboxDatasets.h"
#include "session/ClientSession.h"
#include "theme/Design.h"
#include "ui_StoragePage.h"

#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStackedWidget>
#include <QTableWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Dataset;
using core::Instance;
using core::Reply;

StoragePage::StoragePage(core::ClientSession *session, QWidget *parent, QSettings *settings)
    : QWidget(parent), m_ui(std::make_unique<Ui::StoragePage>()), m_session(session),
      m_sandboxDatasets(new core::SandboxDatasets(session->launcher(), this))
{
    m_ui->setupUi(this);
    setObjectName(u"storagePage"_s);
    m_title = m_ui->titleLabel;
    m_intro = m_ui->introLabel;
    m_stack = m_ui->storageStack;
    m_empty = m_ui->emptyPage;
    m_empty->setIcon(Icon::Storage);
    m_table = m_ui->datasetsTable;
    m_addBox = m_ui->addDatasetBox;
    m_folderEdit = m_ui->datasetFolderEdit;
    m_browseButton = m_ui->datasetBrowseButton;
    m_nameEdit = m_ui->datasetNameEdit;
    m_addButton = m_ui->addDatasetButton;
    m_refreshButton = m_ui->refreshStorageButton;
    m_status = m_ui->storageStatus;
    m_models = new ModelLibrarySection(session, settings ? settings : new QSettings(this),
                                       m_ui->modelsBox);
    m_ui->modelsLayout->addWidget(m_models);
    connect(m_models, &ModelLibrarySection::errorOccurred, this, &StoragePage::errorOccurred);

    // The window's page title names the page (MainWindow::updatePageTitle).
    m_title->hide();
    Design::setPrimary(m_addButton);
    m_table->setColumnCount(ColumnCount);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_stack->setCurrentIndex(emptyorlist::kEmptyPage);

    connect(m_browseButton, &QPushButton::clicked, this, &StoragePage::browse);
    connect(m_addButton, &QPushButton::clicked, this, &StoragePage::addFolder);
    connect(m_refreshButton, &QPushButton::clicked, this, &StoragePage::reload);
    connect(m_nameEdit, &QLineEdit::textEdited, this,
            [this](const QString &text) { m_nameEdited = !text.isEmpty(); });
    connect(m_folderEdit, &QLineEdit::textChanged, this, [this](const QString &folder) {
        if (!m_nameEdited)
            m_nameEdit->setText(suggestedName(folder));
        updateView();
    });
    connect(m_nameEdit, &QLineEdit::textChanged, this, &StoragePage::updateView);
    connect(m_sandboxDatasets, &core::SandboxDatasets::finished, this,
            [this](const QString &name, bool ok, const QString &message) {
                updateView();
                if (!ok) {
                    setStatus(message);
                    Q_EMIT errorOccurred(tr("Dataset not added"), message);
                    return;
                }
                // The sandbox's own report (English) stays in the tooltip; the list shows the rest.
                setStatus(tr("Added the dataset “%1”.").arg(name));
                m_status->setToolTip(message);
                m_folderEdit->clear();
                m_nameEdit->clear();
                m_nameEdited = false;
                reload();
            });

    // The session reloads its lists after a log-in, after every gap in the event stream and when
    // asked to: the datasets are asked for again then.
    connect(m_session, &core::ClientSession::instancesLoaded, this, &StoragePage::reload);
    connect(m_session, &core::ClientSession::providerReady, this, &StoragePage::updateView);
    connect(m_session, &core::ClientSession::resetForUser, this, &StoragePage::clear);
    connect(m_session, &core::ClientSession::instanceChanged, this, &StoragePage::fillTable);

    retranslate();
    if (m_session->isLoggedIn())
        reload();
}

StoragePage::~StoragePage() = default;

QString StoragePage::suggestedName(const QString &folder)
{
    QString name = QFileInfo(QDir::cleanPath(folder)).fileName().toLower();
    name.replace(QRegularExpression(u"[^a-z0-9._-]+"_s), u"-"_s);
    name.replace(QRegularExpression(u"\\.{2,}"_s), u"."_s);
    name.remove(QRegularExpression(u"^[^a-z0-9]+"_s));
    return name.left(64);
}

void StoragePage::reload()
{
    if (!m_session->isLoggedIn())
        return;
    m_models->reload();
    const quint64 generation = m_generation;
    m_session->datasets()->onFinished(this, [this, generation](const Reply<QList<Dataset>> &reply) {
        if (generation != m_generation)
            return;
        if (!reply.ok())
            return setStatus(
                tr("The datasets could not be loaded: %1").arg(reply.error().userMessage()));
        m_datasets = reply.value();
        m_loaded = true;
        fillTable();
    });
}

void StoragePage::clear()
{
    ++m_generation;
    m_loaded = false;
    m_datasets.clear();
    m_status->clear();
    m_models->clear();
    fillTable();
}

QStringList StoragePage::mountedBy(const QString &dataset) const
{
    QStringList names;
    for (const Instance &instance : m_session->instances()) {
        if (instance.datasets.contains(dataset))
            names << instance.name;
    }
    return names;
}

void StoragePage::fillTable()
{
    m_table->setRowCount(int(m_datasets.size()));
    const QLocale locale;
    for (int row = 0; row < m_datasets.size(); ++row) {
        const Dataset &d = m_datasets.at(row);
        const QStringList hosts = mountedBy(d.name);
        const QStringList cells{
            d.name,
            d.mountPath,
            locale.formattedDataSize(d.sizeBytes, 1, QLocale::DataSizeIecFormat),
            locale.toString(d.files),
            d.available ? tr("yes") : tr("no: its folder is missing"),
            hosts.isEmpty() ? tr("none of your hosts") : locale.createSeparatedList(hosts),
        };
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            if (column == SizeColumn || column == FilesColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
    }
    updateView();
}

void StoragePage::updateView()
{
    m_stack->setCurrentIndex(m_datasets.isEmpty() ? emptyorlist::kEmptyPage
                                                  : emptyorlist::kListPage);
    const bool sandbox = m_session->usingSandbox();
    m_empty->setTitle(m_loaded || !m_session->isLoggedIn() ? tr("No datasets yet")
                                                           : tr("Loading datasets…"));
    m_empty->setText(
        sandbox ? tr("A dataset is a folder the provider shares read-only with the instances "
                     "launched with it. Add a folder of this computer below.")
                : tr("A dataset is a folder the provider shares read-only with the instances "
                     "launched with it. This provider offers none yet."));
    m_addBox->setVisible(sandbox);
    const bool busy = m_sandboxDatasets->isBusy();
    m_addButton->setEnabled(sandbox && !busy && !m_folderEdit->text().trimmed().isEmpty()
                            && !m_nameEdit->text().trimmed().isEmpty());
    m_browseButton->setEnabled(!busy);
}

void StoragePage::browse()
{
    auto *dialog = new QFileDialog(this, tr("Folder to share as a dataset"));
    dialog->setObjectName(u"datasetFolderDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    if (!m_folderEdit->text().isEmpty())
        dialog->setDirectory(m_folderEdit->text());
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &folder) {
        m_folderEdit->setText(QDir::toNativeSeparators(folder));
    });
    dialog->open();
}

void StoragePage::addFolder()
{
    const QString folder = QDir::fromNativeSeparators(m_folderEdit->text().trimmed());
    const QString name = m_nameEdit->text().trimmed();
    if (!QFileInfo(folder).isDir()) {
        setStatus(tr("“%1” is not a folder.").arg(m_folderEdit->text().trimmed()));
        return;
    }
    QString error;
    if (!m_sandboxDatasets->add(name, QFileInfo(folder).absoluteFilePath(), &error)) {
        setStatus(error);
        return;
    }
    setStatus(tr("Adding “%1” (the sandbox measures the folder first)…").arg(name));
    updateView();
}

void StoragePage::setStatus(const QString &text)
{
    m_status->setToolTip({});
    m_status->setText(text);
}

void StoragePage::retranslate()
{
    m_table->setHorizontalHeaderLabels(
        {tr("Name"), tr("Mounted at"), tr("Size"), tr("Files"), tr("Available"), tr("Mounted by")});
    m_table->setAccessibleName(tr("Datasets"));
    fillTable();
}

void StoragePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
    }
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
