#include "charts/CostChart.h"

#include <QPainter>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
constexpr int kMargin = 8;
} // namespace

CostChart::CostChart(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void CostChart::setTitle(const QString &title)
{
    m_title = title;
    update();
}

void CostChart::setBars(const QList<Bar> &bars)
{
    m_bars = bars;
    updateGeometry();
    update();
}

void CostChart::setPlaceholder(const QString &text)
{
    m_placeholder = text;
    update();
}

QSize CostChart::minimumSizeHint() const
{
    const int line = fontMetrics().height();
    return {240, kMargin * 2 + line * 2 + int(qMax<qsizetype>(3, m_bars.size())) * line * 2};
}

QSize CostChart::sizeHint() const
{
    return {480, minimumSizeHint().height()};
}

void CostChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::Text);
    const int line = fontMetrics().height();
    QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);

    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(text);
    painter.drawText(QRect(area.left(), area.top(), area.width(), line),
                     Qt::AlignLeft | Qt::AlignVCenter, m_title);
    painter.setFont(font());
    area.setTop(area.top() + line * 3 / 2);

    if (m_bars.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }
    int labelWidth = 0;
    int amountWidth = 0;
    qint64 largest = 1;
    for (const Bar &bar : std::as_const(m_bars)) {
        labelWidth = qMax(labelWidth, fontMetrics().horizontalAdvance(bar.label));
        amountWidth = qMax(amountWidth, fontMetrics().horizontalAdvance(bar.amountText));
        largest = qMax(largest, bar.micros);
    }
    labelWidth = qMin(labelWidth + 2 * kMargin, area.width() / 3);
    const int barLeft = area.left() + labelWidth;
    const int barSpace = qMax(10, area.width() - labelWidth - amountWidth - kMargin);
    static const QList<QColor> others = {QColor(0xe0, 0x7b, 0x00), QColor(0x8a, 0x63, 0xd2),
                                         QColor(0x2e, 0xa0, 0x43)};
    for (int i = 0; i < m_bars.size(); ++i) {
        const Bar &bar = m_bars.at(i);
        const int top = area.top() + i * line * 2;
        painter.setPen(text);
        painter.drawText(QRect(area.left(), top, labelWidth - kMargin, line * 3 / 2),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         fontMetrics().elidedText(bar.label, Qt::ElideRight, labelWidth - kMargin));
        // The bar's length is the amount's share of the largest, in whole pixels.
        const int length =
            int(qMax<qint64>(bar.micros > 0 ? 2 : 0, bar.micros * barSpace / largest));
        const QColor colour =
            i == 0 ? palette().color(QPalette::Highlight) : others.at((i - 1) % others.size());
        painter.fillRect(QRect(barLeft, top + line / 4, length, line), colour);
        painter.drawText(
            QRect(barLeft + length + kMargin / 2, top, amountWidth + kMargin, line * 3 / 2),
            Qt::AlignLeft | Qt::AlignVCenter, bar.amountText);
    }
}

} // namespace cardhour::ui
