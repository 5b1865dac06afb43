#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QTranslator;

namespace cardhour::ui {

// The client's language, switchable while it runs. The .qm files are embedded (:/i18n); a
// switch installs the new translators on the application, which sends LanguageChange to every
// widget, and each widget then retranslates itself (m_ui->retranslateUi and its own texts).
class Translations : public QObject
{
    Q_OBJECT
public:
    explicit Translations(QObject *parent = nullptr);
    ~Translations() override;

    // The languages offered: "en" and "zh_CN".
    static QStringList available();
    // The language's own name, for the menu ("English", "简体中文").
    static QString nativeName(const QString &language);
    // The language of the system locale if one is offered, else English.
    static QString systemDefault();

    QString current() const { return m_current; }
    // Switches to `language` (one of available()); false if its translation could not be loaded.
    bool setLanguage(const QString &language);

Q_SIGNALS:
    void languageChanged(const QString &language);

private:
    std::unique_ptr<QTranslator> m_app;
    std::unique_ptr<QTranslator> m_qt;
    QString m_current = QStringLiteral("en");
};

} // namespace cardhour::ui
