#pragma once

#include <QProxyStyle>

namespace cardhour::ui {

// The chosen style, with the few things it would draw from PNG files on the first screen drawn
// here instead: the menu bar's and tool bars' overflow arrows (from the client's icon set) and,
// under Fusion, the group box frame. Reading Qt's first PNG loads every image-format plugin,
// a few milliseconds of the start before the first frame.
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
};

} // namespace cardhour::ui
