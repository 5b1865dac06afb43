#pragma once

#include "Icons.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace cardhour::ui {

// The two pages of a list page's QStackedWidget (its .ui form orders them so): its EmptyState
// while there is nothing to list, and the list.
namespace emptyorlist {
constexpr int kEmptyPage = 0;
constexpr int kListPage = 1;
} // namespace emptyorlist

// What a page shows instead of an empty list: what is missing, what to do about it, and the
// button that does it (hidden when there is nothing to do from here).
class EmptyState : public QWidget
{
    Q_OBJECT
public:
    EmptyState(Icon icon, QWidget *parent = nullptr);
    // For forms (uic): the icon is set afterwards.
    explicit EmptyState(QWidget *parent = nullptr) : EmptyState(Icon::Home, parent) {}

    void setIcon(Icon icon);

    void setTitle(const QString &title);
    void setText(const QString &text);
    // An empty label hides the button.
    void setAction(const QString &label);
    QString title() const;
    QString text() const;
    QPushButton *button() const { return m_button; }

Q_SIGNALS:
    void actionTriggered();

protected:
    void changeEvent(QEvent *event) override;

private:
    void paintIcon();

    Icon m_icon;
    QLabel *m_iconLabel;
    QLabel *m_title;
    QLabel *m_text;
    QPushButton *m_button;
};

} // namespace cardhour::ui
