// MainWindow, continued: terminal tabs next to the instance list and the OpenSSH actions.
// (SshActions does the work; this file wires it to the menus, the table and the tabs.)
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "SshActions.h"
#include "SshKeysDialog.h"
#include "TerminalTab.h"
#include "ssh/SshConfigWriter.h"
#include "ui_MainWindow.h"

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
    m_ssh = new SshActions(m_core, m_core->secrets(), m_tabs, m_options.sshKeyFolder,
                           knownHostsFile(), m_options.sshConfigFile, this);
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

void MainWindow::connectSshActions()
{
    auto selected = [this] { return m_model->instance(selectedInstanceId()); };
    connect(m_ui->openTerminalAction, &QAction::triggered, this,
            [this] { openTerminal(selectedInstanceId()); });
    connect(m_ui->systemTerminalAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            m_ssh->openSystemTerminal(*instance);
    });
    connect(m_ui->sshConfigAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            m_ssh->addToSshConfig(*instance);
    });
    m_ui->copySshAction->setShortcut(QKeySequence::Copy);
    connect(m_ui->copySshAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            m_ssh->copySshCommand(*instance);
    });
    connect(m_ui->sshKeysAction, &QAction::triggered, this, [this] { setCurrentView(View::Keys); });
    connect(m_ui->uploadAction, &QAction::triggered, this, &MainWindow::uploadToCurrentTab);
    connect(m_ui->downloadAction, &QAction::triggered, this, &MainWindow::downloadFromCurrentTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateTransferActions);
    m_ui->appsMenu->menuAction()->setObjectName(u"openAppAction"_s);
    updateTransferActions();
}

void MainWindow::updateSshActions(const Instance *instance)
{
    m_ui->sshKeysAction->setEnabled(m_core->isLoggedIn());
    const bool reachable = instance && instance->ssh && instance->ssh->port > 0
        && instance->state == InstanceState::Running;
    for (QAction *action : {m_ui->openTerminalAction, m_ui->systemTerminalAction,
                            m_ui->sshConfigAction, m_ui->copySshAction})
        action->setEnabled(reachable);
    // One entry per one-click app of the image (Jupyter, ...), reached through a port forward.
    QMenu *apps = m_ui->appsMenu;
    apps->clear();
    if (reachable) {
        const QString id = instance->id;
        for (const InstanceApp &app : instance->apps) {
            QAction *action = apps->addAction(tr("%1 (port %2)").arg(app.name).arg(app.port));
            action->setObjectName(u"openApp_"_s + app.name);
            connect(action, &QAction::triggered, this, [this, id, app] {
                if (const Instance *current = m_model->instance(id))
                    m_ssh->openApp(*current, app);
            });
        }
    }
    apps->menuAction()->setEnabled(!apps->isEmpty());
}

TerminalTab *MainWindow::openTerminal(const QString &instanceId)
{
    const Instance *instance = m_model->instance(instanceId);
    if (!m_core->isLoggedIn() || !instance || !instance->ssh
        || instance->state != InstanceState::Running) {
        if (instance)
            statusBar()->showMessage(tr("“%1” is not running yet.").arg(instance->name), 5000);
        return nullptr;
    }
    ensureDashboard();
    TerminalTab *tab = m_ssh->openTerminal(*instance);
    if (tab)
        setCurrentView(View::Instances); // from Home, a card's Terminal button
    return tab;
}

QList<TerminalTab *> MainWindow::terminalTabs() const
{
    QList<TerminalTab *> tabs;
    for (int i = 0; m_tabs && i < m_tabs->count(); ++i) {
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
    const bool terminal = m_tabs && currentView() == View::Instances
        && qobject_cast<TerminalTab *>(m_tabs->currentWidget()) != nullptr;
    m_ui->uploadAction->setEnabled(terminal);
    m_ui->downloadAction->setEnabled(terminal);
}

void MainWindow::uploadToCurrentTab()
{
    auto *tab = m_tabs ? qobject_cast<TerminalTab *>(m_tabs->currentWidget()) : nullptr;
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
    auto *tab = m_tabs ? qobject_cast<TerminalTab *>(m_tabs->currentWidget()) : nullptr;
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
    ensureDashboard(); // the key store is the SSH actions'
    if (m_keysDialog) {
        m_keysDialog->raise();
        return;
    }
    m_keysDialog = new SshKeysDialog(m_ssh->keyStore(), m_core, this);
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
