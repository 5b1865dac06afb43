#include "StatementPdf.h"

#include "Format.h"
#include "LedgerModel.h"

#include <QFontMetrics>
#include <QLocale>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

using core::Statement;
using core::StatementCategory;

namespace {

constexpr int kResolution = 300; // dots per inch of the page's coordinates

// Paints top to bottom and starts a new page when the next block does not fit.
class PageCursor
{
public:
    PageCursor(QPdfWriter &writer, QPainter &painter) : m_writer(writer), m_painter(painter)
    {
        m_width = painter.viewport().width();
        m_height = painter.viewport().height();
    }

    int width() const { return m_width; }
    int y() const { return m_y; }
    void advance(int dy) { m_y += dy; }
    // True when a new page was started for `height`.
    bool ensure(int height)
    {
        if (m_y + height <= m_height - footerHeight())
            return false;
        newPage();
        return true;
    }
    void footer(const QString &text)
    {
        m_footerText = text;
        paintFooter();
    }
    void newPage()
    {
        m_writer.newPage();
        m_y = 0;
        ++m_page;
        paintFooter();
    }

private:
    int footerHeight() const { return m_painter.fontMetrics().height() * 2; }
    void paintFooter()
    {
        m_painter.save();
        QFont small = m_painter.font();
        small.setPointSizeF(7);
        m_painter.setFont(small);
        m_painter.setPen(Qt::darkGray);
        const QRect area(0, m_height - m_painter.fontMetrics().height(), m_width,
                         m_painter.fontMetrics().height());
        m_painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter, m_footerText);
        m_painter.drawText(area, Qt::AlignRight | Qt::AlignVCenter,
                           StatementPdf::tr("Page %1").arg(m_page));
        m_painter.restore();
    }

    QPdfWriter &m_writer;
    QPainter &m_painter;
    QString m_footerText;
    int m_width = 0;
    int m_height = 0;
    int m_y = 0;
    int m_page = 1;
};

// How a column's text may be laid out, which sets how narrow it may get.
enum class Fit {
    Words, // wrapped between words, each word whole (names, ids)
    Line, // never wrapped (a time, an amount)
    Prose // wrapped between words and after hyphens (a description)
};

struct Column
{
    QString title;
    Qt::Alignment align;
    Fit fit = Fit::Words;
    int width = 0; // in the page's dots, from fitColumns()
};

constexpr int kProseMinimumChars = 18; // a description column is never narrower than this

int cellPadding(const QPainter &painter)
{
    return painter.fontMetrics().height() / 4;
}

// The widest piece of `text` that `fit` keeps on one line (CJK text wraps between any two of
// its characters), and the whole of it on one line.
std::pair<int, int> measured(const QFontMetrics &metrics, const QString &text, Fit fit)
{
    const int line = metrics.horizontalAdvance(text);
    if (fit == Fit::Line)
        return {line, line};
    int widest = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const bool hyphen = fit == Fit::Prose && i < text.size() && text.at(i) == u'-';
        const bool end = i == text.size() || text.at(i).isSpace() || text.at(i).unicode() >= 0x2E80;
        if (!end && !hyphen)
            continue;
        const qsizetype length = i - start + (hyphen ? 1 : 0);
        widest = std::max(widest, metrics.horizontalAdvance(text.mid(start, length)));
        if (end && i < text.size() && !text.at(i).isSpace())
            widest = std::max(widest, metrics.horizontalAdvance(text.at(i)));
        start = i + 1;
    }
    return {widest, line};
}

// Shares `width` out in proportion to `weights`, each column getting at least `floor`.
void share(QList<Column> &columns, const QList<int> &floor, const QList<qint64> &weights,
           qint64 width)
{
    const qint64 total = std::accumulate(weights.cbegin(), weights.cend(), qint64(0));
    for (int i = 0; i < columns.size(); ++i)
        columns[i].width = int(floor[i] + width * weights[i] / std::max<qint64>(1, total));
}

// Column widths measured from what they hold (the titles and every row): each column gets its
// text on one line where the page allows; where it does not, every column still gets its widest
// word (an id, a host's name) or its whole line (a time, an amount), and the rest of the page
// goes to the columns that wrap, in proportion to what they would need on one line. Only when
// even that does not fit do the wrapping columns share what the others leave, and a word too
// wide for its cell shrinks (cellStyle): nothing is clipped.
void fitColumns(const QPainter &painter, int pageWidth, QList<Column> &columns,
                const QList<QStringList> &rows)
{
    const QFontMetrics metrics(painter.font(), painter.device());
    // Laid out, text takes a little more than its advance (see cellStyle).
    const int pad = 2 * cellPadding(painter) + metrics.averageCharWidth() / 2;
    QList<int> least(columns.size(), 0);
    QList<int> natural(columns.size(), 0);
    for (int i = 0; i < columns.size(); ++i) {
        QStringList texts{columns.at(i).title};
        for (const QStringList &row : rows)
            texts.append(row.value(i));
        for (const QString &text : std::as_const(texts)) {
            const auto [piece, line] = measured(metrics, text, columns.at(i).fit);
            least[i] = std::max(least[i], piece + pad);
            natural[i] = std::max(natural[i], line + pad);
        }
    }
    const qint64 sumNatural = std::accumulate(natural.cbegin(), natural.cend(), qint64(0));
    const qint64 sumLeast = std::accumulate(least.cbegin(), least.cend(), qint64(0));

    QList<qint64> weights;
    if (sumNatural <= pageWidth) { // all on one line; the spare width is shared out
        for (int n : std::as_const(natural))
            weights.append(n);
        return share(columns, natural, weights, pageWidth - sumNatural);
    }
    if (sumLeast <= pageWidth) { // the wrapping columns share the rest
        for (int i = 0; i < columns.size(); ++i)
            weights.append(natural[i] - least[i]);
        return share(columns, least, weights, pageWidth - sumLeast);
    }
    // Lines kept whole and prose given a few words' width; names and ids get their widest
    // word where that fits in what is left (prose takes the rest), else share it (a word too
    // wide then shrinks).
    QList<int> floor(columns.size(), 0);
    qint64 left = pageWidth;
    qint64 wordsLeast = 0;
    for (int i = 0; i < columns.size(); ++i) {
        const Fit fit = columns.at(i).fit;
        floor[i] = fit == Fit::Line ? least[i]
            : fit == Fit::Prose
            ? std::min(least[i], kProseMinimumChars * metrics.averageCharWidth() + pad)
            : 0;
        left -= floor[i];
        wordsLeast += fit == Fit::Words ? least[i] : 0;
    }
    if (left <= 0)
        return share(columns, QList<int>(columns.size(), 0), {least.cbegin(), least.cend()},
                     pageWidth);
    if (wordsLeast <= left) {
        for (int i = 0; i < columns.size(); ++i) {
            const Fit fit = columns.at(i).fit;
            floor[i] = fit == Fit::Words ? least[i] : floor[i];
            weights.append(fit == Fit::Prose ? natural[i] - floor[i] : 0);
        }
        return share(columns, floor, weights, left - wordsLeast);
    }
    // Too little for every name whole: the narrow ones keep theirs, the widest share the rest.
    QList<int> byWidth;
    for (int i = 0; i < columns.size(); ++i) {
        if (columns.at(i).fit == Fit::Words)
            byWidth.append(i);
    }
    std::sort(byWidth.begin(), byWidth.end(),
              [&least](int a, int b) { return least[a] < least[b]; });
    for (qsizetype n = 0; n < byWidth.size(); ++n) {
        const int i = byWidth.at(n);
        floor[i] = int(std::min<qint64>(least[i], left / (byWidth.size() - n)));
        left -= floor[i];
    }
    share(columns, floor, QList<qint64>(columns.size(), 0), 0);
}

// How a cell is drawn: the painter's font, wrapped at spaces. One word (an id, an amount) wider
// than its cell gets a smaller font that keeps it on one line, since an id wrapped at its
// hyphens is no longer one string for whoever copies it; below kMinimumPoints it is wrapped
// anywhere instead, whole on a few lines (not one part painted under the next cell).
constexpr qreal kMinimumPoints = 6.0;
struct CellStyle
{
    QFont font;
    int wrap = Qt::TextWordWrap;
};
CellStyle cellStyle(const QPainter &painter, const QString &text, int width)
{
    CellStyle style{painter.font()};
    // Words only: CJK text has no spaces and wraps between any two of its characters.
    const bool oneWord = !text.isEmpty() && std::none_of(text.cbegin(), text.cend(), [](QChar c) {
        return c.isSpace() || c.unicode() >= 0x2E80;
    });
    if (!oneWord)
        return style;
    // Measured as drawText lays it out (wrapping), not by its advance, which the layout's
    // unhinted widths exceed by a little.
    const auto oneLine = [&painter, &text, width](const QFont &f) {
        const QFontMetrics metrics(f, painter.device());
        const QRect unbounded(0, 0, 1'000'000, 100'000);
        // A word with no place to break stays on one line however narrow: its width says it.
        const QRect wrapped =
            metrics.boundingRect(QRect(0, 0, width, 100'000), Qt::TextWordWrap, text);
        return wrapped.width() <= width
            && wrapped.height() <= metrics.boundingRect(unbounded, 0, text).height();
    };
    if (oneLine(style.font))
        return style;
    const qreal advance = std::max(1, painter.fontMetrics().horizontalAdvance(text));
    QFont smaller = style.font;
    for (qreal points = std::min(smaller.pointSizeF() - 0.1,
                                 std::floor(smaller.pointSizeF() * width / advance * 10) / 10);
         points >= kMinimumPoints; points -= 0.1) {
        smaller.setPointSizeF(points);
        if (oneLine(smaller))
            return {smaller, Qt::TextWordWrap};
    }
    style.wrap = Qt::TextWrapAnywhere;
    return style;
}

// One row of cells; text wraps within its cell (a single word shrinks to fit, see cellStyle).
// A row that starts a new page repeats `headerOnNewPage` above it, when given.
void paintRow(QPainter &painter, PageCursor &page, const QList<Column> &columns,
              const QStringList &cells, bool header, const QStringList *headerOnNewPage = nullptr)
{
    const int pad = cellPadding(painter);
    QList<QRect> rects;
    QList<CellStyle> styles;
    int height = painter.fontMetrics().height();
    int x = 0;
    for (int i = 0; i < columns.size(); ++i) {
        const int w = columns[i].width;
        const CellStyle style = cellStyle(painter, cells.value(i), w - 2 * pad);
        const QRect bound = QFontMetrics(style.font, painter.device())
                                .boundingRect(QRect(0, 0, w - 2 * pad, 100'000),
                                              int(columns[i].align) | style.wrap, cells.value(i));
        height = qMax(height, bound.height());
        rects.append(QRect(x + pad, 0, w - 2 * pad, 0));
        styles.append(style);
        x += w;
    }
    height += 2 * pad;
    if (page.ensure(height) && headerOnNewPage)
        paintRow(painter, page, columns, *headerOnNewPage, true);
    if (header) {
        painter.fillRect(QRect(0, page.y(), page.width(), height), QColor(0xec, 0xef, 0xf3));
    } else {
        painter.save();
        painter.setPen(QColor(0xd8, 0xdc, 0xe2));
        painter.drawLine(0, page.y() + height, page.width(), page.y() + height);
        painter.restore();
    }
    const QFont rowFont = painter.font();
    for (int i = 0; i < columns.size(); ++i) {
        QRect r = rects[i];
        r.moveTop(page.y() + pad);
        r.setHeight(height - 2 * pad);
        painter.setFont(styles.at(i).font);
        painter.drawText(r, int(columns[i].align) | styles.at(i).wrap | Qt::AlignTop,
                         cells.value(i));
    }
    painter.setFont(rowFont);
    page.advance(height);
}

// A table: its columns fitted to what they hold in `width`, its titles (when it has any) atop
// it and again atop each page it goes on to.
void paintTable(QPainter &painter, PageCursor &page, QList<Column> columns,
                const QList<QStringList> &rows, int width)
{
    fitColumns(painter, width, columns, rows);
    QStringList titles;
    for (const Column &c : std::as_const(columns))
        titles.append(c.title);
    const bool titled =
        std::any_of(titles.cbegin(), titles.cend(), [](const QString &t) { return !t.isEmpty(); });
    if (titled)
        paintRow(painter, page, columns, titles, true);
    for (const QStringList &row : rows)
        paintRow(painter, page, columns, row, false, titled ? &titles : nullptr);
}

void paintHeading(QPainter &painter, PageCursor &page, const QString &text, qreal points)
{
    painter.save();
    QFont font = painter.font();
    font.setPointSizeF(points);
    font.setBold(true);
    painter.setFont(font);
    const int h = painter.fontMetrics().height();
    page.ensure(h * 3);
    page.advance(h / 2);
    painter.drawText(QRect(0, page.y(), page.width(), h), Qt::AlignLeft | Qt::AlignVCenter, text);
    page.advance(h + h / 4);
    painter.restore();
}

void paintLine(QPainter &painter, PageCursor &page, const QString &text)
{
    const int h = painter.fontMetrics().height();
    page.ensure(h);
    painter.drawText(QRect(0, page.y(), page.width(), h), Qt::AlignLeft | Qt::AlignVCenter, text);
    page.advance(h);
}

} // namespace

QString StatementPdf::monthTitle(int year, int month)
{
    // The month's name comes from the language the user chose, not the system's locale.
    const QLocale locale(tr("en_GB", "the locale of month names on statements"));
    return locale.toString(QDate(year, month, 1), tr("MMMM yyyy", "a statement's month"));
}

QString StatementPdf::zoneText(const QTimeZone &zone, bool fromProvider)
{
    const QString id = QString::fromUtf8(zone.id());
    return fromProvider ? tr("Time zone: %1 (the provider's)").arg(id)
                        : tr("Time zone: %1 (the provider states none)").arg(id);
}

QString StatementPdf::categoryText(StatementCategory category)
{
    switch (category) {
    case StatementCategory::Compute:
        return tr("Compute");
    case StatementCategory::Storage:
        return tr("Storage of stopped hosts");
    case StatementCategory::Snapshots:
        return tr("Snapshots");
    case StatementCategory::Credit:
        return tr("Credits");
    case StatementCategory::Other:
        break;
    }
    return tr("Other");
}

QList<std::pair<QString, qint64>> StatementPdf::summary(const Statement &s)
{
    QList<std::pair<QString, qint64>> lines{
        {tr("Opening balance"), s.openingBalanceMicros},
        {tr("Top-ups and trial credit"), s.creditMicros},
        {categoryText(StatementCategory::Compute), s.computeMicros},
        {categoryText(StatementCategory::Storage), s.storageMicros},
        {categoryText(StatementCategory::Snapshots), s.snapshotMicros},
        {tr("Total charges"), s.chargesMicros()},
    };
    if (s.otherMicros != 0)
        lines.append({categoryText(StatementCategory::Other), s.otherMicros});
    lines.append({tr("Closing balance"), s.closingBalanceMicros});
    return lines;
}

bool StatementPdf::write(const Statement &s, const QHash<QString, QString> &names,
                         bool zoneFromProvider, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setResolution(kResolution);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
        writer.setTitle(tr("CardHour statement, %1").arg(monthTitle(s.year, s.month)));
        writer.setCreator(u"CardHour"_s);
        QPainter painter(&writer);
        if (!painter.isActive()) {
            if (error)
                *error = tr("The PDF could not be started.");
            return false;
        }
        QFont body = painter.font();
        body.setPointSizeF(9);
        // No ligatures: "ff" in an id would be one glyph, and copied or extracted as U+FB00.
        body.setStyleStrategy(QFont::PreferNoShaping);
        painter.setFont(body);
        painter.setPen(Qt::black);
        PageCursor page(writer, painter);
        page.footer(tr("Amounts are the provider's ledger in exact micro-yuan."));

        paintHeading(painter, page, tr("CardHour statement, %1").arg(monthTitle(s.year, s.month)),
                     16);
        paintLine(painter, page, zoneText(s.zone, zoneFromProvider));
        paintLine(painter, page,
                  tr("Period: %1 to %2 (postings by the time they were made)")
                      .arg(Format::dateTime(s.start, s.zone), Format::dateTime(s.end, s.zone)));
        paintLine(painter, page, tr("Postings: %1").arg(s.postings.size()));

        paintHeading(painter, page, tr("Summary"), 12);
        QList<QStringList> summaryRows;
        for (const auto &[label, micros] : summary(s))
            summaryRows.append({label, Format::exactMoney(micros)});
        // Label and amount side by side, not spread over the page.
        paintTable(painter, page,
                   {{QString(), Qt::AlignLeft}, {QString(), Qt::AlignRight, Fit::Line}},
                   summaryRows, page.width() * 3 / 5);

        paintHeading(painter, page, tr("By host"), 12);
        QList<QStringList> hostRows;
        for (const core::StatementHost &h : s.hosts)
            hostRows.append(
                {names.value(h.instanceId, h.instanceId), Format::exactMoney(h.computeMicros),
                 Format::exactMoney(h.storageMicros), Format::exactMoney(h.snapshotMicros),
                 Format::exactMoney(h.totalMicros())});
        if (s.hosts.isEmpty())
            paintLine(painter, page, tr("No host was charged in this month."));
        else
            paintTable(painter, page,
                       {{tr("Host"), Qt::AlignLeft},
                        {tr("Compute"), Qt::AlignRight, Fit::Line},
                        {tr("Storage"), Qt::AlignRight, Fit::Line},
                        {tr("Snapshots"), Qt::AlignRight, Fit::Line},
                        {tr("Total"), Qt::AlignRight, Fit::Line}},
                       hostRows, page.width());

        if (!s.snapshots.isEmpty()) {
            paintHeading(painter, page, tr("By snapshot"), 12);
            QList<QStringList> rows;
            // By the name the provider keeps for it (deleted ones too), the id where it has none.
            for (const core::StatementSnapshot &k : s.snapshots)
                rows.append({names.value(k.snapshotId, k.label()),
                             names.value(k.instanceId, k.instanceId),
                             Format::exactMoney(k.micros)});
            paintTable(painter, page,
                       {{tr("Snapshot"), Qt::AlignLeft},
                        {tr("Taken of"), Qt::AlignLeft},
                        {tr("Fees"), Qt::AlignRight, Fit::Line}},
                       rows, page.width());
        }

        paintHeading(painter, page, tr("Postings"), 12);
        QList<QStringList> postingRows;
        for (const core::Posting &p : s.postings)
            postingRows.append(
                {Format::dateTime(p.createdAt, s.zone, true), LedgerModel::kindText(p.kind),
                 names.value(p.instanceId, p.instanceId), p.description,
                 Format::exactMoney(p.amountMicros), Format::exactMoney(p.balanceAfterMicros)});
        if (s.postings.isEmpty())
            paintLine(painter, page, tr("No postings in this month."));
        else
            paintTable(painter, page,
                       {{tr("Time"), Qt::AlignLeft, Fit::Line},
                        {tr("Kind"), Qt::AlignLeft},
                        {tr("Host"), Qt::AlignLeft},
                        {tr("Description"), Qt::AlignLeft, Fit::Prose},
                        {tr("Amount"), Qt::AlignRight, Fit::Line},
                        {tr("Balance"), Qt::AlignRight, Fit::Line}},
                       postingRows, page.width());
        painter.end();
    }
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace cardhour::ui
