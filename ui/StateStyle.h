#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QIcon>
#include <QPixmap>
#include <QString>

class QLabel;
class QPalette;

namespace cardhour::core {
enum class InstanceState;
} // namespace cardhour::core

namespace cardhour::ui {

// How an instance state looks, in one place: a colour, a small icon drawn with QPainter and a
// sentence for screen readers. Colours are the design system's tones (theme/Design.h), so that
// each reads on light and on dark themes; shapes differ too (dot, ring, half ring, square,
// cross, dash), so colour is never the only cue.
class StateStyle
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::StateStyle)
public:
    enum class Shape {
        Ring, // on its way (creating, starting)
        Dot, // running
        HalfRing, // stopping
        Square, // stopped
        Cross, // failed
        Dash, // terminated, unknown
    };

    // Whether `palette` is a dark theme (its window colour is darker than mid-grey).
    static bool isDark(const QPalette &palette);
    static QColor colour(core::InstanceState state, const QPalette &palette);
    static Shape shape(core::InstanceState state);
    // The state's shape in its colour, `size` device-independent pixels square.
    static QPixmap pixmap(core::InstanceState state, const QPalette &palette, int size = 16,
                          qreal devicePixelRatio = 1.0);
    static QIcon icon(core::InstanceState state, const QPalette &palette);
    // The colour of error text, readable on the palette's window colour (light or dark).
    static QColor errorColour(const QPalette &palette);
    // `label` writes in errorColour(), also after the theme changes.
    static void showAsError(QLabel *label);
    // "Running: billed, reachable over SSH": what a screen reader says for the state.
    static QString accessibleText(core::InstanceState state, const QString &providerWord);
};

} // namespace cardhour::ui
