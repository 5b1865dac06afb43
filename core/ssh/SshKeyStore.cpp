#include "ssh/SshKeyStore.h"

#include "DataPaths.h"
#include "api/ProviderClient.h"
#include "session/SecretStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSysInfo>
#include <QThreadPool>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace cardhour::core {

void SshKeyReply::finish(bool ok, const SshKeyPair &key, const QString &error)
{
    m_ok = ok;
    m_key = key;
    m_error = error;
    Q_EMIT finished();
    deleteLater();
}

SshKeyStore::SshKeyStore(SecretStore *secrets, const QString &folder, QObject *parent)
    : QObject(parent), m_secrets(secrets),
      m_folder(folder.isEmpty() ? DataPaths::sshKeyDir() : folder)
{}

QString SshKeyStore::keychainKey(const SshKeyPair &key)
{
    return u"ssh-key-passphrase/"_s + key.fingerprintSha256();
}

bool SshKeyStore::ensureFolder(QString *error) const
{
    if (!QDir().mkpath(m_folder)) {
        *error = tr("Could not create the folder %1.").arg(m_folder);
        return false;
    }
    // Owner-only, also when the folder existed with wider permissions.
    if (!QFile::setPermissions(
            m_folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner)) {
        *error = tr("Could not make the folder %1 private.").arg(m_folder);
        return false;
    }
    return true;
}

QList<SshKeyStore::Entry> SshKeyStore::readIndex() const
{
    QList<Entry> entries;
    QFile file(QDir(m_folder).filePath(u"keys.json"_s));
    if (!file.open(QIODevice::ReadOnly))
        return entries;
    const QJsonArray array =
        QJsonDocument::fromJson(file.readAll()).object().value(u"keys"_s).toArray();
    for (const QJsonValue &value : array) {
        const QJsonObject o = value.toObject();
        QString privatePath = o.value(u"private_path"_s).toString();
        const bool generated = o.value(u"generated"_s).toBool();
        // A generated key lives in this folder, wherever the folder was when the index was
        // written (DataPaths::migrateOldLayout() moves it out of the old doubled
        // CardHour/CardHour).
        if (generated && !privatePath.isEmpty())
            privatePath = QDir(m_folder).filePath(QFileInfo(privatePath).fileName());
        entries.append({privatePath, generated});
    }
    return entries;
}

bool SshKeyStore::writeIndex(const QList<Entry> &entries, QString *error) const
{
    QJsonArray array;
    for (const Entry &e : entries)
        array.append(
            QJsonObject{{u"private_path"_s, e.privatePath}, {u"generated"_s, e.generated}});
    QSaveFile file(QDir(m_folder).filePath(u"keys.json"_s));
    if (!file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(QJsonObject{{u"keys"_s, array}}).toJson()) < 0
        || !file.commit()) {
        *error = tr("Could not save the list of keys in %1: %2").arg(m_folder, file.errorString());
        return false;
    }
    return true;
}

QList<SshKeyPair> SshKeyStore::keys() const
{
    QList<SshKeyPair> result;
    for (const Entry &e : readIndex()) {
        SshKeyPair key;
        QString ignored;
        // A key whose files were removed by hand is skipped, not an error.
        if (SshKeyPair::fromPublicKeyFile(e.privatePath + u".pub"_s, &key, &ignored))
            result.append(key);
    }
    return result;
}

SshKeyPair SshKeyStore::key(const QString &fingerprintSha256) const
{
    for (const SshKeyPair &k : keys())
        if (k.fingerprintSha256() == fingerprintSha256)
            return k;
    return {};
}

SshKeyReply *SshKeyStore::generate(const QString &name, const QString &passphrase)
{
    QString error;
    // File names from the user's label: letters, digits, - and _ only.
    QString base = name;
    base.replace(QRegularExpression(u"[^A-Za-z0-9_-]+"_s), u"-"_s);
    if (base.isEmpty() || base == u"-"_s)
        base = u"key"_s;
    base = u"id_ed25519_"_s + base;
    SshKeyPair key;
    if (ensureFolder(&error)) {
        QDir dir(m_folder);
        QString path = dir.filePath(base);
        for (int n = 2; QFile::exists(path) || QFile::exists(path + u".pub"_s); ++n)
            path = dir.filePath(base + u"_%1"_s.arg(n));
        SshKeyPair::generate(path, passphrase, name.isEmpty() ? u"cardhour"_s : name, &key, &error);
    }
    if (!key.isValid()) {
        auto *reply = new SshKeyReply(this);
        QTimer::singleShot(0, reply, [reply, error] { reply->finish(false, {}, error); });
        return reply;
    }
    return finishAdding(key, true, passphrase);
}

QString SshKeyStore::managedKeyName()
{
    QString host = QSysInfo::machineHostName();
    host.replace(QRegularExpression(u"[^A-Za-z0-9_-]+"_s), u"-"_s);
    return host.isEmpty() ? u"cardhour"_s : u"cardhour-"_s + host.left(40);
}

SshKeyReply *SshKeyStore::generateManaged(const QString &name)
{
    if (!m_secrets)
        return generate(name);
    // 256 random bits: nobody types it, the keychain hands it to the SSH code.
    QByteArray random(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(random.data()),
                                          random.size() / int(sizeof(quint32)));
    const QString passphrase = QString::fromLatin1(
        random.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    auto *reply = new SshKeyReply(this);
    SshKeyReply *protectedKey = generate(name, passphrase);
    connect(protectedKey, &SshKeyReply::finished, reply, [this, reply, protectedKey, name] {
        if (protectedKey->ok() || !protectedKey->m_keychainRefused) {
            reply->m_hasPassphrase = protectedKey->m_hasPassphrase;
            reply->finish(protectedKey->ok(), protectedKey->key(), protectedKey->error());
            return;
        }
        // No keychain to hold a passphrase (its files are gone already): a key without one,
        // protected like ~/.ssh keys are, by the folder's permissions.
        SshKeyReply *plainKey = generate(name);
        connect(plainKey, &SshKeyReply::finished, reply, [reply, plainKey] {
            reply->finish(plainKey->ok(), plainKey->key(), plainKey->error());
        });
    });
    return reply;
}

SshKeyReply *SshKeyStore::importPublicKey(const QString &publicPath, const QString &passphrase)
{
    QString error;
    SshKeyPair key;
    const bool ok = SshKeyPair::fromPublicKeyFile(publicPath, &key, &error)
        && key.checkPrivateKey(passphrase, &error) && ensureFolder(&error);
    if (!ok) {
        auto *reply = new SshKeyReply(this);
        QTimer::singleShot(0, reply, [reply, error] { reply->finish(false, {}, error); });
        return reply;
    }
    return finishAdding(key, false, passphrase);
}

SshKeyReply *SshKeyStore::finishAdding(const SshKeyPair &key, bool generated,
                                       const QString &passphrase)
{
    auto *reply = new SshKeyReply(this);
    reply->m_hasPassphrase = !passphrase.isEmpty();
    // Removes what generate() wrote when the key cannot be kept after all.
    const auto fail = [reply, key, generated](const QString &error) {
        if (generated) {
            QFile::remove(key.privatePath());
            QFile::remove(key.publicPath());
        }
        reply->finish(false, {}, error);
    };
    const auto record = [this, reply, key, generated, fail] {
        QList<Entry> entries = readIndex();
        const bool known = std::any_of(entries.cbegin(), entries.cend(), [&key](const Entry &e) {
            return e.privatePath == key.privatePath();
        });
        if (!known)
            entries.append({key.privatePath(), generated});
        QString error;
        if (!writeIndex(entries, &error)) {
            fail(error);
            return;
        }
        reply->finish(true, key, {});
    };
    if (passphrase.isEmpty()) {
        QTimer::singleShot(0, reply, record);
        return reply;
    }
    SecretReply *stored = m_secrets ? m_secrets->writeToken(keychainKey(key), passphrase) : nullptr;
    if (!stored) {
        reply->m_keychainRefused = true;
        QTimer::singleShot(0, reply,
                           [fail] { fail(tr("There is no keychain to hold the passphrase.")); });
        return reply;
    }
    connect(stored, &SecretReply::finished, reply, [reply, stored, record, fail] {
        if (stored->ok()) {
            record();
            return;
        }
        reply->m_keychainRefused = true;
        fail(tr("The passphrase could not be saved in the keychain, so the key was not added: "
                "%1")
                 .arg(stored->reason().isEmpty() ? tr("access was refused") : stored->reason()));
    });
    return reply;
}

SecretReply *SshKeyStore::passphrase(const SshKeyPair &key)
{
    return m_secrets ? m_secrets->readToken(keychainKey(key)) : nullptr;
}

void SshKeyStore::unlockAhead(const SshKeyPair &key)
{
    SecretReply *secret = passphrase(key);
    if (!secret || !unlocked(key).isEmpty())
        return; // without a passphrase there is no derivation to save
    connect(secret, &SecretReply::finished, this, [this, secret, key] {
        if (!secret->ok() || secret->secret().isEmpty())
            return;
        QThreadPool::globalInstance()->start(
            [unlocked = m_unlocked, key, passphrase = secret->secret()] {
                const QByteArray copy = key.unlockedCopy(passphrase);
                if (copy.isEmpty())
                    return;
                const QMutexLocker lock(&unlocked->mutex);
                unlocked->byPrivatePath.insert(key.privatePath(), copy);
            });
    });
}

QByteArray SshKeyStore::unlocked(const SshKeyPair &key) const
{
    const QMutexLocker lock(&m_unlocked->mutex);
    return m_unlocked->byPrivatePath.value(key.privatePath());
}

bool SshKeyStore::remove(const SshKeyPair &key, QString *error)
{
    QList<Entry> entries = readIndex();
    bool generated = false;
    for (qsizetype i = entries.size() - 1; i >= 0; --i) {
        if (entries.at(i).privatePath == key.privatePath()) {
            generated = entries.at(i).generated;
            entries.removeAt(i);
        }
    }
    if (!writeIndex(entries, error))
        return false;
    if (m_secrets)
        m_secrets->deleteToken(keychainKey(key)); // NotFound for keys without a passphrase: fine
    if (generated) {
        QFile::remove(key.privatePath());
        QFile::remove(key.publicPath());
    }
    return true;
}

Reply<SshKey> *SshKeyStore::upload(ProviderClient &client, const SshKeyPair &key,
                                   const QString &name)
{
    return client.addSshKey(name, key.publicKeyLine());
}

QStringList SshKeyStore::importCandidates(const QString &homeDir)
{
    const QDir dir(QDir(homeDir).filePath(u".ssh"_s));
    QStringList result;
    const QStringList names = dir.entryList({u"id_*.pub"_s}, QDir::Files, QDir::Name);
    for (const QString &name : names) {
        const QString path = dir.filePath(name);
        if (QFile::exists(path.chopped(4)))
            result.append(path);
    }
    return result;
}

} // namespace cardhour::core
