#include "AppSettings.h"

#include "ClientStyle.h"

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
    QString styleName;
    QPalette palette;
    bool captured = false;
};

SystemLook &systemLook()
{
    static SystemLook look;
    if (!look.captured && qApp) {
        look.styleName = QApplication::style()->name();
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

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    const QColor highlight(0x3d, 0x7e, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5c, 0x60));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4b));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
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
    QStyle *base = QStyleFactory::create(chosen == u"system"_s ? look.styleName : u"Fusion"_s);
    QStyle *style = base ? new ClientStyle(base) : nullptr;
    const QPalette palette = chosen == u"system"_s ? look.palette
        : chosen == u"dark"_s                      ? darkPalette()
        : style                                    ? style->standardPalette()
                                                   : look.palette;
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
