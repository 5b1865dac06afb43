#include "StateStyle.h"

#include "Format.h"
#include "api/Models.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

namespace cardhour::ui {

using core::InstanceState;

bool StateStyle::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor StateStyle::errorColour(const QPalette &palette)
{
    // Material's error reds: 4.5:1 or more against light and dark window colours (WCAG 1.4.3).
    return isDark(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
}

namespace {

// Paints its label's text in the error colour of the application's palette, now and when the
// theme changes (a label with a palette of its own no longer follows the application's).
class ErrorTextFilter : public QObject
{
public:
    explicit ErrorTextFilter(QLabel *label) : QObject(label), m_label(label) { apply(); }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_label && event->type() == QEvent::ApplicationPaletteChange)
            apply();
        return QObject::eventFilter(watched, event);
    }

private:
    void apply()
    {
        QPalette colours = QApplication::palette(m_label);
        colours.setColor(QPalette::WindowText, StateStyle::errorColour(colours));
        m_label->setPalette(colours);
    }

    QLabel *m_label;
};

} // namespace

void StateStyle::showAsError(QLabel *label)
{
    label->installEventFilter(new ErrorTextFilter(label));
}

QColor StateStyle::colour(InstanceState state, const QPalette &palette)
{
    // Two sets with at least 3:1 contrast to the window colour of common light (#efefef-#ffffff)
    // and dark (#1e1e1e-#353535) themes, the minimum for graphical objects (WCAG 1.4.11).
    const bool dark = isDark(palette);
    switch (state) {
    case InstanceState::Creating:
        return dark ? QColor(0xc2, 0x9b, 0xff) : QColor(0x7a, 0x3e, 0xd6);
    case InstanceState::Starting:
        return dark ? QColor(0x5c, 0xad, 0xff) : QColor(0x09, 0x5c, 0xc8);
    case InstanceState::Running:
        return dark ? QColor(0x4c, 0xd0, 0x5f) : QColor(0x1a, 0x7f, 0x37);
    case InstanceState::Stopping:
        return dark ? QColor(0xf2, 0xa2, 0x4b) : QColor(0xa8, 0x4a, 0x00);
    case InstanceState::Stopped:
        return dark ? QColor(0xb0, 0xb8, 0xc2) : QColor(0x57, 0x60, 0x6a);
    case InstanceState::Failed:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc4, 0x1d, 0x2a);
    case InstanceState::Terminated:
        return dark ? QColor(0x8a, 0x93, 0x9c) : QColor(0x3d, 0x44, 0x4b);
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
