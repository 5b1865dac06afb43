#pragma once

#include "api/Models.h"
#include "ssh/AppOpener.h"
#include "ssh/SshTarget.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

class QTabWidget;
class QWidget;

namespace cardhour::core {
class SshAgent;
class SshPortForward;
class ClientSession;
class SecretStore;
class SshKeyStore;
} // namespace cardhour::core

namespace cardhour::ui {

class TerminalTab;

// The SSH side of the instance list: the built-in terminal (a tab per shell in the main
// window's tab area), and OpenSSH for everything else: the platform's terminal, a ~/.ssh/config
// block, the command on the clipboard. All of them use the key the instance was launched with
// (found in the local key store) and the host key the provider reported, pinned in CardHour's
// own known_hosts file.
class SshActions : public QObject
{
    Q_OBJECT
public:
    // `keyFolder`, `knownHostsPath`, `sshConfigPath`: empty for the defaults. `browser` starts
    // the browser on an app's page and says whether one took it (empty: the platform's opener,
    // AppOpener::systemLauncher(), which waits for xdg-open's answer; QDesktopServices says
    // true as soon as xdg-open starts, also when it finds no browser).
    SshActions(core::ClientSession *session, core::SecretStore *secrets, QTabWidget *tabs,
               const QString &keyFolder, const QString &knownHostsPath,
               const QString &sshConfigPath, QWidget *window,
               const core::AppOpener::Launcher &browser = {});

    core::SshKeyStore *keyStore() const { return m_keys; }
    QString knownHostsPath() const { return m_knownHostsPath; }
    QString sshConfigPath() const { return m_sshConfigPath; }

    // A new tab with a shell on `instance`, made current; connecting goes on in the tab.
    TerminalTab *openTerminal(const core::Instance &instance);

    using TargetCallback = std::function<void(const core::SshTarget &target, const QString &error)>;
    // The target with the matching local key and the host key pinned; or a translated error.
    void resolveTarget(const core::Instance &instance, TargetCallback done);

    // Each reports through message(): done, or what went wrong. The ~/.ssh/config block and
    // the copied command put the key into the user's ssh-agent when it has a passphrase (kept
    // in the keychain only), so that ssh in a terminal asks none; without an agent a dialog
    // says so and offers the passphrase to copy.
    void openSystemTerminal(const core::Instance &instance);
    void addToSshConfig(const core::Instance &instance);
    void copySshCommand(const core::Instance &instance);
    // A one-click app (e.g. Jupyter): a port forward to the app's port on a free local port,
    // then the app's URL (token included) in the browser, through a page only this user can
    // read (core::AppOpener; no token on a command line). Where no browser starts, the address
    // is shown to copy. A forward stays open for later clicks until the app's instance is no
    // longer running (see closeForwards()).
    void openApp(const core::Instance &instance, const core::InstanceApp &app);
    // The same by name, for views that hold only ids (the details pane's openAppRequested):
    // `instance` as the session holds it now; a gone or stopped instance or an unknown app is
    // reported through message() instead.
    void openApp(const std::optional<core::Instance> &instance, const QString &appName);
    void closeForwards(const QString &instanceId);
    void closeAllForwards();
    // The local port the app's forward listens on (0: none yet).
    quint16 forwardedPort(const QString &instanceId, int remotePort) const;
    // Tests: appOpened() only, no browser.
    void setOpenBrowser(bool open) { m_openBrowser = open; }

    // The platform's terminal emulator running `ssh` with these arguments: program and
    // arguments, or an empty program when none is installed.
    static QStringList systemTerminalCommand(const QStringList &sshArguments);

Q_SIGNALS:
    void message(const QString &text, bool isError);
    // The app's URL the browser was sent to (tests check it instead of a browser).
    void appOpened(const QUrl &url);

private:
    void handToBrowser(const core::InstanceApp &app, const QUrl &url);
    void showAddress(const core::InstanceApp &app, const QUrl &url);
    // Puts the target's key into the user's ssh-agent when it has a passphrase, then calls
    // `then` with a sentence to add to what is said (empty: nothing to add); where that fails,
    // a dialog says what to do and offers the passphrase.
    using AgentStep = std::function<void(const QString &note)>;
    void withKeyInAgent(const core::SshTarget &target, AgentStep then);
    void showAgentProblem(const QString &why, const QString &passphrase);
    void startSystemTerminal(const QStringList &command, const QString &instanceName,
                             const QString &note);

    core::ClientSession *m_session;
    core::SshKeyStore *m_keys;
    QTabWidget *m_tabs;
    QString m_knownHostsPath;
    QString m_sshConfigPath;
    QHash<QString, QPointer<core::SshPortForward>> m_forwards; // "instance id:remote port"
    bool m_openBrowser = true;
    core::AppOpener *m_opener;
    core::SshAgent *m_agent;
    QWidget *m_window;
};

} // namespace cardhour::ui
