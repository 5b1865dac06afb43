#include "InstanceFiles.h"

#include "SshHandles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>

#include <cerrno>
#include <cstring>
#include <libssh/libssh.h>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

// The boot files are resources of a static library: registered before their first read.
// (Q_INIT_RESOURCE must be used outside any namespace.)
static void initBootFiles()
{
    Q_INIT_RESOURCE(boot);
}

namespace cardhour::sim {

namespace {

const QString kHostKey = u"ssh_host_ed25519_key"_s;
const QString kAuthorizedKeys = u"authorized_keys"_s;
const QString kAppToken = u"app_token"_s;
const QString kEntrypoint = u"cardhour-entrypoint"_s;
const QString kSshdConfig = u"sshd_config"_s;
const QString kHardwareReport = u"cardhour-hardware-report"_s;
const QString kStartId = u"start_id"_s;

[[noreturn]] void fail(const QString &message)
{
    throw std::runtime_error(message.toStdString());
}

void setMode(const QString &path, mode_t mode)
{
    if (::chmod(QFile::encodeName(path).constData(), mode) != 0)
        fail(u"cannot set the permissions of %1: %2"_s.arg(
            path, QString::fromLocal8Bit(std::strerror(errno))));
}

// Writes `data` to `path` atomically (temporary file + rename) and leaves it with `mode`.
void writeAtomically(const QString &path, const QByteArray &data, mode_t mode)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        fail(u"cannot write %1: %2"_s.arg(path, file.errorString()));
    // On the temporary file, before anything is written into it.
    file.setPermissions(mode == 0600 ? (QFileDevice::ReadOwner | QFileDevice::WriteOwner)
                                     : (QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                        | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    if (file.write(data) != data.size() || !file.commit())
        fail(u"cannot write %1: %2"_s.arg(path, file.errorString()));
    setMode(path, mode);
}

void makeDir(const QString &path)
{
    if (!QDir().mkpath(path))
        fail(u"cannot create the directory %1"_s.arg(path));
    const QFileInfo info(path);
    if (info.isSymLink() || !info.isDir())
        fail(u"%1 is not a directory"_s.arg(path));
    setMode(path, 0700);
}

} // namespace

bool InstanceFiles::isSafeId(const QString &instanceId)
{
    if (instanceId.isEmpty() || instanceId.size() > 128 || instanceId.startsWith(u'.'))
        return false;
    for (const QChar c : instanceId) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z')
            || (u >= u'0' && u <= u'9') || u == u'-' || u == u'_' || u == u'.';
        if (!ok)
            return false;
    }
    return true;
}

QString InstanceFiles::instanceDirFor(const QString &dataDir, const QString &instanceId)
{
    return QDir(QDir(dataDir).absolutePath()).filePath(u"instances/"_s + instanceId);
}

QString InstanceFiles::sha256Fingerprint(const QByteArray &publicKeyBlob)
{
    return u"SHA256:"_s
        + QString::fromLatin1(QCryptographicHash::hash(publicKeyBlob, QCryptographicHash::Sha256)
                                  .toBase64(QByteArray::OmitTrailingEquals));
}

QString InstanceFiles::hostKeyPath() const
{
    return m_sshDir + u'/' + kHostKey;
}

QString InstanceFiles::hostPublicKeyPath() const
{
    return hostKeyPath() + u".pub"_s;
}

QString InstanceFiles::authorizedKeysPath() const
{
    return m_sshDir + u'/' + kAuthorizedKeys;
}

InstanceFiles InstanceFiles::prepare(const QString &dataDir, const QString &instanceId)
{
    if (dataDir.isEmpty())
        fail(u"no data directory for instance files"_s);
    if (!isSafeId(instanceId))
        fail(u"unsafe instance id \"%1\""_s.arg(instanceId.left(64)));

    InstanceFiles files;
    files.m_instanceId = instanceId;
    files.m_instanceDir = instanceDirFor(dataDir, instanceId);
    files.m_sshDir = files.m_instanceDir + u"/ssh"_s;
    makeDir(files.m_instanceDir);
    makeDir(files.m_sshDir);

    const QString keyPath = files.hostKeyPath();
    const QByteArray keyPathBytes = QFile::encodeName(keyPath);
    SshKeyPtr key;
    const QFileInfo keyInfo(keyPath);
    if (keyInfo.exists() || keyInfo.isSymLink()) {
        // Made before: the instance keeps its host key for life.
        if (keyInfo.isSymLink() || !keyInfo.isFile())
            fail(u"%1 is not a regular file"_s.arg(keyPath));
        ssh_key raw = nullptr;
        if (ssh_pki_import_privkey_file(keyPathBytes.constData(), nullptr, nullptr, nullptr, &raw)
            != SSH_OK)
            fail(u"cannot read the host key %1 (delete it to make a new one)"_s.arg(keyPath));
        key.reset(raw);
        if (ssh_key_type(key.get()) != SSH_KEYTYPE_ED25519)
            fail(u"the host key %1 is not an Ed25519 key"_s.arg(keyPath));
        setMode(keyPath, 0600);
    } else {
        ssh_key raw = nullptr;
        if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &raw) != SSH_OK)
            fail(u"cannot generate an Ed25519 host key"_s);
        key.reset(raw);
        char *pem = nullptr;
        if (ssh_pki_export_privkey_base64(key.get(), nullptr, nullptr, nullptr, &pem) != SSH_OK
            || !pem)
            fail(u"cannot export the host key"_s);
        const SshChars pemGuard(pem);
        QByteArray data(pem);
        if (!data.endsWith('\n'))
            data.append('\n');
        writeAtomically(keyPath, data, 0600);
    }

    ssh_key rawPub = nullptr;
    if (ssh_pki_export_privkey_to_pubkey(key.get(), &rawPub) != SSH_OK)
        fail(u"cannot derive the public host key"_s);
    const SshKeyPtr pub(rawPub);
    char *b64 = nullptr;
    if (ssh_pki_export_pubkey_base64(pub.get(), &b64) != SSH_OK || !b64)
        fail(u"cannot export the public host key"_s);
    const SshChars b64Guard(b64);
    const QByteArray base64(b64);
    files.m_publicKeyLine = u"ssh-ed25519 "_s + QString::fromLatin1(base64);
    files.m_hostKeySha256 = sha256Fingerprint(QByteArray::fromBase64(base64));

    // The .pub file always matches the private key (rewritten if missing or stale).
    const QByteArray pubLine =
        "ssh-ed25519 "_ba + base64 + " cardhour-"_ba + instanceId.toLatin1() + '\n';
    QFile pubFile(files.hostPublicKeyPath());
    QByteArray existing;
    if (pubFile.open(QIODevice::ReadOnly))
        existing = pubFile.readAll();
    pubFile.close();
    if (existing != pubLine)
        writeAtomically(files.hostPublicKeyPath(), pubLine, 0644);

    if (!QFileInfo::exists(files.authorizedKeysPath()))
        files.writeAuthorizedKeys({});
    return files;
}

void InstanceFiles::writeAuthorizedKeys(const QStringList &lines) const
{
    writeAuthorizedKeysTo(m_sshDir, lines);
}

void InstanceFiles::writeAuthorizedKeysTo(const QString &sshDir, const QStringList &lines)
{
    QByteArray data;
    for (const QString &line : lines) {
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.contains(u'\n') || trimmed.contains(u'\r'))
            continue;
        data += trimmed.toUtf8();
        data += '\n';
    }
    writeAtomically(sshDir + u'/' + kAuthorizedKeys, data, 0600);
}

void InstanceFiles::writeBootFilesTo(const QString &sshDir, const QString &appToken)
{
    static const bool registered = (initBootFiles(), true);
    Q_UNUSED(registered);
    for (const auto &[name, mode] :
         {std::pair{kEntrypoint, mode_t(0755)}, std::pair{kHardwareReport, mode_t(0755)},
          std::pair{kSshdConfig, mode_t(0644)}}) {
        QFile source(u":/boot/"_s + name);
        if (!source.open(QIODevice::ReadOnly))
            fail(u"the built-in boot file %1 is missing"_s.arg(name));
        writeAtomically(sshDir + u'/' + name, source.readAll(), mode);
    }
    if (appToken.contains(u'\n') || appToken.contains(u'\r'))
        fail(u"an app token holds a line break"_s);
    writeAtomically(sshDir + u'/' + kAppToken, appToken.toUtf8() + '\n', 0600);
    // Names this start in the box's hardware report: not a secret, only new each time.
    writeAtomically(sshDir + u'/' + kStartId,
                    QByteArray::number(QRandomGenerator::system()->generate64(), 16) + '\n', 0644);
}

QString InstanceFiles::startIdIn(const QString &sshDir)
{
    QFile file(sshDir + u'/' + kStartId);
    if (sshDir.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(file.readLine(64)).trimmed();
}

bool InstanceFiles::remove(const QString &dataDir, const QString &instanceId)
{
    if (dataDir.isEmpty() || !isSafeId(instanceId))
        return false;
    QDir dir(instanceDirFor(dataDir, instanceId));
    return !dir.exists() || dir.removeRecursively();
}

bool InstanceFiles::remove() const
{
    QDir dir(m_instanceDir);
    return !dir.exists() || dir.removeRecursively();
}

} // namespace cardhour::sim
