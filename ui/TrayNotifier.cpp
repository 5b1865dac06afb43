#include "TrayNotifier.h"

#include "Format.h"
#include "StopText.h"
#include "billing/BillTicker.h"

#include <QAction>
#include <QMenu>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using namespace cardhour::core;

TrayNotifier::TrayNotifier(BillTicker *ticker, RunwayAlerts *alerts, QWidget *window)
    : QObject(window), m_ticker(ticker), m_alerts(alerts), m_window(window)
{
    setObjectName(u"trayNotifier"_s);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        const QIcon icon = window->windowIcon().isNull()
            ? window->style()->standardIcon(QStyle::SP_ComputerIcon)
            : window->windowIcon();
        m_icon = new QSystemTrayIcon(icon, this);
        m_menu = new QMenu(); // no parent: QSystemTrayIcon does not own its menu
        m_balanceAction = m_menu->addAction(QString());
        m_balanceAction->setEnabled(false);
        m_rateAction = m_menu->addAction(QString());
        m_rateAction->setEnabled(false);
        m_menu->addSeparator();
        m_keepSeparator = m_menu->addSeparator();
        m_keepSeparator->setVisible(false);
        m_showAction = m_menu->addAction(QString(), this, &TrayNotifier::showWindow);
        m_quitAction = m_menu->addAction(QString(), this, &TrayNotifier::quitRequested);
        m_icon->setContextMenu(m_menu);
        connect(m_icon, &QSystemTrayIcon::activated, this,
                [this](QSystemTrayIcon::ActivationReason reason) {
                    if (reason == QSystemTrayIcon::Trigger
                        || reason == QSystemTrayIcon::DoubleClick)
                        showWindow();
                });
        connect(m_icon, &QSystemTrayIcon::messageClicked, this, &TrayNotifier::activateLastMessage);
        m_icon->show();
    }
    connect(m_alerts, &RunwayAlerts::runwayAlert, this, &TrayNotifier::onRunwayAlert);
    connect(m_alerts, &RunwayAlerts::instanceAlert, this, &TrayNotifier::onInstanceAlert);
    retranslate();
}

TrayNotifier::~TrayNotifier()
{
    qDeleteAll(m_keepActions);
    delete m_menu;
}

void TrayNotifier::refresh()
{
    QString balance;
    QString rate;
    if (m_ticker->hasData()) {
        balance = tr("Balance: %1").arg(Format::money(m_ticker->balanceMicros()));
        rate = m_ticker->spendRateMicrosPerHour() > 0
            ? tr("Spending %1").arg(Format::ratePerHour(m_ticker->spendRateMicrosPerHour()))
            : tr("Nothing is billed now");
        m_toolTip = tr("CardHour — %1, %2").arg(balance, rate.toLower());
        const qint64 left = m_ticker->msLeft();
        if (left >= 0)
            m_toolTip += u"\n"_s + tr("Runs out in %1").arg(Format::duration(left));
    } else {
        m_toolTip = tr("CardHour");
    }
    if (m_icon) {
        m_icon->setToolTip(m_toolTip);
        m_balanceAction->setText(balance.isEmpty() ? tr("Balance: unknown") : balance);
        m_balanceAction->setVisible(true);
        m_rateAction->setText(rate);
        m_rateAction->setVisible(!rate.isEmpty());
    }
}

void TrayNotifier::retranslate()
{
    if (m_icon) {
        m_showAction->setText(tr("Show CardHour"));
        m_quitAction->setText(tr("Quit"));
    }
    refresh();
}

void TrayNotifier::notify(const QString &title, const QString &message, bool warning)
{
    m_lastWarnedId.clear();
    m_lastTitle = title;
    m_lastMessage = message;
    if (m_icon && QSystemTrayIcon::supportsMessages())
        m_icon->showMessage(title, message,
                            warning ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information,
                            15000);
    Q_EMIT notified(title, message);
}

void TrayNotifier::showStopWarning(const QString &instanceId, const QString &hostName,
                                   const QString &message, bool canKeepRunning)
{
    notify(tr("A host will stop"), message, true);
    m_lastWarnedId = instanceId;
    if (!canKeepRunning) {
        endStopWarning(instanceId);
        return;
    }
    QAction *&keep = m_keepActions[instanceId];
    if (!keep) {
        // Owned here, not by the menu, so that it exists where there is no tray too.
        keep = new QAction();
        keep->setObjectName(u"trayKeepRunning_"_s + instanceId);
        connect(keep, &QAction::triggered, this, [this, instanceId] {
            Q_EMIT keepRunningRequested(instanceId);
            endStopWarning(instanceId);
        });
        if (m_menu) {
            m_menu->insertAction(m_keepSeparator, keep);
            m_keepSeparator->setVisible(true);
        }
    }
    keep->setText(tr("Keep running %1").arg(hostName));
}

void TrayNotifier::endStopWarning(const QString &instanceId)
{
    QAction *keep = m_keepActions.take(instanceId);
    if (!keep)
        return;
    if (m_menu)
        m_menu->removeAction(keep);
    keep->deleteLater();
    if (m_keepSeparator)
        m_keepSeparator->setVisible(!m_keepActions.isEmpty());
}

void TrayNotifier::activateLastMessage()
{
    showWindow();
    if (!m_lastWarnedId.isEmpty())
        Q_EMIT hostRequested(m_lastWarnedId);
}

void TrayNotifier::onRunwayAlert(int thresholdMinutes, qint64 msLeft)
{
    Q_UNUSED(thresholdMinutes);
    notify(
        tr("Balance running low"),
        tr("At %1 your balance lasts %2. Top up or stop instances to keep your work.")
            .arg(Format::ratePerHour(m_ticker->spendRateMicrosPerHour()), Format::duration(msLeft)),
        true);
}

void TrayNotifier::onInstanceAlert(RunwayAlerts::InstanceAlert kind, const Instance &instance)
{
    const QString why = StopText::reasonOrAsSaid(instance.stateReason);
    if (kind == RunwayAlerts::InstanceAlert::Failed) {
        notify(tr("Instance failed"),
               why.isEmpty() ? tr("%1 failed.").arg(instance.name)
                             : tr("%1 failed: %2").arg(instance.name, why),
               true);
        return;
    }
    notify(tr("Instance stopped by the provider"),
           why.isEmpty() ? tr("%1 was stopped by the provider.").arg(instance.name)
                         : tr("%1 was stopped: %2.").arg(instance.name, why),
           true);
}

void TrayNotifier::showWindow()
{
    m_window->showNormal();
    m_window->raise();
    m_window->activateWindow();
}

} // namespace cardhour::ui
