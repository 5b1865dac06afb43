#include "AfterPaint.h"

#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace cardhour::ui {

AfterPaint::AfterPaint(QWidget *widget, std::function<void()> work)
    : QObject(widget), m_widget(widget), m_work(std::move(work))
{}

void AfterPaint::arm()
{
    if (m_armed)
        return;
    m_armed = true;
    // Watching only while armed: the widget's other events never pass through here.
    m_widget->installEventFilter(this);
}

bool AfterPaint::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_widget && event->type() == QEvent::Paint && m_armed) {
        m_widget->removeEventFilter(this);
        // A zero timer fires once this paint is done and the loop has turned again.
        QTimer::singleShot(0, this, [this] {
            m_armed = false;
            m_work();
        });
    }
    return QObject::eventFilter(watched, event);
}

} // namespace cardhour::ui
