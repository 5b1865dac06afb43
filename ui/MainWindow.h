#pragma once

#include "AppSettings.h"
#include "InstanceActions.h"
#include "api/ApiError.h"
#include "api/Models.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>
#include <QUrl>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace cardhour::core {
class BillTicker;
class EventStream;
class ProviderClient;
class RunwayAlerts;
class SandboxLauncher;
class SecretStore;
class Session;
} // namespace cardhour::core

namespace cardhour::ui {

class BillPanel;
class ConnectPage;
class ConnectionBanner;
class InstanceTableModel;
class LaunchDialog;
class LedgerView;
class LoginDialog;
class MetricsChart;
class SettingsDialog;
class SshActions;
class SshKeysDialog;
class TerminalTab;
class TopUpDialog;
class Translations;
class TrayNotifier;

// The client's one window: the connect step (local sandbox or a provider URL), then log-in,
// then the instances with their actions, the bill, and a banner while the provider is out of
// reach. It keeps no provider state of its own: lists are reloaded after every EventStream
// connected(), and events update them in between. Nothing here waits: every provider call is
// a Reply answered later, and every dialog is opened with open(), never exec().
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    struct Options
    {
        QString sandboxExecutable; // empty: cardhour-sim next to the client
        QString sandboxDataDir; // empty: the default data directory
        QStringList sandboxArguments; // e.g. --runtime inprocess
        bool sandboxAttach = true; // may attach to a sandbox that already runs
        QString keychainService = QStringLiteral("CardHour");
        int keychainTimeoutMs = 15000;
        QString knownHostsFile; // empty: <app data>/ssh/known_hosts (CardHour's own)
        QString sshKeyFolder; // empty: <app data>/ssh
        QString sshConfigFile; // empty: ~/.ssh/config
        int reconnectMinMs = 1000; // EventStream's reconnect delays
        int reconnectMaxMs = 30000;
        // Settings (theme, thresholds, provider URL), window geometry and the last view are read
        // from and written to QSettings.
        bool useSettings = true;
    };
    // The views of the dashboard, in tab order.
    enum class View {
        Instances,
        Ledger
    };

    // `translations` (not owned; may be null) drives the Language menu.
    explicit MainWindow(const Options &options, Translations *translations = nullptr,
                        QWidget *parent = nullptr);
    ~MainWindow() override;

    // Skips the connect step (e.g. CARDHOUR_PROVIDER_URL from scripts/run).
    void connectToUrl(const QUrl &url);
    void connectToSandbox();

    // For tests and diagnostics.
    core::ProviderClient *client() const { return m_client; }
    core::EventStream *events() const { return m_events; }
    core::Session *session() const { return m_session; }
    InstanceTableModel *instanceModel() const { return m_model; }
    QString selectedInstanceId() const;
    void selectInstance(const QString &id);
    QString knownHostsFile() const;
    LedgerView *ledgerView() const { return m_ledgerView; }
    TrayNotifier *trayNotifier() const { return m_trayNotifier; }
    core::RunwayAlerts *runwayAlerts() const { return m_alerts; }
    core::BillTicker *billTicker() const { return m_ticker; }
    SshActions *sshActions() const { return m_ssh; }
    SshKeysDialog *keysDialog() const;
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
    void buildMenus();
    void retranslate();
    void useProvider(const QUrl &url, const QString &providerKey);
    void showLogin(const QString &note = {});
    void onLoggedIn();
    void onSessionFailed(const core::ApiError &error);
    void onSessionExpired();
    void onLoggedOut();
    void reloadAll();
    void updateActions();
    void openLaunchDialog();
    void confirm(Action action);
    void perform(Action action, const QString &instanceId);
    // MainWindowSsh.cpp: terminal tabs and the OpenSSH actions.
    void buildSshUi();
    void buildSshMenus(QMenu *instanceMenu);
    void retranslateSsh();
    void updateSshActions(const core::Instance *instance);
    void closeTab(int index);
    void openKeysDialog();
    void uploadToCurrentTab();
    void downloadFromCurrentTab();
    void updateTransferActions();
    void showError(const QString &title, const QString &message);
    void retry();
    void updateChart();
    void updateTray();
    // MainWindowBilling.cpp: the ledger tab, top-up, settings, tray and the remembered window.
    void buildBillingUi();
    void buildBillingMenus();
    void retranslateBilling();
    void openTopUpDialog();
    void openSettingsDialog();
    void reloadLedger();
    void updateLedgerNames();
    void restoreWindowState();
    void saveWindowState();

    Options m_options;
    Translations *m_translations;
    core::ProviderClient *m_client;
    core::EventStream *m_events;
    core::SecretStore *m_secrets;
    core::Session *m_session;
    core::SandboxLauncher *m_launcher;
    core::BillTicker *m_ticker;
    InstanceTableModel *m_model;

    QStackedWidget *m_stack = nullptr;
    ConnectPage *m_connectPage = nullptr;
    QWidget *m_dashboard = nullptr;
    ConnectionBanner *m_banner = nullptr;
    BillPanel *m_billPanel = nullptr;
    QTableView *m_table = nullptr;
    MetricsChart *m_chart = nullptr;
    QTabWidget *m_tabs = nullptr;
    LedgerView *m_ledgerView = nullptr;
    core::RunwayAlerts *m_alerts = nullptr;
    TrayNotifier *m_trayNotifier = nullptr;
    QPointer<TopUpDialog> m_topUpDialog;
    QPointer<SettingsDialog> m_settingsDialog;
    AppSettings m_settings;
    QHash<QString, QString> m_instanceNames; // every instance seen this session, for the ledger
    QLabel *m_userLabel = nullptr;
    QPointer<LoginDialog> m_loginDialog;
    QPointer<LaunchDialog> m_launchDialog;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_instanceMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_billingMenu = nullptr;
    QAction *m_topUpAction = nullptr;
    QAction *m_ledgerAction = nullptr;
    QAction *m_instancesAction = nullptr;
    QAction *m_settingsAction = nullptr;
    QAction *m_chartAction = nullptr;
    QAction *m_launchAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_startAction = nullptr;
    QAction *m_terminateAction = nullptr;
    QAction *m_sshAction = nullptr;
    QAction *m_terminalAction = nullptr;
    QAction *m_systemTerminalAction = nullptr;
    QAction *m_sshConfigAction = nullptr;
    QAction *m_keysAction = nullptr;
    QMenu *m_appsMenu = nullptr;
    QAction *m_uploadAction = nullptr;
    QAction *m_downloadAction = nullptr;
    QPointer<SshKeysDialog> m_keysDialog;
    SshActions *m_ssh = nullptr;
    QAction *m_refreshAction = nullptr;
    QAction *m_connectAction = nullptr;
    QAction *m_logOutAction = nullptr;
    QAction *m_quitAction = nullptr;
    QActionGroup *m_languageGroup = nullptr;

    bool m_usingSandbox = false;
    QString m_lastEmail;
    QString m_lastUserId; // who was logged in before an expiry: the same user keeps the view
};

} // namespace cardhour::ui
