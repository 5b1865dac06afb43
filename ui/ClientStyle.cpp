#include "ClientStyle.h"

#include "Icons.h"

#include <QApplication>
#include <QGroupBox>
#include <QPainter>
#include <QStyleOption>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

ClientStyle::ClientStyle(QStyle *base) : QProxyStyle(base) {}

QIcon ClientStyle::standardIcon(StandardPixmap which, const QStyleOption *option,
                                const QWidget *widget) const
{
    const QPalette palette = widget ? widget->palette() : QApplication::palette();
    switch (which) {
    case SP_ToolBarHorizontalExtensionButton:
        return Icons::icon(Icon::MoreRight, palette);
    case SP_ToolBarVerticalExtensionButton:
        return Icons::icon(Icon::MoreDown, palette);
    default:
        return QProxyStyle::standardIcon(which, option, widget);
    }
}

void ClientStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option,
                                QPainter *painter, const QWidget *widget) const
{
    if (element != PE_FrameGroupBox || baseStyle()->name() != u"fusion"_s) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    // Fusion's frame (a translucent shade with a rounded border, its PNG's look), placed as
    // Fusion places it: below the title line unless the box has neither title nor check box.
    constexpr int topGap = 3;
    const auto *box = qobject_cast<const QGroupBox *>(widget);
    const int top = box && !box->isCheckable() && box->title().isEmpty()
        ? topGap
        : qMax(pixelMetric(PM_ExclusiveIndicatorHeight, option, widget),
               option->fontMetrics.height())
            + topGap;
    const QRectF frame = QRectF(option->rect.adjusted(0, top, 0, 0)).adjusted(0.5, 0.5, -0.5, -0.5);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QColor(0, 0, 0, 40));
    painter->setBrush(QColor(0, 0, 0, 8));
    painter->drawRoundedRect(frame, 2, 2);
    painter->restore();
}

} // namespace cardhour::ui
