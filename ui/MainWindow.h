#pragma once

#include "AppSettings.h"
#include "InstanceActions.h"
#include "api/Models.h"
#include "session/ClientSession.h"
#include "ssh/AppOpener.h"

#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>

class QLabel;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace Ui {
class MainWindow;
}

namespace cardhour::core {
class BillTicker;
class Clock;
class RunwayAlerts;
class Session;
} // namespace cardhour::core

namespace cardhour::ui {

class AccountPage;
class BillingController;
class ConnectPage;
class ConnectionBanner;
class HomePage;
class InstanceTableModel;
class InstancesPage;
class KeysPage;
class LedgerView;
class NavigationBar;
class SettingsDialog;
class SshActions;
class SshKeysDialog;
class TerminalTab;
class Translations;
class TrayNotifier;

// The client's one window: the connect step (local sandbox or a provider URL), then the account
// page (log in / sign up), then the dashboard: the bill panel, a banner while the provider is out
// of reach, and the pages (Home, Instances with their terminals, Snapshots, Storage, Billing, Keys)
// chosen in the side bar. It shows what its ClientSession (core/session) holds and keeps no
// provider state of its own; its menus and toolbar are MainWindow.ui. The Instances page
// (InstancesPage: the list, details, terminals and what acts on them) and the money side
// (BillingController: bill panel, Billing page, top-up, tray, stop warnings) are classes of their
// own that the window places and calls from its actions. Pages are built when first shown, so the
// window opens as fast as the connect step allows. Nothing here waits: every provider call is a
// Reply answered later, and every dialog is opened with open(), never exec().
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    struct Options : core::ClientSession::Options
    {
        QString knownHostsFile; // empty: DataPaths::knownHostsPath() (CardHour's own)
        QString sshKeyFolder; // empty: DataPaths::sshKeyDir()
        QString sshConfigFile; // empty: ~/.ssh/config
        // Starts the browser on an app's page; empty: the platform's (see SshActions).
        core::AppOpener::Launcher browser;
        // Settings (theme, thresholds, provider URL, the account's e-mail address), window
        // geometry and the last view are read from and written to QSettings: the platform's
        // usual place, or the INI file `settingsFile` when set.
        bool useSettings = true;
        QString settingsFile;
    };
    // The pages of the dashboard, in the side bar's order (and Ctrl+1...6).
    enum class View {
        Home,
        Instances,
        Snapshots,
        Storage,
        Billing,
        Keys
    };

    // `translations` (not owned; may be null) drives the Language menu.
    explicit MainWindow(const Options &options, Translations *translations = nullptr,
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    // Skips the connect step (e.g. CARDHOUR_PROVIDER_URL from scripts/run).
    void connectToUrl(const QUrl &url);
    void connectToSandbox();

    // For tests and diagnostics.
    core::ClientSession *clientSession() const { return m_core; }
    core::Session *session() const { return m_core->session(); }
    core::RunwayAlerts *runwayAlerts() const { return m_core->alerts(); }
    core::BillTicker *billTicker() const { return m_core->ticker(); }
    InstanceTableModel *instanceModel() const { return m_model; }
    QString selectedInstanceId() const;
    void selectInstance(const QString &id);
    QString knownHostsFile() const;
    // Pages are built when first shown; these build them when asked for first.
    LedgerView *ledgerView();
    HomePage *homePage();
    KeysPage *keysPage();
    InstancesPage *instancesPage();
    QWidget *page(View view);
    TrayNotifier *trayNotifier() const;
    SshActions *sshActions() const;
    SshKeysDialog *keysDialog() const;
    // The log-in / sign-up page (null until log-in was first asked for).
    AccountPage *accountPage() const { return m_accountPage; }
    // The terminal tabs now open, in tab order.
    QList<TerminalTab *> terminalTabs() const;
    // One click on a running instance: its terminal in a new tab (null when not running).
    TerminalTab *openTerminal(const QString &instanceId);
    View currentView() const;
    void setCurrentView(View view);
    // Stores and applies settings (language, theme, thresholds), as Settings → OK does.
    void applySettings(const AppSettings &settings);
    AppSettings settings() const { return m_settings; }

protected:
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    using Action = InstanceActions::Action;

    void buildUi();
    // The dashboard (side bar, pages, bill panel, terminal tabs) is built once the connect step
    // is on screen, or when first needed: the window's first frame does not wait for it.
    void ensureDashboard();
    void connectDashboard();
    void retranslateDashboard();
    void paintIcons();
    void connectActions();
    void buildLanguageMenu();
    void connectSession();
    void retranslate();
    // A status-bar message with no timeout, made by `text` now and again after a switch of
    // language while it is still shown.
    void showLastingStatus(std::function<QString()> text);
    // The account page (log in / sign up) in place of the dashboard, with why, if said.
    void showLogin(const QString &note = {});
    AccountPage *ensureAccountPage();
    void backToConnectStep();
    void onLoginFailed(const core::ApiError &error);
    void showInstances(const QList<core::Instance> &instances);
    void showInstance(const core::Instance &instance);
    void reloadAll();
    void updateActions();
    void openLaunchDialog();
    void confirm(Action action, const QString &instanceId);
    void showError(const QString &title, const QString &message);
    // MainWindowPages.cpp: the side bar and the pages, built when first shown.
    void buildNavigation();
    void connectNavigation();
    void retranslateNavigation();
    void updatePageTitle();
    void buildShownPage();
    QWidget *ensurePage(View view);
    QWidget *createPage(View view);
    void openApp(const QString &instanceId);
    // MainWindowInstances.cpp: the Instances page in place, the instance and SSH actions.
    void buildInstancesPage();
    void connectInstanceActions();
    void updateSshActions(const core::Instance *instance);
    void showLaunch(const core::Instance &instance, bool restoring = false);
    void followLaunch(const core::Instance &instance);
    void uploadToCurrentTab();
    void downloadFromCurrentTab();
    void updateTransferActions();
    // MainWindowSettings.cpp: settings, the money side's wiring and the remembered window.
    void buildBilling();
    void openSettingsDialog();
    void restoreWindowState();
    void saveWindowState();
    // The settings store of Options (null when useSettings is off).
    std::unique_ptr<QSettings> openSettings() const;
    void saveSettings();
    // A provider URL that answered (empty: the sandbox), and the account that logged in: the
    // next start offers them.
    void rememberProvider(const QUrl &url);
    void rememberAccount(const QString &email);

    Options m_options;
    Translations *m_translations;
    std::unique_ptr<Ui::MainWindow> m_ui; // the menus, actions and toolbar (MainWindow.ui)
    core::ClientSession *m_core;
    InstanceTableModel *m_model; // the instances shown: Instances and Home
    BillingController *m_billing = nullptr; // the money side (built with the window: the tray)

    QStackedWidget *m_stack = nullptr;
    ConnectPage *m_connectPage = nullptr;
    AccountPage *m_accountPage = nullptr; // log in / sign up; built when first asked for
    QWidget *m_dashboard = nullptr;
    ConnectionBanner *m_banner = nullptr;
    NavigationBar *m_nav = nullptr;
    QStackedWidget *m_pages = nullptr; // one slot per View; a placeholder until first shown
    QList<QWidget *> m_builtPages; // by View; null until built
    InstancesPage *m_instances = nullptr; // built with the dashboard: terminals open into it
    std::function<QString()> m_lastingStatus;
    QString m_lastingStatusShown;
    QString m_launching; // the host launched here, followed in the status bar until it runs
    QLabel *m_userLabel = nullptr;
    // "Times in Asia/Shanghai (the provider's zone)": said once, for every page.
    QLabel *m_zoneLabel = nullptr;
    // Says so when the provider's hosts run without containers (no SSH), and why.
    QLabel *m_runtimeNotice = nullptr;
    QLabel *m_pageTitle = nullptr; // the shown page's name, in the title size
    QPointer<SettingsDialog> m_settingsDialog;
    AppSettings m_settings;
    QString m_lastEmail; // of the account last logged in (remembered in the settings)
    View m_restoredView = View::Home; // shown when the dashboard is built
};

} // namespace cardhour::ui
