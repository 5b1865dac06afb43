#include "ssh/SshConfigWriter.h"

#include "DataPaths.h"
#include "ssh/HostKeyVerifier.h"
#include "ssh/SshConnection.h"
#include "ssh/SshKeyPair.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace cardhour::core {

namespace {

constexpr auto kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

bool readWhole(const QString &path, QByteArray *data, QString *error)
{
    QFile file(path);
    if (!file.exists()) {
        data->clear();
        return true;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = SshConfigWriter::tr("Could not read %1: %2").arg(path, file.errorString());
        return false;
    }
    *data = file.readAll();
    return true;
}

// Atomically replaces `path`, keeping the permissions of an existing file (else owner-only). A
// symbolic link (dotfile managers keep ~/.ssh/config in a repository) stays a link: its target
// is what gets replaced.
bool writeWhole(const QString &linkOrPath, const QByteArray &data, QString *error)
{
    const QFileInfo link(linkOrPath);
    const QString path = link.isSymLink() ? link.symLinkTarget() : linkOrPath;
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath())) {
        *error = SshConfigWriter::tr("Could not create the folder %1.").arg(info.absolutePath());
        return false;
    }
    const bool existed = info.exists();
    const QFileDevice::Permissions permissions =
        existed ? QFile::permissions(path) : QFileDevice::Permissions(kOwnerOnly);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = SshConfigWriter::tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    QFile::setPermissions(path, permissions);
    return true;
}

// Paths in ssh_config: quoted when they hold spaces.
QString configPath(const QString &path)
{
    return path.contains(u' ') ? u"\""_s + path + u"\""_s : path;
}

} // namespace

QString SshConfigWriter::defaultKnownHostsPath()
{
    return DataPaths::knownHostsPath();
}

QString SshConfigWriter::hostAlias(const QString &instanceName)
{
    QString name = instanceName;
    name.replace(QRegularExpression(u"[^A-Za-z0-9._-]+"_s), u"-"_s);
    return u"cardhour-"_s + (name.isEmpty() ? u"instance"_s : name);
}

QString SshConfigWriter::knownHostsName(const SshTarget &target)
{
    return target.port == 22 ? target.host : u"[%1]:%2"_s.arg(target.host).arg(target.port);
}

QString SshConfigWriter::beginMarker(const QString &alias)
{
    return u"# >>> %1: written by CardHour, replaced when you add it again >>>"_s.arg(alias);
}

QString SshConfigWriter::endMarker(const QString &alias)
{
    return u"# <<< %1 <<<"_s.arg(alias);
}

bool SshConfigWriter::pinHostKey(const QString &knownHostsPath, const SshTarget &target,
                                 QString *error)
{
    // Each writer checks the target itself: a line with a newline in it is a new directive.
    if (!target.isValid()) {
        *error = target.problem();
        return false;
    }
    const QString keyLine = target.hostKeyLine.simplified().section(u' ', 0, 1);
    const QString fingerprint = SshKeyPair::fingerprintOfPublicKeyLine(keyLine);
    if (fingerprint.isEmpty()) {
        *error = tr("The provider has not reported the host key of %1, so it cannot be pinned.")
                     .arg(target.instanceName);
        return false;
    }
    if (HostKeyVerifier::compare(target.expectedHostKeySha256, fingerprint)
        != HostKeyVerifier::Verdict::Match) {
        *error = tr("The host key of %1 (%2) does not match its fingerprint %3; it was not pinned.")
                     .arg(target.instanceName, fingerprint, target.expectedHostKeySha256);
        return false;
    }
    QByteArray existing;
    if (!readWhole(knownHostsPath, &existing, error))
        return false;
    const QByteArray name = knownHostsName(target).toUtf8();
    QByteArray out;
    for (const QByteArray &line : existing.split('\n')) {
        if (line.isEmpty() || line.split(' ').value(0) == name)
            continue; // the old entry for this address is replaced, not kept beside the new one
        out += line + '\n';
    }
    out += name + ' ' + keyLine.toUtf8() + '\n';
    return writeWhole(knownHostsPath, out, error);
}

QString SshConfigWriter::configBlock(const SshTarget &target, const QString &knownHostsPath)
{
    if (!target.isValid())
        return {};
    const QString alias = hostAlias(target.instanceName);
    QString block = beginMarker(alias) + u'\n';
    block += u"Host %1\n"_s.arg(alias);
    block += u"    HostName %1\n"_s.arg(target.host);
    block += u"    Port %1\n"_s.arg(target.port);
    block += u"    User %1\n"_s.arg(target.user);
    block += u"    IdentityFile %1\n"_s.arg(configPath(target.privateKeyPath));
    block += u"    IdentitiesOnly yes\n"_s;
    block += u"    UserKnownHostsFile %1\n"_s.arg(configPath(knownHostsPath));
    block += u"    StrictHostKeyChecking yes\n"_s;
    // Back to every host: the lines after this block mean what they meant before it.
    block += u"Match all\n"_s;
    block += endMarker(alias) + u'\n';
    return block;
}

bool SshConfigWriter::addToConfig(const QString &configPathName, const SshTarget &target,
                                  const QString &knownHostsPath, QString *error)
{
    if (!target.isValid()) {
        *error = target.problem();
        return false;
    }
    QByteArray config;
    if (!readWhole(configPathName, &config, error))
        return false;
    const QString alias = hostAlias(target.instanceName);
    const QByteArray block = configBlock(target, knownHostsPath).toUtf8();
    const QByteArray begin = beginMarker(alias).toUtf8();
    const QByteArray end = endMarker(alias).toUtf8() + '\n';
    const qsizetype from = config.indexOf(begin);
    const qsizetype to = from < 0 ? -1 : config.indexOf(end, from);
    if (from >= 0 && to >= 0)
        config.replace(from, to + end.size() - from, block);
    else
        config.prepend(block);
    QDir().mkpath(QFileInfo(configPathName).absolutePath());
    return writeWhole(configPathName, config, error);
}

bool SshConfigWriter::removeFromConfig(const QString &configPathName, const QString &instanceName,
                                       QString *error)
{
    QByteArray config;
    if (!readWhole(configPathName, &config, error))
        return false;
    const QString alias = hostAlias(instanceName);
    const QByteArray begin = beginMarker(alias).toUtf8();
    const QByteArray end = endMarker(alias).toUtf8() + '\n';
    const qsizetype from = config.indexOf(begin);
    const qsizetype to = from < 0 ? -1 : config.indexOf(end, from);
    if (from < 0 || to < 0)
        return true;
    config.remove(from, to + end.size() - from);
    return writeWhole(configPathName, config, error);
}

QStringList SshConfigWriter::sshArguments(const SshTarget &target, const QString &knownHostsPath)
{
    if (!target.isValid())
        return {};
    QStringList arguments;
    // Without a key of CardHour's (a copied command for a key kept elsewhere) ssh offers the
    // user's own; the host key is pinned either way.
    if (!target.privateKeyPath.isEmpty())
        arguments << u"-i"_s << target.privateKeyPath << u"-o"_s << u"IdentitiesOnly=yes"_s;
    arguments << u"-o"_s << u"UserKnownHostsFile="_s + knownHostsPath << u"-o"_s
              << u"StrictHostKeyChecking=yes"_s << u"-p"_s << QString::number(target.port)
              << u"%1@%2"_s.arg(target.user, target.host);
    return arguments;
}

QString SshConfigWriter::sshCommandLine(const SshTarget &target, const QString &knownHostsPath)
{
    if (!target.isValid())
        return {};
    QStringList words{u"ssh"_s};
    static const QRegularExpression plain(u"^[A-Za-z0-9_@%+=:,./-]+$"_s);
    for (const QString &arg : sshArguments(target, knownHostsPath))
        words.append(plain.match(arg).hasMatch() ? arg : SshConnection::shellQuote(arg));
    return words.join(u' ');
}

} // namespace cardhour::core
