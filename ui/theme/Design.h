#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>

class QAbstractButton;
class QLabel;
class QWidget;

namespace cardhour::ui {

// The client's design system in one place: the palette (light and dark, one accent), the tones
// that say a state (ok, warning, error, ...), the type scale and the spacing units. Widgets ask
// for a role through the helpers below; ClientStyle paints the roles (buttons, cards), so no
// page sets colours or point sizes of its own.
namespace space {
// A 4-px grid: gaps inside a group, between groups, around a page.
constexpr int xs = 4;
constexpr int s = 8;
constexpr int m = 12;
constexpr int l = 16;
constexpr int xl = 24;
} // namespace space

// What a colour says, besides the text colour.
enum class Tone {
    Accent, // the one colour of primary actions, selection and links
    Ok, // running, paid, ready
    Warning, // stopping soon, low balance
    Error, // failed, refused
    Neutral, // stopped, idle
    Info, // on its way (starting)
    Progress, // being made (creating)
    Muted, // gone (terminated), secondary text
};

// The type scale: a page has one title, sections have headings, captions explain.
enum class TextRole {
    PageTitle,
    Heading,
    Body,
    Caption,
};

// How a push button reads: one primary action per screen, destructive ones in red, the rest
// plain.
enum class ButtonRole {
    Secondary,
    Primary,
    Destructive,
};

class Design
{
public:
    // The dynamic properties ClientStyle reads (and tests check).
    static constexpr const char *kButtonRole = "buttonRole";
    static constexpr const char *kTextRole = "textRole";
    static constexpr const char *kCard = "card";
    static constexpr int kRadius = 6;

    static QPalette palette(bool dark);
    // Whether `palette` is a dark one (its window colour darker than mid-grey).
    static bool isDark(const QPalette &palette);
    // A colour of `tone` readable on the palette's window and base colours (WCAG 1.4.11: 3:1
    // for shapes; text tones 4.5:1).
    static QColor tone(Tone tone, const QPalette &palette);
    // The fill of a primary button: the accent, dark enough for white text on both themes.
    static QColor accentFill(const QPalette &palette);
    static QColor destructiveFill(const QPalette &palette);
    // The fill of cards and panels: white on the light window, a step lighter than the dark one.
    static QColor surface(const QPalette &palette);
    // The subtle line around cards, panels and plain buttons.
    static QColor border(const QPalette &palette);

    // `base` at the size and weight of `role`.
    static QFont font(TextRole role, const QFont &base);
    // The label speaks in `role`'s size; captions also in the muted tone.
    static void setTextRole(QWidget *widget, TextRole role);
    static void setButtonRole(QAbstractButton *button, ButtonRole role);
    static void setPrimary(QAbstractButton *button) { setButtonRole(button, ButtonRole::Primary); }
    // The widget (a QFrame) is painted as a card: surface colour, rounded, a subtle border.
    static void setCard(QWidget *frame);
    // `label` writes in `tone`, also after the theme changes.
    static void setTextTone(QLabel *label, Tone tone);
};

} // namespace cardhour::ui
