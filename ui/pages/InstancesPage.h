#pragma once

#include "InstanceActions.h"
#include "api/Models.h"
#include "ssh/AppOpener.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QTabWidget>

class QAction;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

class EmptyState;
class InstanceDetails;
class InstanceTableModel;
class LaunchDialog;
class MetricsChart;
class SshActions;
class SshKeysDialog;
class TerminalTab;

// The Instances page: the user's instances in a table (or, with none, what to do) beside the
// selected one's details, its GPU chart below both, and one tab per open terminal. Like
// Konsole's ViewManager it owns a group of views and what acts on them: the SSH actions (the
// terminal tabs are its tabs), the stop/start/terminate confirmations, the launch dialog and the
// SSH keys dialog. The window's actions (MainWindow.ui) call in; it answers with signals.
// Every command goes through the ClientSession, which holds the answer before this page reads it.
class InstancesPage : public QTabWidget
{
    Q_OBJECT
public:
    // Where the SSH actions keep their files; empty: the defaults.
    struct SshFiles
    {
        QString keyFolder;
        QString knownHostsFile;
        QString sshConfigFile;
        core::AppOpener::Launcher browser; // empty: the platform's (SshActions)
    };
    // `model`: the instances shown, fed by the window and shared with Home (not owned).
    InstancesPage(core::ClientSession *session, InstanceTableModel *model, const SshFiles &files,
                  QWidget *parent = nullptr);

    SshActions *sshActions() const { return m_ssh; }
    QString selectedInstanceId() const;
    void selectInstance(const QString &id);
    // The table's context menu: the window's instance actions.
    void setContextActions(const QList<QAction *> &actions);
    // The details pane and the chart (the costliest widget to create): built when the page is
    // first shown, not with the window.
    void buildDetails();
    // Whether the user wants the chart (View → GPU chart); it shows only with an instance.
    void setChartWanted(bool wanted);
    // The chart follows the selected instance.
    void updateChart();
    // The terminal tabs now open, in tab order; the current one (null: the list is shown).
    QList<TerminalTab *> terminalTabs() const;
    TerminalTab *currentTerminal() const;

    void openLaunchDialog();
    void openKeysDialog();
    SshKeysDialog *keysDialog() const;
    // The launch dialog lists the provider's keys: an upload elsewhere shows there at once.
    void reloadLaunchKeys();
    // Asks first (what it costs, what is lost), then does it.
    void confirm(InstanceActions::Action action, const QString &instanceId);

Q_SIGNALS:
    void selectionChanged();
    // A double-click on an instance: its terminal.
    void terminalRequested(const QString &instanceId);
    // The launch dialog's host was accepted by the provider (the session holds it).
    void launched(const cardhour::core::Instance &instance);
    // An action was done (the session holds its answer): the window's actions follow.
    void actionDone();
    // For the status bar, shown for `timeoutMs`.
    void message(const QString &text, int timeoutMs);
    void errorOccurred(const QString &title, const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using Action = InstanceActions::Action;

    void buildList();
    void retranslate();
    void updateEmptyState();
    // Columns at their contents' width while the table has room; otherwise the long text
    // columns give way (their text elided, whole in the tool tip), never a sideways scroll.
    void fitColumns();
    void perform(Action action, const QString &instanceId);
    void closeTab(int index);
    // Log-out or another user: every terminal closes (its connection and its scrollback go),
    // and so does every app's forward, so that nobody sees the previous user's shells.
    void closeEverySshView();

    core::ClientSession *m_session;
    InstanceTableModel *m_model;
    SshActions *m_ssh;
    QStackedWidget *m_listStack = nullptr; // the table, or its empty state
    EmptyState *m_empty = nullptr;
    QTableView *m_table = nullptr;
    QSplitter *m_splitter = nullptr; // the list and details above, the chart below
    QSplitter *m_listAndDetails = nullptr;
    InstanceDetails *m_details = nullptr; // built with the chart (buildDetails)
    MetricsChart *m_chart = nullptr;
    bool m_chartWanted = true;
    QPointer<LaunchDialog> m_launchDialog;
    QPointer<SshKeysDialog> m_keysDialog;
};

} // namespace cardhour::ui
