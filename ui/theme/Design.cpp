#include "Design.h"

#include <QAbstractButton>
#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QWidget>

namespace cardhour::ui {

namespace {

// Both palettes share one hue family (a cool grey with an indigo accent), so light and dark read
// as the same product. Text on window and base has 12:1 or more.
struct Colours
{
    QColor window, windowText, base, alternateBase, button, light, midlight, mid, dark, highlight,
        link, linkVisited, tooltip, tooltipText, placeholder, disabled;
};

Colours lightColours()
{
    return {QColor(0xf4, 0xf5, 0xf7), QColor(0x1c, 0x20, 0x24), QColor(0xff, 0xff, 0xff),
            QColor(0xf7, 0xf8, 0xfa), QColor(0xff, 0xff, 0xff), QColor(0xff, 0xff, 0xff),
            QColor(0xec, 0xee, 0xf2), QColor(0xc3, 0xc8, 0xd0), QColor(0x8b, 0x92, 0x9c),
            QColor(0x4f, 0x46, 0xe5), QColor(0x43, 0x38, 0xca), QColor(0x6d, 0x28, 0xd9),
            QColor(0x1c, 0x20, 0x24), QColor(0xff, 0xff, 0xff), QColor(0x6b, 0x72, 0x80),
            QColor(0x9a, 0xa0, 0xa8)};
}

Colours darkColours()
{
    return {QColor(0x1f, 0x21, 0x25), QColor(0xe6, 0xe7, 0xea), QColor(0x17, 0x18, 0x1b),
            QColor(0x23, 0x25, 0x29), QColor(0x2a, 0x2d, 0x32), QColor(0x3a, 0x3d, 0x44),
            QColor(0x30, 0x33, 0x3a), QColor(0x4a, 0x4e, 0x57), QColor(0x10, 0x11, 0x13),
            QColor(0x5b, 0x5f, 0xe0), QColor(0xa5, 0xb4, 0xfc), QColor(0xc4, 0xb5, 0xfd),
            QColor(0x2a, 0x2d, 0x32), QColor(0xe6, 0xe7, 0xea), QColor(0x8a, 0x90, 0x99),
            QColor(0x6b, 0x70, 0x79)};
}

// Paints its label's text in a tone of the application's palette, now and when the theme
// changes (a label with a palette of its own no longer follows the application's).
class ToneFilter : public QObject
{
public:
    static constexpr const char *kName = "toneFilter";

    ToneFilter(QLabel *label, Tone tone) : QObject(label), m_label(label), m_tone(tone)
    {
        setObjectName(QString::fromLatin1(kName));
        apply();
    }
    void setTone(Tone tone)
    {
        m_tone = tone;
        apply();
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // The application's palette changes first, then the style (Theme::apply): either may
        // be the last word on the colours.
        if (watched == m_label
            && (event->type() == QEvent::ApplicationPaletteChange
                || event->type() == QEvent::StyleChange))
            apply();
        return QObject::eventFilter(watched, event);
    }

private:
    void apply()
    {
        QPalette colours = QApplication::palette(m_label);
        colours.setColor(QPalette::WindowText, Design::tone(m_tone, QApplication::palette()));
        m_label->setPalette(colours);
    }

    QLabel *m_label;
    Tone m_tone;
};

} // namespace

QPalette Design::palette(bool dark)
{
    const Colours c = dark ? darkColours() : lightColours();
    QPalette p;
    p.setColor(QPalette::Window, c.window);
    p.setColor(QPalette::WindowText, c.windowText);
    p.setColor(QPalette::Base, c.base);
    p.setColor(QPalette::AlternateBase, c.alternateBase);
    p.setColor(QPalette::Text, c.windowText);
    p.setColor(QPalette::Button, c.button);
    p.setColor(QPalette::ButtonText, c.windowText);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, c.light);
    p.setColor(QPalette::Midlight, c.midlight);
    p.setColor(QPalette::Mid, c.mid);
    p.setColor(QPalette::Dark, c.dark);
    p.setColor(QPalette::Shadow, dark ? QColor(0, 0, 0) : QColor(0x5a, 0x60, 0x6a));
    p.setColor(QPalette::Highlight, c.highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, c.link);
    p.setColor(QPalette::LinkVisited, c.linkVisited);
    p.setColor(QPalette::ToolTipBase, c.tooltip);
    p.setColor(QPalette::ToolTipText, c.tooltipText);
    p.setColor(QPalette::PlaceholderText, c.placeholder);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, c.disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, c.mid);
    p.setColor(QPalette::Disabled, QPalette::Button, c.window);
    p.setColor(QPalette::Inactive, QPalette::Highlight, c.highlight);
    return p;
}

bool Design::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor Design::tone(Tone tone, const QPalette &palette)
{
    // Two sets: 3:1 or more against light (#efefef-#ffffff) and dark (#17181b-#353535) window
    // colours for shapes, 4.5:1 for the text tones (Accent, Error, Muted).
    const bool dark = isDark(palette);
    switch (tone) {
    case Tone::Accent:
        return dark ? QColor(0xa5, 0xb4, 0xfc) : QColor(0x43, 0x38, 0xca);
    case Tone::Ok:
        return dark ? QColor(0x4c, 0xd0, 0x5f) : QColor(0x1a, 0x7f, 0x37);
    case Tone::Warning:
        return dark ? QColor(0xf2, 0xa2, 0x4b) : QColor(0xa8, 0x4a, 0x00);
    case Tone::Error:
        return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
    case Tone::Neutral:
        return dark ? QColor(0xb0, 0xb8, 0xc2) : QColor(0x57, 0x60, 0x6a);
    case Tone::Info:
        return dark ? QColor(0x5c, 0xad, 0xff) : QColor(0x09, 0x5c, 0xc8);
    case Tone::Progress:
        return dark ? QColor(0xc2, 0x9b, 0xff) : QColor(0x7a, 0x3e, 0xd6);
    case Tone::Muted:
        return dark ? QColor(0x9a, 0xa2, 0xad) : QColor(0x5b, 0x62, 0x6c);
    }
    return palette.color(QPalette::WindowText);
}

QColor Design::accentFill(const QPalette &palette)
{
    // White text on it: 6.3:1 (light), 5.0:1 (dark).
    return isDark(palette) ? QColor(0x5b, 0x5f, 0xe0) : QColor(0x4f, 0x46, 0xe5);
}

QColor Design::destructiveFill(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xd6, 0x45, 0x45) : QColor(0xc6, 0x28, 0x28);
}

QColor Design::surface(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x27, 0x2a, 0x2f) : palette.color(QPalette::Base);
}

QColor Design::border(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x3a, 0x3d, 0x44) : QColor(0xd5, 0xd9, 0xe0);
}

QFont Design::font(TextRole role, const QFont &base)
{
    qreal scale = 1.0;
    QFont::Weight weight = QFont::Normal;
    switch (role) {
    // Bold, not semi-bold: the CJK fonts in use have no semi-bold face and would fall back to
    // the regular one, leaving Chinese titles unmarked.
    case TextRole::PageTitle:
        scale = 1.5;
        weight = QFont::Bold;
        break;
    case TextRole::Heading:
        scale = 1.15;
        weight = QFont::Bold;
        break;
    case TextRole::Body:
        break;
    case TextRole::Caption:
        scale = 0.9;
        break;
    }
    QFont f = base;
    if (base.pointSizeF() > 0)
        f.setPointSizeF(base.pointSizeF() * scale);
    else
        f.setPixelSize(qRound(base.pixelSize() * scale));
    f.setWeight(weight);
    return f;
}

void Design::setTextRole(QWidget *widget, TextRole role)
{
    widget->setProperty(kTextRole, int(role));
    // From the application's font, so that setting a role twice does not grow it.
    widget->setFont(font(role, QApplication::font(widget)));
    if (role == TextRole::Caption) {
        if (auto *label = qobject_cast<QLabel *>(widget))
            setTextTone(label, Tone::Muted);
    }
}

void Design::setButtonRole(QAbstractButton *button, ButtonRole role)
{
    button->setProperty(kButtonRole, int(role));
    button->setAttribute(Qt::WA_Hover);
    button->update();
}

void Design::setCard(QWidget *frame)
{
    frame->setProperty(kCard, true);
    frame->update();
}

void Design::setTextTone(QLabel *label, Tone tone)
{
    if (auto *filter = label->findChild<QObject *>(QString::fromLatin1(ToneFilter::kName),
                                                   Qt::FindDirectChildrenOnly)) {
        static_cast<ToneFilter *>(filter)->setTone(tone);
        return;
    }
    label->installEventFilter(new ToneFilter(label, tone));
}

} // namespace cardhour::ui
