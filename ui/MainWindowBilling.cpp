// MainWindow, continued: the ledger page, top-up, settings, the tray and the remembered window.
// (MainWindow.cpp has the connect step, the session and the instances.)
#include "ConnectPage.h"
#include "CostCalculator.h"
#include "Format.h"
#include "LedgerView.h"
#include "MainWindow.h"
#include "SettingsDialog.h"
#include "SpendingLimitsPanel.h"
#include "StopText.h"
#include "TopUpDialog.h"
#include "Translations.h"
#include "TrayNotifier.h"
#include "api/ProviderCodes.h"
#include "pages/BillingPage.h"
#include "ui_MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

void MainWindow::buildBillingUi()
{
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

void MainWindow::connectStopWarnings()
{
    // The provider warns before it stops a host by itself; an idle stop can be put off once,
    // from the warning's dialog or the tray's menu.
    const auto keepRunning = [this](const QString &id) {
        m_core->keepRunning(id)->onFinished(this, [this](const Reply<Instance> &reply) {
            statusBar()->showMessage(
                reply.ok()
                    ? tr("The idle stop of %1 was put off.").arg(reply.value().name)
                    : tr("It could not be kept running: %1").arg(reply.error().userMessage()),
                10000);
        });
    };
    connect(m_trayNotifier, &TrayNotifier::keepRunningRequested, this, keepRunning);
    connect(m_trayNotifier, &TrayNotifier::hostRequested, this, [this](const QString &id) {
        setCurrentView(View::Instances);
        selectInstance(id);
    });
    // A warning ends when the host no longer runs toward a warned stop.
    connect(m_core, &ClientSession::instanceChanged, this, [this](const Instance &i) {
        if (i.state != InstanceState::Running || !i.plannedStop || !i.plannedStop->warning)
            m_trayNotifier->endStopWarning(i.id);
    });
    connect(m_core, &ClientSession::stopWarning, this,
            [this, keepRunning](const StopWarning &w) {
                const QString name = m_core->instanceNames().value(w.instanceId, w.instanceId);
                const QString why =
                    StopText::reason(w.reason).isEmpty() ? w.reason : StopText::reason(w.reason);
                const QString text =
                    tr("%1 will stop at %2: %3.")
                        .arg(name, w.stopAt.toLocalTime().toString(u"HH:mm:ss"_s), why);
                const bool idle = w.reason == StopReason::Idle;
                m_trayNotifier->showStopWarning(w.instanceId, name, text, idle);
                auto *box = new QMessageBox(QMessageBox::Warning, tr("A host will stop"), text,
                                            QMessageBox::NoButton, this);
                box->setObjectName(u"stopWarningDialog"_s);
                box->setAttribute(Qt::WA_DeleteOnClose);
                if (idle) {
                    QPushButton *keep = box->addButton(tr("Keep running"), QMessageBox::AcceptRole);
                    keep->setObjectName(u"keepRunningButton"_s);
                    const QString id = w.instanceId;
                    connect(keep, &QPushButton::clicked, this, [this, keepRunning, id] {
                        m_trayNotifier->endStopWarning(id);
                        keepRunning(id);
                    });
                }
                box->addButton(QMessageBox::Ok);
                box->open();
            });
}

void MainWindow::connectBillingActions()
{
    connectStopWarnings();
    m_ui->settingsAction->setShortcut(QKeySequence::Preferences);
    connect(m_ui->topUpAction, &QAction::triggered, this, &MainWindow::openTopUpDialog);
    connect(m_ui->settingsAction, &QAction::triggered, this, &MainWindow::openSettingsDialog);
}

void MainWindow::reloadLedger()
{
    if (!m_core->isLoggedIn() || !m_ledgerView)
        return;
    updateLedgerNames();
    m_ledgerView->reload();
}

QWidget *MainWindow::createBillingPage()
{
    auto *page = new BillingPage(m_core, m_settings, m_pages);
    m_ledgerView = page->ledger();
    updateLedgerNames();
    connect(page, &BillingPage::remembered, this,
            [this](const CostInputs &inputs, const QString &gpuType, int cards, int hours) {
                m_settings.costInputs = inputs;
                m_settings.costGpuType = gpuType;
                m_settings.costCards = cards;
                m_settings.costHours = hours;
                if (m_options.useSettings) {
                    QSettings store;
                    m_settings.save(store);
                }
            });
    // The limits follow the provider's event; the first answer comes with the page.
    connect(m_core, &ClientSession::spendingLimitsChanged, page->limits(),
            &SpendingLimitsPanel::setLimits);
    if (m_core->isLoggedIn())
        page->limits()->reload();
    connect(m_core, &ClientSession::loggedIn, page->limits(), &SpendingLimitsPanel::reload);
    // The comparison needs the catalog and every instance's size: fetched when it is looked at,
    // not with every balance move.
    connect(page->tabs(), &QTabWidget::currentChanged, page, [this, page](int index) {
        if (m_core->isLoggedIn() && page->tabs()->widget(index) == page->calculator())
            page->calculator()->reload();
    });
    return page;
}

void MainWindow::updateLedgerNames()
{
    // Terminated instances leave the list but stay in the ledger: the session keeps their names.
    if (m_ledgerView)
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
    m_topUpDialog = new TopUpDialog(m_core, m_core->ticker(), this);
    m_topUpDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_topUpDialog, &TopUpDialog::toppedUp, this, [this](const TopupResult &result) {
        // The session has shown the new balance already.
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
    // The page last shown is shown again (built then, not before).
    const int view = store.value(u"window/view"_s, int(View::Home)).toInt();
    if (view >= int(View::Home) && view <= int(View::Keys))
        setCurrentView(View(view));
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
