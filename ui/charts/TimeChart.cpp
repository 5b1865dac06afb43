#include "charts/TimeChart.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {

constexpr int kValueTicks = 4; // grid lines above the base line
constexpr int kTimeTicks = 5;
constexpr int kMargin = 6;

} // namespace

TimeChart::TimeChart(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_valueLabel = [](double value) { return QString::number(value, 'g', 4); };
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_from = now.addSecs(-300);
    m_to = now;
}

void TimeChart::setTitle(const QString &title)
{
    m_title = title;
    update();
}

void TimeChart::setValueTitle(const QString &title)
{
    m_valueTitle = title;
    update();
}

void TimeChart::setTimeRange(const QDateTime &from, const QDateTime &to)
{
    m_from = from;
    m_to = to > from ? to : from.addMSecs(1);
    update();
}

void TimeChart::setTimeZone(const QTimeZone &zone)
{
    m_zone = zone;
    update();
}

void TimeChart::setTimeFormat(const QString &format)
{
    m_timeFormat = format;
    update();
}

void TimeChart::setValueRange(double low, double high)
{
    m_low = low;
    m_high = high > low ? high : low + 1;
    update();
}

void TimeChart::setValueLabel(std::function<QString(double)> label)
{
    m_valueLabel = std::move(label);
    update();
}

void TimeChart::setLegendVisible(bool visible)
{
    m_legend = visible;
    update();
}

void TimeChart::setPlaceholder(const QString &text)
{
    m_placeholder = text;
    update();
}

int TimeChart::addSeries(const QString &name, bool filled)
{
    m_series.append({name, filled, {}});
    update();
    return int(m_series.size()) - 1;
}

void TimeChart::setSeriesName(int index, const QString &name)
{
    if (index >= 0 && index < m_series.size()) {
        m_series[index].name = name;
        update();
    }
}

void TimeChart::clearSeries()
{
    m_series.clear();
    update();
}

int TimeChart::pointCount(int index) const
{
    return index >= 0 && index < m_series.size() ? int(m_series.at(index).points.size()) : 0;
}

QPointF TimeChart::point(int index, int i) const
{
    return m_series.value(index).points.value(i);
}

void TimeChart::appendPoint(int index, double x, double y)
{
    if (index < 0 || index >= m_series.size())
        return;
    m_series[index].points.append(QPointF(x, y));
    update();
}

void TimeChart::replacePoints(int index, const QList<QPointF> &points)
{
    if (index < 0 || index >= m_series.size())
        return;
    m_series[index].points = points;
    update();
}

void TimeChart::removeBefore(double x)
{
    for (Series &series : m_series) {
        const auto first = std::find_if(series.points.cbegin(), series.points.cend(),
                                        [x](const QPointF &p) { return p.x() >= x; });
        series.points.erase(series.points.cbegin(), first);
    }
    update();
}

QSize TimeChart::minimumSizeHint() const
{
    return QSize(240, 140);
}

namespace {

// The finest unit `format` writes (QDateTime::toString letters): a tick finer than it would be
// labelled with a time it is not at.
qint64 finestUnitMs(const QString &format)
{
    if (format.contains(u's'))
        return 1000;
    if (format.contains(u'm'))
        return 60'000;
    if (format.contains(u'h') || format.contains(u'H'))
        return 3'600'000;
    return 86'400'000;
}

} // namespace

QList<qint64> TimeChart::timeTicks(qint64 fromMs, qint64 toMs, const QTimeZone &zone,
                                   const QString &format, int maxTicks)
{
    static constexpr qint64 kSteps[] = {
        1'000,      5'000,      10'000,     15'000,      30'000,      60'000,        120'000,
        300'000,    600'000,    900'000,    1'800'000,   3'600'000,   7'200'000,     10'800'000,
        21'600'000, 43'200'000, 86'400'000, 172'800'000, 604'800'000, 1'209'600'000, 2'419'200'000};
    QList<qint64> ticks;
    if (toMs <= fromMs || maxTicks < 1)
        return ticks;
    const qint64 finest = finestUnitMs(format);
    qint64 step = kSteps[std::size(kSteps) - 1];
    for (qint64 candidate : kSteps) {
        if (candidate >= finest && candidate % finest == 0
            && (toMs - fromMs) / candidate + 1 <= maxTicks) {
            step = candidate;
            break;
        }
    }
    // Round in the zone's wall time (its offset at the start of the range), so that 13:55 in
    // Asia/Shanghai is a tick even though the epoch's minutes are UTC's.
    const qint64 offsetMs =
        qint64(QDateTime::fromMSecsSinceEpoch(fromMs, zone).offsetFromUtc()) * 1000;
    const qint64 wall = fromMs + offsetMs;
    qint64 first = (wall / step) * step;
    if (first < wall)
        first += step;
    for (qint64 at = first - offsetMs; at <= toMs; at += step)
        ticks.append(at);
    // A range longer than the largest step allows: every other tick, until they fit.
    while (ticks.size() > maxTicks) {
        QList<qint64> fewer;
        for (qsizetype i = 0; i < ticks.size(); i += 2)
            fewer.append(ticks.at(i));
        ticks = fewer;
    }
    return ticks;
}

QList<std::pair<qint64, QString>> TimeChart::timeLabels() const
{
    QList<std::pair<qint64, QString>> labels;
    for (qint64 at : timeTicks(m_from.toMSecsSinceEpoch(), m_to.toMSecsSinceEpoch(), m_zone,
                               m_timeFormat, kTimeTicks + 1))
        labels.append({at, QDateTime::fromMSecsSinceEpoch(at, m_zone).toString(m_timeFormat)});
    return labels;
}

QColor TimeChart::colourOf(int index) const
{
    // The palette's accent first, then hues that stay apart on light and dark backgrounds.
    static const QList<QColor> others = {QColor(0xe0, 0x7b, 0x00), QColor(0x2e, 0xa0, 0x43),
                                         QColor(0xc2, 0x3b, 0x8c), QColor(0x00, 0x99, 0xa8),
                                         QColor(0x8a, 0x63, 0xd2), QColor(0xb5, 0x8b, 0x00),
                                         QColor(0xd0, 0x40, 0x40)};
    if (index == 0)
        return palette().color(QPalette::Highlight);
    return others.at((index - 1) % others.size());
}

QRectF TimeChart::plotArea() const
{
    const QFontMetrics metrics = fontMetrics();
    int labelWidth = metrics.horizontalAdvance(m_valueTitle);
    for (int tick = 0; tick <= kValueTicks; ++tick)
        labelWidth = qMax(
            labelWidth,
            metrics.horizontalAdvance(m_valueLabel(m_low + (m_high - m_low) * tick / kValueTicks)));
    const int top = kMargin + (m_title.isEmpty() ? 0 : metrics.height() + kMargin)
        + (m_valueTitle.isEmpty() ? 0 : metrics.height());
    const int bottom = height() - kMargin - metrics.height() - 4;
    return QRectF(QPointF(kMargin + labelWidth + 6, top + metrics.height() / 2.0),
                  QPointF(width() - kMargin - metrics.horizontalAdvance(u"00:00"_s) / 2.0, bottom));
}

void TimeChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics metrics = fontMetrics();
    const QColor text = palette().color(QPalette::Text);
    QColor grid = palette().color(QPalette::Mid);
    grid.setAlpha(110);

    if (!m_title.isEmpty()) {
        painter.setPen(text);
        painter.drawText(QRect(0, kMargin, width(), metrics.height()), Qt::AlignHCenter, m_title);
    }
    const QRectF plot = plotArea();
    if (plot.width() < 10 || plot.height() < 10)
        return;
    if (!m_valueTitle.isEmpty()) {
        painter.setPen(text);
        painter.drawText(QPointF(kMargin, plot.top() - metrics.height() / 2.0 - 2), m_valueTitle);
    }

    // Value axis: grid lines and labels.
    for (int tick = 0; tick <= kValueTicks; ++tick) {
        const double value = m_low + (m_high - m_low) * tick / kValueTicks;
        const double y = plot.bottom() - plot.height() * tick / kValueTicks;
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(text);
        const QString label = m_valueLabel(value);
        painter.drawText(QRectF(kMargin, y - metrics.height() / 2.0, plot.left() - kMargin - 6,
                                metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, label);
    }
    // Time axis: labels at round times in the chart's zone, each where its time is (a label
    // placed at an arbitrary instant and cut to minutes was up to a minute off).
    const double x0 = double(m_from.toMSecsSinceEpoch());
    const double x1 = double(m_to.toMSecsSinceEpoch());
    for (const auto &[at, label] : timeLabels()) {
        const double x = plot.left() + plot.width() * (double(at) - x0) / (x1 - x0);
        const double w = metrics.horizontalAdvance(label);
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 3));
        painter.setPen(text);
        painter.drawText(QPointF(qBound(0.0, x - w / 2, width() - w), height() - kMargin - 2),
                         label);
    }

    auto toScreen = [&](const QPointF &p) {
        const double fx = (p.x() - x0) / (x1 - x0);
        const double fy = (p.y() - m_low) / (m_high - m_low);
        return QPointF(plot.left() + plot.width() * std::clamp(fx, 0.0, 1.0),
                       plot.bottom() - plot.height() * std::clamp(fy, 0.0, 1.0));
    };
    bool anyPoint = false;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(plot.adjusted(-1, -1, 1, 1));
    for (int index = 0; index < m_series.size(); ++index) {
        const Series &series = m_series.at(index);
        if (series.points.isEmpty())
            continue;
        anyPoint = true;
        QPainterPath line;
        line.moveTo(toScreen(series.points.first()));
        for (qsizetype i = 1; i < series.points.size(); ++i)
            line.lineTo(toScreen(series.points.at(i)));
        const QColor colour = colourOf(index);
        if (series.filled) {
            QPainterPath area = line;
            area.lineTo(toScreen(QPointF(series.points.last().x(), m_low)));
            area.lineTo(toScreen(QPointF(series.points.first().x(), m_low)));
            area.closeSubpath();
            QColor fill = colour;
            fill.setAlpha(90);
            painter.fillPath(area, fill);
        }
        painter.setPen(QPen(colour, 1.6));
        painter.drawPath(line);
    }
    painter.restore();

    if (!anyPoint && !m_placeholder.isEmpty()) {
        painter.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        painter.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
    }
    if (m_legend && m_series.size() > 0) {
        // Top right, one entry per series with points.
        double x = plot.right();
        const double y = plot.top() + 2;
        for (int index = int(m_series.size()) - 1; index >= 0; --index) {
            const Series &series = m_series.at(index);
            if (series.points.isEmpty() || series.name.isEmpty())
                continue;
            const double w = metrics.horizontalAdvance(series.name);
            x -= w;
            painter.setPen(text);
            painter.drawText(QPointF(x, y + metrics.ascent()), series.name);
            x -= 16;
            painter.fillRect(QRectF(x, y + metrics.height() / 2.0 - 2, 12, 4), colourOf(index));
            x -= 10;
        }
    }
}

} // namespace cardhour::ui
