// MainWindow, continued: the instance list's selection and actions, and the launch dialog.
// (MainWindow.cpp has the connect step and the session; MainWindowPages.cpp the pages.)
#include "EmptyState.h"
#include "InstanceActions.h"
#include "InstanceTableModel.h"
#include "LaunchDialog.h"
#include "MainWindow.h"
#include "MetricsChart.h"
#include "SshActions.h"
#include "ui_MainWindow.h"

#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

QString MainWindow::selectedInstanceId() const
{
    if (!m_table)
        return {};
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(InstanceTableModel::IdRole).toString();
}

void MainWindow::selectInstance(const QString &id)
{
    ensureDashboard();
    const int row = m_model->rowOf(id);
    if (row >= 0)
        m_table->selectRow(row);
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
    if (m_launchDialog) {
        m_launchDialog->raise();
        return;
    }
    m_launchDialog = new LaunchDialog(m_core, m_core->ticker(), m_ssh->keyStore(), this);
    m_launchDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_launchDialog, &LaunchDialog::launched, this, [this](const Instance &instance) {
        // The session has it already (instanceChanged() put it in the list).
        selectInstance(instance.id);
        statusBar()->showMessage(tr("Launching %1…").arg(instance.name), 5000);
    });
    connect(m_launchDialog, &LaunchDialog::manageKeysRequested, this, &MainWindow::openKeysDialog);
    // A key made for this launch is news the user should read, after "Launching…".
    connect(m_launchDialog, &LaunchDialog::keyCreated, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    m_launchDialog->load();
    m_launchDialog->open();
}

void MainWindow::confirm(Action action, const QString &instanceId)
{
    const Instance *instance = m_model->instance(instanceId);
    if (!instance || !InstanceActions::allowed(action, *instance))
        return;
    auto *box =
        new QMessageBox(action == Action::Terminate ? QMessageBox::Warning : QMessageBox::Question,
                        InstanceActions::buttonText(action),
                        InstanceActions::question(action, *instance), QMessageBox::Cancel, this);
    box->setObjectName(u"confirmDialog"_s);
    box->setInformativeText(InstanceActions::preview(action, *instance));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(InstanceActions::buttonText(action), QMessageBox::AcceptRole);
    yes->setObjectName(u"confirmButton"_s);
    // Terminate cannot be undone: Enter alone must not do it.
    box->setDefaultButton(action == Action::Terminate ? QMessageBox::Cancel
                                                      : QMessageBox::NoButton);
    if (action != Action::Terminate)
        box->setDefaultButton(yes);
    const QString id = instance->id;
    connect(box, &QMessageBox::buttonClicked, this,
            [this, yes, action, id](QAbstractButton *button) {
                if (button == yes)
                    perform(action, id);
            });
    box->open();
}

void MainWindow::perform(Action action, const QString &instanceId)
{
    Reply<Instance> *reply = nullptr;
    switch (action) {
    case Action::Stop:
        reply = m_core->stopInstance(instanceId);
        break;
    case Action::Start:
        reply = m_core->startInstance(instanceId);
        break;
    case Action::Terminate:
        reply = m_core->terminateInstance(instanceId);
        break;
    }
    reply->onFinished(this, [this, action](const Reply<Instance> &r) {
        if (r.ok()) { // the session holds the answer already
            updateActions();
            return;
        }
        showError(InstanceActions::buttonText(action), r.error().userMessage());
    });
}

void MainWindow::updateChart()
{
    if (!m_chart)
        return;
    const Instance *instance = m_model->instance(selectedInstanceId());
    m_chart->setInstance(instance ? instance->id : QString(), instance && instance->isBilled());
}

void MainWindow::updateInstancesEmptyState()
{
    if (!m_instancesStack)
        return;
    const bool empty = m_model->rowCount() == 0;
    m_instancesStack->setCurrentWidget(empty ? static_cast<QWidget *>(m_instancesEmpty) : m_table);
    // No chart of nothing: it comes back with the first instance.
    if (m_chart)
        m_chart->setVisible(!empty && m_ui->showChartAction->isChecked());
}

} // namespace cardhour::ui
