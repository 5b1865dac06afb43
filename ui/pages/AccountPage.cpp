#include "AccountPage.h"

#include "Format.h"
#include "StateStyle.h"
#include "theme/Design.h"
#include "ui_AccountPage.h"

#include <QEvent>
#include <QPushButton>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace cardhour::ui {

namespace {
constexpr int minPasswordLength = 8; // the provider's rule (weak_password below it)
}

AccountPage::AccountPage(QWidget *parent)
    : QWidget(parent), m_ui(std::make_unique<Ui::AccountPage>())
{
    m_ui->setupUi(this);
    setObjectName(u"accountPage"_s);
    StateStyle::showAsError(m_ui->errorLabel);
    m_ui->hintLabel->setForegroundRole(QPalette::PlaceholderText);
    // A column of readable width in the middle of the window, as on the connect step.
    m_ui->formBox->setMinimumWidth(420);
    m_ui->formBox->setMaximumWidth(560);
    m_ui->outerLayout->setAlignment(m_ui->formBox, Qt::AlignHCenter);
    m_ui->submitButton->setMinimumWidth(140);
    Design::setPrimary(m_ui->submitButton);
    Design::setTextRole(m_ui->titleLabel, TextRole::PageTitle);
    for (QLineEdit *edit : {m_ui->emailEdit, m_ui->passwordEdit, m_ui->confirmEdit}) {
        connect(edit, &QLineEdit::textChanged, this, &AccountPage::validate);
        connect(edit, &QLineEdit::returnPressed, this, &AccountPage::submit);
    }
    connect(m_ui->signUpRadio, &QRadioButton::toggled, this, [this] {
        validate();
        focusFirstEmpty();
    });
    connect(m_ui->submitButton, &QPushButton::clicked, this, &AccountPage::submit);
    connect(m_ui->backButton, &QPushButton::clicked, this, &AccountPage::backRequested);
    m_ui->errorLabel->hide();
    retranslate();
}

AccountPage::~AccountPage() = default;

void AccountPage::setProviderName(const QString &name)
{
    m_provider = name;
    m_ui->providerLabel->setText(tr("Provider: %1").arg(name));
}

void AccountPage::setEmail(const QString &email)
{
    m_ui->emailEdit->setText(email);
}

void AccountPage::setSignUp(bool signUp)
{
    (signUp ? m_ui->signUpRadio : m_ui->logInRadio)->setChecked(true);
}

void AccountPage::setTrialCredit(qint64 micros)
{
    m_trialCreditMicros = micros;
    validate();
}

QString AccountPage::email() const
{
    return m_ui->emailEdit->text().trimmed();
}

QString AccountPage::password() const
{
    return m_ui->passwordEdit->text();
}

bool AccountPage::isSignUp() const
{
    return m_ui->signUpRadio->isChecked();
}

void AccountPage::validate()
{
    // The same rules the provider applies, so most mistakes are caught before a round trip;
    // the provider still has the last word (showError).
    static const QRegularExpression emailShape(u"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"_s);
    const bool signUp = isSignUp();
    const QString confirm = m_ui->confirmEdit->text();
    QString hint;
    if (!email().isEmpty() && !emailShape.match(email()).hasMatch())
        hint = tr("This does not look like an e-mail address.");
    else if (signUp && !password().isEmpty() && password().size() < minPasswordLength)
        hint = tr("The password needs at least %n characters.", nullptr, minPasswordLength);
    else if (signUp && !confirm.isEmpty() && confirm != password())
        hint = tr("The two passwords differ.");
    m_ui->hintLabel->setText(hint);
    m_ui->hintLabel->setVisible(!hint.isEmpty());
    const bool complete = emailShape.match(email()).hasMatch() && !password().isEmpty()
        && (!signUp || (password().size() >= minPasswordLength && confirm == password()));
    m_ui->confirmLabel->setVisible(signUp);
    m_ui->confirmEdit->setVisible(signUp);
    m_ui->submitButton->setEnabled(complete && !m_busy);
    m_ui->submitButton->setText(signUp ? tr("Sign up") : tr("Log in"));
    m_ui->submitButton->setAccessibleName(m_ui->submitButton->text());
    m_ui->titleLabel->setText(signUp ? tr("Create your CardHour account")
                                     : tr("Log in to CardHour"));
    // The provider's own figure (its /v1/health), never one written here.
    m_ui->trialLabel->setText(
        m_trialCreditMicros < 0
            ? QString()
            : tr("A new account starts with %1 of trial credit from this provider, to spend "
                 "on GPU hosts before you top up.")
                  .arg(Format::money(m_trialCreditMicros)));
    m_ui->trialLabel->setVisible(signUp && m_trialCreditMicros >= 0);
}

void AccountPage::submit()
{
    if (m_busy)
        return;
    if (!m_ui->submitButton->isEnabled()) {
        focusFirstEmpty(); // Enter on an unfinished form: go where something is missing
        return;
    }
    m_ui->errorLabel->clear();
    setBusy(true);
    Q_EMIT submitted(email(), password(), isSignUp());
}

void AccountPage::setBusy(bool busy)
{
    m_busy = busy;
    QWidget *const fields[] = {m_ui->emailEdit, m_ui->passwordEdit, m_ui->confirmEdit,
                               m_ui->signUpRadio, m_ui->logInRadio};
    for (QWidget *field : fields)
        field->setEnabled(!busy);
    m_ui->busyBar->setVisible(busy);
    if (busy)
        m_ui->errorLabel->setText(tr("Asking the provider…"));
    m_ui->errorLabel->setVisible(!m_ui->errorLabel->text().isEmpty());
    validate();
}

void AccountPage::showError(const QString &message)
{
    setBusy(false);
    m_ui->errorLabel->setText(message);
    m_ui->errorLabel->setVisible(!message.isEmpty());
    focusFirstEmpty();
}

void AccountPage::setNote(const QString &note)
{
    m_ui->errorLabel->setText(note);
    m_ui->errorLabel->setVisible(!note.isEmpty());
}

void AccountPage::clearPasswords()
{
    m_ui->passwordEdit->clear();
    m_ui->confirmEdit->clear();
}

void AccountPage::focusFirstEmpty()
{
    if (m_busy || !isVisible())
        return; // a hidden page takes no focus from the page on screen
    QWidget *target = m_ui->submitButton;
    if (email().isEmpty())
        target = m_ui->emailEdit;
    else if (password().isEmpty())
        target = m_ui->passwordEdit;
    else if (isSignUp() && m_ui->confirmEdit->text().isEmpty())
        target = m_ui->confirmEdit;
    target->setFocus(Qt::OtherFocusReason);
}

void AccountPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    focusFirstEmpty();
}

void AccountPage::retranslate()
{
    m_ui->emailEdit->setAccessibleName(tr("E-mail address"));
    m_ui->passwordEdit->setAccessibleName(tr("Password"));
    m_ui->confirmEdit->setAccessibleName(tr("Repeat the password"));
    m_ui->signUpRadio->setAccessibleName(tr("Create an account"));
    m_ui->logInRadio->setAccessibleName(tr("Log in to an account"));
    m_ui->trialLabel->setAccessibleName(tr("Trial credit"));
    m_ui->backButton->setAccessibleName(tr("Change provider"));
    m_ui->backButton->setToolTip(tr("Back to the choice of provider"));
    m_ui->providerLabel->setAccessibleName(tr("Provider"));
    m_ui->errorLabel->setAccessibleName(tr("What the provider said"));
    m_ui->busyBar->setAccessibleName(tr("Asking the provider"));
    if (!m_provider.isEmpty())
        setProviderName(m_provider);
    validate();
}

void AccountPage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        const QString error = m_ui->errorLabel->text();
        m_ui->retranslateUi(this);
        m_ui->errorLabel->setText(error); // the provider's words are not re-translated
        retranslate();
    }
    QWidget::changeEvent(event);
}

} // namespace cardhour::ui
