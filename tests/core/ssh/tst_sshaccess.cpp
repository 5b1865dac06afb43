// SshKeyChoice and SshAccess: which local key opens an instance, and the one path by which a
// provider's host key reaches CardHour's known_hosts and every OpenSSH command (checked against
// host_key_sha256 first; a tampered key is refused and named, never trusted on first use).
#include "SshTestSupport.h"
#include "api/Models.h"
#include "ssh/SshAccess.h"
#include "ssh/SshKeyChoice.h"
#include "ssh/SshKeyPair.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using namespace cardhour::test;

namespace {

Instance running()
{
    Instance i;
    i.id = u"i-1"_s;
    i.name = u"train-1"_s;
    i.state = InstanceState::Running;
    i.sshKeyIds = {u"k-1"_s};
    SshEndpoint ssh;
    ssh.host = u"127.0.0.1"_s;
    ssh.port = 40022;
    ssh.user = u"root"_s;
    ssh.hostKey = kHostKey;
    ssh.hostKeySha256 = SshKeyPair::fingerprintOfPublicKeyLine(kHostKey);
    i.ssh = ssh;
    return i;
}

} // namespace

class TestSshAccess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void choosesTheLocalKeyTheInstanceAccepts();
    void namesTheMissingKey();
    void launchedWithoutKey();
    void pinsTheVerifiedHostKey();
    void copiedCommandWithoutLocalKey();
    void tamperedHostKeyIsRefusedAndNamed();
    void unreportedHostKeyIsNotTrusted();
    void noAddress();

private:
    QTemporaryDir m_dir;
    SshKeyPair m_local;
    SshKey m_providerKey;
};

void TestSshAccess::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(SshKeyPair::generate(m_dir.filePath(u"id_ed25519"_s), {}, u"test"_s, &m_local, &error),
             qPrintable(error));
    m_providerKey.id = u"k-1"_s;
    m_providerKey.name = u"laptop"_s;
    m_providerKey.publicKey = m_local.publicKeyLine();
    m_providerKey.fingerprintSha256 = m_local.fingerprintSha256();
}

void TestSshAccess::choosesTheLocalKeyTheInstanceAccepts()
{
    Instance i = running();
    SshKey other;
    other.id = u"k-0"_s;
    other.name = u"desktop"_s;
    other.fingerprintSha256 = SshKeyPair::fingerprintOfPublicKeyLine(kOtherHostKey);
    i.sshKeyIds = {u"k-0"_s, u"k-1"_s};
    const SshKeyChoice choice = SshKeyChoice::choose(i, {other, m_providerKey}, {m_local});
    QVERIFY(choice.key.isValid());
    QCOMPARE(choice.key.fingerprintSha256(), m_local.fingerprintSha256());
    QVERIFY(choice.missing.isEmpty());
}

void TestSshAccess::namesTheMissingKey()
{
    Instance i = running();
    i.sshKeyIds = {u"k-1"_s, u"k-gone"_s};
    const SshKeyChoice choice = SshKeyChoice::choose(i, {m_providerKey}, {});
    QVERIFY(!choice.key.isValid());
    QVERIFY2(choice.missing.contains(u"“laptop” (%1)"_s.arg(m_local.fingerprintSha256())),
             qPrintable(choice.missing));
    QVERIFY2(choice.missing.contains(u"key k-gone (no longer in your account)"_s),
             qPrintable(choice.missing));
    QVERIFY(choice.missing.contains(u"“train-1” accepts no other key"_s));

    // The terminal and ~/.ssh/config need the key: the same sentence comes back, nothing pinned.
    const QString knownHosts = m_dir.filePath(u"missing_known_hosts"_s);
    const SshAccess access = SshAccess::resolve(i, {m_providerKey}, {}, knownHosts);
    QCOMPARE(access.error, choice.missing);
    QVERIFY(!access.target.isValid());
    QVERIFY(!QFile::exists(knownHosts));
}

void TestSshAccess::launchedWithoutKey()
{
    Instance i = running();
    i.sshKeyIds.clear();
    const SshKeyChoice choice = SshKeyChoice::choose(i, {m_providerKey}, {m_local});
    QVERIFY(!choice.key.isValid());
    QVERIFY2(choice.missing.contains(u"launched without an SSH key"_s), qPrintable(choice.missing));
}

void TestSshAccess::pinsTheVerifiedHostKey()
{
    const QString knownHosts = m_dir.filePath(u"pinned_known_hosts"_s);
    const Instance i = running();
    const SshAccess access = SshAccess::resolve(i, {m_providerKey}, {m_local}, knownHosts);
    QVERIFY2(access.ok(), qPrintable(access.error));
    QCOMPARE(access.target.privateKeyPath, m_local.privatePath());
    QCOMPARE(access.target.port, 40022);
    QCOMPARE(readAll(knownHosts), u"[127.0.0.1]:40022 %1\n"_s.arg(kHostKey).toUtf8());

    // Written once per host and port, replaced when the port is reused by another instance.
    Instance reused = i;
    reused.ssh->hostKey = kOtherHostKey;
    reused.ssh->hostKeySha256 = SshKeyPair::fingerprintOfPublicKeyLine(kOtherHostKey);
    QVERIFY(SshAccess::resolve(reused, {m_providerKey}, {m_local}, knownHosts).ok());
    QCOMPARE(readAll(knownHosts), u"[127.0.0.1]:40022 %1\n"_s.arg(kOtherHostKey).toUtf8());

    QString error;
    const QString command =
        SshAccess::copiedCommand(i, {m_providerKey}, {m_local}, knownHosts, &error);
    QCOMPARE(command,
             u"ssh -i %1 -o IdentitiesOnly=yes -o UserKnownHostsFile=%2 "
             "-o StrictHostKeyChecking=yes -p 40022 root@127.0.0.1"_s.arg(m_local.privatePath(),
                                                                          knownHosts));
}

void TestSshAccess::copiedCommandWithoutLocalKey()
{
    // No key of CardHour's opens it: the copied command still pins and checks the host key, and
    // ssh offers the user's own keys.
    QTemporaryDir spaced(m_dir.filePath(u"a b-XXXXXX"_s));
    const QString knownHosts = spaced.filePath(u"known_hosts"_s);
    QString error;
    const QString command =
        SshAccess::copiedCommand(running(), {m_providerKey}, {}, knownHosts, &error);
    QVERIFY2(!command.isEmpty(), qPrintable(error));
    QCOMPARE(command,
             u"ssh -o 'UserKnownHostsFile=%1' -o StrictHostKeyChecking=yes -p 40022 "
             "root@127.0.0.1"_s.arg(knownHosts));
    QVERIFY(!command.contains(u"accept-new"_s));
    QCOMPARE(readAll(knownHosts), u"[127.0.0.1]:40022 %1\n"_s.arg(kHostKey).toUtf8());
}

void TestSshAccess::tamperedHostKeyIsRefusedAndNamed()
{
    // The provider's answer carries a host key that is not the one its fingerprint names.
    const QString knownHosts = m_dir.filePath(u"tampered_known_hosts"_s);
    Instance i = running();
    i.ssh->hostKey = kOtherHostKey;
    const QString reported = i.ssh->hostKeySha256;
    const QString given = SshKeyPair::fingerprintOfPublicKeyLine(kOtherHostKey);
    QVERIFY(reported != given);

    for (const QList<SshKeyPair> &local : {QList<SshKeyPair>{m_local}, QList<SshKeyPair>{}}) {
        QString error;
        const QString command =
            SshAccess::copiedCommand(i, {m_providerKey}, local, knownHosts, &error);
        QVERIFY2(command.isEmpty(), qPrintable(command));
        QVERIFY2(error.contains(reported) && error.contains(given), qPrintable(error));
        QVERIFY(error.contains(u"train-1"_s));
    }
    const SshAccess access = SshAccess::resolve(i, {m_providerKey}, {m_local}, knownHosts);
    QVERIFY(!access.ok());
    QVERIFY(!access.target.isValid());
    QVERIFY2(!QFile::exists(knownHosts), "a key that failed its check was pinned");
}

void TestSshAccess::unreportedHostKeyIsNotTrusted()
{
    // No key to check against: refused, where this once fell back to accept-new.
    const QString knownHosts = m_dir.filePath(u"unreported_known_hosts"_s);
    Instance i = running();
    i.ssh->hostKey.clear();
    QString error;
    QVERIFY(SshAccess::copiedCommand(i, {m_providerKey}, {m_local}, knownHosts, &error).isEmpty());
    QVERIFY2(error.contains(u"has not reported the host key of train-1"_s), qPrintable(error));
    QVERIFY(!QFile::exists(knownHosts));
}

void TestSshAccess::noAddress()
{
    Instance i = running();
    i.ssh.reset();
    QString error;
    QVERIFY(SshAccess::copiedCommand(i, {m_providerKey}, {m_local}, m_dir.filePath(u"k"_s), &error)
                .isEmpty());
    QVERIFY2(error.contains(u"has no SSH address yet"_s), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestSshAccess)
#include "tst_sshaccess.moc"
