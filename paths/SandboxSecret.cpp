#include "SandboxSecret.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace cardhour {

namespace {
constexpr qsizetype kSecretBytes = 32;
constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions kOthers = QFileDevice::ReadGroup | QFileDevice::WriteGroup
    | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
    | QFileDevice::ExeOther;

QByteArray randomHex(qsizetype bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->generate(raw.begin(), raw.end());
    return raw.toHex();
}
} // namespace

QString SandboxSecret::filePath(const QString &dataDir)
{
    return QDir(dataDir).filePath(u"sandbox-secret"_s);
}

QByteArray SandboxSecret::create(const QString &dataDir, QString *error)
{
    const QString target = filePath(dataDir);
    const QByteArray secret = randomHex(kSecretBytes);
    // Created with owner-only permissions from the first byte (QSaveFile would create its
    // temporary file with the umask's, readable by others until a chmod).
    const QString temporary = target + u".new"_s;
    QFile::remove(temporary);
    QFile file(temporary);
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, kOwnerOnly)
        || file.write(secret) != secret.size() || !file.flush()) {
        *error = u"cannot write %1: %2"_s.arg(temporary, file.errorString());
        file.remove();
        return {};
    }
    file.close();
    QFile::remove(target);
    if (!QFile::rename(temporary, target)) {
        *error = u"cannot move %1 to %2"_s.arg(temporary, target);
        QFile::remove(temporary);
        return {};
    }
    return secret;
}

std::optional<QByteArray> SandboxSecret::read(const QString &dataDir, QString *error)
{
    const QString path = filePath(dataDir);
    const QFileInfo info(path);
    if (!info.exists() || !info.isFile()) {
        *error = u"%1 does not exist"_s.arg(path);
        return std::nullopt;
    }
#ifdef Q_OS_UNIX
    // A file others could read or write proves nothing: another user may have written it.
    if (info.ownerId() != ::geteuid()) {
        *error = u"%1 belongs to another user"_s.arg(path);
        return std::nullopt;
    }
    if (info.permissions() & kOthers) {
        *error = u"%1 can be read or written by other users"_s.arg(path);
        return std::nullopt;
    }
#endif
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read %1: %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray secret = file.read(4 * kSecretBytes).trimmed();
    if (secret.size() != 2 * kSecretBytes) {
        *error = u"%1 does not hold a secret"_s.arg(path);
        return std::nullopt;
    }
    return secret;
}

QByteArray SandboxSecret::newNonce()
{
    return randomHex(32);
}

bool SandboxSecret::isValidNonce(const QByteArray &nonce)
{
    if (nonce.size() < 32 || nonce.size() > 128)
        return false;
    for (const char c : nonce) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    }
    return true;
}

QByteArray SandboxSecret::proof(const QByteArray &secret, const QByteArray &nonce, quint16 port)
{
    const QByteArray message =
        "cardhour-sandbox-proof/v1\n"_ba + nonce + '\n' + QByteArray::number(port);
    return QMessageAuthenticationCode::hash(message, secret, QCryptographicHash::Sha256).toHex();
}

bool SandboxSecret::proofsEqual(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return difference == 0;
}

} // namespace cardhour
