// MainWindow, continued: the settings, the money side's place in the window (BillingController)
// and the remembered window. (MainWindow.cpp has the connect step and the session.)
#include "BillingController.h"
#include "ConnectPage.h"
#include "MainWindow.h"
#include "SettingsDialog.h"
#include "Translations.h"
#include "ui_MainWindow.h"

#include <QCloseEvent>
#include <QDialog>
#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

void MainWindow::buildBilling()
{
    m_billing = new BillingController(m_core, this);
    connect(
        m_billing, &BillingController::message, this,
        [this](const QString &text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
    connect(m_billing, &BillingController::quitRequested, this, &QWidget::close);
    connect(m_billing, &BillingController::hostRequested, this, [this](const QString &id) {
        setCurrentView(View::Instances);
        selectInstance(id);
    });
    connect(m_billing, &BillingController::remembered, this,
            [this](const CostInputs &inputs, const QString &gpuType, int cards, int hours) {
                m_settings.costInputs = inputs;
                m_settings.costGpuType = gpuType;
                m_settings.costCards = cards;
                m_settings.costHours = hours;
                saveSettings();
            });

    if (const std::unique_ptr<QSettings> store = openSettings())
        m_settings = AppSettings::load(*store);
    m_lastEmail = m_settings.accountEmail;
    m_core->setAlertThresholdsMinutes({m_settings.warnFirstMinutes, m_settings.warnLastMinutes});
    if (m_settings.providerUrl.isValid() && !m_settings.providerUrl.isEmpty())
        m_connectPage->setUrl(m_settings.providerUrl, !m_settings.sandboxChosenLast);
}

TrayNotifier *MainWindow::trayNotifier() const
{
    return m_billing->trayNotifier();
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
    saveSettings();
    Theme::apply(settings.theme);
    if (m_translations && !settings.language.isEmpty()
        && m_translations->current() != settings.language
        && !m_translations->setLanguage(settings.language))
        showError(tr("Language"), tr("This translation could not be loaded."));
    m_core->setAlertThresholdsMinutes({settings.warnFirstMinutes, settings.warnLastMinutes});
    if (settings.providerUrl.isValid() && !settings.providerUrl.isEmpty())
        m_connectPage->setUrl(settings.providerUrl, !settings.sandboxChosenLast);
}

std::unique_ptr<QSettings> MainWindow::openSettings() const
{
    if (!m_options.useSettings)
        return nullptr;
    if (m_options.settingsFile.isEmpty())
        return std::make_unique<QSettings>();
    return std::make_unique<QSettings>(m_options.settingsFile, QSettings::IniFormat);
}

void MainWindow::saveSettings()
{
    if (const std::unique_ptr<QSettings> store = openSettings())
        m_settings.save(*store);
}

void MainWindow::rememberProvider(const QUrl &url)
{
    const bool sandbox = url.isEmpty();
    if (m_settings.sandboxChosenLast == sandbox && (sandbox || m_settings.providerUrl == url))
        return;
    m_settings.sandboxChosenLast = sandbox;
    if (!sandbox)
        m_settings.providerUrl = url;
    saveSettings();
}

void MainWindow::rememberAccount(const QString &email)
{
    m_lastEmail = email;
    if (m_settings.accountEmail == email)
        return;
    m_settings.accountEmail = email;
    saveSettings();
}

void MainWindow::restoreWindowState()
{
    const std::unique_ptr<QSettings> store = openSettings();
    if (!store)
        return;
    restoreGeometry(store->value(u"window/geometry"_s).toByteArray());
    restoreState(store->value(u"window/state"_s).toByteArray());
    // The page last shown is shown again (built then, not before).
    const int view = store->value(u"window/view"_s, int(View::Home)).toInt();
    if (view >= int(View::Home) && view <= int(View::Keys))
        setCurrentView(View(view));
}

void MainWindow::saveWindowState()
{
    const std::unique_ptr<QSettings> store = openSettings();
    if (!store)
        return;
    store->setValue(u"window/geometry"_s, saveGeometry());
    store->setValue(u"window/state"_s, saveState());
    store->setValue(u"window/view"_s, int(currentView()));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveWindowState();
    // Closing the window ends the client (and the sandbox it started): an open dialog (log-in,
    // launch) would otherwise stay a window of its own and keep the process alive, hidden where
    // there is no tray to bring it back.
    for (QDialog *dialog : findChildren<QDialog *>()) {
        if (dialog->isVisible())
            dialog->close();
    }
    QMainWindow::closeEvent(event);
}

} // namespace cardhour::ui
