#pragma once

#include <QDialog>

namespace cardhour::core {
class ClientSession;
class SshKeyStore;
} // namespace cardhour::core

namespace cardhour::ui {

class KeysPage;

// The Keys page in a dialog of its own, for where the window's pages cannot be reached (the
// launch dialog's "Manage keys…").
class SshKeysDialog : public QDialog
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive the dialog.
    SshKeysDialog(core::SshKeyStore *keys, core::ClientSession *session, QWidget *parent = nullptr);

    KeysPage *page() const { return m_page; }
    void reload();
    QString statusText() const;
    void setHomeDir(const QString &dir);

Q_SIGNALS:
    void keysChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    KeysPage *m_page;
};

} // namespace cardhour::ui
