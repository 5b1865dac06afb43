#include "NavigationBar.h"

#include <QEvent>
#include <QKeySequence>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

NavigationBar::NavigationBar(QWidget *parent) : QListWidget(parent)
{
    setObjectName(u"navigationBar"_s);
    setIconSize(QSize(20, 20));
    setSpacing(2);
    setUniformItemSizes(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    // The side bar reads as part of the window, not as a list of data.
    setAutoFillBackground(false);
    viewport()->setAutoFillBackground(false);
}

void NavigationBar::addPage(Icon icon, const QString &objectName)
{
    auto *item = new QListWidgetItem(Icons::icon(icon, palette()), QString(), this);
    item->setData(Qt::UserRole, objectName);
    item->setSizeHint(QSize(0, 36));
    m_icons.append(icon);
}

void NavigationBar::setPageText(int row, const QString &text, const QKeySequence &shortcut)
{
    QListWidgetItem *entry = item(row);
    if (!entry)
        return;
    entry->setText(text);
    entry->setToolTip(u"%1 (%2)"_s.arg(text, shortcut.toString(QKeySequence::NativeText)));
    // The widest entry sets the bar's width, in whatever language is in use.
    int widest = 0;
    for (int i = 0; i < count(); ++i)
        widest = qMax(widest, fontMetrics().horizontalAdvance(item(i)->text()));
    setFixedWidth(widest + iconSize().width() + 40);
}

void NavigationBar::repaintIcons()
{
    for (int i = 0; i < count() && i < m_icons.size(); ++i)
        item(i)->setIcon(Icons::icon(m_icons[i], palette()));
}

void NavigationBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        repaintIcons();
    QListWidget::changeEvent(event);
}

} // namespace cardhour::ui
