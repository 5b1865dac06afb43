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
#include "Translations.h"
#include "TrayNotifier.h"
#include "api/EventStream.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "billing/RunwayAlerts.h"
#include "sandbox/SandboxLauncher.h"
#include "session/SecretStore.h"
#include "session/Session.h"

#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

MainWindow::MainWindow(const Options &options, Translations *translations, QWidget *parent)
    : QMainWindow(parent), m_options(options), m_translations(translations),
      m_client(new ProviderClient(this)), m_events(new EventStream(this)),
      m_secrets(new SecretStore(options.keychainService, this)),
      m_session(new Session(m_client, m_secrets, this)), m_launcher(new SandboxLauncher(this)),
      m_ticker(new BillTicker(nullptr, this)), m_model(new InstanceTableModel(nullptr, this))
{
    setObjectName(u"mainWindow"_s);
    m_secrets->setTimeoutMs(options.keychainTimeoutMs);
    m_events->setReconnectDelays(options.reconnectMinMs, options.reconnectMaxMs);
    if (!options.sandboxExecutable.isEmpty())
        m_launcher->setExecutable(options.sandboxExecutable);
    if (!options.sandboxDataDir.isEmpty())
        m_launcher->setDataDir(options.sandboxDataDir);
    m_launcher->setExtraArguments(options.sandboxArguments);
    m_launcher->setAttachAllowed(options.sandboxAttach);
    m_alerts = new RunwayAlerts(nullptr, this);

    buildUi();
    buildMenus();

    // ---- the connect step --------------------------------------------------------------------
    connect(m_connectPage, &ConnectPage::sandboxRequested, this, &MainWindow::connectToSandbox);
    connect(m_connectPage, &ConnectPage::urlRequested, this, &MainWindow::connectToUrl);
    connect(m_launcher, &SandboxLauncher::progress, this,
            [this](const QString &message) { m_connectPage->setBusy(true, message); });
    connect(m_launcher, &SandboxLauncher::ready, this,
            [this](const QUrl &url) { useProvider(url, m_launcher->providerKey()); });
    connect(m_launcher, &SandboxLauncher::failed, this,
            [this](const QString &reason, const QString &tail) {
                m_stack->setCurrentWidget(m_connectPage);
                m_connectPage->setProblem(tail.isEmpty() ? reason : reason + u"\n\n"_s + tail);
            });
    connect(m_launcher, &SandboxLauncher::exitedUnexpectedly, this,
            [this](const QString &reason) { m_banner->showProblem(reason); });

    // ---- the session ---------------------------------------------------------------------------
    connect(m_session, &Session::loggedIn, this, &MainWindow::onLoggedIn);
    connect(m_session, &Session::failed, this, &MainWindow::onSessionFailed);
    connect(m_session, &Session::sessionExpired, this, &MainWindow::onSessionExpired);
    connect(m_session, &Session::loggedOut, this, &MainWindow::onLoggedOut);
    connect(m_session, &Session::restoreFinished, this, [this](bool restored) {
        if (!restored && !m_session->isLoggedIn())
            showLogin();
    });
    connect(m_session, &Session::tokenStorageFailed, this, [this](const QString &reason) {
        statusBar()->showMessage(tr("You stay logged in for this session only: %1").arg(reason));
    });

    // ---- what the provider pushes --------------------------------------------------------------
    connect(m_events, &EventStream::connected, this, [this] {
        m_banner->hide();
        reloadAll(); // event ids restart with a restarted provider: never trust replay alone
    });
    connect(m_events, &EventStream::disconnected, this, [this](const QString &reason) {
        if (m_session->isLoggedIn())
            m_banner->showProblem(reason);
    });
    connect(m_events, &EventStream::instanceChanged, this, [this](const Instance &instance) {
        m_model->upsert(instance);
        m_alerts->observeInstance(instance);
        updateLedgerNames();
        updateActions();
        updateChart();
    });
    connect(m_events, &EventStream::billingChanged, this, [this](const BillingSummary &summary) {
        m_ticker->update(summary);
        m_billPanel->refresh();
        updateTray();
        if (currentView() == View::Ledger)
            reloadLedger(); // the balance moved: there are new postings to show
    });
    connect(m_events, &EventStream::metricsReceived, m_chart, &MetricsChart::addSample);
    connect(m_events, &EventStream::metricsReceived, m_model, &InstanceTableModel::addSample);
    // A 401 on the stream ends the session as a 401 on any call does (Session says so once).
    connect(m_events, &EventStream::sessionExpired, m_session, &Session::expire);
    connect(m_banner, &ConnectionBanner::retryRequested, this, &MainWindow::retry);
    connect(m_ticker, &BillTicker::exhausted, this, [this] {
        statusBar()->showMessage(tr("The balance has run out: the provider stops your instances."));
    });

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
    m_billPanel = new BillPanel(m_ticker, m_dashboard);
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
    m_chart = new MetricsChart(m_client, m_dashboard);
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
    connect(m_ticker, &BillTicker::balanceChanged, this, &MainWindow::updateTray);
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

void MainWindow::buildMenus()
{
    auto makeAction = [this](const QString &name, auto slot) {
        auto *action = new QAction(this);
        action->setObjectName(name);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_launchAction = makeAction(u"launchAction"_s, &MainWindow::openLaunchDialog);
    m_launchAction->setShortcut(QKeySequence::New);
    m_stopAction = makeAction(u"stopAction"_s, [this] { confirm(Action::Stop); });
    m_startAction = makeAction(u"startAction"_s, [this] { confirm(Action::Start); });
    m_terminateAction = makeAction(u"terminateAction"_s, [this] { confirm(Action::Terminate); });
    m_refreshAction = makeAction(u"refreshAction"_s, &MainWindow::reloadAll);
    m_refreshAction->setShortcut(QKeySequence::Refresh);
    m_logOutAction = makeAction(u"logOutAction"_s, [this] { m_session->logOut(); });
    m_connectAction = makeAction(u"connectAction"_s, [this] {
        // Back to the connect step; the session stays until another provider is chosen.
        m_events->stop();
        m_banner->hide();
        m_connectPage->setBusy(false, {});
        m_stack->setCurrentWidget(m_connectPage);
    });
    m_quitAction = makeAction(u"quitAction"_s, &QWidget::close);
    m_quitAction->setShortcut(QKeySequence::Quit);

    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addAction(m_connectAction);
    m_fileMenu->addAction(m_refreshAction);
    m_fileMenu->addAction(m_logOutAction);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);
    m_instanceMenu = menuBar()->addMenu(QString());
    buildSshMenus(m_instanceMenu);
    const QList<QAction *> instanceActions{m_launchAction, m_terminalAction, m_stopAction,
                                           m_startAction, m_terminateAction};
    m_instanceMenu->insertActions(m_instanceMenu->actions().value(0), instanceActions);
    m_instanceMenu->insertSeparator(m_instanceMenu->actions().value(instanceActions.size()));
    m_table->addActions({m_terminalAction, m_appsMenu->menuAction(), m_systemTerminalAction,
                         m_sshConfigAction, m_sshAction, m_stopAction, m_startAction,
                         m_terminateAction});

    m_viewMenu = menuBar()->addMenu(QString());
    m_chartAction = m_viewMenu->addAction(QString());
    m_chartAction->setObjectName(u"showChartAction"_s);
    m_chartAction->setCheckable(true);
    m_chartAction->setChecked(true);
    connect(m_chartAction, &QAction::toggled, m_chart, &QWidget::setVisible);

    m_languageMenu = menuBar()->addMenu(QString());
    m_languageMenu->setObjectName(u"languageMenu"_s);
    m_languageGroup = new QActionGroup(this);
    for (const QString &language : Translations::available()) {
        QAction *action = m_languageMenu->addAction(Translations::nativeName(language));
        action->setObjectName(u"language_"_s + language);
        action->setCheckable(true);
        action->setData(language);
        action->setChecked(m_translations ? m_translations->current() == language
                                          : language == u"en"_s);
        action->setEnabled(m_translations != nullptr);
        m_languageGroup->addAction(action);
    }
    connect(m_languageGroup, &QActionGroup::triggered, this, [this](QAction *action) {
        if (m_translations && !m_translations->setLanguage(action->data().toString()))
            showError(tr("Language"), tr("This translation could not be loaded."));
    });

    auto *toolbar = addToolBar(QString());
    toolbar->setObjectName(u"mainToolBar"_s);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addActions(instanceActions);
    buildBillingMenus();
    toolbar->addSeparator();
    toolbar->addAction(m_topUpAction);
}

void MainWindow::retranslate()
{
    setWindowTitle(m_session->isLoggedIn() ? tr("CardHour — %1").arg(m_session->user().email)
                                           : tr("CardHour"));
    m_fileMenu->setTitle(tr("&File"));
    m_instanceMenu->setTitle(tr("&Instances"));
    m_languageMenu->setTitle(tr("&Language"));
    m_viewMenu->setTitle(tr("&View"));
    m_chartAction->setText(tr("GPU &chart"));
    m_launchAction->setText(tr("&Launch…"));
    m_launchAction->setToolTip(tr("Rent a new GPU host"));
    m_stopAction->setText(tr("S&top…"));
    m_startAction->setText(tr("&Start…"));
    m_terminateAction->setText(tr("&Terminate…"));
    m_refreshAction->setText(tr("&Reload"));
    m_connectAction->setText(tr("&Connect to…"));
    m_logOutAction->setText(tr("Log &out"));
    m_quitAction->setText(tr("&Quit"));
    m_userLabel->setText(
        m_session->isLoggedIn() ? tr("Logged in as %1").arg(m_session->user().email) : QString());
    m_model->retranslate();
    retranslateBilling();
    retranslateSsh();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

// ---- connecting ---------------------------------------------------------------------------------

void MainWindow::connectToSandbox()
{
    m_usingSandbox = true;
    m_stack->setCurrentWidget(m_connectPage);
    m_connectPage->setBusy(true, tr("Starting CardHour Sandbox…"));
    m_launcher->start();
}

void MainWindow::connectToUrl(const QUrl &url)
{
    m_usingSandbox = false;
    m_stack->setCurrentWidget(m_connectPage);
    m_connectPage->setUrl(url);
    m_connectPage->setBusy(true, tr("Asking %1…").arg(url.toDisplayString()));
    // A separate client for the probe: the session's client keeps its provider until this one
    // has proven to be one.
    auto *probe = new ProviderClient(this);
    probe->setBaseUrl(url);
    probe->setTimeoutMs(10000);
    probe->health()->onFinished(this, [this, probe, url](const Reply<Health> &reply) {
        probe->deleteLater();
        if (!reply.ok()) {
            m_connectPage->setProblem(reply.error().userMessage());
            return;
        }
        useProvider(url, {});
    });
}

void MainWindow::useProvider(const QUrl &url, const QString &providerKey)
{
    m_connectPage->setBusy(false, {});
    m_events->stop();
    m_model->clear();
    m_ticker->clear();
    m_billPanel->refresh();
    m_banner->hide();
    m_session->setProvider(url, providerKey);
    m_events->setBaseUrl(url);
    m_stack->setCurrentWidget(m_dashboard);
    updateActions();
    statusBar()->showMessage(tr("Connected to %1").arg(url.toDisplayString()), 5000);
    if (m_session->isLoggedIn())
        onLoggedIn(); // the same provider again (a restarted sandbox): carry on
    else
        m_session->restore();
}

// ---- the session
// ----------------------------------------------------------------------------------

void MainWindow::showLogin(const QString &note)
{
    if (!m_loginDialog) {
        m_loginDialog = new LoginDialog(this);
        m_loginDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_loginDialog, &LoginDialog::submitted, this,
                [this](const QString &email, const QString &password, bool signUp) {
                    m_lastEmail = email;
                    if (signUp)
                        m_session->signUp(email, password);
                    else
                        m_session->logIn(email, password);
                });
        connect(m_loginDialog, &QDialog::rejected, this, [this] {
            if (!m_session->isLoggedIn())
                statusBar()->showMessage(tr("Not logged in. Use File → Reload to log in."));
        });
    }
    m_loginDialog->setProviderName(m_session->providerUrl().toDisplayString());
    if (!m_lastEmail.isEmpty())
        m_loginDialog->setEmail(m_lastEmail);
    if (!note.isEmpty())
        m_loginDialog->setNote(note);
    m_loginDialog->open();
}

void MainWindow::onLoggedIn()
{
    if (m_loginDialog)
        m_loginDialog->accept();
    // After an expiry the same user finds the view and selection as they were; another user
    // starts afresh.
    if (m_session->user().id != m_lastUserId) {
        m_model->clear();
        m_ledgerView->clear();
        m_alerts->clear();
        m_instanceNames.clear();
    }
    m_lastUserId = m_session->user().id;
    m_events->setToken(m_session->token());
    m_events->start();
    retranslate();
    updateActions();
    reloadAll();
}

void MainWindow::onSessionFailed(const ApiError &error)
{
    if (m_loginDialog && m_loginDialog->isVisible())
        m_loginDialog->showError(error.userMessage());
    else
        showLogin(error.userMessage());
}

void MainWindow::onSessionExpired()
{
    m_events->stop();
    m_banner->hide();
    showLogin(tr("Your session has ended. Please log in again."));
    retranslate();
    updateActions();
}

void MainWindow::onLoggedOut()
{
    m_events->stop();
    m_lastUserId.clear();
    m_instanceNames.clear();
    m_alerts->clear();
    m_ledgerView->clear();
    m_model->clear();
    m_ticker->clear();
    m_billPanel->refresh();
    m_banner->hide();
    retranslate();
    updateActions();
    showLogin();
}

void MainWindow::reloadAll()
{
    if (!m_session->isLoggedIn()) {
        if (m_stack->currentWidget() == m_dashboard)
            showLogin();
        return;
    }
    m_client->instances()->onFinished(this, [this](const Reply<QList<Instance>> &reply) {
        if (!reply.ok())
            return; // the banner (stream down) or the log-in prompt (401) says why
        const QString selected = selectedInstanceId();
        m_model->setInstances(reply.value());
        m_alerts->seedInstances(reply.value());
        selectInstance(selected);
        updateLedgerNames();
        updateActions();
    });
    m_client->billingSummary()->onFinished(this, [this](const Reply<BillingSummary> &reply) {
        if (!reply.ok())
            return;
        m_ticker->update(reply.value());
        m_billPanel->refresh();
        updateTray();
    });
    if (currentView() == View::Ledger)
        reloadLedger();
}

// ---- instances
// --------------------------------------------------------------------------------------

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
    const bool loggedIn = m_session->isLoggedIn();
    const Instance *instance = m_model->instance(selectedInstanceId());
    m_launchAction->setEnabled(loggedIn);
    // Reload also brings back the log-in prompt after it was dismissed.
    m_refreshAction->setEnabled(m_stack->currentWidget() == m_dashboard);
    m_logOutAction->setEnabled(loggedIn);
    m_stopAction->setEnabled(loggedIn && instance
                             && InstanceActions::allowed(Action::Stop, *instance));
    m_startAction->setEnabled(loggedIn && instance
                              && InstanceActions::allowed(Action::Start, *instance));
    m_terminateAction->setEnabled(loggedIn && instance
                                  && InstanceActions::allowed(Action::Terminate, *instance));
    updateSshActions(loggedIn ? instance : nullptr);
}

void MainWindow::openLaunchDialog()
{
    if (m_launchDialog) {
        m_launchDialog->raise();
        return;
    }
    m_launchDialog = new LaunchDialog(m_client, m_ticker, this);
    m_launchDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_launchDialog, &LaunchDialog::launched, this, [this](const Instance &instance) {
        m_model->upsert(instance);
        selectInstance(instance.id);
        statusBar()->showMessage(tr("Launching %1…").arg(instance.name), 5000);
    });
    connect(m_launchDialog, &LaunchDialog::manageKeysRequested, this, &MainWindow::openKeysDialog);
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
        reply = m_client->stopInstance(instanceId);
        break;
    case Action::Start:
        reply = m_client->startInstance(instanceId);
        break;
    case Action::Terminate:
        reply = m_client->terminateInstance(instanceId);
        break;
    }
    reply->onFinished(this, [this, action](const Reply<Instance> &r) {
        if (r.ok()) {
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

void MainWindow::retry()
{
    // A sandbox of ours that died is started again; otherwise the stream tries at once
    // instead of waiting out its back-off.
    if (m_usingSandbox && m_launcher->state() != SandboxLauncher::State::Running
        && m_launcher->state() != SandboxLauncher::State::Starting
        && m_launcher->state() != SandboxLauncher::State::Attached) {
        m_launcher->start();
        return;
    }
    m_events->start();
}

void MainWindow::updateChart()
{
    const Instance *instance = m_model->instance(selectedInstanceId());
    m_chart->setInstance(instance ? instance->id : QString(), instance && instance->isBilled());
}

void MainWindow::updateTray()
{
    m_trayNotifier->refresh();
    if (m_ticker->hasData())
        m_alerts->evaluate(m_ticker->balanceMicros(), m_ticker->spendRateMicrosPerHour());
}

} // namespace cardhour::ui
