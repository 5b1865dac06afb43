// TerminalWidget: the mouse (selection, wheel, reports to the remote), the clipboard and the
// context menu.
#include "TerminalWidget.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::terminal {

namespace {

constexpr int WheelLinesPerNotch = 3;

bool isWordCharacter(const QString &text)
{
    if (text.isEmpty())
        return false;
    const QChar c = text.at(0);
    return c.isLetterOrNumber() || text.size() > 1 || u"-_./~:@%+"_s.contains(c);
}

} // namespace

TerminalPosition TerminalWidget::positionAt(const QPoint &point) const
{
    const int viewRow = std::clamp(point.y() / m_cellSize.height(), 0, rows() - 1);
    // Past the middle of a cell the position is the cell boundary to its right.
    const int column =
        std::clamp((point.x() + m_cellSize.width() / 2) / m_cellSize.width(), 0, columns());
    return {m_screen->historyLine(viewRow - m_scrollOffset), column};
}

bool TerminalWidget::isSelected(qint64 line, int column) const
{
    if (!hasSelection())
        return false;
    TerminalPosition start = m_selectionStart;
    TerminalPosition end = m_selectionEnd;
    if (end.line < start.line || (end.line == start.line && end.column < start.column))
        std::swap(start, end);
    if (line < start.line || line > end.line)
        return false;
    if (line == start.line && column < start.column)
        return false;
    if (line == end.line && column >= end.column)
        return false;
    return true;
}

QString TerminalWidget::selectedText() const
{
    return hasSelection() ? m_screen->text(m_selectionStart, m_selectionEnd) : QString();
}

void TerminalWidget::clearSelection()
{
    if (!hasSelection())
        return;
    m_selectionStart = m_selectionEnd = {};
    viewport()->update();
}

void TerminalWidget::selectAll()
{
    m_selectionStart = {m_screen->historyLine(-m_screen->scrollbackCount()), 0};
    m_selectionEnd = {m_screen->historyLine(rows() - 1), columns()};
    viewport()->update();
}

void TerminalWidget::copy()
{
    if (hasSelection())
        QGuiApplication::clipboard()->setText(selectedText());
}

void TerminalWidget::paste()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.isEmpty())
        return;
    m_screen->paste(text);
    typed();
}

void TerminalWidget::wheelEvent(QWheelEvent *event)
{
    const int notches = event->angleDelta().y() / 120;
    if (notches == 0) {
        event->accept();
        return;
    }
    if (m_screen->mouseMode() != VTERM_PROP_MOUSE_NONE
        && !(event->modifiers() & Qt::ShiftModifier)) {
        const TerminalPosition position = positionAt(event->position().toPoint());
        m_screen->sendMouseMove(m_screen->rowOfHistoryLine(position.line),
                                std::min(position.column, columns() - 1), VTERM_MOD_NONE);
        for (int i = 0; i < std::abs(notches); ++i)
            m_screen->sendMouseButton(notches > 0 ? 4 : 5, true, VTERM_MOD_NONE);
    } else if (m_screen->altScreenActive()) {
        // Full-screen programs without mouse reports (less, man) scroll with the arrow keys.
        for (int i = 0; i < std::abs(notches) * WheelLinesPerNotch; ++i)
            m_screen->sendKey(notches > 0 ? VTERM_KEY_UP : VTERM_KEY_DOWN, VTERM_MOD_NONE);
    } else {
        setScrollOffset(m_scrollOffset + notches * WheelLinesPerNotch);
    }
    event->accept();
}

bool TerminalWidget::forwardMouse(QMouseEvent *event, bool pressed)
{
    if (m_screen->mouseMode() == VTERM_PROP_MOUSE_NONE || event->modifiers() & Qt::ShiftModifier)
        return false;
    const QPoint point = event->position().toPoint();
    const int row = std::clamp(point.y() / m_cellSize.height(), 0, rows() - 1);
    const int column = std::clamp(point.x() / m_cellSize.width(), 0, columns() - 1);
    m_screen->sendMouseMove(row, column, VTERM_MOD_NONE);
    int button = 0;
    switch (event->button()) {
    case Qt::LeftButton:
        button = 1;
        break;
    case Qt::MiddleButton:
        button = 2;
        break;
    case Qt::RightButton:
        button = 3;
        break;
    default:
        break;
    }
    if (button != 0 && event->type() != QEvent::MouseMove)
        m_screen->sendMouseButton(button, pressed, VTERM_MOD_NONE);
    return true;
}

void TerminalWidget::mousePressEvent(QMouseEvent *event)
{
    setFocus(Qt::MouseFocusReason);
    if (forwardMouse(event, true))
        return;
    if (event->button() == Qt::LeftButton) {
        m_selecting = true;
        m_selectionStart = m_selectionEnd = positionAt(event->position().toPoint());
        viewport()->update();
    } else if (event->button() == Qt::MiddleButton) {
        const QString text = QGuiApplication::clipboard()->text(QClipboard::Selection);
        if (!text.isEmpty()) {
            m_screen->paste(text);
            typed();
        }
    }
}

void TerminalWidget::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_selecting) {
        forwardMouse(event, false);
        return;
    }
    const QPoint point = event->position().toPoint();
    // Dragging past the top or bottom edge scrolls the history along.
    if (point.y() < 0)
        setScrollOffset(m_scrollOffset + 1);
    else if (point.y() >= viewport()->height())
        setScrollOffset(m_scrollOffset - 1);
    m_selectionEnd = positionAt(point);
    viewport()->update();
}

void TerminalWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_selecting) {
        forwardMouse(event, false);
        return;
    }
    m_selecting = false;
    if (hasSelection() && QGuiApplication::clipboard()->supportsSelection())
        QGuiApplication::clipboard()->setText(selectedText(), QClipboard::Selection);
}

void TerminalWidget::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || forwardMouse(event, true))
        return;
    const QPoint point = event->position().toPoint();
    const int viewRow = std::clamp(point.y() / m_cellSize.height(), 0, rows() - 1);
    const int row = viewRow - m_scrollOffset;
    int column = std::clamp(point.x() / m_cellSize.width(), 0, columns() - 1);
    if (m_screen->cell(row, column).width == 0 && column > 0)
        --column;
    if (!isWordCharacter(m_screen->cell(row, column).text))
        return;
    int first = column;
    while (first > 0
           && (m_screen->cell(row, first - 1).width == 0
               || isWordCharacter(m_screen->cell(row, first - 1).text)))
        --first;
    int last = column + m_screen->cell(row, column).width;
    while (last < columns()
           && (m_screen->cell(row, last).width == 0
               || isWordCharacter(m_screen->cell(row, last).text)))
        ++last;
    m_selectionStart = {m_screen->historyLine(row), first};
    m_selectionEnd = {m_screen->historyLine(row), last};
    m_selecting = false;
    viewport()->update();
    if (QGuiApplication::clipboard()->supportsSelection())
        QGuiApplication::clipboard()->setText(selectedText(), QClipboard::Selection);
}

void TerminalWidget::contextMenuEvent(QContextMenuEvent *event)
{
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QAction *copyAction = menu->addAction(tr("Copy"), this, &TerminalWidget::copy);
    copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyAction->setEnabled(hasSelection());
    QAction *pasteAction = menu->addAction(tr("Paste"), this, &TerminalWidget::paste);
    pasteAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    pasteAction->setEnabled(!QGuiApplication::clipboard()->text().isEmpty());
    menu->addAction(tr("Select All"), this, &TerminalWidget::selectAll);
    menu->addSeparator();
    menu->addAction(tr("Zoom In"), this, &TerminalWidget::zoomIn)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal));
    menu->addAction(tr("Zoom Out"), this, &TerminalWidget::zoomOut)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    menu->addAction(tr("Reset Zoom"), this, &TerminalWidget::resetZoom)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    menu->popup(event->globalPos());
}

} // namespace cardhour::terminal
