#include "SettingsDialog.h"

#include "Translations.h"
#include "theme/Design.h"
#include "ui_SettingsDialog.h"

#include <QEvent>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

SettingsDialog::SettingsDialog(const AppSettings &initial, QWidget *parent)
    : QDialog(parent), m_ui(std::make_unique<Ui::SettingsDialog>())
{
    m_ui->setupUi(this);
    setObjectName(u"settingsDialog"_s);
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setObjectName(u"settingsOkButton"_s);
    Design::setPrimary(m_ui->buttonBox->button(QDialogButtonBox::Ok));
    for (const QString &language : Translations::available())
        m_ui->languageCombo->addItem(Translations::nativeName(language), language);
    for (const QString &theme : Theme::available())
        m_ui->themeCombo->addItem(QString(), theme);

    m_ui->providerEdit->setText(initial.providerUrl.toString());
    const QString language =
        initial.language.isEmpty() ? Translations::systemDefault() : initial.language;
    m_ui->languageCombo->setCurrentIndex(qMax(0, m_ui->languageCombo->findData(language)));
    m_ui->themeCombo->setCurrentIndex(qMax(0, m_ui->themeCombo->findData(initial.theme)));
    m_ui->firstWarningSpin->setValue(AppSettings::clampMinutes(initial.warnFirstMinutes));
    m_ui->lastWarningSpin->setValue(AppSettings::clampMinutes(initial.warnLastMinutes));

    connect(m_ui->providerEdit, &QLineEdit::textChanged, this, &SettingsDialog::validate);
    connect(m_ui->firstWarningSpin, &QSpinBox::valueChanged, this, &SettingsDialog::validate);
    connect(m_ui->lastWarningSpin, &QSpinBox::valueChanged, this, &SettingsDialog::validate);
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, [this] {
        QString problem;
        const AppSettings chosen = settings(&problem);
        if (!problem.isEmpty())
            return;
        Q_EMIT applied(chosen);
        accept();
    });
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
}

SettingsDialog::~SettingsDialog() = default;

AppSettings SettingsDialog::settings(QString *problem) const
{
    AppSettings s;
    QString why;
    const QString url = m_ui->providerEdit->text().trimmed();
    if (!url.isEmpty()) {
        s.providerUrl = QUrl(url, QUrl::StrictMode);
        if (!s.providerUrl.isValid() || s.providerUrl.host().isEmpty()
            || (s.providerUrl.scheme() != u"http"_s && s.providerUrl.scheme() != u"https"_s))
            why = tr("The provider URL must start with http:// or https:// and name a host.");
    }
    s.language = m_ui->languageCombo->currentData().toString();
    s.theme = m_ui->themeCombo->currentData().toString();
    s.warnFirstMinutes = m_ui->firstWarningSpin->value();
    s.warnLastMinutes = m_ui->lastWarningSpin->value();
    if (why.isEmpty() && s.warnLastMinutes >= s.warnFirstMinutes)
        why = tr("The second warning must come later than the first: fewer minutes.");
    if (problem)
        *problem = why;
    return s;
}

void SettingsDialog::validate()
{
    QString problem;
    settings(&problem);
    m_ui->hintLabel->setText(
        problem.isEmpty() ? tr("A new provider URL is used the next time you connect.") : problem);
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

void SettingsDialog::retranslate()
{
    m_ui->retranslateUi(this);
    for (int i = 0; i < m_ui->themeCombo->count(); ++i)
        m_ui->themeCombo->setItemText(i,
                                      Theme::displayName(m_ui->themeCombo->itemData(i).toString()));
    m_ui->firstWarningSpin->setSuffix(tr(" min"));
    m_ui->lastWarningSpin->setSuffix(tr(" min"));
    validate();
}

void SettingsDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
