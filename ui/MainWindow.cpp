#include "MainWindow.h"

#include "BillPanel.h"
#include "ConnectPage.h"
#include "ConnectionBanner.h"
#include "Format.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "LedgerView.h"
#include "LoginDialog.h"
#include "MetricsChart.h"
#include "SparklineDelegate.h"
#include "SshActions.h"
#include "Translations.h"
#include "TrayNotifier.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "session/Session.h"
#include "ui_MainWindow.h"

#include <QActionGroup>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

MainWindow::MainWindow(const Options &options, Translations *translations, QWidget *parent)
    : QMainWindow(parent), m_options(options), m_translations(translations),
      m_ui(std::make_unique<Ui::MainWindow>()), m_core(new ClientSession(options, this)),
      m_model(new InstanceTableModel(nullptr, this))
{
    m_ui->setupUi(this);
    buildUi();
    connectActions();
    buildLanguageMenu();
    connectSession();

    m_stack->setCurrentWidget(m_connectPage);
    retranslate();
    updateActions();
    resize(1000, 620);
    restoreWindowState();
}

MainWindow::~MainWindow()
{
    saveWindowState();
}

void MainWindow::buildUi()
{
    m_stack = new QStackedWidget(this);
    m_connectPage = new ConnectPage(m_stack);
    m_connectPage->setObjectName(u"connectPage"_s);
    m_stack->addWidget(m_connectPage);

    m_dashboard = new QWidget(m_stack);
    m_dashboard->setObjectName(u"dashboard"_s);
    auto *layout = new QVBoxLayout(m_dashboard);
    layout->setContentsMargins(0, 0, 0, 0);
    m_banner = new ConnectionBanner(m_dashboard);
    layout->addWidget(m_banner);
    m_billPanel = new BillPanel(m_core->ticker(), m_dashboard);
    layout->addWidget(m_billPanel);
    m_table = new QTableView(m_dashboard);
    m_table->setObjectName(u"instanceTable"_s);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->setItemDelegateForColumn(
        InstanceTableModel::ActivityColumn,
        new SparklineDelegate(InstanceTableModel::SparklineRole, m_table));
    m_table->addActions({m_ui->openTerminalAction, m_ui->appsMenu->menuAction(),
                         m_ui->systemTerminalAction, m_ui->sshConfigAction, m_ui->copySshAction,
                         m_ui->stopAction, m_ui->startAction, m_ui->terminateAction});
    m_chart = new MetricsChart(m_core->client(), m_dashboard);
    auto *splitter = new QSplitter(Qt::Vertical, m_dashboard);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    m_tabs = new QTabWidget(m_dashboard);
    m_tabs->setObjectName(u"viewTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(splitter, QString());
    layout->addWidget(m_tabs, 1);
    m_stack->addWidget(m_dashboard);
    buildBillingUi();
    buildSshUi();
    setCentralWidget(m_stack);

    m_userLabel = new QLabel(this);
    m_userLabel->setObjectName(u"userLabel"_s);
    statusBar()->addPermanentWidget(m_userLabel);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::updateActions);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::updateChart);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::updateActions);
    connect(m_table, &QTableView::doubleClicked, this,
            [this] { openTerminal(selectedInstanceId()); });
}

void MainWindow::connectActions()
{
    // Standard keys differ per platform, so they are set here rather than in the form.
    m_ui->launchAction->setShortcut(QKeySequence::New);
    m_ui->refreshAction->setShortcut(QKeySequence::Refresh);
    m_ui->quitAction->setShortcut(QKeySequence::Quit);
    connect(m_ui->launchAction, &QAction::triggered, this, &MainWindow::openLaunchDialog);
    connect(m_ui->stopAction, &QAction::triggered, this, [this] { confirm(Action::Stop); });
    connect(m_ui->startAction, &QAction::triggered, this, [this] { confirm(Action::Start); });
    connect(m_ui->terminateAction, &QAction::triggered, this,
            [this] { confirm(Action::Terminate); });
    connect(m_ui->refreshAction, &QAction::triggered, this, &MainWindow::reloadAll);
    connect(m_ui->logOutAction, &QAction::triggered, m_core, &ClientSession::logOut);
    connect(m_ui->connectAction, &QAction::triggered, this, [this] {
        // Back to the connect step; the session stays until another provider is chosen.
        m_core->disconnectFromProvider();
        m_banner->hide();
        m_connectPage->setBusy(false, {});
        m_stack->setCurrentWidget(m_connectPage);
    });
    connect(m_ui->quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_ui->showChartAction, &QAction::toggled, m_chart, &QWidget::setVisible);
    connect(m_connectPage, &ConnectPage::sandboxRequested, this, &MainWindow::connectToSandbox);
    connect(m_connectPage, &ConnectPage::urlRequested, this, &MainWindow::connectToUrl);
    connect(m_banner, &ConnectionBanner::retryRequested, m_core, &ClientSession::retry);
    connectBillingActions();
    connectSshActions();
}

void MainWindow::buildLanguageMenu()
{
    auto *group = new QActionGroup(this);
    for (const QString &language : Translations::available()) {
        QAction *action = m_ui->languageMenu->addAction(Translations::nativeName(language));
        action->setObjectName(u"language_"_s + language);
        action->setCheckable(true);
        action->setData(language);
        action->setChecked(m_translations ? m_translations->current() == language
                                          : language == u"en"_s);
        action->setEnabled(m_translations != nullptr);
        group->addAction(action);
    }
    connect(group, &QActionGroup::triggered, this, [this](QAction *action) {
        if (m_translations && !m_translations->setLanguage(action->data().toString()))
            showError(tr("Language"), tr("This translation could not be loaded."));
    });
}

// What the session says, on screen. ClientSession holds the state; this only shows it.
void MainWindow::connectSession()
{
    connect(m_core, &ClientSession::connecting, this, [this](const QString &message) {
        m_stack->setCurrentWidget(m_connectPage);
        m_connectPage->setBusy(true, message);
    });
    connect(m_core, &ClientSession::connectFailed, this, [this](const QString &message) {
        m_stack->setCurrentWidget(m_connectPage);
        m_connectPage->setProblem(message);
    });
    connect(m_core, &ClientSession::providerReady, this, [this](const QUrl &url) {
        m_connectPage->setBusy(false, {});
        m_banner->hide();
        m_stack->setCurrentWidget(m_dashboard);
        updateActions();
        statusBar()->showMessage(tr("Connected to %1").arg(url.toDisplayString()), 5000);
    });
    connect(m_core, &ClientSession::providerLost, m_banner, &ConnectionBanner::showProblem);
    connect(m_core, &ClientSession::streamUp, m_banner, &QWidget::hide);
    connect(m_core, &ClientSession::streamDown, m_banner, &ConnectionBanner::showProblem);
    connect(m_core, &ClientSession::loginNeeded, this, &MainWindow::showLogin);
    connect(m_core, &ClientSession::loginFailed, this, &MainWindow::onLoginFailed);
    connect(m_core, &ClientSession::loggedIn, this, [this] {
        if (m_loginDialog)
            m_loginDialog->accept();
    });
    connect(m_core->session(), &core::Session::stateChanged, this, [this] {
        if (!m_core->isLoggedIn())
            m_banner->hide();
        retranslate();
        updateActions();
    });
    connect(m_core, &ClientSession::resetForUser, this, &MainWindow::clearForUser);
    connect(m_core, &ClientSession::instancesLoaded, this, &MainWindow::showInstances);
    connect(m_core, &ClientSession::instanceChanged, this, &MainWindow::showInstance);
    connect(m_core, &ClientSession::metricsReceived, m_chart, &MetricsChart::addSample);
    connect(m_core, &ClientSession::metricsReceived, m_model, &InstanceTableModel::addSample);
    connect(m_core, &ClientSession::billMoved, this, &MainWindow::onBillMoved);
    connect(m_core->ticker(), &BillTicker::balanceChanged, m_trayNotifier, &TrayNotifier::refresh);
    connect(m_core, &ClientSession::balanceExhausted, this, [this] {
        statusBar()->showMessage(tr("The balance has run out: the provider stops your instances."));
    });
    connect(m_core, &ClientSession::notice, this,
            [this](const QString &message) { statusBar()->showMessage(message); });
}

void MainWindow::retranslate()
{
    const core::Session *session = m_core->session();
    setWindowTitle(session->isLoggedIn() ? tr("CardHour — %1").arg(session->user().email)
                                         : tr("CardHour"));
    m_userLabel->setText(session->isLoggedIn() ? tr("Logged in as %1").arg(session->user().email)
                                               : QString());
    m_model->retranslate();
    m_tabs->setTabText(0, tr("Instances"));
    m_tabs->setTabText(1, tr("Ledger"));
    m_trayNotifier->retranslate();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
    }
    QMainWindow::changeEvent(event);
}

// ---- connecting ---------------------------------------------------------------------------------

void MainWindow::connectToSandbox()
{
    m_core->connectToSandbox();
}

void MainWindow::connectToUrl(const QUrl &url)
{
    m_connectPage->setUrl(url);
    m_core->connectToUrl(url);
}

// ---- the session --------------------------------------------------------------------------------

void MainWindow::showLogin(const QString &note)
{
    if (!m_loginDialog) {
        m_loginDialog = new LoginDialog(this);
        m_loginDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_loginDialog, &LoginDialog::submitted, this,
                [this](const QString &email, const QString &password, bool signUp) {
                    m_lastEmail = email;
                    if (signUp)
                        m_core->signUp(email, password);
                    else
                        m_core->logIn(email, password);
                });
        connect(m_loginDialog, &QDialog::rejected, this, [this] {
            if (!m_core->isLoggedIn())
                statusBar()->showMessage(tr("Not logged in. Use File → Reload to log in."));
        });
    }
    m_loginDialog->setProviderName(m_core->session()->providerUrl().toDisplayString());
    if (!m_lastEmail.isEmpty())
        m_loginDialog->setEmail(m_lastEmail);
    if (!note.isEmpty())
        m_loginDialog->setNote(note);
    m_loginDialog->open();
}

void MainWindow::onLoginFailed(const ApiError &error)
{
    if (m_loginDialog && m_loginDialog->isVisible())
        m_loginDialog->showError(error.userMessage());
    else
        showLogin(error.userMessage());
}

void MainWindow::clearForUser()
{
    m_model->clear();
    m_ledgerView->clear();
    updateActions();
}

void MainWindow::reloadAll()
{
    if (!m_core->isLoggedIn()) {
        // Reload also brings back the log-in prompt after it was dismissed.
        if (m_stack->currentWidget() == m_dashboard)
            showLogin();
        return;
    }
    m_core->reload();
    if (currentView() == View::Ledger)
        reloadLedger();
}

void MainWindow::showInstances(const QList<Instance> &instances)
{
    const QString selected = selectedInstanceId();
    m_model->setInstances(instances);
    selectInstance(selected);
    updateLedgerNames();
    updateActions();
}

void MainWindow::showInstance(const Instance &instance)
{
    m_model->upsert(instance);
    updateLedgerNames();
    updateActions();
    updateChart();
}

// ---- instances ----------------------------------------------------------------------------------

QString MainWindow::selectedInstanceId() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(InstanceTableModel::IdRole).toString();
}

void MainWindow::selectInstance(const QString &id)
{
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_table->selectRow(row);
}

void MainWindow::updateActions()
{
    const bool loggedIn = m_core->isLoggedIn();
    const Instance *instance = m_model->instance(selectedInstanceId());
    auto allowed = [&](Action action) {
        return loggedIn && instance && InstanceActions::allowed(action, *instance);
    };
    m_ui->launchAction->setEnabled(loggedIn);
    m_ui->refreshAction->setEnabled(m_stack->currentWidget() == m_dashboard);
    m_ui->logOutAction->setEnabled(loggedIn);
    m_ui->topUpAction->setEnabled(loggedIn);
    m_ui->stopAction->setEnabled(allowed(Action::Stop));
    m_ui->startAction->setEnabled(allowed(Action::Start));
    m_ui->terminateAction->setEnabled(allowed(Action::Terminate));
    updateSshActions(loggedIn ? instance : nullptr);
}

void MainWindow::openLaunchDialog()
{
    if (m_launchDialog) {
        m_launchDialog->raise();
        return;
    }
    m_launchDialog = new LaunchDialog(m_core->client(), m_core->ticker(), m_ssh->keyStore(), this);
    m_launchDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_launchDialog, &LaunchDialog::launched, this, [this](const Instance &instance) {
        m_core->noteInstance(instance);
        m_model->upsert(instance);
        selectInstance(instance.id);
        statusBar()->showMessage(tr("Launching %1…").arg(instance.name), 5000);
    });
    connect(m_launchDialog, &LaunchDialog::manageKeysRequested, this, &MainWindow::openKeysDialog);
    connect(m_launchDialog, &LaunchDialog::keyCreated, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    m_launchDialog->load();
    m_launchDialog->open();
}

void MainWindow::confirm(Action action)
{
    const Instance *instance = m_model->instance(selectedInstanceId());
    if (!instance || !InstanceActions::allowed(action, *instance))
        return;
    auto *box =
        new QMessageBox(action == Action::Terminate ? QMessageBox::Warning : QMessageBox::Question,
                        InstanceActions::buttonText(action),
                        InstanceActions::question(action, *instance), QMessageBox::Cancel, this);
    box->setObjectName(u"confirmDialog"_s);
    box->setInformativeText(InstanceActions::preview(action, *instance));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(InstanceActions::buttonText(action), QMessageBox::AcceptRole);
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

void MainWindow::perform(Action action, const QString &instanceId)
{
    Reply<Instance> *reply = nullptr;
    switch (action) {
    case Action::Stop:
        reply = m_core->client()->stopInstance(instanceId);
        break;
    case Action::Start:
        reply = m_core->client()->startInstance(instanceId);
        break;
    case Action::Terminate:
        reply = m_core->client()->terminateInstance(instanceId);
        break;
    }
    reply->onFinished(this, [this, action](const Reply<Instance> &r) {
        if (r.ok()) {
            m_core->noteInstance(r.value());
            m_model->upsert(r.value());
            updateActions();
            return;
        }
        showError(InstanceActions::buttonText(action), r.error().userMessage());
    });
}

void MainWindow::showError(const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(u"errorDialog"_s);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::updateChart()
{
    const Instance *instance = m_model->instance(selectedInstanceId());
    m_chart->setInstance(instance ? instance->id : QString(), instance && instance->isBilled());
}

void MainWindow::onBillMoved()
{
    m_billPanel->refresh();
    m_trayNotifier->refresh();
    if (currentView() == View::Ledger)
        reloadLedger(); // the balance moved: there are new postings to show
}

} // namespace cardhour::ui
