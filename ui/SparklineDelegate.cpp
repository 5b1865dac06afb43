#include "SparklineDelegate.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace cardhour::ui {

SparklineDelegate::SparklineDelegate(int role, QObject *parent)
    : QStyledItemDelegate(parent), m_role(role)
{}

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const
{
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, option.widget);

    const bool selected = option.state & QStyle::State_Selected;
    drawLine(painter, QRectF(option.rect).adjusted(4, 4, -4, -4),
             index.data(m_role).value<QList<double>>(),
             option.palette.color(selected ? QPalette::HighlightedText : QPalette::Highlight));
}

void SparklineDelegate::drawLine(QPainter *painter, const QRectF &area, const QList<double> &values,
                                 const QColor &colour)
{
    if (values.size() < 2)
        return;
    const double step = area.width() / double(values.size() - 1);
    QPainterPath line;
    for (int i = 0; i < values.size(); ++i) {
        const QPointF point(area.left() + i * step,
                            area.bottom() - area.height() * qBound(0.0, values[i], 100.0) / 100.0);
        if (i == 0)
            line.moveTo(point);
        else
            line.lineTo(point);
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(colour, 1.5));
    painter->drawPath(line);
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem &option,
                                  const QModelIndex &index) const
{
    return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(90, 22));
}

} // namespace cardhour::ui
