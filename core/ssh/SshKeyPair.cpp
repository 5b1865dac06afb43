#include "ssh/SshKeyPair.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <libssh/libssh.h>
#include <memory>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

struct KeyDeleter
{
    void operator()(ssh_key key) const { ssh_key_free(key); }
};
using KeyPtr = std::unique_ptr<std::remove_pointer_t<ssh_key>, KeyDeleter>;

// Never let libssh ask for a passphrase on a terminal: we always pass it ourselves.
int refuseKeyPassphrasePrompt(const char *, char *, size_t, int, int, void *)
{
    return -1;
}

QString publicLineOf(ssh_key key, const QString &comment)
{
    char *b64 = nullptr;
    if (ssh_pki_export_pubkey_base64(key, &b64) != SSH_OK)
        return {};
    QString line = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key))) + u' '
        + QString::fromLatin1(b64);
    ssh_string_free_char(b64);
    if (!comment.isEmpty())
        line += u' ' + comment;
    return line;
}

QString fingerprintOfKey(ssh_key key)
{
    unsigned char *hash = nullptr;
    size_t length = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) != 0)
        return {};
    const QByteArray digest(reinterpret_cast<const char *>(hash), qsizetype(length));
    ssh_clean_pubkey_hash(&hash);
    return u"SHA256:"_s + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

// Writes a new file that is owner-only from the moment it exists.
bool writeNewFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions,
                  QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, permissions)) {
        *error = SshKeyPair::tr("Could not create %1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.write(data) != data.size() || !file.flush()) {
        *error = SshKeyPair::tr("Could not write %1: %2").arg(path, file.errorString());
        file.remove();
        return false;
    }
    return true;
}

} // namespace

bool SshKeyPair::generate(const QString &privatePath, const QString &passphrase,
                          const QString &comment, SshKeyPair *out, QString *error)
{
    ssh_key raw = nullptr;
    if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &raw) != SSH_OK) {
        *error = tr("libssh could not generate an ed25519 key.");
        return false;
    }
    const KeyPtr key(raw);
    char *privateB64 = nullptr;
    const QByteArray pass = passphrase.toUtf8();
    if (ssh_pki_export_privkey_base64(key.get(), pass.isEmpty() ? nullptr : pass.constData(),
                                      nullptr, nullptr, &privateB64)
        != SSH_OK) {
        *error = tr("libssh could not export the new private key.");
        return false;
    }
    QByteArray privateText(privateB64);
    ssh_string_free_char(privateB64);
    if (!privateText.endsWith('\n'))
        privateText.append('\n');

    const QString publicLine = publicLineOf(key.get(), comment);
    if (publicLine.isEmpty()) {
        *error = tr("libssh could not export the new public key.");
        return false;
    }
    if (!writeNewFile(privatePath, privateText, QFileDevice::ReadOwner | QFileDevice::WriteOwner,
                      error))
        return false;
    if (!writeNewFile(privatePath + u".pub"_s, (publicLine + u'\n').toUtf8(),
                      QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                          | QFileDevice::ReadOther,
                      error)) {
        QFile::remove(privatePath);
        return false;
    }
    out->m_privatePath = privatePath;
    out->m_publicKeyLine = publicLine;
    out->m_fingerprint = fingerprintOfKey(key.get());
    return true;
}

bool SshKeyPair::fromPublicKeyFile(const QString &publicPath, SshKeyPair *out, QString *error)
{
    if (!publicPath.endsWith(u".pub"_s)) {
        *error = tr("%1 is not a public key file (its name does not end in .pub).").arg(publicPath);
        return false;
    }
    QFile file(publicPath);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("Could not read %1: %2").arg(publicPath, file.errorString());
        return false;
    }
    const QString line = QString::fromUtf8(file.read(64 * 1024)).trimmed();
    const QString fingerprint = fingerprintOfPublicKeyLine(line);
    if (fingerprint.isEmpty()) {
        *error = tr("%1 does not hold an OpenSSH public key.").arg(publicPath);
        return false;
    }
    const QString privatePath = publicPath.chopped(4);
    if (!QFileInfo(privatePath).isFile()) {
        *error =
            tr("The private key %1 that belongs to %2 is missing.").arg(privatePath, publicPath);
        return false;
    }
    out->m_privatePath = privatePath;
    out->m_publicKeyLine = line;
    out->m_fingerprint = fingerprint;
    return true;
}

ssh_key SshKeyPair::importPrivateKey(const QString &privatePath, const QString &passphrase)
{
    const QByteArray path = QFile::encodeName(privatePath);
    const QByteArray pass = passphrase.toUtf8();
    ssh_key raw = nullptr;
    if (ssh_pki_import_privkey_file(path.constData(), pass.isEmpty() ? nullptr : pass.constData(),
                                    refuseKeyPassphrasePrompt, nullptr, &raw)
        != SSH_OK)
        return nullptr;
    return raw;
}

ssh_key SshKeyPair::importUnlockedKey(const QByteArray &base64)
{
    ssh_key raw = nullptr;
    if (ssh_pki_import_privkey_base64(base64.constData(), nullptr, refuseKeyPassphrasePrompt,
                                      nullptr, &raw)
        != SSH_OK)
        return nullptr;
    return raw;
}

QByteArray SshKeyPair::unlockedCopy(const QString &passphrase) const
{
    ssh_key raw = importPrivateKey(m_privatePath, passphrase);
    if (!raw)
        return {};
    const KeyPtr key(raw);
    char *b64 = nullptr;
    if (ssh_pki_export_privkey_base64(key.get(), nullptr, nullptr, nullptr, &b64) != SSH_OK)
        return {};
    const QByteArray copy(b64);
    ssh_string_free_char(b64);
    return copy;
}

bool SshKeyPair::checkPrivateKey(const QString &passphrase, QString *error) const
{
    ssh_key raw = importPrivateKey(m_privatePath, passphrase);
    if (!raw) {
        *error = passphrase.isEmpty()
            ? tr("The private key %1 could not be read; it may need a passphrase.")
                  .arg(m_privatePath)
            : tr("The private key %1 could not be opened with this passphrase.").arg(m_privatePath);
        return false;
    }
    const KeyPtr key(raw);
    if (fingerprintOfKey(key.get()) != m_fingerprint) {
        *error = tr("The private key %1 does not belong to the public key %2.")
                     .arg(m_privatePath, publicPath());
        return false;
    }
    return true;
}

QString SshKeyPair::fingerprintOfPublicKeyLine(const QString &line)
{
    const QStringList parts = line.simplified().split(u' ');
    if (parts.size() < 2)
        return {};
    const enum ssh_keytypes_e type = ssh_key_type_from_name(parts.at(0).toLatin1().constData());
    if (type == SSH_KEYTYPE_UNKNOWN)
        return {};
    ssh_key raw = nullptr;
    if (ssh_pki_import_pubkey_base64(parts.at(1).toLatin1().constData(), type, &raw) != SSH_OK)
        return {};
    const KeyPtr key(raw);
    return fingerprintOfKey(key.get());
}

QString SshKeyPair::fingerprintOfBlob(const QByteArray &blob)
{
    const QByteArray digest = QCryptographicHash::hash(blob, QCryptographicHash::Sha256);
    return u"SHA256:"_s + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

QString SshKeyPair::type() const
{
    return m_publicKeyLine.section(u' ', 0, 0);
}

QString SshKeyPair::comment() const
{
    return m_publicKeyLine.section(u' ', 2);
}

} // namespace cardhour::core
