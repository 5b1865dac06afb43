#pragma once

#include <QIcon>
#include <QString>

class QPalette;

namespace cardhour::ui {

// The client's icons: Lucide line drawings shipped in resources/icons (see resources/README.md),
// not the desktop's theme, which Windows and macOS do not have.
enum class Icon {
    Home,
    Instances,
    Snapshots,
    Storage,
    Billing,
    Keys,
    Launch,
    Reload,
    Terminal,
    SystemTerminal,
    Stop,
    Start,
    Terminate,
    Copy,
    SshConfig,
    OpenApp,
    Upload,
    Download,
    AddFolder,
    Restore,
    TopUp,
    Settings,
    Connect,
    LogOut,
    MoreRight, // a menu bar's or tool bar's overflow
    MoreDown
};

namespace Icons {

// `which` drawn in the palette's text colour (its disabled colour when disabled, the highlighted
// text colour when selected), rendered at the size asked for when it is first painted. Icons
// are made per palette: after a theme change, ask again.
QIcon icon(Icon which, const QPalette &palette);
// The resource path of its SVG (":/icons/house.svg").
QString resourcePath(Icon which);
// The application icon (resources/cardhour.svg): window, tray and the .desktop file.
QIcon application();

} // namespace Icons

} // namespace cardhour::ui
