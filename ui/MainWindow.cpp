#include "MainWindow.h"

#include "AfterPaint.h"
#include "BillPanel.h"
#include "BillingController.h"
#include "ConnectPage.h"
#include "ConnectionBanner.h"
#include "Format.h"
#include "Icons.h"
#include "InstanceTableModel.h"
#include "NavigationBar.h"
#include "Notice.h"
#include "StateStyle.h"
#include "Translations.h"
#include "pages/AccountPage.h"
#include "pages/InstancesPage.h"
#include "session/Session.h"
#include "theme/Design.h"
#include "ui_MainWindow.h"

#include <QActionGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
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
    paintIcons();
    buildUi();
    connectActions();
    buildLanguageMenu();
    connectSession();

    m_stack->setCurrentWidget(m_connectPage);
    retranslate();
    updateActions();
    resize(1000, 620);
    restoreWindowState();
    m_ui->mainToolBar->setVisible(false); // after the restored state: see currentChanged
    (new AfterPaint(this, [this] { ensureDashboard(); }))->arm();
}

MainWindow::~MainWindow()
{
    saveWindowState();
}

void MainWindow::buildUi()
{
    setWindowIcon(Icons::application());
    m_stack = new QStackedWidget(this);
    m_connectPage = new ConnectPage(m_core->launcher(), m_stack);
    m_connectPage->setObjectName(u"connectPage"_s);
    m_stack->addWidget(m_connectPage);
    setCentralWidget(m_stack);
    // The toolbar's actions act on hosts: it comes with the dashboard, not before.
    connect(m_stack, &QStackedWidget::currentChanged, this, [this] {
        m_ui->mainToolBar->setVisible(m_dashboard && m_stack->currentWidget() == m_dashboard);
    });
    buildBilling();

    m_userLabel = new QLabel(this);
    m_userLabel->setObjectName(u"userLabel"_s);
    m_zoneLabel = new QLabel(this);
    m_zoneLabel->setObjectName(u"timeZoneLabel"_s);
    statusBar()->addPermanentWidget(m_zoneLabel);
    statusBar()->addPermanentWidget(m_userLabel);
}

void MainWindow::ensureDashboard()
{
    if (m_dashboard)
        return;
    m_dashboard = new QWidget(m_stack);
    m_dashboard->setObjectName(u"dashboard"_s);
    auto *layout = new QVBoxLayout(m_dashboard);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_banner = new ConnectionBanner(m_dashboard);
    layout->addWidget(m_banner);
    m_runtimeNotice = new QLabel(m_dashboard);
    m_runtimeNotice->setObjectName(u"runtimeNotice"_s);
    m_runtimeNotice->setWordWrap(true);
    m_runtimeNotice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runtimeNotice->setContentsMargins(8, 4, 8, 4);
    StateStyle::showAsError(m_runtimeNotice);
    m_runtimeNotice->hide();
    layout->addWidget(m_runtimeNotice);
    layout->addWidget(m_billing->createBillPanel(m_dashboard));
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    m_nav = new NavigationBar(m_dashboard);
    row->addWidget(m_nav);
    auto *pageColumn = new QVBoxLayout;
    pageColumn->setContentsMargins(0, 0, 0, 0);
    pageColumn->setSpacing(0);
    m_pageTitle = new QLabel(m_dashboard);
    m_pageTitle->setObjectName(u"pageTitle"_s);
    Design::setTextRole(m_pageTitle, TextRole::PageTitle);
    m_pageTitle->setContentsMargins(space::m, space::m, space::m, space::xs);
    pageColumn->addWidget(m_pageTitle);
    m_pages = new QStackedWidget(m_dashboard);
    m_pages->setObjectName(u"pages"_s);
    pageColumn->addWidget(m_pages, 1);
    row->addLayout(pageColumn, 1);
    layout->addLayout(row, 1);
    m_stack->addWidget(m_dashboard);
    buildNavigation();
    buildInstancesPage();
    connectDashboard();
    retranslateDashboard();
    updateActions();
}

void MainWindow::connectDashboard()
{
    connect(m_banner, &ConnectionBanner::retryRequested, m_core, &ClientSession::retry);
    connect(m_core, &ClientSession::providerLost, m_banner, &ConnectionBanner::showProblem);
    connect(m_core, &ClientSession::streamUp, m_banner, &QWidget::hide);
    connect(m_core, &ClientSession::streamDown, m_banner, &ConnectionBanner::showProblem);
    connect(m_core, &ClientSession::providerSlow, m_banner, &ConnectionBanner::showSlow);
    connect(m_core, &ClientSession::providerPrompt, m_banner, &ConnectionBanner::clearSlow);
    connectNavigation();
    connectInstanceActions();
    setCurrentView(m_restoredView);
}

void MainWindow::connectActions()
{
    // Standard keys differ per platform, so they are set here rather than in the form.
    m_ui->launchAction->setShortcut(QKeySequence::New);
    m_ui->refreshAction->setShortcut(QKeySequence::Refresh);
    m_ui->quitAction->setShortcut(QKeySequence::Quit);
    connect(m_ui->launchAction, &QAction::triggered, this, &MainWindow::openLaunchDialog);
    connect(m_ui->stopAction, &QAction::triggered, this,
            [this] { confirm(Action::Stop, selectedInstanceId()); });
    connect(m_ui->startAction, &QAction::triggered, this,
            [this] { confirm(Action::Start, selectedInstanceId()); });
    connect(m_ui->terminateAction, &QAction::triggered, this,
            [this] { confirm(Action::Terminate, selectedInstanceId()); });
    connect(m_ui->refreshAction, &QAction::triggered, this, &MainWindow::reloadAll);
    connect(m_ui->logOutAction, &QAction::triggered, m_core, &ClientSession::logOut);
    connect(m_ui->connectAction, &QAction::triggered, this, &MainWindow::backToConnectStep);
    connect(m_ui->quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_ui->showChartAction, &QAction::toggled, this, [this](bool on) {
        if (m_instances)
            m_instances->setChartWanted(on);
    });
    connect(m_connectPage, &ConnectPage::sandboxRequested, this, &MainWindow::connectToSandbox);
    connect(m_connectPage, &ConnectPage::urlRequested, this, &MainWindow::connectToUrl);
    m_ui->settingsAction->setShortcut(QKeySequence::Preferences);
    connect(m_ui->topUpAction, &QAction::triggered, m_billing, &BillingController::openTopUpDialog);
    connect(m_ui->settingsAction, &QAction::triggered, this, &MainWindow::openSettingsDialog);
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
        ensureDashboard();
        m_connectPage->setBusy(false, {});
        m_banner->hide();
        // A sandbox found again at a new port while the account page is up: it stays up.
        if (m_core->isLoggedIn() || m_stack->currentWidget() != m_accountPage)
            m_stack->setCurrentWidget(m_dashboard);
        buildShownPage();
        updateActions();
        statusBar()->showMessage(tr("Connected to %1").arg(url.toDisplayString()), 5000);
        rememberProvider(m_core->usingSandbox() ? QUrl() : url);
    });
    connect(m_core, &ClientSession::providerRuntime, this, &MainWindow::retranslateDashboard);
    // Every time on every page is in the provider's zone (Format); the model writes the stages'.
    connect(m_core, &ClientSession::timeZoneChanged, this, [this](const QTimeZone &zone) {
        m_model->setTimeZone(zone, m_core->providerClock());
        retranslate();
    });
    m_model->setTimeZone(m_core->timeZone(), m_core->providerClock());
    connect(m_core, &ClientSession::loginNeeded, this, &MainWindow::showLogin);
    connect(m_core, &ClientSession::loginFailed, this, &MainWindow::onLoginFailed);
    connect(m_core, &ClientSession::loggedIn, this, [this](const SessionUser &user) {
        rememberAccount(user.email);
        if (!m_accountPage || m_stack->currentWidget() != m_accountPage)
            return;
        ensureDashboard();
        m_stack->setCurrentWidget(m_dashboard);
        buildShownPage();
        // The account exists now: the next time (a session that ends) is a log-in.
        m_accountPage->setBusy(false);
        m_accountPage->clearPasswords();
        m_accountPage->setSignUp(false);
    });
    connect(m_core->session(), &core::Session::stateChanged, this, [this] {
        if (!m_core->isLoggedIn() && m_banner)
            m_banner->hide();
        retranslate();
        updateActions();
    });
    connect(m_core, &ClientSession::resetForUser, this, [this] {
        m_model->clear();
        updateActions();
    });
    connect(m_core, &ClientSession::instancesLoaded, this, &MainWindow::showInstances);
    connect(m_core, &ClientSession::instanceChanged, this, &MainWindow::showInstance);
    connect(m_core, &ClientSession::metricsReceived, m_model, &InstanceTableModel::addSample);
    connect(m_core, &ClientSession::balanceExhausted, this, [this] {
        showLastingStatus(
            [this] { return tr("The balance has run out: the provider stops your instances."); });
    });
    connect(m_core, &ClientSession::notice, this,
            [this] { showLastingStatus([this] { return m_core->noticeText(); }); });
}

void MainWindow::showLastingStatus(std::function<QString()> text)
{
    m_lastingStatus = std::move(text);
    m_lastingStatusShown = m_lastingStatus();
    statusBar()->showMessage(m_lastingStatusShown);
}

void MainWindow::retranslate()
{
    const core::Session *session = m_core->session();
    setWindowTitle(session->isLoggedIn() ? tr("CardHour — %1").arg(session->user().email)
                                         : tr("CardHour"));
    m_userLabel->setText(session->isLoggedIn() ? tr("Logged in as %1").arg(session->user().email)
                                               : QString());
    m_zoneLabel->setText(session->isLoggedIn()
                             ? Format::zoneNote(m_core->timeZone(), m_core->timeZoneStated())
                             : QString());
    m_model->retranslate();
    retranslateDashboard();
    m_billing->retranslate();
    // A message that stays until the next one is said again; one that has gone stays gone.
    if (m_lastingStatus && statusBar()->currentMessage() == m_lastingStatusShown
        && !m_lastingStatusShown.isEmpty())
        showLastingStatus(m_lastingStatus);
}

void MainWindow::retranslateDashboard()
{
    if (!m_dashboard)
        return;
    const bool inProcess = m_core->runtime() == u"inprocess"_s;
    if (inProcess) {
        // The sandbox's own words for why: the fix (install podman, free it) follows from them.
        const QString note = m_core->runtimeNote();
        const QString why = note.isEmpty() ? tr("it was started with --runtime inprocess") : note;
        m_runtimeNotice->setText(
            tr("Hosts here run without containers: they go through their states and are billed, "
               "but have no SSH and no terminal. Why: %1.")
                .arg(why));
    }
    m_runtimeNotice->setVisible(inProcess);
    retranslateNavigation();
}

void MainWindow::paintIcons()
{
    const QPalette colours = palette();
    const QList<std::pair<QAction *, Icon>> icons = {
        {m_ui->launchAction, Icon::Launch},
        {m_ui->openTerminalAction, Icon::Terminal},
        {m_ui->systemTerminalAction, Icon::SystemTerminal},
        {m_ui->stopAction, Icon::Stop},
        {m_ui->startAction, Icon::Start},
        {m_ui->terminateAction, Icon::Terminate},
        {m_ui->copySshAction, Icon::Copy},
        {m_ui->sshConfigAction, Icon::SshConfig},
        {m_ui->appsMenu->menuAction(), Icon::OpenApp},
        {m_ui->uploadAction, Icon::Upload},
        {m_ui->downloadAction, Icon::Download},
        {m_ui->topUpAction, Icon::TopUp},
        {m_ui->refreshAction, Icon::Reload},
        {m_ui->settingsAction, Icon::Settings},
        {m_ui->connectAction, Icon::Connect},
        {m_ui->logOutAction, Icon::LogOut},
        {m_ui->sshKeysAction, Icon::Keys},
        {m_ui->showHomeAction, Icon::Home},
        {m_ui->showInstancesAction, Icon::Instances},
        {m_ui->showSnapshotsAction, Icon::Snapshots},
        {m_ui->showStorageAction, Icon::Storage},
        {m_ui->showBillingAction, Icon::Billing},
        {m_ui->showKeysAction, Icon::Keys}};
    for (const auto &[action, icon] : icons)
        action->setIcon(Icons::icon(icon, colours));
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
    } else if (event->type() == QEvent::PaletteChange) {
        paintIcons();
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

AccountPage *MainWindow::ensureAccountPage()
{
    if (m_accountPage)
        return m_accountPage;
    m_accountPage = new AccountPage(m_stack);
    m_stack->addWidget(m_accountPage);
    connect(m_accountPage, &AccountPage::submitted, this,
            [this](const QString &email, const QString &password, bool signUp) {
                if (signUp)
                    m_core->signUp(email, password);
                else
                    m_core->logIn(email, password);
            });
    connect(m_accountPage, &AccountPage::backRequested, this, &MainWindow::backToConnectStep);
    return m_accountPage;
}

void MainWindow::showLogin(const QString &note)
{
    AccountPage *page = ensureAccountPage();
    const QString url = m_core->session()->providerUrl().toDisplayString();
    page->setProviderName(
        m_core->usingSandbox() ? tr("CardHour Sandbox on this computer (%1)").arg(url) : url);
    page->setTrialCredit(m_core->trialCreditMicros());
    // A new user is offered the account (and the trial) first; a returning one, log-in. A
    // choice made on the page while it is up stays.
    if (m_stack->currentWidget() != page)
        page->setSignUp(m_lastEmail.isEmpty());
    if (!m_lastEmail.isEmpty())
        page->setEmail(m_lastEmail);
    page->setBusy(false);
    page->setNote(note);
    m_stack->setCurrentWidget(page);
    page->focusFirstEmpty();
}

void MainWindow::onLoginFailed(const ApiError &error)
{
    if (m_accountPage && m_stack->currentWidget() == m_accountPage)
        m_accountPage->showError(error.userMessage());
    else
        showLogin(error.userMessage());
}

void MainWindow::backToConnectStep()
{
    // The session stays until another provider is chosen.
    m_core->disconnectFromProvider();
    if (m_banner)
        m_banner->hide();
    if (m_accountPage)
        m_accountPage->setBusy(false);
    m_connectPage->setBusy(false, {});
    m_stack->setCurrentWidget(m_connectPage);
}

void MainWindow::reloadAll()
{
    if (!m_core->isLoggedIn()) {
        // Reload also brings back the account page from the dashboard.
        if (m_stack->currentWidget() == m_dashboard)
            showLogin();
        return;
    }
    m_core->reload();
    if (currentView() == View::Billing)
        m_billing->reloadLedger();
}

void MainWindow::showInstances(const QList<Instance> &instances)
{
    const QString selected = selectedInstanceId();
    m_model->setInstances(instances);
    selectInstance(selected);
    updateActions();
}

void MainWindow::showInstance(const Instance &instance)
{
    m_model->upsert(instance);
    followLaunch(instance);
    updateActions();
    if (m_instances)
        m_instances->updateChart();
}

void MainWindow::showError(const QString &title, const QString &message)
{
    QMessageBox *box = Notice::fromMessage(this, Notice::Kind::Warning, title, message);
    box->setObjectName(u"errorDialog"_s);
    box->open();
}

} // namespace cardhour::ui
