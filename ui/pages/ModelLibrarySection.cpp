#include "pages/ModelLibrarySection.h"

#include "Format.h"
#include "Notice.h"
#include "api/ProviderCodes.h"
#include "pages/ModelUploadPanel.h"
#include "session/ClientSession.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::ApiError;
using core::Instance;
using core::LibraryModel;
using core::Reply;

namespace {

// A 30-day month: what "per month" means on this page (the provider bills by the hour).
constexpr qint64 kHoursPerMonth = 24 * 30;

} // namespace

ModelLibrarySection::ModelLibrarySection(core::ClientSession *session, QSettings *settings,
                                         QWidget *parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(u"modelLibrarySection"_s);
    build();
    m_upload = new ModelUploadPanel(session, settings, this);
    layout()->addWidget(m_upload);
    connect(m_upload, &ModelUploadPanel::modelAdded, this, &ModelLibrarySection::reload);
    connect(m_upload, &ModelUploadPanel::errorOccurred, this, &ModelLibrarySection::errorOccurred);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ModelLibrarySection::updateView);
    connect(m_deleteButton, &QPushButton::clicked, this, &ModelLibrarySection::confirmDelete);
    retranslate();
}

ModelLibrarySection::~ModelLibrarySection() = default;

void ModelLibrarySection::build()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(u"modelsTable"_s);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(140);
    layout->addWidget(m_table, 1);
    auto *row = new QHBoxLayout;
    m_privateEmpty = new QLabel(this);
    m_privateEmpty->setObjectName(u"noPrivateModelsLabel"_s);
    m_privateEmpty->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName(u"modelsStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *texts = new QVBoxLayout;
    texts->addWidget(m_privateEmpty);
    texts->addWidget(m_status);
    row->addLayout(texts, 1);
    m_deleteButton = new QPushButton(this);
    m_deleteButton->setObjectName(u"deleteModelButton"_s);
    row->addWidget(m_deleteButton, 0, Qt::AlignTop);
    layout->addLayout(row);
}

qint64 ModelLibrarySection::monthlyFeeMicros(const LibraryModel &model)
{
    return model.storageRatePerHourMicros.value_or(0) * kHoursPerMonth;
}

void ModelLibrarySection::reload()
{
    if (!m_session->isLoggedIn())
        return;
    const quint64 generation = m_generation;
    m_session->models()->onFinished(
        this, [this, generation](const Reply<QList<LibraryModel>> &reply) {
            if (generation != m_generation)
                return;
            if (!reply.ok())
                return setStatus(tr("The model library could not be loaded: %1")
                                     .arg(reply.error().userMessage()));
            m_models = reply.value();
            m_loaded = true;
            fillTable();
        });
    m_upload->reload();
}

void ModelLibrarySection::clear()
{
    ++m_generation;
    m_loaded = false;
    m_models.clear();
    m_status->clear();
    m_upload->clear();
    fillTable();
}

void ModelLibrarySection::fillTable()
{
    const QString selected = selectedModel() ? selectedModel()->id : QString();
    const QLocale locale;
    m_table->setRowCount(int(m_models.size()));
    for (int row = 0; row < m_models.size(); ++row) {
        const LibraryModel &m = m_models.at(row);
        const QStringList cells{
            m.name,
            m.isPrivate ? tr("yours (private)") : tr("public"),
            m.task,
            m.languages.isEmpty() ? tr("—") : locale.createSeparatedList(m.languages),
            locale.formattedDataSize(m.sizeBytes, 1, QLocale::DataSizeIecFormat),
            m.isPrivate ? tr("%1 per 30-day month").arg(Format::money(monthlyFeeMicros(m)))
                        : tr("free"),
            m.mountPath,
        };
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            if (column == SizeColumn || column == FeeColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
        QString tip = m.description;
        if (m.isPrivate)
            tip = tr("Billed %1 per hour while kept (%2 so far).")
                      .arg(Format::exactMoney(m.storageRatePerHourMicros.value_or(0)),
                           Format::money(m.storageCostMicros.value_or(0)));
        else if (!m.licence.isEmpty())
            tip = tr("%1 Licence: %2.").arg(m.description, m.licence);
        m_table->item(row, FeeColumn)->setToolTip(tip);
        m_table->item(row, NameColumn)->setToolTip(tip);
        if (m.id == selected)
            m_table->selectRow(row);
    }
    updateView();
}

void ModelLibrarySection::updateView()
{
    const bool anyPrivate =
        std::any_of(m_models.cbegin(), m_models.cend(), [](const auto &m) { return m.isPrivate; });
    m_privateEmpty->setVisible(m_loaded && !anyPrivate);
    const LibraryModel *model = selectedModel();
    m_deleteButton->setEnabled(model && model->isPrivate);
    m_deleteButton->setToolTip(
        model && !model->isPrivate ? tr("Public models belong to the provider.") : QString());
}

const LibraryModel *ModelLibrarySection::selectedModel() const
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_models.size() || m_table->selectedItems().isEmpty())
        return nullptr;
    return &m_models.at(row);
}

void ModelLibrarySection::confirmDelete()
{
    const LibraryModel *model = selectedModel();
    if (!model || !model->isPrivate)
        return;
    const LibraryModel chosen = *model;
    QMessageBox *box = Notice::create(
        this, Notice::Kind::Warning, tr("Delete the model “%1” for good?").arg(chosen.name),
        tr("Its file (%1) is deleted from the provider and its storage fee of %2 per 30-day "
           "month stops.")
            .arg(QLocale().formattedDataSize(chosen.sizeBytes, 1, QLocale::DataSizeIecFormat),
                 Format::money(monthlyFeeMicros(chosen))));
    box->setObjectName(u"deleteModelConfirm"_s);
    QPushButton *yes = Notice::addAction(box, tr("Delete model"), ButtonRole::Destructive);
    yes->setObjectName(u"confirmDeleteModelButton"_s);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, box, yes, chosen](QAbstractButton *button) {
                box->close();
                if (button == yes)
                    deleteModel(chosen);
            });
    box->open();
}

QString ModelLibrarySection::inUseMessage(const LibraryModel &model, const ApiError &error) const
{
    // The provider names the instances by id; the user knows them by name and state.
    QStringList ids;
    for (const QJsonValue &id : error.details.value("instances"_L1).toArray())
        ids << id.toString();
    QStringList hosts;
    for (const Instance &instance : m_session->instances()) {
        if (ids.contains(instance.id) || (ids.isEmpty() && instance.models.contains(model.name)))
            hosts << tr("“%1” (%2)")
                         .arg(instance.name, Format::state(instance.state, instance.stateText));
    }
    const QString names =
        hosts.isEmpty() ? QLocale().createSeparatedList(ids) : QLocale().createSeparatedList(hosts);
    return tr("“%1” is kept because it is mounted by %2. A stopped host mounts its models again "
              "when it starts, so terminate the hosts that use it first (Instances page), then "
              "delete the model.")
        .arg(model.name, names);
}

void ModelLibrarySection::deleteModel(const LibraryModel &model)
{
    m_deleteButton->setEnabled(false);
    setStatus(tr("Deleting “%1”…").arg(model.name));
    const quint64 generation = m_generation;
    m_session->deleteModel(model.id)->onFinished(
        this, [this, generation, model](const Reply<LibraryModel> &reply) {
            if (generation != m_generation)
                return;
            updateView();
            if (reply.ok()) {
                setStatus(tr("“%1” was deleted; its storage fee has stopped.").arg(model.name));
                reload();
                return;
            }
            const ApiError &error = reply.error();
            const QString text = error.code == core::ErrorCode::ModelInUse
                ? inUseMessage(model, error)
                : tr("“%1” was not deleted: %2").arg(model.name, error.userMessage());
            setStatus(text);
            Q_EMIT errorOccurred(tr("Model not deleted"), text);
        });
}

void ModelLibrarySection::setStatus(const QString &text)
{
    m_status->setText(text);
}

void ModelLibrarySection::retranslate()
{
    m_intro->setText(tr("Models a host can read at its mount path when it is launched with "
                        "them: the provider's public models, free, and your own private ones."));
    m_privateEmpty->setText(tr("You have no private models yet. Choose a model file below and "
                               "upload it: only your hosts can mount it."));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Owner"), tr("Task"), tr("Languages"),
                                        tr("Size"), tr("Storage fee"), tr("Mounted at")});
    m_table->setAccessibleName(tr("Models"));
    m_deleteButton->setText(tr("&Delete model…"));
    fillTable();
}

void ModelLibrarySection::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
