#pragma once

#include <QWidget>

#include <memory>

namespace Ui {
class AccountPage;
}

namespace cardhour::ui {

// Log in or sign up, as a page of the main window (after the connect step, before the
// dashboard). Two choices at the top, "new here" (sign-up, with what the provider's trial
// credit gives) and "I have an account"; the window picks sign-up for a new user and log-in
// for one whose e-mail address it remembers. It checks the fields as they are typed (an e-mail
// address, for a new account a password of 8+ characters typed twice alike) and shows the
// provider's refusal in words; the asking is done by MainWindow through core::Session, which
// answers with showError() or by showing the dashboard. Enter submits; "Change provider" goes back
// to the connect step.
class AccountPage : public QWidget
{
    Q_OBJECT
public:
    explicit AccountPage(QWidget *parent = nullptr);
    ~AccountPage() override;

    // Where the account is: the provider as the window names it.
    void setProviderName(const QString &name);
    void setEmail(const QString &email);
    void setSignUp(bool signUp);
    // The credit the provider grants a new account (micro-yuan), said under the sign-up choice;
    // negative: the provider does not say, and nothing is said.
    void setTrialCredit(qint64 micros);
    QString email() const;
    QString password() const;
    bool isSignUp() const;

    // While the provider is asked, the fields are locked and a busy bar runs.
    void setBusy(bool busy);
    bool isBusy() const { return m_busy; }
    // The provider's refusal: the fields unlock, the message stays until the next try.
    void showError(const QString &message);
    // Why log-in is asked for (a session that ended), shown until the user submits.
    void setNote(const QString &note);
    // After a log-in or sign-up: no password is kept in the page.
    void clearPasswords();
    // Keyboard focus on the first field still empty (the submit button when none is).
    void focusFirstEmpty();

Q_SIGNALS:
    void submitted(const QString &email, const QString &password, bool signUp);
    void backRequested();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void validate();
    void submit();
    void retranslate();

    std::unique_ptr<Ui::AccountPage> m_ui;
    QString m_provider;
    qint64 m_trialCreditMicros = -1;
    bool m_busy = false;
};

} // namespace cardhour::ui
