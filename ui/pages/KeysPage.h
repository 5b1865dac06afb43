#pragma once

#include "api/Models.h"
#include "ssh/SshKeyPair.h"

#include <QList>
#include <QWidget>

#include <memory>

namespace Ui {
class KeysPage;
}

namespace cardhour::core {
class ClientSession;
class SshKeyStore;
} // namespace cardhour::core

namespace cardhour::ui {

// The Keys page: the SSH keys on this computer (SshKeyStore) next to those the provider has:
// generate an ed25519 key (its passphrase goes to the keychain), import ~/.ssh/id_*.pub, upload
// to the provider, forget. keysChanged() after any change, so the launch dialog can list them
// again. It lists afresh whenever it is shown and, while shown, whenever a key is uploaded
// through the session (the launch dialog makes and uploads one for a user who has none).
// SshKeysDialog shows the same page in a dialog (from the launch dialog).
class KeysPage : public QWidget
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive the page.
    KeysPage(core::SshKeyStore *keys, core::ClientSession *session, QWidget *parent = nullptr);
    ~KeysPage() override;

    void reload(); // the local list now, the provider's when it answers
    QString statusText() const;
    // For "Import": where ~/.ssh is (tests point it elsewhere).
    void setHomeDir(const QString &dir) { m_homeDir = dir; }

Q_SIGNALS:
    void keysChanged();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void fill();
    void generate();
    void importKey();
    void upload();
    void removeKey();
    core::SshKeyPair selectedKey() const;
    void setStatus(const QString &text);

    std::unique_ptr<Ui::KeysPage> m_ui;
    core::SshKeyStore *m_keys;
    core::ClientSession *m_session;
    QList<core::SshKey> m_providerKeys;
    QString m_homeDir;
};

} // namespace cardhour::ui
