#include "AppSettings.h"

#include "ClientStyle.h"
#include "theme/Design.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

int AppSettings::clampMinutes(int minutes)
{
    return qBound(1, minutes, 24 * 60);
}

AppSettings AppSettings::load(QSettings &settings)
{
    AppSettings s;
    s.providerUrl = settings.value(u"provider/url"_s).toUrl();
    s.sandboxChosenLast = settings.value(u"provider/sandboxChosenLast"_s, false).toBool();
    s.accountEmail = settings.value(u"account/email"_s).toString();
    s.language = settings.value(u"language"_s).toString();
    s.theme = settings.value(u"theme"_s, s.theme).toString();
    if (!Theme::available().contains(s.theme))
        s.theme = u"system"_s;
    s.warnFirstMinutes = clampMinutes(settings.value(u"alerts/firstMinutes"_s, 60).toInt());
    s.warnLastMinutes = clampMinutes(settings.value(u"alerts/lastMinutes"_s, 10).toInt());
    core::CostInputs cost;
    cost.cardPriceMicros =
        settings.value(u"cost/cardPriceMicros"_s, cost.cardPriceMicros).toLongLong();
    cost.upkeepPerYearMicros =
        settings.value(u"cost/upkeepPerYearMicros"_s, cost.upkeepPerYearMicros).toLongLong();
    cost.years = settings.value(u"cost/years"_s, cost.years).toInt();
    cost.cloudPerCardHourMicros =
        settings.value(u"cost/cloudPerCardHourMicros"_s, cost.cloudPerCardHourMicros).toLongLong();
    // Stored figures that make no sense (edited by hand) give way to the defaults.
    s.costInputs = cost.isValid() ? cost : core::CostInputs{};
    s.costGpuType = settings.value(u"cost/gpuType"_s).toString();
    s.costCards = qBound(1, settings.value(u"cost/cards"_s, s.costCards).toInt(), 1024);
    s.costHours = qBound(1, settings.value(u"cost/hours"_s, s.costHours).toInt(), 1'000'000);
    return s;
}

void AppSettings::save(QSettings &settings) const
{
    if (providerUrl.isValid() && !providerUrl.isEmpty())
        settings.setValue(u"provider/url"_s, providerUrl);
    else
        settings.remove(u"provider/url"_s);
    settings.setValue(u"provider/sandboxChosenLast"_s, sandboxChosenLast);
    if (!accountEmail.isEmpty())
        settings.setValue(u"account/email"_s, accountEmail);
    if (!language.isEmpty())
        settings.setValue(u"language"_s, language);
    settings.setValue(u"theme"_s, theme);
    settings.setValue(u"alerts/firstMinutes"_s, clampMinutes(warnFirstMinutes));
    settings.setValue(u"alerts/lastMinutes"_s, clampMinutes(warnLastMinutes));
    settings.setValue(u"cost/cardPriceMicros"_s, costInputs.cardPriceMicros);
    settings.setValue(u"cost/upkeepPerYearMicros"_s, costInputs.upkeepPerYearMicros);
    settings.setValue(u"cost/years"_s, costInputs.years);
    settings.setValue(u"cost/cloudPerCardHourMicros"_s, costInputs.cloudPerCardHourMicros);
    settings.setValue(u"cost/gpuType"_s, costGpuType);
    settings.setValue(u"cost/cards"_s, costCards);
    settings.setValue(u"cost/hours"_s, costHours);
    settings.sync();
}

// ---- theme --------------------------------------------------------------------------------------

namespace {
struct SystemLook
{
    QPalette palette;
    bool captured = false;
};

SystemLook &systemLook()
{
    static SystemLook look;
    if (!look.captured && qApp) {
        look.palette = QApplication::palette();
        look.captured = true;
    }
    return look;
}

QString &currentTheme()
{
    static QString theme = u"system"_s;
    return theme;
}

} // namespace

QStringList Theme::available()
{
    return {u"system"_s, u"light"_s, u"dark"_s};
}

QString Theme::displayName(const QString &theme)
{
    if (theme == u"light"_s)
        return tr("Light");
    if (theme == u"dark"_s)
        return tr("Dark");
    return tr("System");
}

QString Theme::current()
{
    return currentTheme();
}

void Theme::apply(const QString &theme)
{
    SystemLook &look = systemLook(); // before the first change, so "system" can come back
    const QString chosen = available().contains(theme) ? theme : u"system"_s;
    // Fusion under the design system's palette on every desktop; "system" follows whether the
    // desktop's own palette is light or dark.
    QStyle *base = QStyleFactory::create(u"Fusion"_s);
    QStyle *style = base ? new ClientStyle(base) : nullptr;
    const bool dark =
        chosen == u"dark"_s || (chosen == u"system"_s && Design::isDark(look.palette));
    const QPalette palette = Design::palette(dark);
    // The palette first: setStyle() then polishes every widget once, with the new colours.
    QApplication::setPalette(palette);
    if (style)
        QApplication::setStyle(style);
    // Widgets with a style sheet keep the colours they were polished with; polish them again.
    const QList<QWidget *> widgets = QApplication::allWidgets();
    for (QWidget *widget : widgets) {
        if (!widget->styleSheet().isEmpty())
            widget->setStyleSheet(widget->styleSheet());
    }
    currentTheme() = chosen;
}

} // namespace cardhour::ui
