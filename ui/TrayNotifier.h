#pragma once

#include "billing/RunwayAlerts.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QSystemTrayIcon;
class QWidget;

namespace cardhour::core {
class BillTicker;
}

namespace cardhour::ui {

// The tray: balance and spend rate in the tooltip and menu; notifications for what RunwayAlerts
// decides (the balance runs out within the thresholds; an instance failed or the provider
// stopped it). Where the desktop has no tray (offscreen, some Wayland sessions) there is no icon;
// notified() still fires, so the window can show the same sentence in its status bar.
class TrayNotifier : public QObject
{
    Q_OBJECT
public:
    // `ticker` and `alerts` are not owned; `window` is raised from the tray.
    TrayNotifier(core::BillTicker *ticker, core::RunwayAlerts *alerts, QWidget *window);
    ~TrayNotifier() override;

    bool hasIcon() const { return m_icon != nullptr; }
    QString toolTip() const { return m_toolTip; }
    QString lastTitle() const { return m_lastTitle; }
    QString lastMessage() const { return m_lastMessage; }

    // The tooltip and menu from the ticker's figures (call after each provider update; the
    // ticker's own ticks call it too).
    void refresh();
    void retranslate();
    // A host the provider is about to stop by itself (its stop time, cost or idle window). A
    // tray message has no buttons: with `canKeepRunning` (an idle stop) the tray menu gains
    // "Keep running HOST" until endStopWarning(); clicking the message opens the host.
    void showStopWarning(const QString &instanceId, const QString &hostName, const QString &message,
                         bool canKeepRunning);
    // The warning is over (kept running, stopped, or no longer planned): its menu entry goes.
    void endStopWarning(const QString &instanceId);
    // The "Keep running HOST" entries, in the menu where there is a tray (tests).
    QList<QAction *> keepRunningActions() const { return m_keepActions.values(); }
    // What clicking the last message does (the tray's messageClicked).
    void activateLastMessage();

Q_SIGNALS:
    void notified(const QString &title, const QString &message);
    void quitRequested();
    void keepRunningRequested(const QString &instanceId);
    void hostRequested(const QString &instanceId);

private:
    void notify(const QString &title, const QString &message, bool warning);
    void onRunwayAlert(int thresholdMinutes, qint64 msLeft);
    void onInstanceAlert(core::RunwayAlerts::InstanceAlert kind, const core::Instance &instance);
    void showWindow();

    core::BillTicker *m_ticker;
    core::RunwayAlerts *m_alerts;
    QWidget *m_window;
    QSystemTrayIcon *m_icon = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_balanceAction = nullptr;
    QAction *m_rateAction = nullptr;
    QAction *m_showAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_keepSeparator = nullptr; // after the "Keep running" entries
    QHash<QString, QAction *> m_keepActions; // instance → its "Keep running" entry
    QString m_lastWarnedId; // the host the last message was about; empty: not a stop warning
    QString m_toolTip;
    QString m_lastTitle;
    QString m_lastMessage;
};

} // namespace cardhour::ui
