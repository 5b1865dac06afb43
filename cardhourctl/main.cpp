// cardhourctl: the command-line client, on the same core as the desktop client.
#include "CardHourVersion.h"
#include "Cli.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("CardHour"));
    // The same names as the desktop client: the same keychain entries and data folders.
    QCoreApplication::setApplicationName(QStringLiteral("CardHour"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CARDHOUR_VERSION));
    // The desktop client's translation file (translations/cardhour_zh_CN.ts, compiled into this
    // binary too) when the system's language is Chinese; English needs none.
    QTranslator translator;
    if (QLocale::system().language() == QLocale::Chinese
        && translator.load(QStringLiteral(":/i18n/cardhour_zh_CN")))
        QCoreApplication::installTranslator(&translator);
    int status = 0;
    // Commands run inside the event loop: every provider answer arrives through it.
    QTimer::singleShot(0, &app, [&] {
        status = cardhour::ctl::Cli::run(QCoreApplication::arguments());
        QCoreApplication::exit(status);
    });
    QCoreApplication::exec();
    return status;
}
