// MainWindow, continued: the ledger tab, top-up, settings, the tray and the remembered window.
// (MainWindow.cpp has the connect step, the session and the instances.)
#include "MainWindow.h"

#include "BillPanel.h"
#include "ConnectPage.h"
#include "Format.h"
#include "InstanceTableModel.h"
#include "LedgerView.h"
#include "SettingsDialog.h"
#include "TopUpDialog.h"
#include "Translations.h"
#include "TrayNotifier.h"
#include "api/ProviderClient.h"
#include "billing/BillTicker.h"
#include "billing/RunwayAlerts.h"
#include "session/Session.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

void MainWindow::buildBillingUi()
{
    m_ledgerView = new LedgerView(m_client, m_tabs);
    m_tabs->addTab(m_ledgerView, QString());
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (currentView() == View::Ledger && m_session->isLoggedIn())
            reloadLedger();
        if (m_options.useSettings)
            QSettings().setValue(u"window/view"_s, int(currentView()));
    });

    m_trayNotifier = new TrayNotifier(m_ticker, m_alerts, this);
    connect(m_trayNotifier, &TrayNotifier::quitRequested, this, &QWidget::close);
    // Without a tray the same sentence goes to the status bar, so it is never lost.
    connect(m_trayNotifier, &TrayNotifier::notified, this,
            [this](const QString &title, const QString &message) {
                statusBar()->showMessage(title + u": "_s + message, 30000);
            });

    if (m_options.useSettings) {
        QSettings store;
        m_settings = AppSettings::load(store);
    }
    m_alerts->setThresholdsMinutes({m_settings.warnFirstMinutes, m_settings.warnLastMinutes});
    if (m_settings.providerUrl.isValid() && !m_settings.providerUrl.isEmpty())
        m_connectPage->setUrl(m_settings.providerUrl);
}

void MainWindow::buildBillingMenus()
{
    m_topUpAction = new QAction(this);
    m_topUpAction->setObjectName(u"topUpAction"_s);
    connect(m_topUpAction, &QAction::triggered, this, &MainWindow::openTopUpDialog);
    m_instancesAction = new QAction(this);
    m_instancesAction->setObjectName(u"showInstancesAction"_s);
    connect(m_instancesAction, &QAction::triggered, this,
            [this] { setCurrentView(View::Instances); });
    m_ledgerAction = new QAction(this);
    m_ledgerAction->setObjectName(u"showLedgerAction"_s);
    connect(m_ledgerAction, &QAction::triggered, this, [this] { setCurrentView(View::Ledger); });
    m_settingsAction = new QAction(this);
    m_settingsAction->setObjectName(u"settingsAction"_s);
    m_settingsAction->setShortcut(QKeySequence::Preferences);
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::openSettingsDialog);

    m_billingMenu = new QMenu(this);
    m_billingMenu->addAction(m_topUpAction);
    m_billingMenu->addAction(m_ledgerAction);
    menuBar()->insertMenu(m_viewMenu->menuAction(), m_billingMenu);
    m_viewMenu->insertAction(m_chartAction, m_instancesAction);
    m_viewMenu->insertAction(m_chartAction, m_ledgerAction);
    m_viewMenu->insertSeparator(m_chartAction);
    m_fileMenu->insertAction(m_quitAction, m_settingsAction);
    m_fileMenu->insertSeparator(m_quitAction);
}

void MainWindow::retranslateBilling()
{
    m_tabs->setTabText(0, tr("Instances"));
    m_tabs->setTabText(1, tr("Ledger"));
    m_billingMenu->setTitle(tr("&Billing"));
    m_topUpAction->setText(tr("&Top up…"));
    m_topUpAction->setToolTip(tr("Add to the balance (a simulated payment in the sandbox)"));
    m_instancesAction->setText(tr("&Instances"));
    m_ledgerAction->setText(tr("L&edger"));
    m_settingsAction->setText(tr("&Settings…"));
    m_topUpAction->setEnabled(m_session->isLoggedIn());
    m_trayNotifier->retranslate();
}

MainWindow::View MainWindow::currentView() const
{
    return m_tabs->currentWidget() == m_ledgerView ? View::Ledger : View::Instances;
}

void MainWindow::setCurrentView(View view)
{
    m_tabs->setCurrentIndex(view == View::Ledger ? 1 : 0);
}

void MainWindow::reloadLedger()
{
    if (!m_session->isLoggedIn())
        return;
    updateLedgerNames();
    m_ledgerView->reload();
}

void MainWindow::updateLedgerNames()
{
    // Terminated instances leave the list but stay in the ledger: their names are kept.
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const Instance *instance = m_model->instanceAt(row);
        m_instanceNames.insert(instance->id, instance->name);
    }
    m_ledgerView->setInstanceNames(m_instanceNames);
}

void MainWindow::openTopUpDialog()
{
    if (!m_session->isLoggedIn())
        return;
    if (m_topUpDialog) {
        m_topUpDialog->raise();
        return;
    }
    m_topUpDialog = new TopUpDialog(m_client, m_ticker, this);
    m_topUpDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_topUpDialog, &TopUpDialog::toppedUp, this, [this](const TopupResult &result) {
        // The answer carries the live balance: show it now, before the billing event comes.
        m_ticker->update(result.balanceMicros, m_ticker->spendRateMicrosPerHour());
        m_billPanel->refresh();
        m_alerts->rearm();
        updateTray();
        statusBar()->showMessage(tr("Added %1 (simulated payment). Balance: %2")
                                     .arg(Format::money(result.posting.amountMicros),
                                          Format::money(result.balanceMicros)),
                                 8000);
        if (currentView() == View::Ledger)
            reloadLedger();
    });
    m_topUpDialog->open();
}

void MainWindow::openSettingsDialog()
{
    if (m_settingsDialog) {
        m_settingsDialog->raise();
        return;
    }
    AppSettings current = m_settings;
    if (m_translations)
        current.language = m_translations->current();
    m_settingsDialog = new SettingsDialog(current, this);
    m_settingsDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_settingsDialog, &SettingsDialog::applied, this, &MainWindow::applySettings);
    m_settingsDialog->open();
}

void MainWindow::applySettings(const AppSettings &settings)
{
    m_settings = settings;
    if (m_options.useSettings) {
        QSettings store;
        settings.save(store);
    }
    Theme::apply(settings.theme);
    if (m_translations && !settings.language.isEmpty()
        && m_translations->current() != settings.language
        && !m_translations->setLanguage(settings.language))
        showError(tr("Language"), tr("This translation could not be loaded."));
    m_alerts->setThresholdsMinutes({settings.warnFirstMinutes, settings.warnLastMinutes});
    if (m_ticker->hasData())
        m_alerts->evaluate(m_ticker->balanceMicros(), m_ticker->spendRateMicrosPerHour());
    if (settings.providerUrl.isValid() && !settings.providerUrl.isEmpty())
        m_connectPage->setUrl(settings.providerUrl);
}

void MainWindow::restoreWindowState()
{
    if (!m_options.useSettings)
        return;
    QSettings store;
    restoreGeometry(store.value(u"window/geometry"_s).toByteArray());
    restoreState(store.value(u"window/state"_s).toByteArray());
    const int view = store.value(u"window/view"_s, 0).toInt();
    setCurrentView(view == int(View::Ledger) ? View::Ledger : View::Instances);
}

void MainWindow::saveWindowState()
{
    if (!m_options.useSettings)
        return;
    QSettings store;
    store.setValue(u"window/geometry"_s, saveGeometry());
    store.setValue(u"window/state"_s, saveState());
    store.setValue(u"window/view"_s, int(currentView()));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveWindowState();
    QMainWindow::closeEvent(event);
}

} // namespace cardhour::ui
