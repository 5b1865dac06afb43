#pragma once

#include <QHash>
#include <QWidget>

class QGridLayout;
class QLabel;
class QScrollArea;
class QStackedWidget;

namespace cardhour::core {
class ClientSession;
class Clock;
} // namespace cardhour::core

namespace cardhour::ui {

class AppsPanel;
class EmptyState;
class SshActions;
class HostCard;
class InstanceTableModel;

// The first page after log-in: the user's hosts as compact cards (running ones first) with their
// one-click actions, or, with none, what to do next. The balance, spend rate and runs-out time
// are in the bill panel above every page. Cards are updated only while the page is on screen;
// when it is shown again they read the model once.
class HomePage : public QWidget
{
    Q_OBJECT
public:
    explicit HomePage(InstanceTableModel *model, QWidget *parent = nullptr);

    QList<HostCard *> cards() const;
    EmptyState *emptyState() const { return m_empty; }
    // The one-click apps of the provider's catalog (AppsPanel), above the hosts.
    void showApps(core::ClientSession *session, SshActions *ssh);
    AppsPanel *appsPanel() const { return m_apps; }
    // The clock the cards' countdowns run on (the provider's; not owned).
    void setClock(const core::Clock *clock);

Q_SIGNALS:
    void launchRequested();
    void terminalRequested(const QString &instanceId);
    void appRequested(const QString &instanceId);
    void stopRequested(const QString &instanceId);
    void startRequested(const QString &instanceId);

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void layoutCards();
    void onDataChanged(const QModelIndex &from, const QModelIndex &to, const QList<int> &roles);
    void retranslate();

    InstanceTableModel *m_model;
    const core::Clock *m_clock = nullptr;
    AppsPanel *m_apps = nullptr;
    QStackedWidget *m_stack;
    EmptyState *m_empty;
    QWidget *m_cardsPage;
    QLabel *m_heading;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_grid;
    QGridLayout *m_gridLayout;
    QHash<QString, HostCard *> m_cards;
    QList<QString> m_order;
    int m_columns = 0;
    bool m_stale = true; // the model changed while the page was hidden
};

} // namespace cardhour::ui
