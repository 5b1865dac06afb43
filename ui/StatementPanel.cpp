#include "StatementPanel.h"

#include "Format.h"
#include "LedgerModel.h"
#include "Notice.h"
#include "StatementCsv.h"
#include "StatementPdf.h"
#include "theme/Design.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Statement;

StatementPanel::StatementPanel(QWidget *parent)
    : QWidget(parent), m_month(new QComboBox(this)), m_monthLabel(new QLabel(this)),
      m_zoneLabel(new QLabel(this)), m_summary(new QGridLayout), m_hostsTitle(new QLabel(this)),
      m_hosts(new QTableWidget(this)), m_snapshotsTitle(new QLabel(this)),
      m_snapshots(new QTableWidget(this)), m_postingsTitle(new QLabel(this)),
      m_postingsTable(new QTableWidget(this)), m_csvButton(new QPushButton(this)),
      m_pdfButton(new QPushButton(this)), m_status(new QLabel(this))
{
    setObjectName(u"statementPanel"_s);
    m_month->setObjectName(u"statementMonth"_s);
    m_zoneLabel->setObjectName(u"statementZone"_s);
    m_hosts->setObjectName(u"statementHosts"_s);
    m_snapshots->setObjectName(u"statementSnapshots"_s);
    m_postingsTable->setObjectName(u"statementPostings"_s);
    m_csvButton->setObjectName(u"statementCsvButton"_s);
    m_pdfButton->setObjectName(u"statementPdfButton"_s);
    m_status->setObjectName(u"statementStatus"_s);
    m_monthLabel->setBuddy(m_month);
    m_zoneLabel->setWordWrap(true);
    m_status->setWordWrap(true);

    m_hosts->setColumnCount(5);
    m_snapshots->setColumnCount(3);
    m_postingsTable->setColumnCount(6);
    for (QTableWidget *table : {m_hosts, m_snapshots, m_postingsTable}) {
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->verticalHeader()->hide();
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    }
    m_hosts->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_snapshots->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_postingsTable->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    for (QLabel *title : {m_hostsTitle, m_snapshotsTitle, m_postingsTitle})
        Design::setTextRole(title, TextRole::Heading);

    auto *top = new QHBoxLayout;
    top->addWidget(m_monthLabel);
    top->addWidget(m_month);
    top->addWidget(m_zoneLabel, 1);
    top->addWidget(m_csvButton);
    top->addWidget(m_pdfButton);
    m_summary->setColumnStretch(2, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(m_summary);
    layout->addWidget(m_hostsTitle);
    layout->addWidget(m_hosts, 1);
    layout->addWidget(m_snapshotsTitle);
    layout->addWidget(m_snapshots, 1);
    layout->addWidget(m_postingsTitle);
    layout->addWidget(m_postingsTable, 3);
    layout->addWidget(m_status);

    connect(m_month, &QComboBox::currentIndexChanged, this, &StatementPanel::rebuildStatement);
    connect(m_csvButton, &QPushButton::clicked, this, [this] { chooseFile(false); });
    connect(m_pdfButton, &QPushButton::clicked, this, [this] { chooseFile(true); });
    retranslate();
    rebuildMonths();
}

void StatementPanel::setPostings(const QList<core::Posting> &postings)
{
    m_postings = postings;
    rebuildMonths();
}

void StatementPanel::setInstanceNames(const QHash<QString, QString> &names)
{
    m_names = names;
    rebuildStatement();
}

void StatementPanel::setTimeZone(const QTimeZone &zone, bool fromProvider)
{
    m_zone = zone.isValid() ? zone : QTimeZone::utc();
    m_zoneFromProvider = fromProvider && zone.isValid();
    rebuildMonths();
}

void StatementPanel::setMonth(int key)
{
    int index = m_month->findData(key);
    if (index < 0) {
        m_month->addItem(StatementPdf::monthTitle(key / 100, key % 100), key);
        index = m_month->count() - 1;
    }
    m_month->setCurrentIndex(index);
}

int StatementPanel::month() const
{
    return m_month->currentData().toInt();
}

void StatementPanel::rebuildMonths()
{
    const int chosen = m_month->currentData().toInt();
    QList<int> months = Statement::monthsWithPostings(m_postings, m_zone);
    const QDate today = QDateTime::currentDateTimeUtc().toTimeZone(m_zone).date();
    const int current = today.year() * 100 + today.month();
    if (!months.contains(current))
        months.prepend(current); // this month is always there, empty or not
    std::sort(months.begin(), months.end(), std::greater<int>());
    {
        QSignalBlocker block(m_month);
        m_month->clear();
        for (int key : std::as_const(months))
            m_month->addItem(StatementPdf::monthTitle(key / 100, key % 100), key);
        m_month->setCurrentIndex(qMax(0, m_month->findData(chosen)));
    }
    rebuildStatement();
}

void StatementPanel::rebuildStatement()
{
    const int key = m_month->currentData().toInt();
    if (key <= 0)
        return;
    m_statement = Statement::build(m_postings, key / 100, key % 100, m_zone);
    m_zoneLabel->setText(StatementPdf::zoneText(m_zone, m_zoneFromProvider));

    while (QLayoutItem *item = m_summary->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int row = 0;
    for (const auto &[label, micros] : StatementPdf::summary(m_statement)) {
        auto *name = new QLabel(label, this);
        auto *amount = new QLabel(Format::exactMoney(micros), this);
        amount->setObjectName(u"statementAmount%1"_s.arg(row));
        amount->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        amount->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_summary->addWidget(name, row, 0);
        m_summary->addWidget(amount, row, 1);
        ++row;
    }

    m_hosts->setRowCount(int(m_statement.hosts.size()));
    for (int i = 0; i < m_statement.hosts.size(); ++i) {
        const core::StatementHost &h = m_statement.hosts.at(i);
        const QStringList cells{
            m_names.value(h.instanceId, h.instanceId), Format::exactMoney(h.computeMicros),
            Format::exactMoney(h.storageMicros), Format::exactMoney(h.snapshotMicros),
            Format::exactMoney(h.totalMicros())};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_hosts->setItem(i, c, item);
        }
    }
    m_snapshots->setRowCount(int(m_statement.snapshots.size()));
    for (int i = 0; i < m_statement.snapshots.size(); ++i) {
        const core::StatementSnapshot &k = m_statement.snapshots.at(i);
        const QStringList cells{m_names.value(k.snapshotId, k.label()),
                                m_names.value(k.instanceId, k.instanceId),
                                Format::exactMoney(k.micros)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            if (c == 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_snapshots->setItem(i, c, item);
        }
    }
    m_snapshotsTitle->setVisible(!m_statement.snapshots.isEmpty());
    m_snapshots->setVisible(!m_statement.snapshots.isEmpty());
    m_postingsTable->setRowCount(int(m_statement.postings.size()));
    for (int i = 0; i < m_statement.postings.size(); ++i) {
        const core::Posting &p = m_statement.postings.at(i);
        const QStringList cells{Format::dateTime(p.createdAt, m_zone, true),
                                LedgerModel::kindText(p.kind),
                                p.instanceId.isEmpty() ? QString()
                                                       : m_names.value(p.instanceId, p.instanceId),
                                p.description,
                                Format::exactMoney(p.amountMicros),
                                Format::exactMoney(p.balanceAfterMicros)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells.at(c));
            if (c >= 4)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_postingsTable->setItem(i, c, item);
        }
    }
    m_status->setText(tr("Postings in %1: %2")
                          .arg(StatementPdf::monthTitle(m_statement.year, m_statement.month))
                          .arg(m_statement.postings.size()));
}

bool StatementPanel::exportCsv(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(statementCsv(m_statement, m_names).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

bool StatementPanel::exportPdf(const QString &path, QString *error) const
{
    return StatementPdf::write(m_statement, m_names, m_zoneFromProvider, path, error);
}

void StatementPanel::chooseFile(bool pdf)
{
    auto *dialog =
        new QFileDialog(this, pdf ? tr("Export statement as PDF") : tr("Export statement as CSV"));
    dialog->setObjectName(u"statementExportDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(pdf ? u"pdf"_s : u"csv"_s);
    dialog->setNameFilter(pdf ? tr("PDF files (*.pdf)") : tr("CSV files (*.csv)"));
    dialog->setDirectory(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    dialog->selectFile(u"cardhour-statement-%1-%2.%3"_s.arg(m_statement.year)
                           .arg(m_statement.month, 2, 10, QChar(u'0'))
                           .arg(pdf ? u"pdf"_s : u"csv"_s));
    connect(dialog, &QFileDialog::fileSelected, this, [this, pdf](const QString &path) {
        QString error;
        if (pdf ? exportPdf(path, &error) : exportCsv(path, &error)) {
            m_status->setText(tr("Exported to %1.").arg(QDir::toNativeSeparators(path)));
            return;
        }
        Notice::create(
            this, Notice::Kind::Error, tr("Export statement"),
            tr("The statement could not be written to %1.").arg(QDir::toNativeSeparators(path)),
            error, QMessageBox::Ok)
            ->open();
    });
    dialog->open();
}

void StatementPanel::retranslate()
{
    m_monthLabel->setText(tr("&Month:"));
    m_csvButton->setText(tr("Export CSV…"));
    m_pdfButton->setText(tr("Export PDF…"));
    m_hostsTitle->setText(tr("By host"));
    m_postingsTitle->setText(tr("Postings"));
    m_postingsTable->setHorizontalHeaderLabels(
        {tr("Time"), tr("Kind"), tr("Host"), tr("Description"), tr("Amount"), tr("Balance")});
    m_hosts->setHorizontalHeaderLabels(
        {tr("Host"), tr("Compute"), tr("Storage"), tr("Snapshots"), tr("Total")});
    m_snapshotsTitle->setText(tr("By snapshot"));
    m_snapshots->setHorizontalHeaderLabels({tr("Snapshot"), tr("Taken of"), tr("Fees")});
    for (int i = 0; i < m_month->count(); ++i) {
        const int key = m_month->itemData(i).toInt();
        m_month->setItemText(i, StatementPdf::monthTitle(key / 100, key % 100));
    }
    rebuildStatement();
}

void StatementPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
