#pragma once

#include <QColor>
#include <QObject>
#include <QPoint>
#include <QRegion>
#include <QString>

#include <deque>
#include <vector>
#include <vterm.h>

namespace cardhour::terminal {

// One cell as the screen shows it. A wide character (CJK) has width 2 and the cell to its right
// is its continuation, with width 0 and no text. Colours are resolved: palette indices (16 and
// 256 colours) and "default" become RGB; `reverse` is left for the painter to apply.
struct TerminalCell
{
    QString text; // empty for a blank cell
    int width = 1;
    QColor foreground;
    QColor background;
    bool bold = false;
    bool underline = false;
    bool italic = false;
    bool reverse = false;
    bool strike = false;
    bool defaultBackground = true; // no SGR background: the painter may skip filling it
};

// A position in the whole history: line 0 is the first line that ever went into the scrollback
// (also when it has since been dropped), and the screen's rows follow the newest one. Stays valid
// while lines move from the screen into the scrollback and drop off its top (see
// TerminalScreen::historyLine), so a selection keeps pointing at the same text.
struct TerminalPosition
{
    qint64 line = 0;
    int column = 0;
    friend bool operator==(const TerminalPosition &, const TerminalPosition &) = default;
};

// The terminal emulation without any painting: libvterm's VTerm + VTermScreen, a bounded
// scrollback fed by libvterm's sb_pushline/sb_popline, and the terminal's properties (cursor,
// alternate screen, title). Bytes from the remote go in through feed(); whatever the terminal
// answers or encodes for the remote (DSR/DA answers, keys, pastes) comes out through output().
// Rows are 0-based; row -1 is the newest scrollback line, row -scrollbackCount() the oldest.
class TerminalScreen : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultScrollbackLimit = 10000;

    TerminalScreen(int rows, int columns, QObject *parent = nullptr);
    ~TerminalScreen() override;

    void feed(const QByteArray &bytes);
    void resize(int rows, int columns);

    int rows() const { return m_rows; }
    int columns() const { return m_columns; }

    // `row` from -scrollbackCount() to rows() - 1; out of range gives a blank cell.
    TerminalCell cell(int row, int column) const;
    // The text of a row, wide characters once, trailing blanks removed.
    QString lineText(int row) const;
    // Text between two history positions (end exclusive), lines joined with '\n'.
    QString text(TerminalPosition from, TerminalPosition to) const;
    QString screenText() const; // every screen row, for tests and debugging

    QPoint cursor() const { return m_cursor; } // x = column, y = row
    bool cursorVisible() const { return m_cursorVisible; }
    bool cursorBlinking() const { return m_cursorBlinking; }
    bool altScreenActive() const { return m_altScreen; }
    bool reverseVideo() const { return m_reverseVideo; }
    int mouseMode() const { return m_mouseMode; } // VTERM_PROP_MOUSE_*
    QString title() const { return m_title; }

    int scrollbackCount() const { return int(m_scrollback.size()); }
    int scrollbackLimit() const { return m_scrollbackLimit; }
    void setScrollbackLimit(int lines);
    // History line of a screen/scrollback row (see TerminalPosition) and back.
    qint64 historyLine(int row) const { return m_droppedLines + scrollbackCount() + row; }
    int rowOfHistoryLine(qint64 line) const
    {
        return int(line - m_droppedLines - scrollbackCount());
    }
    // Lines that have been dropped off the top of the scrollback since the start.
    qint64 droppedLines() const { return m_droppedLines; }

    QColor defaultForeground() const { return m_defaultForeground; }
    QColor defaultBackground() const { return m_defaultBackground; }
    void setDefaultColors(const QColor &foreground, const QColor &background);

    // Keyboard input, encoded by libvterm for the remote (cursor-key mode, modifiers): emitted
    // as output().
    void sendKey(VTermKey key, VTermModifier modifiers);
    void sendCharacter(char32_t character, VTermModifier modifiers);
    // Pasted text: in bracketed-paste mode (when the remote asked for it) wrapped in ESC[200~ …
    // ESC[201~, with line ends as '\r' as a typed Enter would send.
    void paste(const QString &text);
    void sendMouseMove(int row, int column, VTermModifier modifiers);
    void sendMouseButton(int button, bool pressed, VTermModifier modifiers);
    void focusChanged(bool focused);

Q_SIGNALS:
    // Screen cells that changed (x = column, y = row), once per feed().
    void damaged(const QRegion &cells);
    // Lines went into (positive) or came back from (negative) the scrollback.
    void scrollbackChanged(int delta);
    void cursorChanged();
    void altScreenChanged(bool active);
    void titleChanged(const QString &title);
    void bell();
    void output(const QByteArray &bytes);
    void resized(int rows, int columns);

private:
    struct Callbacks;
    TerminalCell makeCell(const VTermScreenCell &cell) const;
    QColor resolveColor(VTermColor color, bool foreground) const;
    void flush();

    VTerm *m_vt = nullptr;
    VTermScreen *m_screen = nullptr;
    int m_rows;
    int m_columns;
    QByteArray m_utf8Carry;
    QRegion m_pendingDamage;
    bool m_feeding = false;
    int m_pendingScrollback = 0;
    // Each scrollback line keeps only its cells up to the last one that is not a default blank.
    std::deque<std::vector<VTermScreenCell>> m_scrollback;
    int m_scrollbackLimit = DefaultScrollbackLimit;
    qint64 m_droppedLines = 0;
    QPoint m_cursor;
    bool m_cursorVisible = true;
    QPoint m_paintedCursor; // where the last damaged() left it
    bool m_paintedCursorVisible = true;
    bool m_cursorBlinking = false;
    bool m_altScreen = false;
    bool m_reverseVideo = false;
    int m_mouseMode = 0;
    QString m_title;
    QByteArray m_titleBuffer;
    QColor m_defaultForeground;
    QColor m_defaultBackground;
};

} // namespace cardhour::terminal
