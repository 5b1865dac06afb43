// The CardHour desktop client: the widgets of ui/ over the core of core/. This file only reads
// the command line and settings and opens the main window; everything else lives in the libraries
// the tests link.
#include "AppSettings.h"
#include "MainWindow.h"
#include "Translations.h"
#ifdef CARDHOUR_BENCH_HOOKS
#include "BenchHooks.h"
#endif
#include "CardHourVersion.h"
#include "DataPaths.h"
#include "api/TlsTrust.h"
#include "sandbox/SandboxLauncher.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QSettings>
#include <QTextStream>
#include <QUrl>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"CardHour"_s);
    QApplication::setApplicationName(u"CardHour"_s);
    QApplication::setApplicationVersion(QStringLiteral(CARDHOUR_VERSION));
    // Before anything reads a path: the folders of the layout before issue 12 move into place
    // (log lines for the terminal, not the window).
    for (const QString &note : cardhour::DataPaths::migrateOldLayout())
        QTextStream(stderr) << "cardhour: " << note << Qt::endl;

    cardhour::ui::Translations translations;
    QSettings settings;
    translations.setLanguage(
        settings.value(u"language"_s, cardhour::ui::Translations::systemDefault()).toString());
    QObject::connect(
        &translations, &cardhour::ui::Translations::languageChanged, &app,
        [](const QString &language) { QSettings().setValue(u"language"_s, language); });
    cardhour::ui::Theme::apply(cardhour::ui::AppSettings::load(settings).theme);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "CardHour: rent GPU hosts by the card-hour."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption providerOption(
        u"provider"_s,
        QApplication::translate("main",
                                "Connect to the provider at URL (also CARDHOUR_PROVIDER_URL)."),
        u"url"_s);
    const QCommandLineOption sandboxOption(
        u"sandbox"_s,
        QApplication::translate("main", "Start or attach to the local sandbox at once."));
    const QCommandLineOption simOption(
        u"sim"_s, QApplication::translate("main", "The cardhour-sim executable."), u"path"_s);
    const QCommandLineOption caOption(
        u"ca"_s,
        QApplication::translate("main",
                                "Also trust the certificate authorities in FILE (PEM) for an "
                                "https:// provider with a certificate of its own."),
        u"file"_s);
    parser.addOptions({providerOption, sandboxOption, simOption, caOption});
    parser.process(app);

    cardhour::ui::MainWindow::Options options;
    options.sandboxExecutable = parser.value(simOption);
    if (parser.isSet(caOption)) {
        QString caError;
        const auto cas = cardhour::core::TlsTrust::loadCaFile(parser.value(caOption), &caError);
        if (!cas) {
            QTextStream(stderr) << "cardhour: " << caError << Qt::endl;
            return 2;
        }
        options.caCertificates = *cas;
    }
#ifdef CARDHOUR_BUILD_SIM_PATH
    // Run from the build tree: the sandbox is wherever the build put it.
    if (options.sandboxExecutable.isEmpty()
        && !QFileInfo::exists(cardhour::core::SandboxLauncher::defaultExecutable())
        && QFileInfo::exists(QString::fromUtf8(CARDHOUR_BUILD_SIM_PATH)))
        options.sandboxExecutable = QString::fromUtf8(CARDHOUR_BUILD_SIM_PATH);
#endif
#ifdef CARDHOUR_BENCH_HOOKS
    cardhour::app::applyBenchOptions(&options);
#endif
    cardhour::ui::MainWindow window(options, &translations);
#ifdef CARDHOUR_BENCH_HOOKS
    cardhour::app::installStartupProbe(&window);
    cardhour::app::installBenchLogin(&window);
#endif
    window.show();

    QString provider = parser.value(providerOption);
    if (provider.isEmpty())
        provider = qEnvironmentVariable("CARDHOUR_PROVIDER_URL");
    if (!provider.isEmpty())
        window.connectToUrl(QUrl::fromUserInput(provider));
    else if (parser.isSet(sandboxOption))
        window.connectToSandbox();
    return QApplication::exec();
}
