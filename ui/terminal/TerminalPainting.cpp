// TerminalWidget::paintEvent: the cells of the damaged rows and columns, drawn in runs.
#include "TerminalWidget.h"

#include <QFontMetricsF>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <array>

namespace cardhour::terminal {

namespace {

struct CellStyle
{
    QColor foreground;
    QColor background;
    bool bold = false;
    bool italic = false;
    bool underline = false;
    bool strike = false;

    bool sameText(const CellStyle &other) const
    {
        return foreground == other.foreground && bold == other.bold && italic == other.italic
            && underline == other.underline && strike == other.strike;
    }
};

// Draws text cell by cell, merging neighbours of the same style into one drawText call.
class RowPainter
{
public:
    RowPainter(QPainter &painter, const QFont &font, QSize cellSize, int ascent)
        : m_painter(painter), m_cellSize(cellSize), m_ascent(ascent)
    {
        for (int variant = 0; variant < 4; ++variant) {
            QFont styled = font;
            styled.setBold(variant & 1);
            styled.setItalic(variant & 2);
            m_fonts[variant] = styled;
        }
        m_metrics.reserve(4);
        for (const QFont &styled : m_fonts)
            m_metrics.emplace_back(styled);
    }

    void startRow(int y)
    {
        m_y = y;
        m_runText.clear();
    }

    // `text` is the cell's character(s); a run holds single-width characters of the main font.
    void add(int column, int width, const QString &text, const CellStyle &style)
    {
        const int variant = (style.bold ? 1 : 0) | (style.italic ? 2 : 0);
        const bool joinable = width == 1 && text.size() == 1
            && (text.at(0).unicode() < 0x80 || m_metrics[variant].inFont(text.at(0)));
        if (!m_runText.isEmpty()
            && (!joinable || !style.sameText(m_runStyle) || column != m_runEnd))
            flush();
        if (joinable) {
            if (m_runText.isEmpty()) {
                m_runStart = column;
                m_runStyle = style;
            }
            m_runText += text;
            m_runEnd = column + 1;
            return;
        }
        // Wide and fallback characters: each centred in its own cells.
        const qreal x = column * m_cellSize.width();
        const qreal cellsWidth = width * m_cellSize.width();
        m_painter.setFont(m_fonts[variant]);
        m_painter.setPen(style.foreground);
        const qreal advance = m_metrics[variant].horizontalAdvance(text);
        m_painter.drawText(QPointF(x + std::max(0.0, (cellsWidth - advance) / 2), m_y + m_ascent),
                           text);
        decorate(column, width, style);
    }

    void flush()
    {
        if (m_runText.isEmpty())
            return;
        const int variant = (m_runStyle.bold ? 1 : 0) | (m_runStyle.italic ? 2 : 0);
        m_painter.setFont(m_fonts[variant]);
        m_painter.setPen(m_runStyle.foreground);
        m_painter.drawText(QPointF(m_runStart * m_cellSize.width(), m_y + m_ascent), m_runText);
        decorate(m_runStart, m_runEnd - m_runStart, m_runStyle);
        m_runText.clear();
    }

    void decorate(int column, int width, const CellStyle &style)
    {
        if (!style.underline && !style.strike)
            return;
        const int left = column * m_cellSize.width();
        const int right = left + width * m_cellSize.width() - 1;
        m_painter.setPen(style.foreground);
        if (style.underline) {
            const int y = std::min(m_y + m_ascent + 1, m_y + m_cellSize.height() - 1);
            m_painter.drawLine(left, y, right, y);
        }
        if (style.strike) {
            const int y = m_y + m_cellSize.height() / 2;
            m_painter.drawLine(left, y, right, y);
        }
    }

private:
    QPainter &m_painter;
    QSize m_cellSize;
    int m_ascent;
    std::array<QFont, 4> m_fonts;
    std::vector<QFontMetricsF> m_metrics;
    int m_y = 0;
    QString m_runText;
    CellStyle m_runStyle;
    int m_runStart = 0;
    int m_runEnd = 0;
};

} // namespace

void TerminalWidget::paintEvent(QPaintEvent *event)
{
    QPainter painter(viewport());
    const bool screenReversed = m_screen->reverseVideo();
    const QColor defaultBackground =
        screenReversed ? m_screen->defaultForeground() : m_screen->defaultBackground();
    const QRect area = event->rect();
    painter.fillRect(area, defaultBackground);

    const int width = m_cellSize.width();
    const int height = m_cellSize.height();
    const int firstRow = std::max(0, area.top() / height);
    const int lastRow = std::min(rows() - 1, area.bottom() / height);
    // One column more on each side: a wide character may start left of the damaged area.
    const int firstColumn = std::max(0, area.left() / width - 1);
    const int lastColumn = std::min(columns() - 1, area.right() / width + 1);

    const QPoint cursor = m_screen->cursor();
    const bool showCursor = m_screen->cursorVisible() && cursor.y() + m_scrollOffset < rows();
    const bool focused = hasFocus();
    const QPalette &colors = palette();

    RowPainter rows(painter, m_font, m_cellSize, m_ascent);
    for (int viewRow = firstRow; viewRow <= lastRow; ++viewRow) {
        const int row = viewRow - m_scrollOffset;
        const qint64 line = m_screen->historyLine(row);
        const int y = viewRow * height;
        rows.startRow(y);
        for (int column = firstColumn; column <= lastColumn; ++column) {
            const TerminalCell cell = m_screen->cell(row, column);
            if (cell.width == 0)
                continue;
            CellStyle style{cell.foreground, cell.background, cell.bold,
                            cell.italic,     cell.underline,  cell.strike};
            if (cell.reverse != screenReversed)
                std::swap(style.foreground, style.background);
            if (isSelected(line, column)) {
                style.background = colors.color(QPalette::Active, QPalette::Highlight);
                style.foreground = colors.color(QPalette::Active, QPalette::HighlightedText);
            }
            const bool atCursor =
                showCursor && focused && row == cursor.y() && column == cursor.x();
            if (atCursor)
                std::swap(style.foreground, style.background);
            if (style.background != defaultBackground || atCursor) {
                painter.fillRect(QRect(column * width, y, cell.width * width, height),
                                 style.background);
            }
            if (!cell.text.isEmpty() && cell.text != u" ")
                rows.add(column, cell.width, cell.text, style);
            else if (style.underline || style.strike)
                rows.decorate(column, cell.width, style);
        }
        rows.flush();
    }

    if (showCursor && !focused) {
        const int cursorWidth = std::max(1, m_screen->cell(cursor.y(), cursor.x()).width);
        painter.setPen(m_screen->defaultForeground());
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRect((cursor.x()) * width, (cursor.y() + m_scrollOffset) * height,
                               cursorWidth * width - 1, height - 1));
    }
}

} // namespace cardhour::terminal
