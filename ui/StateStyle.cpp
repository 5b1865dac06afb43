#include "StateStyle.h"

#include "Format.h"
#include "api/Models.h"
#include "theme/Design.h"

#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

namespace cardhour::ui {

using core::InstanceState;

bool StateStyle::isDark(const QPalette &palette)
{
    return Design::isDark(palette);
}

QColor StateStyle::errorColour(const QPalette &palette)
{
    return Design::tone(Tone::Error, palette);
}

void StateStyle::showAsError(QLabel *label)
{
    Design::setTextTone(label, Tone::Error);
}

QColor StateStyle::colour(InstanceState state, const QPalette &palette)
{
    // The design system's tones, one per state (terminated muted, stopped neutral).
    switch (state) {
    case InstanceState::Creating:
        return Design::tone(Tone::Progress, palette);
    case InstanceState::Starting:
        return Design::tone(Tone::Info, palette);
    case InstanceState::Running:
        return Design::tone(Tone::Ok, palette);
    case InstanceState::Stopping:
        return Design::tone(Tone::Warning, palette);
    case InstanceState::Stopped:
        return Design::tone(Tone::Neutral, palette);
    case InstanceState::Failed:
        return Design::tone(Tone::Error, palette);
    case InstanceState::Terminated:
        return Design::tone(Tone::Muted, palette);
    case InstanceState::Unknown:
        break;
    }
    return palette.color(QPalette::WindowText);
}

StateStyle::Shape StateStyle::shape(InstanceState state)
{
    switch (state) {
    case InstanceState::Creating:
    case InstanceState::Starting:
        return Shape::Ring;
    case InstanceState::Running:
        return Shape::Dot;
    case InstanceState::Stopping:
        return Shape::HalfRing;
    case InstanceState::Stopped:
        return Shape::Square;
    case InstanceState::Failed:
        return Shape::Cross;
    case InstanceState::Terminated:
    case InstanceState::Unknown:
        break;
    }
    return Shape::Dash;
}

QPixmap StateStyle::pixmap(InstanceState state, const QPalette &palette, int size,
                           qreal devicePixelRatio)
{
    QPixmap pixmap(QSize(size, size) * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor c = colour(state, palette);
    const qreal stroke = qMax<qreal>(1.5, size / 8.0);
    const QRectF box =
        QRectF(0, 0, size, size).adjusted(size * 0.2, size * 0.2, -size * 0.2, -size * 0.2);
    QPen pen(c, stroke, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    switch (shape(state)) {
    case Shape::Dot:
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(box.adjusted(-size * 0.05, -size * 0.05, size * 0.05, size * 0.05));
        break;
    case Shape::Ring:
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(box);
        break;
    case Shape::HalfRing: {
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(box);
        QPainterPath half;
        half.moveTo(box.center());
        half.arcTo(box, 90, 180); // the left half filled: on its way down
        half.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawPath(half);
        break;
    }
    case Shape::Square:
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRoundedRect(box, size * 0.08, size * 0.08);
        break;
    case Shape::Cross:
        p.setPen(pen);
        p.drawLine(box.topLeft(), box.bottomRight());
        p.drawLine(box.topRight(), box.bottomLeft());
        break;
    case Shape::Dash:
        p.setPen(pen);
        p.drawLine(QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y()));
        break;
    }
    return pixmap;
}

QIcon StateStyle::icon(InstanceState state, const QPalette &palette)
{
    QIcon icon;
    for (const int size : {16, 24, 32})
        icon.addPixmap(pixmap(state, palette, size));
    return icon;
}

QString StateStyle::accessibleText(InstanceState state, const QString &providerWord)
{
    return tr("Instance state: %1").arg(Format::state(state, providerWord));
}

} // namespace cardhour::ui
