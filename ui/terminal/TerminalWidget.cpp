#include "TerminalWidget.h"

#include "TerminalKeyboard.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::terminal {

namespace {

// One slice of feed() input: small enough that a slice takes a few milliseconds to emulate.
constexpr qsizetype FeedSliceBytes = 8 * 1024;
// How long one turn of the event loop may spend emulating before painting and input get a turn.
constexpr int FeedBudgetMs = 12;
constexpr int MinimumPointSize = 6;
constexpr int MaximumPointSize = 48;
constexpr int WheelLinesPerNotch = 3;

bool isWordCharacter(const QString &text)
{
    if (text.isEmpty())
        return false;
    const QChar c = text.at(0);
    return c.isLetterOrNumber() || text.size() > 1 || u"-_./~:@%+"_s.contains(c);
}

} // namespace

TerminalWidget::TerminalWidget(QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_screen(new TerminalScreen(24, 80, this))
{
    setObjectName(u"terminal"_s);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_InputMethodEnabled);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // a scroll bar that comes and goes would
                                                       // change the column count under the remote
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    viewport()->setAutoFillBackground(false);

    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace, QFont::PreferDefault);
    font.setFixedPitch(true);
    if (font.pointSize() < 10)
        font.setPointSize(11);
    m_baseFont = font;
    applyFont();

    connect(m_screen, &TerminalScreen::output, this, &TerminalWidget::inputTyped);
    connect(m_screen, &TerminalScreen::damaged, this, &TerminalWidget::onDamaged);
    connect(m_screen, &TerminalScreen::scrollbackChanged, this,
        &TerminalWidget::onScrollbackChanged);
    connect(m_screen, &TerminalScreen::titleChanged, this, &TerminalWidget::titleChanged);
    connect(m_screen, &TerminalScreen::bell, this, &TerminalWidget::bellRang);
    connect(m_screen, &TerminalScreen::altScreenChanged, this, [this] {
        // The other screen has other content: a selection and a scrolled view no longer apply.
        clearSelection();
        setScrollOffset(0);
        viewport()->update();
    });
}

TerminalWidget::~TerminalWidget() = default;

QSize TerminalWidget::sizeHint() const
{
    return QSize(80 * m_cellSize.width() + verticalScrollBar()->sizeHint().width(),
        24 * m_cellSize.height());
}

void TerminalWidget::setTerminalFont(const QFont &font)
{
    m_baseFont = font;
    m_zoomSteps = 0;
    applyFont();
}

void TerminalWidget::applyFont()
{
    QFont font = m_baseFont;
    const int pointSize = std::clamp((m_baseFont.pointSize() > 0 ? m_baseFont.pointSize() : 11)
            + m_zoomSteps,
        MinimumPointSize, MaximumPointSize);
    font.setPointSize(pointSize);
    font.setKerning(false);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
    const QFontMetricsF metrics(font);
    const qreal advance = metrics.horizontalAdvance(u'M');
    const int width = std::max(1, int(std::ceil(advance)));
    // Characters drawn as one string land exactly on the cell grid.
    font.setLetterSpacing(QFont::AbsoluteSpacing, width - advance);
    m_font = font;
    m_cellSize = QSize(width, std::max(1, int(std::ceil(metrics.height()))));
    m_ascent = int(std::ceil(metrics.ascent()));
    updateGrid();
    viewport()->update();
}

void TerminalWidget::setZoom(int steps)
{
    m_zoomSteps = steps;
    applyFont();
}

void TerminalWidget::zoomIn()
{
    setZoom(m_zoomSteps + 1);
}

void TerminalWidget::zoomOut()
{
    setZoom(m_zoomSteps - 1);
}

void TerminalWidget::resetZoom()
{
    setZoom(0);
}

void TerminalWidget::updateGrid()
{
    // Before it is shown the widget has no real size yet: the remote keeps 80x24 until then.
    if (!isVisible())
        return;
    const QSize area = viewport()->size();
    const int columns = std::max(2, area.width() / m_cellSize.width());
    const int rows = std::max(1, area.height() / m_cellSize.height());
    m_screen->resize(rows, columns);
    updateScrollBar();
    if (columns != m_reportedColumns || rows != m_reportedRows) {
        m_reportedColumns = columns;
        m_reportedRows = rows;
        Q_EMIT sizeChanged(columns, rows);
    }
}

void TerminalWidget::showEvent(QShowEvent *event)
{
    QAbstractScrollArea::showEvent(event);
    updateGrid();
}

void TerminalWidget::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateGrid();
}

void TerminalWidget::feed(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return;
    m_pending.append(bytes);
    if (!m_feedScheduled)
        processPending();
}

void TerminalWidget::processPending()
{
    m_feedScheduled = false;
    QElapsedTimer clock;
    clock.start();
    while (m_pendingOffset < m_pending.size()) {
        const qsizetype length = std::min(FeedSliceBytes, m_pending.size() - m_pendingOffset);
        m_screen->feed(QByteArray::fromRawData(m_pending.constData() + m_pendingOffset, length));
        m_pendingOffset += length;
        if (clock.elapsed() >= FeedBudgetMs)
            break;
    }
    if (m_pendingOffset >= m_pending.size()) {
        m_pending.clear();
        m_pendingOffset = 0;
        return;
    }
    m_feedScheduled = true;
    QTimer::singleShot(0, this, &TerminalWidget::processPending);
}

void TerminalWidget::onDamaged(const QRegion &cells)
{
    QRegion pixels;
    for (const QRect &rect : cells) {
        const int viewTop = rect.top() + m_scrollOffset;
        if (viewTop >= rows())
            continue;
        pixels += QRect(rect.left() * m_cellSize.width(), viewTop * m_cellSize.height(),
            rect.width() * m_cellSize.width(), rect.height() * m_cellSize.height());
    }
    if (!pixels.isEmpty())
        viewport()->update(pixels);
}

void TerminalWidget::onScrollbackChanged(int delta)
{
    // A view scrolled back stays on the same lines while new output arrives below.
    if (m_scrollOffset > 0) {
        m_scrollOffset = std::clamp(m_scrollOffset + delta, 0, m_screen->scrollbackCount());
        viewport()->update();
    }
    updateScrollBar();
}

void TerminalWidget::updateScrollBar()
{
    m_updatingScrollBar = true;
    QScrollBar *bar = verticalScrollBar();
    const int history = m_screen->scrollbackCount();
    bar->setRange(0, history);
    bar->setPageStep(rows());
    bar->setSingleStep(1);
    bar->setValue(history - m_scrollOffset);
    m_updatingScrollBar = false;
}

void TerminalWidget::scrollContentsBy(int, int)
{
    if (m_updatingScrollBar)
        return;
    m_scrollOffset = m_screen->scrollbackCount() - verticalScrollBar()->value();
    viewport()->update();
}

void TerminalWidget::setScrollOffset(int lines)
{
    lines = std::clamp(lines, 0, m_screen->scrollbackCount());
    if (lines == m_scrollOffset)
        return;
    m_scrollOffset = lines;
    updateScrollBar();
    viewport()->update();
}

QRect TerminalWidget::cellRect(int viewRow, int column, int width) const
{
    return QRect(column * m_cellSize.width(), viewRow * m_cellSize.height(),
        width * m_cellSize.width(), m_cellSize.height());
}

TerminalPosition TerminalWidget::positionAt(const QPoint &point) const
{
    const int viewRow = std::clamp(point.y() / m_cellSize.height(), 0, rows() - 1);
    // Past the middle of a cell the position is the cell boundary to its right.
    const int column = std::clamp(
        (point.x() + m_cellSize.width() / 2) / m_cellSize.width(), 0, columns());
    return { m_screen->historyLine(viewRow - m_scrollOffset), column };
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
    m_selectionStart = { m_screen->historyLine(-m_screen->scrollbackCount()), 0 };
    m_selectionEnd = { m_screen->historyLine(rows() - 1), columns() };
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

void TerminalWidget::typed()
{
    setScrollOffset(0);
}

bool TerminalWidget::handleShortcut(const QKeyEvent &event)
{
    const Qt::KeyboardModifiers modifiers
        = event.modifiers() & (Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier);
    const int key = event.key();
    if (modifiers == (Qt::ControlModifier | Qt::ShiftModifier)) {
        if (key == Qt::Key_C) {
            copy();
            return true;
        }
        if (key == Qt::Key_V) {
            paste();
            return true;
        }
    }
    if (modifiers == Qt::ShiftModifier) {
        if (key == Qt::Key_Insert) {
            paste();
            return true;
        }
        if (key == Qt::Key_PageUp || key == Qt::Key_PageDown) {
            const int page = std::max(1, rows() - 1);
            setScrollOffset(m_scrollOffset + (key == Qt::Key_PageUp ? page : -page));
            return true;
        }
    }
    if (modifiers & Qt::ControlModifier && !(modifiers & Qt::AltModifier)) {
        if (key == Qt::Key_Equal || key == Qt::Key_Plus) {
            zoomIn();
            return true;
        }
        if (key == Qt::Key_Minus) {
            zoomOut();
            return true;
        }
        if (key == Qt::Key_0 && !(modifiers & Qt::ShiftModifier)) {
            resetZoom();
            return true;
        }
    }
    return false;
}

bool TerminalWidget::event(QEvent *event)
{
    // Keys are the remote's: no application shortcut (Ctrl+W, Ctrl+Q) nor a focus move takes them.
    // Ctrl+Shift combinations other than copy and paste stay free for the application (tabs).
    if (event->type() == QEvent::ShortcutOverride) {
        auto *key = static_cast<QKeyEvent *>(event);
        const bool controlShift = (key->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier))
            == (Qt::ControlModifier | Qt::ShiftModifier);
        if (!controlShift || key->key() == Qt::Key_C || key->key() == Qt::Key_V) {
            event->accept();
            return true;
        }
    }
    if (event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Tab || key->key() == Qt::Key_Backtab) {
            keyPressEvent(key);
            return true;
        }
    }
    return QAbstractScrollArea::event(event);
}

bool TerminalWidget::focusNextPrevChild(bool)
{
    return false;
}

void TerminalWidget::keyPressEvent(QKeyEvent *event)
{
    if (handleShortcut(*event)) {
        event->accept();
        return;
    }
    if (sendKeyToTerminal(*m_screen, *event)) {
        event->accept();
        typed();
        return;
    }
    event->ignore();
}

void TerminalWidget::inputMethodEvent(QInputMethodEvent *event)
{
    const QList<uint> characters = event->commitString().toUcs4();
    for (uint character : characters)
        m_screen->sendCharacter(char32_t(character), VTERM_MOD_NONE);
    if (!characters.isEmpty())
        typed();
    event->accept();
}

QVariant TerminalWidget::inputMethodQuery(Qt::InputMethodQuery query) const
{
    switch (query) {
    case Qt::ImEnabled:
        return true;
    case Qt::ImCursorRectangle: {
        const QPoint cursor = m_screen->cursor();
        return QRect(viewport()->mapTo(this, cellRect(cursor.y() + m_scrollOffset, cursor.x()).topLeft()),
            m_cellSize);
    }
    case Qt::ImFont:
        return m_font;
    default:
        return QAbstractScrollArea::inputMethodQuery(query);
    }
}

void TerminalWidget::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    m_screen->focusChanged(true);
    viewport()->update();
}

void TerminalWidget::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    m_screen->focusChanged(false);
    viewport()->update();
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
    while (first > 0 && (m_screen->cell(row, first - 1).width == 0
               || isWordCharacter(m_screen->cell(row, first - 1).text)))
        --first;
    int last = column + m_screen->cell(row, column).width;
    while (last < columns()
        && (m_screen->cell(row, last).width == 0 || isWordCharacter(m_screen->cell(row, last).text)))
        ++last;
    m_selectionStart = { m_screen->historyLine(row), first };
    m_selectionEnd = { m_screen->historyLine(row), last };
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
