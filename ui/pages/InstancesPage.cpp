#include "pages/InstancesPage.h"

#include "EmptyState.h"
#include "Icons.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MetricsChart.h"
#include "Notice.h"
#include "SparklineDelegate.h"
#include "SshActions.h"
#include "SshKeysDialog.h"
#include "TerminalTab.h"
#include "pages/InstanceDetails.h"
#include "session/ClientSession.h"

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableView>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

InstancesPage::InstancesPage(ClientSession *session, InstanceTableModel *model,
                             const SshFiles &files, QWidget *parent)
    : QTabWidget(parent), m_session(session), m_model(model),
      m_ssh(new SshActions(session, session->secrets(), this, files.keyFolder, files.knownHostsFile,
                           files.sshConfigFile, this, files.browser))
{
    setObjectName(u"viewTabs"_s);
    setDocumentMode(true);
    buildList();
    // Terminal tabs close; the instance list does not.
    setTabsClosable(true);
    tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
    // The page title names the list: its tab shows once a terminal tab opens beside it.
    setTabBarAutoHide(true);
    connect(this, &QTabWidget::tabCloseRequested, this, &InstancesPage::closeTab);
    connect(m_session, &ClientSession::resetForUser, this, &InstancesPage::closeEverySshView);
    retranslate();
}

void InstancesPage::buildList()
{
    m_listStack = new QStackedWidget(this);
    m_empty = new EmptyState(Icon::Instances, m_listStack);
    m_empty->setObjectName(u"instancesEmpty"_s);
    m_listStack->addWidget(m_empty);
    m_table = new QTableView(m_listStack);
    m_table->setObjectName(u"instanceTable"_s);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Columns fit their contents when rows or states change, not on every tick: a header in
    // ResizeToContents mode lays out the text of every row for each changed cell.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setWordWrap(false);
    m_table->viewport()->installEventFilter(this);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->setItemDelegateForColumn(
        InstanceTableModel::ActivityColumn,
        new SparklineDelegate(InstanceTableModel::SparklineRole, m_table));
    m_listStack->addWidget(m_table);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(u"instancesSplitter"_s);
    // The list and, beside it, the details of the selected instance; the chart below both.
    // (The pane, like the chart, is built when the page is first shown: buildDetails().)
    m_listAndDetails = new QSplitter(Qt::Horizontal, m_splitter);
    m_listAndDetails->addWidget(m_listStack);
    m_splitter->addWidget(m_listAndDetails);
    addTab(m_splitter, QString());

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateChart();
        if (m_details)
            m_details->showInstance(selectedInstanceId());
        Q_EMIT selectionChanged();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &InstancesPage::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &InstancesPage::updateEmptyState);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &InstancesPage::updateEmptyState);
    auto fitColumns = [this] { this->fitColumns(); };
    connect(m_model, &QAbstractItemModel::modelReset, m_table, fitColumns);
    connect(m_model, &QAbstractItemModel::rowsInserted, m_table, fitColumns);
    connect(m_model, &QAbstractItemModel::dataChanged, m_table,
            [fitColumns](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                if (roles.isEmpty()) // a whole row changed (state, name): not the ticks
                    fitColumns();
            });
    connect(m_table, &QTableView::doubleClicked, this,
            [this] { Q_EMIT terminalRequested(selectedInstanceId()); });
    connect(m_empty, &EmptyState::actionTriggered, this, &InstancesPage::openLaunchDialog);
    updateEmptyState();
}

void InstancesPage::fitColumns()
{
    QHeaderView *header = m_table->horizontalHeader();
    m_table->resizeColumnsToContents();
    int total = 0;
    for (int column = 0; column < header->count(); ++column)
        total += header->sectionSize(column);
    int excess = total - m_table->viewport()->width();
    if (excess <= 0)
        return;
    // The state, then the GPU, then the name give way; none below its header (or 7 letters).
    const int floor = m_table->fontMetrics().horizontalAdvance(u"MMMMMMM"_s);
    for (const int column : {InstanceTableModel::StateColumn, InstanceTableModel::GpuColumn,
                             InstanceTableModel::NameColumn}) {
        const int least = qMax(floor, header->sectionSizeHint(column));
        const int give = qMin(excess, header->sectionSize(column) - least);
        if (give <= 0)
            continue;
        header->resizeSection(column, header->sectionSize(column) - give);
        excess -= give;
        if (excess <= 0)
            break;
    }
}

bool InstancesPage::eventFilter(QObject *watched, QEvent *event)
{
    if (m_table && watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QTabWidget::eventFilter(watched, event);
}

void InstancesPage::setContextActions(const QList<QAction *> &actions)
{
    m_table->addActions(actions);
}

void InstancesPage::buildDetails()
{
    if (m_chart)
        return;
    m_details = new InstanceDetails(m_session, m_listAndDetails);
    m_details->setObjectName(u"instanceDetails"_s);
    m_listAndDetails->addWidget(m_details);
    m_listAndDetails->setStretchFactor(0, 3);
    m_listAndDetails->setStretchFactor(1, 2);
    // The list first: four sevenths of the width, whatever the pane's long lines would ask for
    // (once the splitter has its width).
    QTimer::singleShot(0, m_listAndDetails, [splitter = m_listAndDetails] {
        const int width = splitter->width();
        splitter->setSizes({width * 4 / 7, width - width * 4 / 7});
    });
    connect(m_details, &InstanceDetails::openAppRequested, this,
            [this](const QString &id, const QString &app) {
                m_ssh->openApp(m_session->instance(id), app);
            });
    m_details->showInstance(selectedInstanceId());
    m_chart = new MetricsChart(m_session, m_splitter);
    connect(m_session, &ClientSession::metricsReceived, m_chart, &MetricsChart::addSample);
    m_splitter->addWidget(m_chart);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    updateEmptyState();
    updateChart();
}

QString InstancesPage::selectedInstanceId() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(InstanceTableModel::IdRole).toString();
}

void InstancesPage::selectInstance(const QString &id)
{
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_table->selectRow(row);
}

void InstancesPage::setChartWanted(bool wanted)
{
    m_chartWanted = wanted;
    if (m_chart)
        m_chart->setVisible(wanted && m_model->rowCount() > 0);
}

void InstancesPage::updateChart()
{
    if (!m_chart)
        return;
    const Instance *instance = m_model->instance(selectedInstanceId());
    m_chart->setInstance(instance ? instance->id : QString(), instance && instance->isBilled());
}

void InstancesPage::updateEmptyState()
{
    const bool empty = m_model->rowCount() == 0;
    m_listStack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_table);
    // No chart of nothing: it comes back with the first instance.
    if (m_chart)
        m_chart->setVisible(!empty && m_chartWanted);
}

QList<TerminalTab *> InstancesPage::terminalTabs() const
{
    QList<TerminalTab *> tabs;
    for (int i = 0; i < count(); ++i) {
        if (auto *tab = qobject_cast<TerminalTab *>(widget(i)))
            tabs << tab;
    }
    return tabs;
}

TerminalTab *InstancesPage::currentTerminal() const
{
    return qobject_cast<TerminalTab *>(currentWidget());
}

void InstancesPage::closeTab(int index)
{
    if (auto *tab = qobject_cast<TerminalTab *>(widget(index))) {
        removeTab(index);
        tab->deleteLater(); // closes its connection
    }
}

void InstancesPage::closeEverySshView()
{
    for (int index = count() - 1; index >= 0; --index) {
        if (auto *tab = qobject_cast<TerminalTab *>(widget(index))) {
            removeTab(index);
            tab->hide();
            tab->deleteLater(); // its connection and its screen with it
        }
    }
    m_ssh->closeAllForwards();
}

void InstancesPage::openLaunchDialog()
{
    if (m_launchDialog) {
        m_launchDialog->raise();
        return;
    }
    m_launchDialog = new LaunchDialog(m_session, m_session->ticker(), m_ssh->keyStore(), this);
    m_launchDialog->setAttribute(Qt::WA_DeleteOnClose);
    // The session has it already (instanceChanged() put it in the list): the window shows it.
    connect(m_launchDialog, &LaunchDialog::launched, this, &InstancesPage::launched);
    connect(m_launchDialog, &LaunchDialog::manageKeysRequested, this,
            &InstancesPage::openKeysDialog);
    // A key made for this launch is news the user should read, after "Launching…".
    connect(m_launchDialog, &LaunchDialog::keyCreated, this,
            [this](const QString &text) { Q_EMIT message(text, 15000); });
    m_launchDialog->load();
    m_launchDialog->open();
}

void InstancesPage::openKeysDialog()
{
    if (m_keysDialog) {
        m_keysDialog->raise();
        return;
    }
    m_keysDialog = new SshKeysDialog(m_ssh->keyStore(), m_session, this);
    m_keysDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_keysDialog, &SshKeysDialog::keysChanged, this, &InstancesPage::reloadLaunchKeys);
    m_keysDialog->reload();
    m_keysDialog->open();
}

SshKeysDialog *InstancesPage::keysDialog() const
{
    return m_keysDialog;
}

void InstancesPage::reloadLaunchKeys()
{
    if (m_launchDialog)
        m_launchDialog->reloadKeys();
}

void InstancesPage::confirm(Action action, const QString &instanceId)
{
    const Instance *instance = m_model->instance(instanceId);
    if (!instance || !InstanceActions::allowed(action, *instance))
        return;
    // The question as the title, what matters most as its sentence, every consequence behind
    // Show Details.
    const QString preview = InstanceActions::preview(action, *instance);
    QMessageBox *box = Notice::create(
        this, action == Action::Terminate ? Notice::Kind::Warning : Notice::Kind::Question,
        InstanceActions::question(action, *instance), preview.section(u'\n', 0, 0), preview,
        QMessageBox::Cancel);
    box->setObjectName(u"confirmDialog"_s);
    QPushButton *yes = Notice::addAction(box, InstanceActions::buttonText(action),
                                         action == Action::Terminate ? ButtonRole::Destructive
                                                                     : ButtonRole::Primary);
    yes->setObjectName(u"confirmButton"_s);
    // Terminate cannot be undone: Enter alone must not do it.
    box->setDefaultButton(action == Action::Terminate ? QMessageBox::Cancel
                                                      : QMessageBox::NoButton);
    if (action != Action::Terminate)
        box->setDefaultButton(yes);
    const QString id = instance->id;
    connect(box, &QMessageBox::buttonClicked, this,
            [this, yes, action, id](QAbstractButton *button) {
                if (button == yes)
                    perform(action, id);
            });
    box->open();
}

void InstancesPage::perform(Action action, const QString &instanceId)
{
    Reply<Instance> *reply = nullptr;
    switch (action) {
    case Action::Stop:
        reply = m_session->stopInstance(instanceId);
        break;
    case Action::Start:
        reply = m_session->startInstance(instanceId);
        break;
    case Action::Terminate:
        reply = m_session->terminateInstance(instanceId);
        break;
    }
    reply->onFinished(this, [this, action](const Reply<Instance> &r) {
        if (r.ok()) { // the session holds the answer already
            Q_EMIT actionDone();
            return;
        }
        Q_EMIT errorOccurred(InstanceActions::buttonText(action), r.error().userMessage());
    });
}

void InstancesPage::retranslate()
{
    setTabText(0, tr("Instances"));
    m_empty->setTitle(tr("No instances yet"));
    m_empty->setText(
        tr("An instance is a GPU host you rent by the second. Launch one, then open its "
           "terminal with a double-click; stopped instances stay listed here."));
    m_empty->setAction(tr("Launch an instance…"));
}

void InstancesPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QTabWidget::changeEvent(event);
}

} // namespace cardhour::ui
