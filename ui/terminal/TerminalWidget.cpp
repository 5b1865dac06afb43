#include "TerminalWidget.h"

#include "TerminalKeyboard.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QScrollBar>
#include <QTimer>

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

} // namespace

TerminalWidget::TerminalWidget(QWidget *parent)
    : QAbstractScrollArea(parent), m_screen(new TerminalScreen(24, 80, this))
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
    const int pointSize =
        std::clamp((m_baseFont.pointSize() > 0 ? m_baseFont.pointSize() : 11) + m_zoomSteps,
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
    // A steady stream may never drain completely: drop what is done now and then.
    if (m_pendingOffset > 1024 * 1024) {
        m_pending.remove(0, m_pendingOffset);
        m_pendingOffset = 0;
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

void TerminalWidget::typed()
{
    setScrollOffset(0);
}

bool TerminalWidget::handleShortcut(const QKeyEvent &event)
{
    const Qt::KeyboardModifiers modifiers =
        event.modifiers() & (Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier);
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
        return QRect(
            viewport()->mapTo(this, cellRect(cursor.y() + m_scrollOffset, cursor.x()).topLeft()),
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

} // namespace cardhour::terminal
