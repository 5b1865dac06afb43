#include "TerminalScreen.h"

#include <QStringList>
#include <QtGlobal>

#include <algorithm>
#include <array>

// libvterm 0.2 turned string properties into fragments (and added sb_clear); 0.1 passes one
// NUL-terminated string. Both are supported.
#if VTERM_VERSION_MAJOR > 0 || VTERM_VERSION_MINOR >= 2
#define CARDHOUR_VTERM_STRING_FRAGMENTS 1
#else
#define CARDHOUR_VTERM_STRING_FRAGMENTS 0
#endif

using namespace Qt::StringLiterals;

namespace cardhour::terminal {

namespace {

// The 16 ANSI colours: a calm dark scheme (xterm's own are harsh on a dark background). Indices
// 16-255 keep xterm's 6x6x6 cube and grey ramp, which libvterm computes.
constexpr std::array<QRgb, 16> ansiPalette = {
    0xff1e1e1e, 0xffcd3131, 0xff0dbc79, 0xffe5e510, 0xff2472c8, 0xffbc3fbc, 0xff11a8cd, 0xffe5e5e5,
    0xff666666, 0xfff14c4c, 0xff23d18b, 0xfff5f543, 0xff3b8eea, 0xffd670d6, 0xff29b8db, 0xffffffff,
};

// libvterm before 0.2 has its own ramp for 16-255 (0x33 steps) that no other terminal uses, and
// lets only 0-15 be set, so indexed colours are resolved here.
QRgb paletteColor(int index)
{
    if (index < 16)
        return ansiPalette[index];
    if (index >= 232) {
        const int level = 8 + 10 * (index - 232);
        return qRgb(level, level, level);
    }
    const int cube = index - 16;
    const auto level = [](int step) { return step == 0 ? 0 : 55 + 40 * step; };
    return qRgb(level(cube / 36), level(cube / 6 % 6), level(cube % 6));
}

// How many bytes at the end of `bytes` start a UTF-8 sequence that the next chunk completes.
qsizetype incompleteUtf8Tail(const QByteArray &bytes)
{
    const qsizetype size = bytes.size();
    for (qsizetype back = 1; back <= std::min<qsizetype>(3, size); ++back) {
        const auto byte = uchar(bytes.at(size - back));
        if ((byte & 0xc0) == 0x80)
            continue; // a continuation byte: look further back for the lead
        const int length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
        return length > back ? back : 0;
    }
    return 0;
}

bool isBlankDefault(const VTermScreenCell &cell)
{
    return (cell.chars[0] == 0 || cell.chars[0] == U' ') && VTERM_COLOR_IS_DEFAULT_BG(&cell.bg)
        && !cell.attrs.reverse && !cell.attrs.underline && !cell.attrs.strike;
}

} // namespace

// libvterm calls plain C functions with a user pointer; these forward to the screen object.
struct TerminalScreen::Callbacks
{
    static TerminalScreen *self(void *user) { return static_cast<TerminalScreen *>(user); }

    static int damage(VTermRect rect, void *user)
    {
        auto *screen = self(user);
        screen->m_pendingDamage +=
            QRect(rect.start_col, rect.start_row, rect.end_col - rect.start_col,
                  rect.end_row - rect.start_row);
        return 1;
    }

    static int moveCursor(VTermPos pos, VTermPos, int visible, void *user)
    {
        // Called after every character: only remembered here, damaged once in flush().
        auto *screen = self(user);
        screen->m_cursor = QPoint(pos.col, pos.row);
        screen->m_cursorVisible = visible != 0;
        return 1;
    }

    static int setTermProp(VTermProp prop, VTermValue *value, void *user)
    {
        auto *screen = self(user);
        switch (prop) {
        case VTERM_PROP_CURSORVISIBLE:
            screen->m_cursorVisible = value->boolean != 0;
            return 1;
        case VTERM_PROP_CURSORBLINK:
            screen->m_cursorBlinking = value->boolean != 0;
            return 1;
        case VTERM_PROP_ALTSCREEN:
            screen->m_altScreen = value->boolean != 0;
            Q_EMIT screen->altScreenChanged(screen->m_altScreen);
            return 1;
        case VTERM_PROP_REVERSE:
            screen->m_reverseVideo = value->boolean != 0;
            screen->m_pendingDamage += QRect(0, 0, screen->m_columns, screen->m_rows);
            return 1;
        case VTERM_PROP_MOUSE:
            screen->m_mouseMode = value->number;
            return 1;
        case VTERM_PROP_TITLE:
#if CARDHOUR_VTERM_STRING_FRAGMENTS
            if (value->string.initial)
                screen->m_titleBuffer.clear();
            screen->m_titleBuffer.append(value->string.str, qsizetype(value->string.len));
            if (!value->string.final)
                return 1;
#else
            screen->m_titleBuffer = QByteArray(value->string);
#endif
            screen->m_title = QString::fromUtf8(screen->m_titleBuffer);
            Q_EMIT screen->titleChanged(screen->m_title);
            return 1;
        default:
            return 0;
        }
    }

    static int bell(void *user)
    {
        Q_EMIT self(user)->bell();
        return 1;
    }

    static int resize(int rows, int columns, void *user)
    {
        auto *screen = self(user);
        screen->m_rows = rows;
        screen->m_columns = columns;
        return 1;
    }

    static int pushLine(int columns, const VTermScreenCell *cells, void *user)
    {
        auto *screen = self(user);
        int used = columns;
        while (used > 0 && isBlankDefault(cells[used - 1]))
            --used;
        auto &scrollback = screen->m_scrollback;
        if (screen->m_scrollbackLimit == 0)
            return 1;
        ++screen->m_pendingScrollback;
        if (int(scrollback.size()) >= screen->m_scrollbackLimit) {
            // A full history reuses the line that drops off the top: no allocation per line.
            std::vector<VTermScreenCell> line = std::move(scrollback.front());
            scrollback.pop_front();
            ++screen->m_droppedLines;
            line.assign(cells, cells + used);
            scrollback.push_back(std::move(line));
        } else {
            scrollback.emplace_back(cells, cells + used);
        }
        return 1;
    }

    static int popLine(int columns, VTermScreenCell *cells, void *user)
    {
        auto *screen = self(user);
        if (screen->m_scrollback.empty())
            return 0;
        const std::vector<VTermScreenCell> &line = screen->m_scrollback.back();
        const int kept = std::min(columns, int(line.size()));
        std::copy_n(line.begin(), kept, cells);
        VTermScreenCell blank{};
        VTermState *state = vterm_obtain_state(screen->m_vt);
        vterm_state_get_default_colors(state, &blank.fg, &blank.bg);
        blank.width = 1;
        std::fill(cells + kept, cells + columns, blank);
        screen->m_scrollback.pop_back();
        --screen->m_pendingScrollback;
        return 1;
    }

#if CARDHOUR_VTERM_STRING_FRAGMENTS
    static int clearScrollback(void *user)
    {
        auto *screen = self(user);
        screen->m_pendingScrollback -= int(screen->m_scrollback.size());
        screen->m_scrollback.clear();
        return 1;
    }
#endif

    static void output(const char *bytes, size_t length, void *user)
    {
        Q_EMIT self(user)->output(QByteArray(bytes, qsizetype(length)));
    }
};

TerminalScreen::TerminalScreen(int rows, int columns, QObject *parent)
    : QObject(parent), m_rows(std::max(1, rows)), m_columns(std::max(1, columns)),
      m_defaultForeground(0xd4, 0xd4, 0xd4), m_defaultBackground(0x1e, 0x1e, 0x1e)
{
    m_vt = vterm_new(m_rows, m_columns);
    vterm_set_utf8(m_vt, 1);
    vterm_output_set_callback(m_vt, &Callbacks::output, this);

    VTermState *state = vterm_obtain_state(m_vt);
    for (int index = 0; index < int(ansiPalette.size()); ++index) {
        VTermColor color;
        vterm_color_rgb(&color, uint8_t(qRed(ansiPalette[index])),
                        uint8_t(qGreen(ansiPalette[index])), uint8_t(qBlue(ansiPalette[index])));
        vterm_state_set_palette_color(state, index, &color);
    }
    vterm_state_set_bold_highbright(state, 1);

    m_screen = vterm_obtain_screen(m_vt);
    static const VTermScreenCallbacks callbacks = [] {
        VTermScreenCallbacks table{};
        table.damage = &Callbacks::damage;
        table.movecursor = &Callbacks::moveCursor;
        table.settermprop = &Callbacks::setTermProp;
        table.bell = &Callbacks::bell;
        table.resize = &Callbacks::resize;
        table.sb_pushline = &Callbacks::pushLine;
        table.sb_popline = &Callbacks::popLine;
#if CARDHOUR_VTERM_STRING_FRAGMENTS
        table.sb_clear = &Callbacks::clearScrollback;
#endif
        return table;
    }();
    vterm_screen_set_callbacks(m_screen, &callbacks, this);
    // Scrolls are merged into one damaged rectangle per flush: a fast `cat` costs one repaint
    // per feed(), not one per line.
    vterm_screen_set_damage_merge(m_screen, VTERM_DAMAGE_SCROLL);
    vterm_screen_enable_altscreen(m_screen, 1);
    setDefaultColors(m_defaultForeground, m_defaultBackground);
    vterm_screen_reset(m_screen, 1);
    m_pendingDamage = QRegion();
}

TerminalScreen::~TerminalScreen()
{
    vterm_free(m_vt);
}

void TerminalScreen::feed(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return;
    // libvterm 0.1 turns a UTF-8 sequence cut between two writes into U+FFFD: the cut-off start
    // waits here for the rest.
    QByteArray input = m_utf8Carry.isEmpty() ? bytes : m_utf8Carry + bytes;
    const qsizetype tail = incompleteUtf8Tail(input);
    m_utf8Carry = input.right(tail);
    input.chop(tail);
    m_feeding = true;
    vterm_input_write(m_vt, input.constData(), size_t(input.size()));
    m_feeding = false;
    flush();
}

void TerminalScreen::flush()
{
    vterm_screen_flush_damage(m_screen);
    if (m_cursor != m_paintedCursor || m_cursorVisible != m_paintedCursorVisible) {
        // The old and the new cursor cells need painting again (a wide character covers two).
        m_pendingDamage += QRect(m_paintedCursor.x() - 1, m_paintedCursor.y(), 3, 1);
        m_pendingDamage += QRect(m_cursor.x() - 1, m_cursor.y(), 3, 1);
        m_paintedCursor = m_cursor;
        m_paintedCursorVisible = m_cursorVisible;
    }
    if (m_pendingScrollback != 0) {
        const int delta = m_pendingScrollback;
        m_pendingScrollback = 0;
        Q_EMIT scrollbackChanged(delta);
    }
    if (!m_pendingDamage.isEmpty()) {
        const QRegion cells = m_pendingDamage & QRect(0, 0, m_columns, m_rows);
        m_pendingDamage = QRegion();
        if (!cells.isEmpty())
            Q_EMIT damaged(cells);
        Q_EMIT cursorChanged();
    }
}

void TerminalScreen::resize(int rows, int columns)
{
    rows = std::max(1, rows);
    columns = std::max(1, columns);
    if (rows == m_rows && columns == m_columns)
        return;
    vterm_set_size(m_vt, rows, columns);
    m_rows = rows;
    m_columns = columns;
    m_pendingDamage += QRect(0, 0, columns, rows);
    flush();
    Q_EMIT resized(rows, columns);
}

void TerminalScreen::setScrollbackLimit(int lines)
{
    m_scrollbackLimit = std::max(0, lines);
    int dropped = 0;
    while (int(m_scrollback.size()) > m_scrollbackLimit) {
        m_scrollback.pop_front();
        ++m_droppedLines;
        ++dropped;
    }
    if (dropped > 0)
        Q_EMIT scrollbackChanged(-dropped);
}

void TerminalScreen::setDefaultColors(const QColor &foreground, const QColor &background)
{
    m_defaultForeground = foreground;
    m_defaultBackground = background;
    VTermColor fg;
    VTermColor bg;
    vterm_color_rgb(&fg, uint8_t(foreground.red()), uint8_t(foreground.green()),
                    uint8_t(foreground.blue()));
    vterm_color_rgb(&bg, uint8_t(background.red()), uint8_t(background.green()),
                    uint8_t(background.blue()));
    vterm_state_set_default_colors(vterm_obtain_state(m_vt), &fg, &bg);
    m_pendingDamage += QRect(0, 0, m_columns, m_rows);
    if (!m_feeding)
        flush();
}

QColor TerminalScreen::resolveColor(VTermColor color, bool foreground) const
{
    if (foreground && VTERM_COLOR_IS_DEFAULT_FG(&color))
        return m_defaultForeground;
    if (!foreground && VTERM_COLOR_IS_DEFAULT_BG(&color))
        return m_defaultBackground;
    if (VTERM_COLOR_IS_INDEXED(&color))
        return QColor::fromRgb(paletteColor(color.indexed.idx));
    return QColor(color.rgb.red, color.rgb.green, color.rgb.blue);
}

TerminalCell TerminalScreen::makeCell(const VTermScreenCell &source) const
{
    TerminalCell cell;
    if (source.chars[0] == char32_t(-1)) {
        cell.width = 0; // the right half of a wide character
    } else {
        int length = 0;
        while (length < VTERM_MAX_CHARS_PER_CELL && source.chars[length] != 0)
            ++length;
        if (length > 0)
            cell.text = QString::fromUcs4(reinterpret_cast<const char32_t *>(source.chars), length);
        cell.width = std::max(1, int(source.width));
    }
    cell.foreground = resolveColor(source.fg, true);
    cell.background = resolveColor(source.bg, false);
    cell.defaultBackground = VTERM_COLOR_IS_DEFAULT_BG(&source.bg);
    cell.bold = source.attrs.bold;
    cell.underline = source.attrs.underline != VTERM_UNDERLINE_OFF;
    cell.italic = source.attrs.italic;
    cell.reverse = source.attrs.reverse;
    cell.strike = source.attrs.strike;
    return cell;
}

TerminalCell TerminalScreen::cell(int row, int column) const
{
    VTermScreenCell source{};
    VTermState *state = vterm_obtain_state(m_vt);
    vterm_state_get_default_colors(state, &source.fg, &source.bg);
    source.width = 1;
    if (column >= 0 && column < m_columns) {
        if (row >= 0 && row < m_rows) {
            vterm_screen_get_cell(m_screen, VTermPos{row, column}, &source);
        } else if (row < 0 && -row <= scrollbackCount()) {
            const std::vector<VTermScreenCell> &line = m_scrollback[m_scrollback.size() + row];
            if (column < int(line.size()))
                source = line[column];
        }
    }
    return makeCell(source);
}

QString TerminalScreen::lineText(int row) const
{
    return text({historyLine(row), 0}, {historyLine(row), m_columns});
}

QString TerminalScreen::text(TerminalPosition from, TerminalPosition to) const
{
    if (to.line < from.line || (to.line == from.line && to.column < from.column))
        std::swap(from, to);
    QString result;
    for (qint64 line = from.line; line <= to.line; ++line) {
        const int row = rowOfHistoryLine(line);
        const int first = line == from.line ? from.column : 0;
        const int last = line == to.line ? std::min(to.column, m_columns) : m_columns;
        QString lineText;
        for (int column = std::max(0, first); column < last; ++column) {
            const TerminalCell cell = this->cell(row, column);
            if (cell.width == 0)
                continue;
            lineText += cell.text.isEmpty() ? u" "_s : cell.text;
        }
        // Blanks at the end of a line are padding, not text, unless the selection stops inside it.
        if (line != to.line || last == m_columns) {
            qsizetype end = lineText.size();
            while (end > 0 && lineText.at(end - 1) == u' ')
                --end;
            lineText.truncate(end);
        }
        if (line != from.line)
            result += u'\n';
        result += lineText;
    }
    // Empty lines at the end (a selection down to the bottom of the screen) are not text.
    qsizetype end = result.size();
    while (end > 0 && result.at(end - 1) == u'\n')
        --end;
    result.truncate(end);
    return result;
}

QString TerminalScreen::screenText() const
{
    QStringList lines;
    for (int row = 0; row < m_rows; ++row)
        lines << lineText(row);
    return lines.join(u'\n');
}

void TerminalScreen::sendKey(VTermKey key, VTermModifier modifiers)
{
    vterm_keyboard_key(m_vt, key, modifiers);
}

void TerminalScreen::sendCharacter(char32_t character, VTermModifier modifiers)
{
    vterm_keyboard_unichar(m_vt, character, modifiers);
}

void TerminalScreen::paste(const QString &text)
{
    QString normalized = text;
    normalized.replace(u"\r\n"_s, u"\r"_s);
    normalized.replace(u'\n', u'\r');
    // An ESC inside a paste could end the bracketed paste early and inject commands.
    normalized.remove(QChar(0x1b));
    vterm_keyboard_start_paste(m_vt);
    if (!normalized.isEmpty())
        Q_EMIT output(normalized.toUtf8());
    vterm_keyboard_end_paste(m_vt);
}

void TerminalScreen::sendMouseMove(int row, int column, VTermModifier modifiers)
{
    vterm_mouse_move(m_vt, row, column, modifiers);
}

void TerminalScreen::sendMouseButton(int button, bool pressed, VTermModifier modifiers)
{
    vterm_mouse_button(m_vt, button, pressed, modifiers);
}

void TerminalScreen::focusChanged(bool focused)
{
    VTermState *state = vterm_obtain_state(m_vt);
    if (focused)
        vterm_state_focus_in(state);
    else
        vterm_state_focus_out(state);
}

} // namespace cardhour::terminal
