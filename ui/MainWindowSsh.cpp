// MainWindow, continued: terminal tabs next to the instance list and the OpenSSH actions.
// (SshActions does the work; this file wires it to the menus, the table and the tabs.)
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SshActions.h"
#include "SshKeysDialog.h"
#include "TerminalTab.h"
#include "api/ProviderClient.h"
#include "session/Session.h"
#include "ssh/SshConfigWriter.h"

#include <QAction>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QPointer>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

QString MainWindow::knownHostsFile() const
{
    if (!m_options.knownHostsFile.isEmpty())
        return m_options.knownHostsFile;
    return SshConfigWriter::defaultKnownHostsPath();
}

void MainWindow::buildSshUi()
{
    m_ssh = new SshActions(m_client, m_secrets, m_tabs, m_options.sshKeyFolder, knownHostsFile(),
                           m_options.sshConfigFile, this);
    connect(m_ssh, &SshActions::message, this, [this](const QString &text, bool isError) {
        if (isError)
            showError(tr("SSH"), text);
        else
            statusBar()->showMessage(text, 10000);
    });
    // Terminal tabs close; the instance list and the ledger do not.
    m_tabs->setTabsClosable(true);
    for (int i = 0; i < m_tabs->count(); ++i) {
        m_tabs->tabBar()->setTabButton(i, QTabBar::RightSide, nullptr);
        m_tabs->tabBar()->setTabButton(i, QTabBar::LeftSide, nullptr);
    }
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
}

void MainWindow::buildSshMenus(QMenu *instanceMenu)
{
    auto selected = [this] { return m_model->instance(selectedInstanceId()); };
    m_terminalAction = new QAction(this);
    m_terminalAction->setObjectName(u"openTerminalAction"_s);
    m_terminalAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_T);
    connect(m_terminalAction, &QAction::triggered, this,
            [this] { openTerminal(selectedInstanceId()); });
    m_systemTerminalAction = new QAction(this);
    m_systemTerminalAction->setObjectName(u"systemTerminalAction"_s);
    connect(m_systemTerminalAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            m_ssh->openSystemTerminal(*instance);
    });
    m_sshConfigAction = new QAction(this);
    m_sshConfigAction->setObjectName(u"sshConfigAction"_s);
    connect(m_sshConfigAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            m_ssh->addToSshConfig(*instance);
    });
    m_sshAction = new QAction(this);
    m_sshAction->setObjectName(u"copySshAction"_s);
    m_sshAction->setShortcut(QKeySequence::Copy);
    connect(m_sshAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            m_ssh->copySshCommand(*instance);
    });
    m_keysAction = new QAction(this);
    m_keysAction->setObjectName(u"sshKeysAction"_s);
    connect(m_keysAction, &QAction::triggered, this, &MainWindow::openKeysDialog);
    m_uploadAction = new QAction(this);
    m_uploadAction->setObjectName(u"uploadAction"_s);
    connect(m_uploadAction, &QAction::triggered, this, &MainWindow::uploadToCurrentTab);
    m_downloadAction = new QAction(this);
    m_downloadAction->setObjectName(u"downloadAction"_s);
    connect(m_downloadAction, &QAction::triggered, this, &MainWindow::downloadFromCurrentTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateTransferActions);
    updateTransferActions();
    m_appsMenu = new QMenu(this);
    m_appsMenu->setObjectName(u"appsMenu"_s);
    m_appsMenu->menuAction()->setObjectName(u"openAppAction"_s);
    instanceMenu->addActions({m_systemTerminalAction, m_sshConfigAction, m_sshAction});
    instanceMenu->addMenu(m_appsMenu);
    instanceMenu->addActions({m_uploadAction, m_downloadAction});
    instanceMenu->addSeparator();
    instanceMenu->addAction(m_keysAction);
}

void MainWindow::retranslateSsh()
{
    m_terminalAction->setText(tr("Open &terminal"));
    m_terminalAction->setToolTip(tr("A shell on the selected instance, in a new tab"));
    m_systemTerminalAction->setText(tr("Open in s&ystem terminal"));
    m_sshConfigAction->setText(tr("Add to ~/.ssh/&config"));
    m_sshAction->setText(tr("Copy SSH &command"));
    m_keysAction->setText(tr("SSH &keys…"));
    m_appsMenu->setTitle(tr("Open in &browser"));
    m_uploadAction->setText(tr("&Upload to /workspace…"));
    m_uploadAction->setToolTip(tr("Files go to the instance of the terminal tab shown; "
                                  "dropping files on the tab does the same"));
    m_downloadAction->setText(tr("&Download from the instance…"));
}

void MainWindow::updateSshActions(const Instance *instance)
{
    m_keysAction->setEnabled(m_session->isLoggedIn());
    const bool reachable = instance && instance->ssh && instance->ssh->port > 0
        && instance->state == InstanceState::Running;
    for (QAction *action :
         {m_terminalAction, m_systemTerminalAction, m_sshConfigAction, m_sshAction})
        action->setEnabled(reachable);
    // One entry per one-click app of the image (Jupyter, ...), reached through a port forward.
    m_appsMenu->clear();
    if (reachable) {
        const QString id = instance->id;
        for (const InstanceApp &app : instance->apps) {
            QAction *action = m_appsMenu->addAction(tr("%1 (port %2)").arg(app.name).arg(app.port));
            action->setObjectName(u"openApp_"_s + app.name);
            connect(action, &QAction::triggered, this, [this, id, app] {
                if (const Instance *current = m_model->instance(id))
                    m_ssh->openApp(*current, app);
            });
        }
    }
    m_appsMenu->menuAction()->setEnabled(!m_appsMenu->isEmpty());
}

TerminalTab *MainWindow::openTerminal(const QString &instanceId)
{
    const Instance *instance = m_model->instance(instanceId);
    if (!m_session->isLoggedIn() || !instance || !instance->ssh
        || instance->state != InstanceState::Running) {
        if (instance)
            statusBar()->showMessage(tr("“%1” is not running yet.").arg(instance->name), 5000);
        return nullptr;
    }
    return m_ssh->openTerminal(*instance);
}

QList<TerminalTab *> MainWindow::terminalTabs() const
{
    QList<TerminalTab *> tabs;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *tab = qobject_cast<TerminalTab *>(m_tabs->widget(i)))
            tabs << tab;
    }
    return tabs;
}

void MainWindow::closeTab(int index)
{
    if (auto *tab = qobject_cast<TerminalTab *>(m_tabs->widget(index))) {
        m_tabs->removeTab(index);
        tab->deleteLater(); // closes its connection
    }
}

void MainWindow::updateTransferActions()
{
    const bool terminal = qobject_cast<TerminalTab *>(m_tabs->currentWidget()) != nullptr;
    m_uploadAction->setEnabled(terminal);
    m_downloadAction->setEnabled(terminal);
}

void MainWindow::uploadToCurrentTab()
{
    auto *tab = qobject_cast<TerminalTab *>(m_tabs->currentWidget());
    if (!tab)
        return;
    auto *dialog = new QFileDialog(this, tr("Upload to /workspace"));
    dialog->setObjectName(u"uploadDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    connect(dialog, &QFileDialog::filesSelected, this,
            [this, tab = QPointer<TerminalTab>(tab)](const QStringList &files) {
                if (!tab || !tab->uploadFiles(files))
                    statusBar()->showMessage(tr("The terminal is not connected."), 5000);
            });
    dialog->open();
}

void MainWindow::downloadFromCurrentTab()
{
    auto *tab = qobject_cast<TerminalTab *>(m_tabs->currentWidget());
    if (!tab)
        return;
    auto *ask = new QInputDialog(this);
    ask->setObjectName(u"downloadPathDialog"_s);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Download"));
    ask->setLabelText(tr("File or folder on the instance:"));
    ask->setTextValue(u"/workspace/"_s);
    connect(ask, &QInputDialog::textValueSelected, this,
            [this, tab = QPointer<TerminalTab>(tab)](const QString &remote) {
                auto *dialog = new QFileDialog(this, tr("Save into folder"));
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                dialog->setFileMode(QFileDialog::Directory);
                dialog->setOption(QFileDialog::ShowDirsOnly);
                connect(dialog, &QFileDialog::fileSelected, this,
                        [this, tab, remote](const QString &dir) {
                            if (!tab || !tab->download(remote.trimmed(), dir))
                                statusBar()->showMessage(tr("The terminal is not connected."),
                                                         5000);
                        });
                dialog->open();
            });
    ask->open();
}

SshKeysDialog *MainWindow::keysDialog() const
{
    return m_keysDialog;
}

void MainWindow::openKeysDialog()
{
    if (m_keysDialog) {
        m_keysDialog->raise();
        return;
    }
    m_keysDialog = new SshKeysDialog(m_ssh->keyStore(), m_client, this);
    m_keysDialog->setAttribute(Qt::WA_DeleteOnClose);
    // The launch dialog lists the provider's keys: an upload shows there at once.
    connect(m_keysDialog, &SshKeysDialog::keysChanged, this, [this] {
        if (m_launchDialog)
            m_launchDialog->reloadKeys();
    });
    m_keysDialog->reload();
    m_keysDialog->open();
}

} // namespace cardhour::ui
