#pragma once

#include "api/ApiReply.h"
#include "api/Models.h"
#include "ssh/SshKeyPair.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QString>

#include <memory>

namespace cardhour::core {

class ProviderClient;
class SecretReply;
class SecretStore;

// The result of generating or importing a key: finishes once, asynchronously (the passphrase
// goes to the keychain first), then deletes itself.
class SshKeyReply : public QObject
{
    Q_OBJECT
public:
    bool ok() const { return m_ok; }
    SshKeyPair key() const { return m_key; }
    QString error() const { return m_error; } // translated, for the user
    // Whether the key has a passphrase (kept in the keychain).
    bool hasPassphrase() const { return m_hasPassphrase; }

Q_SIGNALS:
    void finished();

private:
    friend class SshKeyStore;
    explicit SshKeyReply(QObject *parent) : QObject(parent) {}
    void finish(bool ok, const SshKeyPair &key, const QString &error);

    bool m_ok = false;
    bool m_hasPassphrase = false;
    bool m_keychainRefused = false; // the key was fine, the keychain did not take its passphrase
    SshKeyPair m_key;
    QString m_error;
};

// The user's SSH keys: those CardHour generated (in `folder`, 0700, private keys 0600) and those
// imported from ~/.ssh (left in place; only their paths are remembered, in folder/keys.json).
// A key's passphrase is held in the OS keychain through SecretStore, never on disk: a key with a
// passphrase cannot be added while the keychain is unavailable.
class SshKeyStore : public QObject
{
    Q_OBJECT
public:
    // `folder`: where generated keys and the index live (default: DataPaths::sshKeyDir()).
    explicit SshKeyStore(SecretStore *secrets, const QString &folder = {},
                         QObject *parent = nullptr);

    QString folder() const { return m_folder; }
    QList<SshKeyPair> keys() const; // generated and imported, in the order they were added
    // The key with this fingerprint, or an invalid one.
    SshKeyPair key(const QString &fingerprintSha256) const;

    SshKeyReply *generate(const QString &name, const QString &passphrase = {});
    // A key CardHour manages for the user (the first launch makes one): ed25519 with a random
    // passphrase kept in the keychain when the keychain takes it, else without a passphrase.
    SshKeyReply *generateManaged(const QString &name);
    // The name such a key gets, here and at the provider ("cardhour-HOSTNAME"): says where it
    // lives. The desktop client's first launch and cardhourctl launch use it alike.
    static QString managedKeyName();
    SshKeyReply *importPublicKey(const QString &publicPath, const QString &passphrase = {});
    // The passphrase kept for this key (NotFound: the key has none); null without a SecretStore.
    SecretReply *passphrase(const SshKeyPair &key);
    // Reads the key's passphrase and opens the key on a worker thread, kept in memory (as an
    // agent keeps keys) for unlocked(): a terminal to a host just launched with it then skips
    // the passphrase's key derivation (about 0.2 s), which runs while the host starts.
    void unlockAhead(const SshKeyPair &key);
    // The key without its passphrase once unlockAhead() has opened it; empty before.
    QByteArray unlocked(const SshKeyPair &key) const;
    // Forgets a key: removes its keychain entry, and its files when CardHour generated it.
    bool remove(const SshKeyPair &key, QString *error);

    // POST /v1/ssh-keys with the key's public line.
    static Reply<SshKey> *upload(ProviderClient &client, const SshKeyPair &key,
                                 const QString &name);
    // The ~/.ssh/id_*.pub files that have their private key next to them.
    static QStringList importCandidates(const QString &homeDir);
    static QString keychainKey(const SshKeyPair &key);

private:
    struct Entry
    {
        QString privatePath;
        bool generated = false;
    };
    QList<Entry> readIndex() const;
    bool writeIndex(const QList<Entry> &entries, QString *error) const;
    bool ensureFolder(QString *error) const;
    SshKeyReply *finishAdding(const SshKeyPair &key, bool generated, const QString &passphrase);

    SecretStore *m_secrets;
    QString m_folder;
    // Written by unlockAhead()'s worker, read here: shared, so that the worker may finish after
    // the store is gone.
    struct Unlocked
    {
        mutable QMutex mutex;
        QHash<QString, QByteArray> byPrivatePath;
    };
    std::shared_ptr<Unlocked> m_unlocked = std::make_shared<Unlocked>();
};

} // namespace cardhour::core
