#include "GpuCardDelegate.h"

#include <QListView>
#include <QPainter>
#include <QPainterPath>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

bool GpuCardDelegate::inCardMode(const QStyleOptionViewItem &option)
{
    const auto *view = qobject_cast<const QListView *>(option.widget);
    return view && view->viewMode() == QListView::IconMode;
}

QSize GpuCardDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (!inCardMode(option))
        return QStyledItemDelegate::sizeHint(option, index);
    return cardSize;
}

void GpuCardDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const
{
    if (!inCardMode(option))
        return QStyledItemDelegate::paint(painter, option, index);

    const QPalette &palette = option.palette;
    const bool enabled = option.state & QStyle::State_Enabled;
    const bool selected = option.state & QStyle::State_Selected;
    const bool focused = option.state & QStyle::State_HasFocus;
    const QPalette::ColorGroup group = enabled ? QPalette::Normal : QPalette::Disabled;
    const QRectF card = QRectF(option.rect).adjusted(4.5, 4.5, -4.5, -4.5);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath shape;
    shape.addRoundedRect(card, 8, 8);
    QColor fill = palette.color(group, QPalette::Base);
    if (selected) {
        // A tint of the highlight, so the text keeps the palette's own contrast.
        const QColor highlight = palette.color(QPalette::Normal, QPalette::Highlight);
        fill = QColor::fromRgbF(fill.redF() * 0.8f + highlight.redF() * 0.2f,
                                fill.greenF() * 0.8f + highlight.greenF() * 0.2f,
                                fill.blueF() * 0.8f + highlight.blueF() * 0.2f);
    }
    painter->fillPath(shape, fill);
    QPen border(selected ? palette.color(QPalette::Normal, QPalette::Highlight)
                         : palette.color(group, QPalette::Mid),
                selected ? 2.0 : 1.0);
    if (focused && !selected)
        border.setStyle(Qt::DashLine);
    painter->setPen(border);
    painter->drawPath(shape);

    const QRect inner = card.toRect().adjusted(10, 8, -10, -8);
    const QColor text = palette.color(group, QPalette::Text);
    QFont titleFont = option.font;
    titleFont.setBold(true);
    QFont smallFont = option.font;
    if (option.font.pointSizeF() > 0)
        smallFont.setPointSizeF(option.font.pointSizeF() * 0.85);

    // The badge, top right, in a lighter tone; the title takes the rest of the first line.
    const QString badge = index.data(BadgeRole).toString();
    const QFontMetrics smallMetrics(smallFont);
    const int badgeWidth = badge.isEmpty() ? 0 : smallMetrics.horizontalAdvance(badge) + 12;
    if (!badge.isEmpty()) {
        const QRect badgeRect(inner.right() - badgeWidth + 1, inner.top(), badgeWidth,
                              smallMetrics.height() + 2);
        QPainterPath pill;
        pill.addRoundedRect(badgeRect, badgeRect.height() / 2.0, badgeRect.height() / 2.0);
        painter->fillPath(pill, palette.color(group, QPalette::AlternateBase));
        painter->setPen(palette.color(group, QPalette::PlaceholderText));
        painter->setFont(smallFont);
        painter->drawText(badgeRect, Qt::AlignCenter, badge);
    }
    painter->setFont(titleFont);
    painter->setPen(text);
    const QFontMetrics titleMetrics(titleFont);
    const QRect titleRect(inner.left(), inner.top(), inner.width() - badgeWidth - 6,
                          titleMetrics.height() * 2);
    const QString title = index.data(TitleRole).toString();
    // Long names take two lines rather than lose their model number.
    painter->drawText(titleRect, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                      titleMetrics.elidedText(title, Qt::ElideRight, titleRect.width() * 2 - 20));

    painter->setFont(option.font);
    const QFontMetrics metrics(option.font);
    const QStringList lines = index.data(LinesRole).toStringList();
    int y = inner.bottom() - metrics.height() * int(lines.size()) + 1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const bool last = i == lines.size() - 1;
        QColor colour = text;
        if (last && index.data(ScarceRole).toBool())
            colour = palette.color(QPalette::Disabled, QPalette::Text);
        painter->setPen(colour);
        painter->drawText(QRect(inner.left(), y, inner.width(), metrics.height()),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          metrics.elidedText(lines.at(i), Qt::ElideRight, inner.width()));
        y += metrics.height();
    }
    painter->restore();
}

} // namespace cardhour::ui
