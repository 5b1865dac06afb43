#include "pages/SnapshotsPage.h"

#include "EmptyState.h"
#include "Format.h"
#include "Notice.h"
#include "api/ProviderCodes.h"
#include "pages/SnapshotsModel.h"
#include "pages/SnapshotsRestoreDialog.h"
#include "session/ClientSession.h"
#include "theme/Design.h"
#include "ui_SnapshotsPage.h"

#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::ApiError;
using core::Instance;
using core::InstanceState;
using core::Reply;
using core::Snapshot;

SnapshotsPage::SnapshotsPage(core::ClientSession *session, QWidget *parent)
    : QWidget(parent), m_ui(std::make_unique<Ui::SnapshotsPage>()), m_session(session),
      m_model(new SnapshotsModel(
          [session](const QString &id) { return session->instanceNames().value(id); }, nullptr,
          this)),
      m_ticker(new QTimer(this))
{
    m_ui->setupUi(this);
    setObjectName(u"snapshotsPage"_s);
    m_instanceCombo = m_ui->snapshotInstanceCombo;
    m_nameEdit = m_ui->snapshotNameEdit;
    m_createButton = m_ui->createSnapshotButton;
    m_priceNote = m_ui->snapshotPriceNote;
    m_stack = m_ui->snapshotsStack;
    m_empty = m_ui->emptyPage;
    m_empty->setIcon(Icon::Snapshots);
    m_table = m_ui->snapshotsTable;
    m_details = m_ui->snapshotDetails;
    m_restoreButton = m_ui->restoreSnapshotButton;
    m_deleteButton = m_ui->deleteSnapshotButton;
    m_refreshButton = m_ui->refreshSnapshotsButton;
    m_status = m_ui->snapshotsStatus;

    // The window's page title names the page (MainWindow::updatePageTitle).
    m_ui->titleLabel->hide();
    Design::setPrimary(m_createButton);
    // One primary action per screen: the empty state's shortcut to it stays plain.
    Design::setButtonRole(m_empty->button(), ButtonRole::Secondary);
    Design::setTextRole(m_priceNote, TextRole::Caption);
    Design::setButtonRole(m_deleteButton, ButtonRole::Destructive);

    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(SnapshotsModel::KeepsColumn,
                                                      QHeaderView::Stretch);

    // ---- what the user does ------------------------------------------------------------------
    connect(m_createButton, &QPushButton::clicked, this, [this] {
        takeSnapshot(m_instanceCombo->currentData().toString(), m_nameEdit->text().trimmed());
    });
    connect(m_nameEdit, &QLineEdit::returnPressed, m_createButton, &QPushButton::click);
    connect(m_empty, &EmptyState::actionTriggered, this, [this] {
        const QList<Instance> candidates = snapshottable();
        if (!candidates.isEmpty())
            takeSnapshot(candidates.constFirst().id, {});
    });
    connect(m_instanceCombo, &QComboBox::currentIndexChanged, this, &SnapshotsPage::updateView);
    connect(m_restoreButton, &QPushButton::clicked, this, &SnapshotsPage::openRestore);
    connect(m_deleteButton, &QPushButton::clicked, this, &SnapshotsPage::confirmDelete);
    connect(m_refreshButton, &QPushButton::clicked, this, &SnapshotsPage::reload);
    connect(m_table, &QTableView::doubleClicked, this, &SnapshotsPage::openRestore);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SnapshotsPage::updateView);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SnapshotsPage::updateDetails);
    m_model->setTimes(session->timeZone(), session->providerClock());
    connect(session, &core::ClientSession::timeZoneChanged, m_model,
            [this, session](const QTimeZone &zone) {
                m_model->setTimes(zone, session->providerClock());
            });
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, m_model, &SnapshotsModel::tick);

    // ---- what the session says ---------------------------------------------------------------
    // The session reloads its lists after a log-in, after every gap in the event stream and when
    // asked to: the snapshots are asked for again then (never on bill ticks).
    connect(m_session, &core::ClientSession::instancesLoaded, this, &SnapshotsPage::reload);
    connect(m_session, &core::ClientSession::resetForUser, this, &SnapshotsPage::clear);
    connect(m_session, &core::ClientSession::snapshotChanged, this, [this](const Snapshot &s) {
        m_model->upsert(s);
        updateView();
    });
    const auto instancesMoved = [this] {
        m_model->refreshNames();
        fillInstances();
        updateView();
    };
    connect(m_session, &core::ClientSession::instancesLoaded, this, instancesMoved);
    connect(m_session, &core::ClientSession::loggedIn, this, instancesMoved);
    connect(m_session, &core::ClientSession::instanceChanged, this, instancesMoved);

    retranslate();
    fillInstances();
    updateView();
    if (m_session->isLoggedIn())
        reload();
}

SnapshotsPage::~SnapshotsPage() = default;

QString SnapshotsPage::selectedSnapshotId() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? m_model->data(current, SnapshotsModel::IdRole).toString()
                             : QString();
}

void SnapshotsPage::selectSnapshot(const QString &id)
{
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_table->selectRow(row);
    updateView();
}

void SnapshotsPage::reload()
{
    if (!m_session->isLoggedIn())
        return;
    const quint64 generation = m_generation;
    m_session->snapshots()->onFinished(
        this, [this, generation](const Reply<QList<Snapshot>> &reply) {
            if (generation != m_generation)
                return; // asked for someone else
            if (!reply.ok())
                return setStatus(
                    tr("The snapshots could not be loaded: %1").arg(reply.error().userMessage()));
            const QString selected = selectedSnapshotId();
            m_model->setSnapshots(reply.value());
            m_loaded = true;
            selectSnapshot(selected);
        });
}

void SnapshotsPage::clear()
{
    ++m_generation;
    m_loaded = false;
    m_model->clear();
    m_status->clear();
    m_nameEdit->clear();
    fillInstances();
    updateView();
}

QList<Instance> SnapshotsPage::snapshottable() const
{
    QList<Instance> result;
    for (const Instance &instance : m_session->instances()) {
        // The provider snapshots a running or a stopped instance, nothing in between.
        if (instance.state == InstanceState::Running || instance.state == InstanceState::Stopped)
            result.append(instance);
    }
    return result;
}

void SnapshotsPage::fillInstances()
{
    const QString previous = m_instanceCombo->currentData().toString();
    const QSignalBlocker block(m_instanceCombo);
    m_instanceCombo->clear();
    for (const Instance &instance : snapshottable())
        m_instanceCombo->addItem(
            tr("%1 (%2)").arg(instance.name, Format::state(instance.state, instance.stateText)),
            instance.id);
    const int at = m_instanceCombo->findData(previous);
    m_instanceCombo->setCurrentIndex(at >= 0 ? at : (m_instanceCombo->count() > 0 ? 0 : -1));
}

void SnapshotsPage::updateView()
{
    const bool empty = m_model->rowCount() == 0;
    m_stack->setCurrentIndex(empty ? emptyorlist::kEmptyPage : emptyorlist::kListPage);
    const QList<Instance> candidates = snapshottable();
    m_createButton->setEnabled(m_instanceCombo->count() > 0);
    m_empty->setTitle(m_loaded || !m_session->isLoggedIn() ? tr("No snapshots yet")
                                                           : tr("Loading snapshots…"));
    if (candidates.isEmpty()) {
        m_empty->setText(
            tr("A snapshot keeps an instance's own disk and /workspace, so you can restore it "
               "later as a new instance, on any GPU type. Launch an instance first: a snapshot "
               "is taken from a running or stopped instance."));
        m_empty->setAction({});
    } else {
        m_empty->setText(
            tr("A snapshot keeps an instance's own disk and /workspace, so you can restore it "
               "later as a new instance, on any GPU type. Choose an instance above and press Take "
               "snapshot, or snapshot the first one now:"));
        m_empty->setAction(tr("Take a snapshot of “%1”").arg(candidates.constFirst().name));
    }
    // The price per GiB-hour is the provider's, as it states it for the instance's disk.
    const std::optional<Instance> source =
        m_session->instance(m_instanceCombo->currentData().toString());
    if (source && source->retention.storagePricePerGibHourMicros > 0)
        m_priceNote->setText(
            tr("A snapshot is billed for its storage at %1 per GiB and hour while you keep it.")
                .arg(Format::exactMoney(source->retention.storagePricePerGibHourMicros)));
    else
        m_priceNote->clear();
    m_priceNote->setVisible(!m_priceNote->text().isEmpty());

    // Nothing to restore or delete in the empty state: its text says what to do instead.
    m_restoreButton->setVisible(!empty);
    m_deleteButton->setVisible(!empty);
    const Snapshot *selected = m_model->snapshot(selectedSnapshotId());
    m_restoreButton->setEnabled(selected && selected->isReady());
    m_deleteButton->setEnabled(selected && selected->state != u"creating"_s);
    updateDetails();
}

void SnapshotsPage::updateDetails()
{
    const Snapshot *s = m_model->snapshot(selectedSnapshotId());
    if (!s) {
        m_details->setText(m_model->rowCount() > 0 ? tr("Select a snapshot to see what it keeps.")
                                                   : QString());
        m_details->setVisible(!m_details->text().isEmpty());
        return;
    }
    const core::SnapshotRetention &r = s->retention;
    QStringList lost;
    for (const QString &item : r.doesNotKeep)
        lost.append(SnapshotsModel::retentionItem(item));
    QStringList lines;
    lines << tr("<b>%1</b> keeps %2 (%3).")
                 .arg(s->name.toHtmlEscaped(), SnapshotsModel::keepsText(r).toHtmlEscaped(),
                      SnapshotsModel::sizeText(s->sizeBytes));
    if (!lost.isEmpty())
        lines << tr("A restore is a new instance; not kept: %1.")
                     .arg(QLocale().createSeparatedList(lost).toHtmlEscaped());
    if (r.billedWhileKept.contains(u"storage"_s) && r.storagePricePerGibHourMicros > 0)
        lines << tr("Storage is billed while it is kept: %n GiB at %1 per GiB-hour, %2.", nullptr,
                    int(r.storageGib))
                     .arg(Format::exactMoney(r.storagePricePerGibHourMicros),
                          SnapshotsModel::feeText(r.storageRateMicrosPerHour));
    if (r.survivesInstanceTerminate)
        lines << tr("It outlives its instance: terminating the instance does not delete it.");
    if (!r.deletedWhenBalanceRunsOut)
        lines << tr("If the balance runs out the fee pauses and the snapshot is kept.");
    m_details->setText(lines.join(u' '));
    m_details->setVisible(true);
}

void SnapshotsPage::setStatus(const QString &text)
{
    m_status->setText(text);
}

void SnapshotsPage::takeSnapshot(const QString &instanceId, const QString &name)
{
    if (instanceId.isEmpty())
        return;
    const QString instanceName = m_session->instanceNames().value(instanceId);
    m_createButton->setEnabled(false);
    setStatus(tr("Asking the provider to snapshot “%1”…").arg(instanceName));
    const quint64 generation = m_generation;
    // The very same request again (after a network error) reuses its key: a snapshot that was
    // taken after all is answered instead of a second one.
    const QString request = instanceId + u'\n' + name;
    if (request != m_lastCreate || m_createKey.isEmpty())
        m_createKey = core::ClientSession::newIdempotencyKey();
    m_lastCreate = request;
    m_session->createSnapshot(instanceId, name, m_createKey)
        ->onFinished(this, [this, generation, instanceName](const Reply<Snapshot> &reply) {
            if (generation != m_generation)
                return;
            m_createButton->setEnabled(m_instanceCombo->count() > 0);
            if (reply.ok() || !reply.error().isUnreachable())
                m_createKey.clear(); // a definite answer: a new attempt is a new request
            if (!reply.ok()) {
                const ApiError &error = reply.error();
                QString text = error.userMessage();
                if (error.code == core::ErrorCode::InsufficientBalance)
                    text = tr("A snapshot is billed for its storage and your balance is empty. "
                              "Top up first.");
                setStatus(tr("No snapshot was taken of “%1”: %2").arg(instanceName, text));
                return;
            }
            m_loaded = true;
            m_model->upsert(reply.value());
            m_nameEdit->clear();
            selectSnapshot(reply.value().id);
            setStatus(tr("Taking snapshot “%1” of “%2”; it can be restored once it is ready.")
                          .arg(reply.value().name, instanceName));
        });
}

QString SnapshotsPage::deleteDetails(const Snapshot &s) const
{
    const QString kept =
        tr("Its copy of %1 (%2) is deleted for good.")
            .arg(SnapshotsModel::keepsText(s.retention), SnapshotsModel::sizeText(s.sizeBytes));
    const QString costSoFar = Format::money(m_model->costNowMicros(m_model->rowOf(s.id)));
    const QString fee = s.storageRateMicrosPerHour > 0
        ? tr("Its storage fee of %1 stops now; it has cost %2 so far.")
              .arg(SnapshotsModel::feeText(s.storageRateMicrosPerHour), costSoFar)
        : tr("It is not billed now; it has cost %1 so far.").arg(costSoFar);
    return kept + u"\n\n"_s + fee;
}

void SnapshotsPage::confirmDelete()
{
    const Snapshot *s = m_model->snapshot(selectedSnapshotId());
    if (!s)
        return;
    const QString id = s->id;
    QMessageBox *box =
        Notice::create(this, Notice::Kind::Warning, tr("Delete the snapshot “%1”?").arg(s->name),
                       tr("Its copy of %1 cannot be restored afterwards.")
                           .arg(SnapshotsModel::keepsText(s->retention)),
                       deleteDetails(*s));
    box->setObjectName(u"deleteSnapshotConfirm"_s);
    QPushButton *yes = Notice::addAction(box, tr("Delete snapshot"), ButtonRole::Destructive);
    yes->setObjectName(u"confirmDeleteButton"_s);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::buttonClicked, this, [this, box, yes, id](QAbstractButton *b) {
        box->close();
        if (b == yes)
            deleteSnapshot(id);
    });
    box->open();
}

QString SnapshotsPage::inUseMessage(const Snapshot &s, const QString &providerMessage) const
{
    QStringList names;
    for (const Instance &instance : m_session->instances()) {
        if (instance.snapshotId == s.id)
            names << u"“%1”"_s.arg(instance.name);
    }
    if (names.isEmpty())
        return tr("“%1” is kept: instances restored from it still exist (%2).")
            .arg(s.name, providerMessage);
    return tr("“%1” is kept: the instances restored from it still run from it (%2). Terminate "
              "them first, then delete the snapshot.")
        .arg(s.name, QLocale().createSeparatedList(names));
}

void SnapshotsPage::deleteSnapshot(const QString &id)
{
    const Snapshot *s = m_model->snapshot(id);
    if (!s)
        return;
    const Snapshot before = *s;
    m_deleteButton->setEnabled(false);
    setStatus(tr("Deleting “%1”…").arg(before.name));
    const quint64 generation = m_generation;
    m_session->deleteSnapshot(id)->onFinished(
        this, [this, generation, before](const Reply<Snapshot> &reply) {
            if (generation != m_generation)
                return;
            if (reply.ok()) {
                m_model->upsert(reply.value());
                setStatus(tr("“%1” was deleted; its storage fee has stopped.").arg(before.name));
                updateView();
                return;
            }
            const ApiError &error = reply.error();
            const QString text = error.code == core::ErrorCode::SnapshotInUse
                ? inUseMessage(before, error.message)
                : tr("“%1” was not deleted: %2").arg(before.name, error.userMessage());
            setStatus(text);
            updateView();
            Q_EMIT errorOccurred(tr("Snapshot not deleted"), text);
        });
}

void SnapshotsPage::openRestore()
{
    const Snapshot *s = m_model->snapshot(selectedSnapshotId());
    if (!s || !s->isReady())
        return;
    auto *dialog = new SnapshotsRestoreDialog(m_session, *s, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString name = s->name;
    connect(dialog, &SnapshotsRestoreDialog::restored, this, [this, name](const Instance &i) {
        setStatus(tr("“%1” is being restored as the new instance “%2”.").arg(name, i.name));
        Q_EMIT restored(i);
    });
    dialog->load();
    dialog->open();
}

void SnapshotsPage::retranslate()
{
    m_model->retranslate();
    fillInstances();
    updateView();
}

void SnapshotsPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
    }
    QWidget::changeEvent(event);
}

void SnapshotsPage::showEvent(QShowEvent *event)
{
    m_ticker->start();
    QWidget::showEvent(event);
}

void SnapshotsPage::hideEvent(QHideEvent *event)
{
    m_ticker->stop();
    QWidget::hideEvent(event);
}

} // namespace cardhour::ui
