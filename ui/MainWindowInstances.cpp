// MainWindow, continued: the Instances page (InstancesPage) in place, and the window's instance
// and SSH actions (MainWindow.ui) wired to it. (MainWindow.cpp has the connect step and the
// session; MainWindowPages.cpp the side bar and the other pages.)
#include "Format.h"
#include "InstanceActions.h"
#include "InstanceTableModel.h"
#include "MainWindow.h"
#include "SshActions.h"
#include "TerminalTab.h"
#include "pages/InstancesPage.h"
#include "ssh/SshConfigWriter.h"
#include "ui_MainWindow.h"

#include <QAction>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QPointer>
#include <QStackedWidget>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

QString MainWindow::knownHostsFile() const
{
    if (!m_options.knownHostsFile.isEmpty())
        return m_options.knownHostsFile;
    return SshConfigWriter::defaultKnownHostsPath();
}

// The Instances page is built with the dashboard: terminals open into its tabs from any page.
// Its details pane and chart wait until the page is first shown (buildShownPage).
void MainWindow::buildInstancesPage()
{
    m_instances = new InstancesPage(
        m_core, m_model,
        {m_options.sshKeyFolder, knownHostsFile(), m_options.sshConfigFile, m_options.browser},
        m_pages);
    m_instances->setContextActions({m_ui->openTerminalAction, m_ui->appsMenu->menuAction(),
                                    m_ui->systemTerminalAction, m_ui->sshConfigAction,
                                    m_ui->copySshAction, m_ui->stopAction, m_ui->startAction,
                                    m_ui->terminateAction});
    m_instances->setChartWanted(m_ui->showChartAction->isChecked());
    QWidget *placeholder = m_pages->widget(int(View::Instances));
    m_pages->removeWidget(placeholder);
    placeholder->deleteLater();
    m_pages->insertWidget(int(View::Instances), m_instances);
    m_builtPages[int(View::Instances)] = m_instances;

    connect(m_instances, &InstancesPage::selectionChanged, this, &MainWindow::updateActions);
    connect(m_instances, &InstancesPage::actionDone, this, &MainWindow::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::updateActions);
    connect(m_instances, &InstancesPage::terminalRequested, this,
            [this](const QString &id) { openTerminal(id); });
    connect(m_instances, &InstancesPage::launched, this,
            [this](const Instance &instance) { showLaunch(instance); });
    connect(m_instances, &InstancesPage::message, this, [this](const QString &text, int timeoutMs) {
        statusBar()->showMessage(text, timeoutMs);
    });
    connect(m_instances, &InstancesPage::errorOccurred, this, &MainWindow::showError);
    connect(m_instances->sshActions(), &SshActions::message, this,
            [this](const QString &text, bool isError) {
                if (isError)
                    showError(tr("SSH"), text);
                else
                    statusBar()->showMessage(text, 10000);
            });
}

InstancesPage *MainWindow::instancesPage()
{
    ensureDashboard();
    return m_instances;
}

SshActions *MainWindow::sshActions() const
{
    return m_instances ? m_instances->sshActions() : nullptr;
}

SshKeysDialog *MainWindow::keysDialog() const
{
    return m_instances ? m_instances->keysDialog() : nullptr;
}

QString MainWindow::selectedInstanceId() const
{
    return m_instances ? m_instances->selectedInstanceId() : QString();
}

void MainWindow::selectInstance(const QString &id)
{
    ensureDashboard();
    m_instances->selectInstance(id);
}

// The host just launched (or restored from a snapshot), wherever that was asked: the Instances
// page with it selected, whose details pane shows its stages as they arrive, and the status bar
// until it runs.
void MainWindow::showLaunch(const Instance &instance, bool restoring)
{
    setCurrentView(View::Instances);
    m_instances->setCurrentIndex(0); // the list, not a terminal tab
    selectInstance(instance.id);
    m_launching = instance.id;
    const QString name = instance.name;
    showLastingStatus([name, restoring] {
        return restoring ? tr("Restoring into %1…").arg(name) : tr("Launching %1…").arg(name);
    });
    // The stream may have said more than the launch's answer already.
    followLaunch(m_core->instance(instance.id).value_or(instance));
}

void MainWindow::followLaunch(const Instance &instance)
{
    if (instance.id != m_launching)
        return;
    QString outcome;
    if (instance.state == InstanceState::Running)
        outcome = tr("“%1” is running.").arg(instance.name);
    else if (instance.state != InstanceState::Creating && instance.state != InstanceState::Starting)
        outcome = instance.stateReason.isEmpty()
            ? tr("“%1” did not start: it is %2.")
                  .arg(instance.name, Format::state(instance.state, instance.stateText))
            : tr("“%1” did not start: %2").arg(instance.name, instance.stateReason);
    if (outcome.isEmpty())
        return;
    m_launching.clear();
    // "Launching…" gives way; news said since (a key made for the launch) stays.
    if (statusBar()->currentMessage() == m_lastingStatusShown) {
        m_lastingStatus = nullptr;
        statusBar()->showMessage(outcome, 10000);
    }
}

void MainWindow::updateActions()
{
    const bool loggedIn = m_core->isLoggedIn();
    const Instance *instance = m_model->instance(selectedInstanceId());
    auto allowed = [&](Action action) {
        return loggedIn && instance && InstanceActions::allowed(action, *instance);
    };
    m_ui->launchAction->setEnabled(loggedIn);
    m_ui->refreshAction->setEnabled(m_stack->currentWidget() == m_dashboard);
    m_ui->logOutAction->setEnabled(loggedIn);
    m_ui->topUpAction->setEnabled(loggedIn);
    m_ui->stopAction->setEnabled(allowed(Action::Stop));
    m_ui->startAction->setEnabled(allowed(Action::Start));
    m_ui->terminateAction->setEnabled(allowed(Action::Terminate));
    updateSshActions(loggedIn ? instance : nullptr);
}

void MainWindow::openLaunchDialog()
{
    ensureDashboard(); // the key store is the SSH actions'
    m_instances->openLaunchDialog();
}

void MainWindow::confirm(Action action, const QString &instanceId)
{
    ensureDashboard();
    m_instances->confirm(action, instanceId);
}

void MainWindow::connectInstanceActions()
{
    auto selected = [this] { return m_model->instance(selectedInstanceId()); };
    connect(m_ui->openTerminalAction, &QAction::triggered, this,
            [this] { openTerminal(selectedInstanceId()); });
    connect(m_ui->systemTerminalAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            sshActions()->openSystemTerminal(*instance);
    });
    connect(m_ui->sshConfigAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            sshActions()->addToSshConfig(*instance);
    });
    m_ui->copySshAction->setShortcut(QKeySequence::Copy);
    connect(m_ui->copySshAction, &QAction::triggered, this, [this, selected] {
        if (const Instance *instance = selected())
            sshActions()->copySshCommand(*instance);
    });
    connect(m_ui->sshKeysAction, &QAction::triggered, this, [this] { setCurrentView(View::Keys); });
    connect(m_ui->uploadAction, &QAction::triggered, this, &MainWindow::uploadToCurrentTab);
    connect(m_ui->downloadAction, &QAction::triggered, this, &MainWindow::downloadFromCurrentTab);
    connect(m_instances, &QTabWidget::currentChanged, this, &MainWindow::updateTransferActions);
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
                    sshActions()->openApp(*current, app);
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
    TerminalTab *tab = sshActions()->openTerminal(*instance);
    if (tab)
        setCurrentView(View::Instances); // from Home, a card's Terminal button
    return tab;
}

QList<TerminalTab *> MainWindow::terminalTabs() const
{
    return m_instances ? m_instances->terminalTabs() : QList<TerminalTab *>();
}

void MainWindow::updateTransferActions()
{
    const bool terminal = m_instances && currentView() == View::Instances
        && m_instances->currentTerminal() != nullptr;
    m_ui->uploadAction->setEnabled(terminal);
    m_ui->downloadAction->setEnabled(terminal);
}

void MainWindow::uploadToCurrentTab()
{
    TerminalTab *tab = m_instances ? m_instances->currentTerminal() : nullptr;
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
    TerminalTab *tab = m_instances ? m_instances->currentTerminal() : nullptr;
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

} // namespace cardhour::ui
