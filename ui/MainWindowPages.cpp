// MainWindow, continued: the side bar and the pages behind it. Every page but Instances is built
// the first time it is shown (or asked for), so the window's start pays only for the connect step.
#include "BillingController.h"
#include "MainWindow.h"
#include "NavigationBar.h"
#include "SshActions.h"
#include "pages/BillingPage.h"
#include "pages/HomePage.h"
#include "pages/InstancesPage.h"
#include "pages/KeysPage.h"
#include "pages/SnapshotsPage.h"
#include "pages/StoragePage.h"
#include "ui_MainWindow.h"

#include <QAction>
#include <QLabel>
#include <QRegularExpression>
#include <QStackedWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

namespace {

constexpr int kViewCount = int(MainWindow::View::Keys) + 1;

} // namespace

void MainWindow::buildNavigation()
{
    const QList<std::pair<Icon, QString>> entries = {
        {Icon::Home, u"navHome"_s},           {Icon::Instances, u"navInstances"_s},
        {Icon::Snapshots, u"navSnapshots"_s}, {Icon::Storage, u"navStorage"_s},
        {Icon::Billing, u"navBilling"_s},     {Icon::Keys, u"navKeys"_s}};
    for (const auto &[icon, name] : entries) {
        m_nav->addPage(icon, name);
        m_pages->addWidget(new QWidget(m_pages)); // a placeholder until the page is built
        m_builtPages.append(nullptr);
    }
}

void MainWindow::connectNavigation()
{
    const QList<std::pair<QAction *, View>> actions = {
        {m_ui->showHomeAction, View::Home},           {m_ui->showInstancesAction, View::Instances},
        {m_ui->showSnapshotsAction, View::Snapshots}, {m_ui->showStorageAction, View::Storage},
        {m_ui->showBillingAction, View::Billing},     {m_ui->showKeysAction, View::Keys}};
    for (const auto &[action, view] : actions)
        connect(action, &QAction::triggered, this, [this, view = view] { setCurrentView(view); });
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= kViewCount)
            return;
        m_pages->setCurrentIndex(row);
        updatePageTitle();
        buildShownPage();
        m_billing->setPageShown(View(row) == View::Billing); // its ledger loads when shown
        updateTransferActions();
    });
}

void MainWindow::buildShownPage()
{
    // Until the dashboard is on screen (the connect step), pages wait.
    if (m_stack->currentWidget() != m_dashboard)
        return;
    ensurePage(currentView());
    if (currentView() == View::Instances)
        m_instances->buildDetails();
}

void MainWindow::retranslateNavigation()
{
    const QList<QAction *> actions = {m_ui->showHomeAction,      m_ui->showInstancesAction,
                                      m_ui->showSnapshotsAction, m_ui->showStorageAction,
                                      m_ui->showBillingAction,   m_ui->showKeysAction};
    for (int row = 0; row < actions.size(); ++row) {
        // The menu's mnemonic is no part of a page's name: "&Home" and "主页(&H)" lose it.
        QString name = actions[row]->text();
        name.remove(QRegularExpression(u"\\(&.\\)"_s)).remove(u'&');
        m_nav->setPageText(row, name, actions[row]->shortcut());
    }
    m_nav->setAccessibleName(tr("Pages"));
    updatePageTitle();
}

void MainWindow::updatePageTitle()
{
    if (m_pageTitle && m_nav && m_nav->currentRow() >= 0)
        m_pageTitle->setText(m_nav->item(m_nav->currentRow())->text());
}

MainWindow::View MainWindow::currentView() const
{
    if (!m_pages)
        return m_restoredView;
    return View(qBound(0, m_pages->currentIndex(), kViewCount - 1));
}

void MainWindow::setCurrentView(View view)
{
    if (!m_nav) {
        m_restoredView = view; // shown when the dashboard is built
        return;
    }
    m_nav->setCurrentRow(int(view)); // currentRowChanged shows (and builds) the page
}

QWidget *MainWindow::page(View view)
{
    return ensurePage(view);
}

QWidget *MainWindow::ensurePage(View view)
{
    ensureDashboard();
    const int index = int(view);
    if (QWidget *built = m_builtPages.value(index))
        return built;
    QWidget *page = createPage(view);
    QWidget *placeholder = m_pages->widget(index);
    const bool current = m_pages->currentIndex() == index;
    m_pages->insertWidget(index, page);
    m_pages->removeWidget(placeholder);
    placeholder->deleteLater();
    if (current)
        m_pages->setCurrentIndex(index);
    m_builtPages[index] = page;
    return page;
}

QWidget *MainWindow::createPage(View view)
{
    switch (view) {
    case View::Home: {
        auto *home = new HomePage(m_model, m_pages);
        home->setClock(m_core->providerClock());
        home->showApps(m_core, sshActions());
        connect(home, &HomePage::launchRequested, this, &MainWindow::openLaunchDialog);
        connect(home, &HomePage::terminalRequested, this,
                [this](const QString &id) { openTerminal(id); });
        connect(home, &HomePage::appRequested, this, &MainWindow::openApp);
        connect(home, &HomePage::stopRequested, this,
                [this](const QString &id) { confirm(Action::Stop, id); });
        connect(home, &HomePage::startRequested, this,
                [this](const QString &id) { confirm(Action::Start, id); });
        return home;
    }
    case View::Instances:
        return m_instances; // built with the dashboard (buildInstancesPage)
    case View::Billing:
        return m_billing->createPage(m_settings, m_pages);
    case View::Keys: {
        auto *keys = new KeysPage(sshActions()->keyStore(), m_core, m_pages);
        // The launch dialog lists the provider's keys: an upload shows there at once.
        connect(keys, &KeysPage::keysChanged, m_instances, &InstancesPage::reloadLaunchKeys);
        connect(m_core, &ClientSession::loggedIn, keys, &KeysPage::reload);
        if (m_core->isLoggedIn())
            keys->reload();
        return keys;
    }
    case View::Snapshots: {
        auto *snapshots = new SnapshotsPage(m_core, m_pages);
        // A restore is a launch: the new host, its stages, and the status bar until it runs.
        connect(snapshots, &SnapshotsPage::restored, this,
                [this](const Instance &instance) { showLaunch(instance, true); });
        connect(snapshots, &SnapshotsPage::errorOccurred, this, &MainWindow::showError);
        return snapshots;
    }
    case View::Storage:
        return new StoragePage(m_core, m_pages);
    }
    return nullptr;
}

LedgerView *MainWindow::ledgerView()
{
    ensurePage(View::Billing);
    return m_billing->ledgerView();
}

HomePage *MainWindow::homePage()
{
    return static_cast<HomePage *>(ensurePage(View::Home));
}

KeysPage *MainWindow::keysPage()
{
    return static_cast<KeysPage *>(ensurePage(View::Keys));
}

void MainWindow::openApp(const QString &instanceId)
{
    ensureDashboard();
    const std::optional<Instance> instance = m_core->instance(instanceId);
    if (instance && !instance->apps.isEmpty())
        sshActions()->openApp(instance, instance->apps.first().name);
}

} // namespace cardhour::ui
