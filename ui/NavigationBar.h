#pragma once

#include "Icons.h"

#include <QListWidget>

namespace cardhour::ui {

// The window's side bar: one entry per page, icon above or beside its name, in the order the
// pages are added. Arrow keys move between pages; each page also has a Ctrl+number shortcut
// (the View menu), shown in the entry's tooltip.
class NavigationBar : public QListWidget
{
    Q_OBJECT
public:
    explicit NavigationBar(QWidget *parent = nullptr);

    void addPage(Icon icon, const QString &objectName);
    void setPageText(int row, const QString &text, const QKeySequence &shortcut);
    // Paints the icons again in the current palette (after a theme change).
    void repaintIcons();

protected:
    void changeEvent(QEvent *event) override;

private:
    QList<Icon> m_icons;
};

} // namespace cardhour::ui
