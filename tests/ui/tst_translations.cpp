// Translations: the embedded zh_CN catalogue loads, a switch retranslates open widgets (through
// LanguageChange), the core's messages are translated too, and English comes back.
#include "ConnectionBanner.h"
#include "Format.h"
#include "Translations.h"
#include "api/ApiError.h"

#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour;

class TestTranslations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void switchesAtRunTime()
    {
        ui::Translations translations;
        QCOMPARE(ui::Translations::available(), (QStringList{u"en"_s, u"zh_CN"_s}));
        QCOMPARE(ui::Translations::nativeName(u"zh_CN"_s), u"简体中文"_s);
        QCOMPARE(translations.current(), u"en"_s);
        QVERIFY(!translations.setLanguage(u"xx"_s));
        // Numbers are written as the UI language writes them, English's included (it needs no
        // translator, and once left the system's locale in charge of money's separators).
        QLocale::setDefault(QLocale(u"de_DE"_s));
        QVERIFY(translations.setLanguage(u"en"_s));
        QCOMPARE(QLocale().name(), u"en_US"_s);
        QCOMPARE(ui::Format::money(1'234'567'890), u"¥1,234.56"_s);

        ui::ConnectionBanner banner;
        banner.showProblem(u"x"_s);
        auto *retry = banner.findChild<QPushButton *>(u"retryButton"_s);
        QCOMPARE(retry->text(), u"Retry"_s);

        QSignalSpy changed(&translations, &ui::Translations::languageChanged);
        QVERIFY(translations.setLanguage(u"zh_CN"_s));
        QCOMPARE(changed.size(), 1);
        QTRY_COMPARE(retry->text(), u"重试"_s);
        QCOMPARE(QLocale().name(), u"zh_CN"_s);
        // The core's sentences (ApiError, in namespace cardhour::core) come from the same file.
        QCOMPARE(core::ApiError::http(401, u"invalid_credentials"_s, {}).userMessage(),
                 u"邮箱地址或密码错误。"_s);

        QVERIFY(translations.setLanguage(u"en"_s));
        QTRY_COMPARE(retry->text(), u"Retry"_s);
        QCOMPARE(core::ApiError::http(401, u"invalid_credentials"_s, {}).userMessage(),
                 u"Wrong e-mail address or password."_s);
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
