#include "LedgerView.h"

#include "Notice.h"
#include "SpendChart.h"
#include "session/ClientSession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

namespace {
constexpr int kPageSize = 500; // the provider's largest page
constexpr int kMaxPostings = 50'000; // a runaway ledger stops loading here, and says so
} // namespace

LedgerView::LedgerView(ClientSession *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_model(new LedgerModel(this)),
      m_filter(new LedgerFilterModel(this)), m_kind(new QComboBox(this)),
      m_instance(new QComboBox(this)), m_search(new QLineEdit(this)),
      m_fromCheck(new QCheckBox(this)), m_from(new QDateEdit(this)), m_toCheck(new QCheckBox(this)),
      m_to(new QDateEdit(this)), m_exportButton(new QPushButton(this)),
      m_reloadButton(new QPushButton(this)), m_count(new QLabel(this)),
      m_table(new QTableView(this)), m_chart(new SpendChart(this))
{
    setObjectName(u"ledgerView"_s);
    m_kind->setObjectName(u"ledgerKindFilter"_s);
    m_instance->setObjectName(u"ledgerInstanceFilter"_s);
    m_search->setObjectName(u"ledgerSearch"_s);
    m_fromCheck->setObjectName(u"ledgerFromCheck"_s);
    m_from->setObjectName(u"ledgerFrom"_s);
    m_toCheck->setObjectName(u"ledgerToCheck"_s);
    m_to->setObjectName(u"ledgerTo"_s);
    m_exportButton->setObjectName(u"ledgerExportButton"_s);
    m_reloadButton->setObjectName(u"ledgerReloadButton"_s);
    m_count->setObjectName(u"ledgerCount"_s);
    m_table->setObjectName(u"ledgerTable"_s);

    m_filter->setSourceModel(m_model);
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(LedgerModel::TimeColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(LedgerModel::DescriptionColumn,
                                                      QHeaderView::Stretch);

    m_kind->addItem(QString(), QString());
    for (const QString &kind : LedgerModel::knownKinds())
        m_kind->addItem(QString(), kind);
    m_instance->addItem(QString(), QString());
    m_search->setClearButtonEnabled(true);
    for (QDateEdit *edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(u"yyyy-MM-dd"_s);
        edit->setDate(QDate::currentDate());
        edit->setEnabled(false);
    }

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_kind);
    filters->addWidget(m_instance);
    filters->addWidget(m_search, 1);
    filters->addWidget(m_fromCheck);
    filters->addWidget(m_from);
    filters->addWidget(m_toCheck);
    filters->addWidget(m_to);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_count, 1);
    actions->addWidget(m_reloadButton);
    actions->addWidget(m_exportButton);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(splitter, 1);
    layout->addLayout(actions);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &LedgerView::applyFilters);
    connect(m_instance, &QComboBox::currentIndexChanged, this, &LedgerView::applyFilters);
    connect(m_search, &QLineEdit::textChanged, this, &LedgerView::applyFilters);
    for (QCheckBox *check : {m_fromCheck, m_toCheck})
        connect(check, &QCheckBox::toggled, this, &LedgerView::applyFilters);
    for (QDateEdit *edit : {m_from, m_to})
        connect(edit, &QDateEdit::dateChanged, this, &LedgerView::applyFilters);
    connect(m_fromCheck, &QCheckBox::toggled, m_from, &QWidget::setEnabled);
    connect(m_toCheck, &QCheckBox::toggled, m_to, &QWidget::setEnabled);
    connect(m_reloadButton, &QPushButton::clicked, this, &LedgerView::reload);
    connect(m_exportButton, &QPushButton::clicked, this, &LedgerView::chooseExportFile);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &LedgerView::updateCount);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &LedgerView::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &LedgerView::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &LedgerView::updateCount);
    if (m_session) {
        setTimeZone(m_session->timeZone());
        connect(m_session, &ClientSession::timeZoneChanged, this, &LedgerView::setTimeZone);
    }
    retranslate();
}

void LedgerView::setTimeZone(const QTimeZone &zone)
{
    m_model->setTimeZone(zone);
    m_filter->setTimeZone(zone);
    m_chart->setTimeZone(zone);
    // "Today" where the provider is, as the dates filtered on are.
    const QDate today = QDateTime::currentDateTimeUtc().toTimeZone(zone).date();
    for (QDateEdit *edit : {m_from, m_to}) {
        if (!edit->isEnabled())
            edit->setDate(today);
    }
}

void LedgerView::reload()
{
    if (!m_session)
        return;
    m_pending.clear();
    m_loading = true;
    m_reloadButton->setEnabled(false);
    fetchPage(0, ++m_generation);
}

void LedgerView::fetchPage(qint64 before, quint64 generation)
{
    m_session->ledger(kPageSize, before)
        ->onFinished(this, [this, generation](const Reply<LedgerPage> &reply) {
            if (generation != m_generation)
                return; // a newer reload() is under way
            if (!reply.ok()) {
                m_loading = false;
                m_reloadButton->setEnabled(true);
                m_count->setText(
                    tr("The ledger could not be loaded: %1").arg(reply.error().userMessage()));
                Q_EMIT loadFailed(reply.error());
                return;
            }
            m_pending += reply.value().postings;
            if (reply.value().nextBefore && m_pending.size() < kMaxPostings) {
                fetchPage(*reply.value().nextBefore, generation);
                return;
            }
            m_loading = false;
            m_reloadButton->setEnabled(true);
            setPostings(std::exchange(m_pending, {}));
        });
}

void LedgerView::setPostings(const QList<Posting> &postings)
{
    m_model->setPostings(postings);
    m_chart->setPostings(postings);
    rebuildInstanceChoices();
    updateCount();
    Q_EMIT postingsChanged(postings);
}

void LedgerView::setInstanceNames(const QHash<QString, QString> &names)
{
    m_model->setInstanceNames(names);
    rebuildInstanceChoices();
    Q_EMIT instanceNamesChanged(names);
}

void LedgerView::clear()
{
    ++m_generation;
    m_loading = false;
    m_reloadButton->setEnabled(true);
    setPostings({});
}

void LedgerView::rebuildInstanceChoices()
{
    const QString chosen = m_instance->currentData().toString();
    QStringList ids;
    for (const Posting &p : m_model->postings()) {
        if (!p.instanceId.isEmpty() && !ids.contains(p.instanceId))
            ids.append(p.instanceId);
    }
    // By name, as the user looks for them.
    std::sort(ids.begin(), ids.end(), [this](const QString &a, const QString &b) {
        return m_model->instanceName(a).compare(m_model->instanceName(b), Qt::CaseInsensitive) < 0;
    });
    QSignalBlocker block(m_instance);
    while (m_instance->count() > 1)
        m_instance->removeItem(1);
    for (const QString &id : ids)
        m_instance->addItem(m_model->instanceName(id), id);
    // The chosen instance stays chosen while it has postings.
    m_instance->setCurrentIndex(qMax(0, m_instance->findData(chosen)));
    block.unblock();
    applyFilters();
}

void LedgerView::applyFilters()
{
    m_filter->setKind(m_kind->currentData().toString());
    m_filter->setInstanceId(m_instance->currentData().toString());
    m_filter->setText(m_search->text());
    m_filter->setDateRange(m_fromCheck->isChecked() ? m_from->date() : QDate(),
                           m_toCheck->isChecked() ? m_to->date() : QDate());
    updateCount();
}

void LedgerView::updateCount()
{
    if (m_loading)
        return;
    const int shown = m_filter->rowCount();
    const int total = m_model->rowCount();
    m_count->setText(shown == total ? tr("Postings: %1").arg(total)
                                    : tr("Postings: %1 of %2 shown").arg(shown).arg(total));
    m_exportButton->setEnabled(shown > 0);
}

QString LedgerView::csv() const
{
    return ledger::toCsv(*m_filter, *m_model);
}

bool LedgerView::exportCsv(const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(csv().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void LedgerView::chooseExportFile()
{
    auto *dialog = new QFileDialog(this, tr("Export ledger"));
    dialog->setObjectName(u"ledgerExportDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(u"csv"_s);
    dialog->setNameFilter(tr("CSV files (*.csv)"));
    dialog->setDirectory(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    dialog->selectFile(u"cardhour-ledger-%1.csv"_s.arg(QDate::currentDate().toString(Qt::ISODate)));
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        QString error;
        if (exportCsv(path, &error)) {
            m_count->setText(tr("Exported to %1 (rows: %2).")
                                 .arg(QDir::toNativeSeparators(path))
                                 .arg(m_filter->rowCount()));
            return;
        }
        Notice::create(
            this, Notice::Kind::Error, tr("Export ledger"),
            tr("The ledger could not be written to %1.").arg(QDir::toNativeSeparators(path)), error,
            QMessageBox::Ok)
            ->open();
    });
    dialog->open();
}

void LedgerView::retranslate()
{
    m_kind->setItemText(0, tr("All kinds"));
    for (int i = 1; i < m_kind->count(); ++i)
        m_kind->setItemText(i, LedgerModel::kindText(m_kind->itemData(i).toString()));
    m_instance->setItemText(0, tr("All instances"));
    m_search->setPlaceholderText(tr("Search descriptions, kinds, instances"));
    m_fromCheck->setText(tr("From"));
    m_toCheck->setText(tr("To"));
    m_exportButton->setText(tr("Export CSV…"));
    m_reloadButton->setText(tr("Reload"));
    m_model->retranslate();
    updateCount();
}

void LedgerView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
