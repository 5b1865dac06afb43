#include "LoginDialog.h"

#include "StateStyle.h"
#include "ui_LoginDialog.h"

#include <QEvent>
#include <QPushButton>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
constexpr int minPasswordLength = 8; // the provider's rule (weak_password below it)
}

LoginDialog::LoginDialog(QWidget *parent)
    : QDialog(parent), m_ui(std::make_unique<Ui::LoginDialog>())
{
    m_ui->setupUi(this);
    StateStyle::showAsError(m_ui->errorLabel);
    setObjectName(u"loginDialog"_s);
    connect(m_ui->emailEdit, &QLineEdit::textChanged, this, &LoginDialog::validate);
    connect(m_ui->passwordEdit, &QLineEdit::textChanged, this, &LoginDialog::validate);
    connect(m_ui->signUpCheck, &QCheckBox::toggled, this, &LoginDialog::validate);
    // The dialog stays open until the provider has answered: OK does not close it.
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &LoginDialog::onAccept);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

LoginDialog::~LoginDialog() = default;

void LoginDialog::setProviderName(const QString &name)
{
    m_provider = name;
    m_ui->providerLabel->setText(tr("Provider: %1").arg(name));
}

void LoginDialog::setEmail(const QString &email)
{
    m_ui->emailEdit->setText(email);
}

void LoginDialog::setSignUp(bool signUp)
{
    m_ui->signUpCheck->setChecked(signUp);
}

QString LoginDialog::email() const
{
    return m_ui->emailEdit->text().trimmed();
}

QString LoginDialog::password() const
{
    return m_ui->passwordEdit->text();
}

bool LoginDialog::isSignUp() const
{
    return m_ui->signUpCheck->isChecked();
}

void LoginDialog::validate()
{
    // The same rules the provider applies, so most mistakes are caught before a round trip;
    // the provider still has the last word (showError).
    static const QRegularExpression emailShape(u"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"_s);
    QString hint;
    if (!email().isEmpty() && !emailShape.match(email()).hasMatch())
        hint = tr("This does not look like an e-mail address.");
    else if (isSignUp() && !password().isEmpty() && password().size() < minPasswordLength)
        hint = tr("The password needs at least %n characters.", nullptr, minPasswordLength);
    m_ui->hintLabel->setText(hint);
    const bool complete = emailShape.match(email()).hasMatch() && !password().isEmpty()
        && (!isSignUp() || password().size() >= minPasswordLength);
    QPushButton *ok = m_ui->buttonBox->button(QDialogButtonBox::Ok);
    ok->setEnabled(complete && !m_busy);
    ok->setText(isSignUp() ? tr("Sign up") : tr("Log in"));
    setWindowTitle(isSignUp() ? tr("Sign up to CardHour") : tr("Log in to CardHour"));
}

void LoginDialog::onAccept()
{
    if (!m_ui->buttonBox->button(QDialogButtonBox::Ok)->isEnabled())
        return;
    m_ui->errorLabel->clear();
    setBusy(true);
    Q_EMIT submitted(email(), password(), isSignUp());
}

void LoginDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_ui->emailEdit->setEnabled(!busy);
    m_ui->passwordEdit->setEnabled(!busy);
    m_ui->signUpCheck->setEnabled(!busy);
    if (busy)
        m_ui->errorLabel->setText(tr("Asking the provider…"));
    validate();
}

void LoginDialog::showError(const QString &message)
{
    setBusy(false);
    m_ui->errorLabel->setText(message);
}

void LoginDialog::setNote(const QString &note)
{
    m_note = note;
    m_ui->errorLabel->setText(note);
}

void LoginDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        if (!m_provider.isEmpty())
            setProviderName(m_provider);
        validate();
    }
    QDialog::changeEvent(event);
}

} // namespace cardhour::ui
