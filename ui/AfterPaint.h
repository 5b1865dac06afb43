#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace cardhour::ui {

// Runs some work once a widget has painted its next frame and the event loop takes events again:
// for what that frame should not wait for (building hidden pages, running a program). arm()
// asks for one run after the next paint; arming again before it runs changes nothing. Owned by
// the widget, so the work never runs after the widget is gone.
class AfterPaint : public QObject
{
public:
    AfterPaint(QWidget *widget, std::function<void()> work);

    void arm();
    bool isArmed() const { return m_armed; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_widget;
    std::function<void()> m_work;
    bool m_armed = false;
};

} // namespace cardhour::ui
