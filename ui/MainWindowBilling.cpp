// MainWindow, continued: the ledger tab, top-up, settings, the tray and the remembered window.
// (MainWindow.cpp has the connect step, the session and the instances.)
#include "ConnectPage.h"
#include "Format.h"
#include "LedgerView.h"
#include "MainWindow.h"
#include "SettingsDialog.h"
#include "TopUpDialog.h"
#include "Translations.h"
#include "TrayNotifier.h"
#include "ui_MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

void MainWindow::buildBillingUi()
{
    m_ledgerView = new LedgerView(m_core->client(), m_tabs);
    m_tabs->addTab(m_ledgerView, QString());
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (currentView() == View::Ledger && m_core->isLoggedIn())
            reloadLedger();
        if (m_options.useSettings)
            QSettings().setValue(u"window/view"_s, int(currentView()));
    });

    m_trayNotifier = new TrayNotifier(m_core->ticker(), m_core->alerts(), this);
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
    m_core->setAlertThresholdsMinutes({m_settings.warnFirstMinutes, m_settings.warnLastMinutes});
    if (m_settings.providerUrl.isValid() && !m_settings.providerUrl.isEmpty())
        m_connectPage->setUrl(m_settings.providerUrl);
}

void MainWindow::connectBillingActions()
{
    m_ui->settingsAction->setShortcut(QKeySequence::Preferences);
    connect(m_ui->topUpAction, &QAction::triggered, this, &MainWindow::openTopUpDialog);
    connect(m_ui->showInstancesAction, &QAction::triggered, this,
            [this] { setCurrentView(View::Instances); });
    connect(m_ui->showLedgerAction, &QAction::triggered, this,
            [this] { setCurrentView(View::Ledger); });
    connect(m_ui->settingsAction, &QAction::triggered, this, &MainWindow::openSettingsDialog);
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
    if (!m_core->isLoggedIn())
        return;
    updateLedgerNames();
    m_ledgerView->reload();
}

void MainWindow::updateLedgerNames()
{
    // Terminated instances leave the list but stay in the ledger: the session keeps their names.
    m_ledgerView->setInstanceNames(m_core->instanceNames());
}

void MainWindow::openTopUpDialog()
{
    if (!m_core->isLoggedIn())
        return;
    if (m_topUpDialog) {
        m_topUpDialog->raise();
        return;
    }
    m_topUpDialog = new TopUpDialog(m_core->client(), m_core->ticker(), this);
    m_topUpDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_topUpDialog, &TopUpDialog::toppedUp, this, [this](const TopupResult &result) {
        // The answer carries the live balance: show it now, before the billing event comes.
        m_core->applyTopUp(result);
        statusBar()->showMessage(tr("Added %1 (simulated payment). Balance: %2")
                                     .arg(Format::money(result.posting.amountMicros),
                                          Format::money(result.balanceMicros)),
                                 8000);
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
    m_core->setAlertThresholdsMinutes({settings.warnFirstMinutes, settings.warnLastMinutes});
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
