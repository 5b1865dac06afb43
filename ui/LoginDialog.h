#pragma once

#include <QDialog>

#include <memory>

namespace Ui {
class LoginDialog;
}

namespace cardhour::ui {

// Log in or sign up. It checks the fields as they are typed (an e-mail address, a password of
// 8+ characters for a new account) and shows the provider's refusal in words; the asking is
// done by MainWindow through core::Session, which answers with setBusy(false) + showError() or
// by closing the dialog.
class LoginDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LoginDialog(QWidget *parent = nullptr);
    ~LoginDialog() override;

    void setProviderName(const QString &name);
    void setEmail(const QString &email);
    void setSignUp(bool signUp);
    QString email() const;
    QString password() const;
    bool isSignUp() const;

    // While the provider is asked, the fields are locked.
    void setBusy(bool busy);
    void showError(const QString &message);
    void setNote(const QString &note);

Q_SIGNALS:
    void submitted(const QString &email, const QString &password, bool signUp);

protected:
    void changeEvent(QEvent *event) override;

private:
    void validate();
    void onAccept();

    std::unique_ptr<Ui::LoginDialog> m_ui;
    QString m_provider;
    QString m_note;
    bool m_busy = false;
};

} // namespace cardhour::ui
