#pragma once

#include "api/Models.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace cardhour::core {
class ClientSession;
} // namespace cardhour::core

namespace cardhour::ui {

class ZonedDateTimeEdit;

// A running host's stop time, in its details: when the provider stops it, a time field, and
// Move (or Set) and Remove. Each is sent as the host's stop policy with its other rules (cost,
// idle) kept as they are; the provider's answer is the new state, and what it refuses is said.
class StopTimerRow : public QWidget
{
    Q_OBJECT
public:
    explicit StopTimerRow(core::ClientSession *session, QWidget *parent = nullptr);

    void setInstance(const core::Instance &instance);
    QString statusText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void send(const core::StopPolicy &policy, bool removing);
    void updateButtons();

    core::ClientSession *m_session;
    QLabel *m_current;
    ZonedDateTimeEdit *m_time; // in the provider's zone
    QPushButton *m_move;
    QPushButton *m_remove;
    QLabel *m_status;
    core::Instance m_instance;
    QString m_shownId;
    QDateTime m_shownStopAt;
    bool m_busy = false;
};

} // namespace cardhour::ui
