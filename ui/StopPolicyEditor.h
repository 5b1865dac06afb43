#pragma once

#include "api/SpendingModels.h"

#include <QTimeZone>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace cardhour::ui {

class ZonedDateTimeEdit;

// When the provider is to stop a host by itself: at a time or after a while, at a cost, or when
// its cards stay idle. The launch dialog and the host's details use it; the provider keeps the
// policy (the laptop may sleep), this only edits it.
class StopPolicyEditor : public QWidget
{
    Q_OBJECT
public:
    enum class TimeRule {
        None,
        At,
        After
    };

    explicit StopPolicyEditor(QWidget *parent = nullptr);

    // The policy as edited; "after N hours" counts from `now`.
    core::StopPolicy policy(const QDateTime &now) const;
    void setPolicy(const core::StopPolicy &policy, const QDateTime &now);
    // The zone the stop time is shown and typed in (the provider's).
    void setTimeZone(const QTimeZone &zone);
    // "Stops at 18:30 or when idle for 30 min", or empty when nothing is set.
    QString summary(const QDateTime &now) const;
    // What is wrong with the input (a time in the past), or empty.
    QString problem(const QDateTime &now) const;

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void updateEnabled();

    QComboBox *m_timeRule;
    ZonedDateTimeEdit *m_stopAt; // in the provider's zone
    QDoubleSpinBox *m_afterHours;
    QCheckBox *m_costOn;
    QDoubleSpinBox *m_maxCost;
    QCheckBox *m_idleOn;
    QSpinBox *m_idlePercent;
    QSpinBox *m_idleMinutes;
    QCheckBox *m_idleNoConnections;
    QLabel *m_idleNote;
};

} // namespace cardhour::ui
