#pragma once

#include "TerminalScreen.h"

#include <QAbstractScrollArea>
#include <QByteArray>
#include <QFont>

namespace cardhour::terminal {

// The terminal as a widget: paints a TerminalScreen (only what changed), sends what the user
// types or pastes out through inputTyped(), and reports its size in cells through sizeChanged()
// whenever a resize or a zoom changes it. Knows nothing of SSH: connect feed() to the remote's
// output, inputTyped() to its input and sizeChanged() to its PTY size.
//
// Keys: everything goes to the remote (Tab too) except Ctrl+Shift+C / Ctrl+Shift+V (copy and
// paste; Shift+Insert pastes too), Ctrl+= / Ctrl+- / Ctrl+0 (font size) and Shift+PageUp /
// Shift+PageDown (scrollback). The mouse selects (double-click: a word) unless the remote asked
// for mouse reports; Shift+mouse always selects.
class TerminalWidget : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit TerminalWidget(QWidget *parent = nullptr);
    ~TerminalWidget() override;

    TerminalScreen *screen() const { return m_screen; }
    int columns() const { return m_screen->columns(); }
    int rows() const { return m_screen->rows(); }
    QSize cellSize() const { return m_cellSize; }
    QFont terminalFont() const { return m_font; }
    void setTerminalFont(const QFont &font);

    // Lines scrolled back into the history; 0 shows the live screen.
    int scrollOffset() const { return m_scrollOffset; }
    void setScrollOffset(int lines);

    bool hasSelection() const { return m_selectionStart != m_selectionEnd; }
    QString selectedText() const;
    void clearSelection();

    // Bytes given to feed() that are still waiting for their turn (see feed()).
    qsizetype pendingBytes() const { return m_pending.size() - m_pendingOffset; }

    QSize sizeHint() const override;
    QVariant inputMethodQuery(Qt::InputMethodQuery query) const override;

public Q_SLOTS:
    // Output of the remote, in chunks of any size: a UTF-8 sequence or an escape sequence may be
    // split between two calls. A large chunk is emulated in slices between which the event loop
    // runs, so the window stays responsive during a `cat` of megabytes.
    void feed(const QByteArray &bytes);
    void copy();
    void paste();
    void selectAll();
    void zoomIn();
    void zoomOut();
    void resetZoom();

Q_SIGNALS:
    void inputTyped(const QByteArray &bytes);
    void sizeChanged(int columns, int rows);
    void titleChanged(const QString &title);
    void bellRang();

protected:
    bool event(QEvent *event) override;
    bool focusNextPrevChild(bool next) override;
    void keyPressEvent(QKeyEvent *event) override;
    void inputMethodEvent(QInputMethodEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void processPending();
    void applyFont();
    void updateGrid();
    void updateScrollBar();
    void onDamaged(const QRegion &cells);
    void onScrollbackChanged(int delta);
    bool handleShortcut(const QKeyEvent &event);
    void typed();
    QRect cellRect(int viewRow, int column, int width = 1) const;
    TerminalPosition positionAt(const QPoint &point) const;
    bool isSelected(qint64 line, int column) const;
    bool forwardMouse(QMouseEvent *event, bool pressed);
    void setZoom(int steps);

    TerminalScreen *m_screen;
    QFont m_baseFont;
    QFont m_font;
    int m_zoomSteps = 0;
    QSize m_cellSize;
    int m_ascent = 0;
    int m_scrollOffset = 0;
    bool m_updatingScrollBar = false;
    bool m_selecting = false;
    TerminalPosition m_selectionStart;
    TerminalPosition m_selectionEnd;
    QByteArray m_pending;
    qsizetype m_pendingOffset = 0;
    bool m_feedScheduled = false;
    int m_reportedColumns = 0;
    int m_reportedRows = 0;
};

} // namespace cardhour::terminal
