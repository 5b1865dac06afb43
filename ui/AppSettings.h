#pragma once

#include "billing/CostComparison.h"

#include <QCoreApplication>
#include <QString>
#include <QUrl>

class QSettings;

namespace cardhour::ui {

// What the user chose in Settings, kept with QSettings (the platform's usual place, under the
// organisation and application names main() sets). Window geometry and the last view are kept
// by MainWindow itself under "window/".
struct AppSettings
{
    QUrl providerUrl; // empty: the connect step offers the local sandbox first
    bool sandboxChosenLast = false; // the sandbox was chosen after providerUrl: it is offered
    // The e-mail address last logged in with: its owner is offered log-in, not sign-up.
    QString accountEmail;
    QString language; // "en", "zh_CN"; empty: the system's
    QString theme = QStringLiteral("system"); // system, light, dark
    int warnFirstMinutes = 60; // the tray warns when the balance lasts less than this
    int warnLastMinutes = 10; // ... and once more below this
    // The Billing page's cost comparison: the figures and the planned job last entered.
    core::CostInputs costInputs; // the brief's figures until the user changes them
    QString costGpuType; // empty: the catalog's first
    int costCards = 8;
    int costHours = 198;

    static AppSettings load(QSettings &settings);
    void save(QSettings &settings) const;
    // Both thresholds, 1 to 1440 minutes (out-of-range stored values are brought back in range).
    static int clampMinutes(int minutes);
};

// The application's look: "system" (the platform style and palette as they were at start-up),
// "light" or "dark" (Fusion with a light or dark palette), switched at run time.
class Theme
{
    Q_DECLARE_TR_FUNCTIONS(cardhour::ui::Theme)
public:
    static QStringList available(); // system, light, dark
    static QString displayName(const QString &theme);
    // Applies `theme` to the running application; unknown names mean "system".
    static void apply(const QString &theme);
    static QString current();
};

} // namespace cardhour::ui
