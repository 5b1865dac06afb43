#pragma once

#include <QProxyStyle>

namespace cardhour::ui {

// The chosen style (Fusion), painting the roles of the design system (theme/Design.h): primary,
// destructive and plain push buttons, cards, group boxes, and the layout margins of its spacing
// units. It also draws what Fusion would read from PNG files on the first screen: the menu
// bar's and tool bars' overflow arrows (from the client's icon set) and the group box frame.
// Reading Qt's first PNG loads every image-format plugin, a few milliseconds of the start.
class ClientStyle : public QProxyStyle
{
    Q_OBJECT

public:
    // Takes ownership of `base` (nullptr: the application's default style).
    explicit ClientStyle(QStyle *base);

    QIcon standardIcon(StandardPixmap which, const QStyleOption *option = nullptr,
                       const QWidget *widget = nullptr) const override;
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget = nullptr) const override;
    int pixelMetric(PixelMetric metric, const QStyleOption *option = nullptr,
                    const QWidget *widget = nullptr) const override;

private:
    bool isFusion() const;
    void drawButtonPanel(const QStyleOption *option, QPainter *painter,
                         const QWidget *widget) const;
    void drawCard(const QStyleOption *option, QPainter *painter) const;
    void drawGroupBoxFrame(const QStyleOption *option, QPainter *painter,
                           const QWidget *widget) const;
};

} // namespace cardhour::ui
