#include "ClientStyle.h"

#include "Icons.h"
#include "theme/Design.h"

#include <QApplication>
#include <QGroupBox>
#include <QPainter>
#include <QPushButton>
#include <QStyleOption>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {

ButtonRole buttonRole(const QWidget *widget)
{
    return widget ? ButtonRole(widget->property(Design::kButtonRole).toInt())
                  : ButtonRole::Secondary;
}

QColor mix(const QColor &a, const QColor &b, qreal bShare)
{
    return QColor::fromRgbF(a.redF() * (1 - bShare) + b.redF() * bShare,
                            a.greenF() * (1 - bShare) + b.greenF() * bShare,
                            a.blueF() * (1 - bShare) + b.blueF() * bShare);
}

} // namespace

ClientStyle::ClientStyle(QStyle *base) : QProxyStyle(base) {}

bool ClientStyle::isFusion() const
{
    return baseStyle()->name() == u"fusion"_s;
}

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
    if (isFusion() && element == PE_FrameGroupBox)
        return drawGroupBoxFrame(option, painter, widget);
    if (isFusion() && element == PE_PanelButtonCommand && qobject_cast<const QPushButton *>(widget))
        return drawButtonPanel(option, painter, widget);
    QProxyStyle::drawPrimitive(element, option, painter, widget);
}

void ClientStyle::drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                              const QWidget *widget) const
{
    if (element == CE_ShapedFrame && widget && widget->property(Design::kCard).toBool())
        return drawCard(option, painter);
    const auto *button = qstyleoption_cast<const QStyleOptionButton *>(option);
    if (isFusion() && element == CE_PushButtonLabel && button
        && buttonRole(widget) != ButtonRole::Secondary) {
        // White on the filled button, in every state.
        QStyleOptionButton onFill = *button;
        const QColor text =
            option->state & State_Enabled ? QColor(Qt::white) : QColor(255, 255, 255, 190);
        for (auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled})
            onFill.palette.setColor(group, QPalette::ButtonText, text);
        return QProxyStyle::drawControl(element, &onFill, painter, widget);
    }
    QProxyStyle::drawControl(element, option, painter, widget);
}

int ClientStyle::pixelMetric(PixelMetric metric, const QStyleOption *option,
                             const QWidget *widget) const
{
    switch (metric) {
    case PM_LayoutLeftMargin:
    case PM_LayoutTopMargin:
    case PM_LayoutRightMargin:
    case PM_LayoutBottomMargin:
        return space::m;
    case PM_LayoutHorizontalSpacing:
    case PM_LayoutVerticalSpacing:
        return space::s;
    default:
        return QProxyStyle::pixelMetric(metric, option, widget);
    }
}

// A rounded, flat panel: the accent (primary), red (destructive) or the surface with a subtle
// border (the rest); lighter under the mouse, darker pressed, an accent ring with focus.
void ClientStyle::drawButtonPanel(const QStyleOption *option, QPainter *painter,
                                  const QWidget *widget) const
{
    const QPalette &pal = option->palette;
    const bool enabled = option->state & State_Enabled;
    const bool pressed = option->state & (State_Sunken | State_On);
    const bool hover = enabled && (option->state & State_MouseOver);
    const ButtonRole role = buttonRole(widget);
    QColor fill;
    QColor edge;
    if (role == ButtonRole::Secondary) {
        fill = pressed ? pal.color(QPalette::Midlight).darker(104)
            : hover    ? pal.color(QPalette::Midlight)
                       : pal.color(QPalette::Button);
        edge = Design::border(pal);
        if (!enabled)
            fill = pal.color(QPalette::Window);
        const auto *b = qstyleoption_cast<const QStyleOptionButton *>(option);
        if (enabled && b && (b->features & QStyleOptionButton::DefaultButton))
            edge = Design::tone(Tone::Accent, pal);
    } else {
        const QColor base =
            role == ButtonRole::Primary ? Design::accentFill(pal) : Design::destructiveFill(pal);
        fill = !enabled ? mix(base, pal.color(QPalette::Window), 0.55)
            : pressed   ? base.darker(118)
            : hover     ? base.lighter(112)
                        : base;
        edge = fill.darker(112);
    }
    const QRectF r = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(edge);
    painter->setBrush(fill);
    painter->drawRoundedRect(r, Design::kRadius - 1, Design::kRadius - 1);
    if (enabled && (option->state & State_HasFocus)) {
        QColor ring = Design::tone(Tone::Accent, pal);
        if (role != ButtonRole::Secondary)
            ring = QColor(255, 255, 255, 170);
        painter->setPen(QPen(ring, 1.5));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(r.adjusted(1.5, 1.5, -1.5, -1.5), Design::kRadius - 2,
                                 Design::kRadius - 2);
    }
    painter->restore();
}

void ClientStyle::drawCard(const QStyleOption *option, QPainter *painter) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Design::border(option->palette));
    painter->setBrush(Design::surface(option->palette));
    painter->drawRoundedRect(QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5), Design::kRadius,
                             Design::kRadius);
    painter->restore();
}

void ClientStyle::drawGroupBoxFrame(const QStyleOption *option, QPainter *painter,
                                    const QWidget *widget) const
{
    // A panel (the surface colour, a subtle border), placed as Fusion places its frame: below
    // the title line unless the box has neither title nor check box.
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
    painter->setPen(Design::border(option->palette));
    painter->setBrush(Design::surface(option->palette));
    painter->drawRoundedRect(frame, Design::kRadius, Design::kRadius);
    painter->restore();
}

} // namespace cardhour::ui
