#include "Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

Translations::Translations(QObject *parent) : QObject(parent) {}

Translations::~Translations()
{
    if (m_app)
        QCoreApplication::removeTranslator(m_app.get());
    if (m_qt)
        QCoreApplication::removeTranslator(m_qt.get());
}

QStringList Translations::available()
{
    return {u"en"_s, u"zh_CN"_s};
}

QString Translations::nativeName(const QString &language)
{
    // Each language in its own words, never translated: someone who cannot read the current
    // language must still find theirs.
    if (language == u"zh_CN"_s)
        return u"简体中文"_s;
    return u"English"_s;
}

QString Translations::systemDefault()
{
    return QLocale::system().language() == QLocale::Chinese ? u"zh_CN"_s : u"en"_s;
}

bool Translations::setLanguage(const QString &language)
{
    if (!available().contains(language))
        return false;
    // Numbers (money's grouping and point) follow the UI language, English's too (the first
    // call, with nothing to switch), set before a LanguageChange makes widgets write again.
    QLocale::setDefault(QLocale(language == u"en"_s ? u"en_US"_s : language));
    if (language == m_current)
        return true;
    std::unique_ptr<QTranslator> app;
    std::unique_ptr<QTranslator> qt;
    if (language != u"en"_s) {
        // The source strings are English: English needs no translator at all.
        app = std::make_unique<QTranslator>();
        if (!app->load(u":/i18n/cardhour_"_s + language))
            return false;
        // Qt's own strings (standard buttons, context menus), where the system has them.
        qt = std::make_unique<QTranslator>();
        if (!qt->load(u"qtbase_"_s + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            qt.reset();
    }
    if (m_app)
        QCoreApplication::removeTranslator(m_app.get());
    if (m_qt)
        QCoreApplication::removeTranslator(m_qt.get());
    m_app = std::move(app);
    m_qt = std::move(qt);
    if (m_qt)
        QCoreApplication::installTranslator(m_qt.get());
    if (m_app)
        QCoreApplication::installTranslator(m_app.get());
    m_current = language;
    // installTranslator and removeTranslator each send LanguageChange; QApplication passes it
    // on to every window, so the widgets retranslate themselves.
    Q_EMIT languageChanged(language);
    return true;
}

} // namespace cardhour::ui
