#pragma once

#include <QFrame>
#include <QList>
#include <QPersistentModelIndex>

class QLabel;
class QToolButton;

namespace cardhour::core {
class Clock;
} // namespace cardhour::core

namespace cardhour::ui {

class InstanceTableModel;

// One host on the Home page: name, state (colour and words), cards, cost so far, the last minute
// of GPU utilisation, and its one-click actions. It reads everything from the instance model's
// row, so it shows what the Instances table shows.
class HostCard : public QFrame
{
    Q_OBJECT
public:
    // The least width of a card: the Home page lays out as many columns as fit.
    static constexpr int kMinimumWidth = 260;

    HostCard(InstanceTableModel *model, const QString &instanceId, QWidget *parent = nullptr);

    QString instanceId() const { return m_id; }
    // Reads the row again (the page calls it when the row changed and the card is on screen).
    void refresh();
    // Only the cost and the sparkline (the per-second tick, a metrics sample).
    void refreshLive();
    // What the planned stop counts down on: the provider's clock (not owned; nullptr: this
    // machine's).
    void setClock(const core::Clock *clock);

Q_SIGNALS:
    void terminalRequested(const QString &instanceId);
    void appRequested(const QString &instanceId);
    void stopRequested(const QString &instanceId);
    void startRequested(const QString &instanceId);

protected:
    void changeEvent(QEvent *event) override;

private:
    class Sparkline;

    void retranslate();
    void paintIcons();

    InstanceTableModel *m_model;
    QString m_id;
    const core::Clock *m_clock = nullptr;
    QLabel *m_name;
    QLabel *m_state;
    QLabel *m_gpu;
    QLabel *m_cost;
    QLabel *m_plannedStop; // when and why the provider will stop it
    Sparkline *m_sparkline;
    QToolButton *m_terminal;
    QToolButton *m_app;
    QToolButton *m_stop;
    QToolButton *m_start;
};

} // namespace cardhour::ui
