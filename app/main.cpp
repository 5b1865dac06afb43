// The CardHour desktop client: the widgets of ui/ over the core of core/. This file only reads
// the command line and settings and opens the main window; everything else lives in the libraries
// the tests link.
#include "AppSettings.h"
#include "MainWindow.h"
#include "Translations.h"
#ifdef CARDHOUR_BENCH_HOOKS
#include "BenchHooks.h"
#include "BenchPrompt.h"
#endif
#include "CardHourVersion.h"
#include "DataPaths.h"
#include "api/ProviderUrl.h"
#include "api/TlsTrust.h"
#include "sandbox/SandboxLauncher.h"

#include <QApplication>
#include <QByteArrayView>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>
#include <QTextStream>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

// The command line, described once: for --help and --version before any display is needed, and
// for the window's run.
void describeOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "CardHour: rent GPU hosts by the card-hour."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        QCommandLineOption(
            u"provider"_s,
            QCoreApplication::translate(
                "main", "Connect to the provider at URL (also CARDHOUR_PROVIDER_URL)."),
            u"url"_s),
        QCommandLineOption(
            u"sandbox"_s,
            QCoreApplication::translate("main", "Start or attach to the local sandbox at once.")),
        QCommandLineOption(
            u"sim"_s,
            QCoreApplication::translate("main",
                                        "The cardhour-sim executable to start for the local "
                                        "sandbox (default: the one next to this program)."),
            u"path"_s),
        QCommandLineOption(
            u"ca"_s,
            QCoreApplication::translate("main",
                                        "Also trust the certificate authorities in FILE (PEM) for "
                                        "an https:// provider with a certificate of its own."),
            u"file"_s),
    });
}

// --help and --version print and exit; they must work where no display is (a terminal over SSH,
// a package check), so they are answered before QApplication connects to one.
bool answersWithoutWindow(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView arg(argv[i]);
        if (arg == "--")
            break;
        if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v"
            || arg == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    if (answersWithoutWindow(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName(u"CardHour"_s);
        QCoreApplication::setApplicationVersion(QStringLiteral(CARDHOUR_VERSION));
        QCommandLineParser parser;
        describeOptions(parser);
        parser.process(core); // prints and exits
        return 0;
    }
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
    describeOptions(parser);
    parser.process(app);

    cardhour::ui::MainWindow::Options options;
    options.sandboxExecutable = parser.value(u"sim"_s);
    if (parser.isSet(u"ca"_s)) {
        QString caError;
        const auto cas = cardhour::core::TlsTrust::loadCaFile(parser.value(u"ca"_s), &caError);
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
    cardhour::app::installBenchPrompt(&window);
#endif
    window.show();

    QString provider = parser.value(u"provider"_s);
    if (provider.isEmpty())
        provider = qEnvironmentVariable("CARDHOUR_PROVIDER_URL");
    if (!provider.isEmpty()) {
        QString problem;
        const QUrl url = cardhour::core::ProviderUrl::parse(provider, &problem);
        if (url.isEmpty()) {
            QTextStream(stderr) << "cardhour: " << problem << Qt::endl;
            return 2;
        }
        window.connectToUrl(url);
    } else if (parser.isSet(u"sandbox"_s))
        window.connectToSandbox();
    return QApplication::exec();
}
