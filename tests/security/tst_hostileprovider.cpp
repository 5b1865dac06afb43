// The attack of issue 13 item 4: a provider (hostile, or one whose instance answer was
// tampered with) puts a newline and a ProxyCommand into `ssh.host`, or a shell word into
// `ssh.user`. Every writer refuses it: the known_hosts pin, the ~/.ssh/config block, the copied
// command, the system terminal's arguments and libssh's target; nothing is written.
#include "api/Models.h"
#include "ssh/SshAccess.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshConnection.h"
#include "ssh/SshKeyPair.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;

namespace {

const QString kHostKey =
    u"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIL3PxZifVOUQ1xXPeHsxq324rb+ldUOhk49GR8h7lj4"_s;

Instance answer(const QString &host, const QString &user)
{
    Instance i;
    i.id = u"i-1"_s;
    i.name = u"train-1"_s;
    i.state = InstanceState::Running;
    i.sshKeyIds = {u"k-1"_s};
    SshEndpoint ssh;
    ssh.host = host;
    ssh.port = 40022;
    ssh.user = user;
    ssh.hostKey = kHostKey;
    ssh.hostKeySha256 = SshKeyPair::fingerprintOfPublicKeyLine(kHostKey);
    i.ssh = ssh;
    return i;
}

} // namespace

class TestHostileProvider : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyWriterRefuses_data();
    void everyWriterRefuses();
    void validNamesPass_data();
    void validNamesPass();

private:
    QTemporaryDir m_dir;
    SshKeyPair m_local;
    SshKey m_providerKey;
};

void TestHostileProvider::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(SshKeyPair::generate(m_dir.filePath(u"id_ed25519"_s), {}, u"test"_s, &m_local, &error),
             qPrintable(error));
    m_providerKey.id = u"k-1"_s;
    m_providerKey.publicKey = m_local.publicKeyLine();
    m_providerKey.fingerprintSha256 = m_local.fingerprintSha256();
}

void TestHostileProvider::everyWriterRefuses_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("user");
    const QString proxy = u"127.0.0.1\n    ProxyCommand sh -c 'touch /tmp/cardhour-pwned'"_s;
    QTest::newRow("host newline ProxyCommand") << proxy << u"root"_s;
    QTest::newRow("host CR") << u"127.0.0.1\rProxyCommand x"_s << u"root"_s;
    QTest::newRow("host option") << u"-oProxyCommand=touch /tmp/x"_s << u"root"_s;
    QTest::newRow("host space") << u"127.0.0.1 evil"_s << u"root"_s;
    QTest::newRow("host cmd ampersand") << u"a&calc.exe"_s << u"root"_s;
    QTest::newRow("host IPv6 zone token") << u"fe80::1%h"_s << u"root"_s;
    QTest::newRow("host empty label") << u"a..b"_s << u"root"_s;
    QTest::newRow("user newline") << u"127.0.0.1"_s << u"root\n    ProxyCommand x"_s;
    QTest::newRow("user shell") << u"127.0.0.1"_s << u"root$(touch /tmp/x)"_s;
    QTest::newRow("user option") << u"127.0.0.1"_s << u"-oProxyCommand=x"_s;
    QTest::newRow("user upper") << u"127.0.0.1"_s << u"Root"_s;
    QTest::newRow("user too long") << u"127.0.0.1"_s << QString(33, u'a');
}

void TestHostileProvider::everyWriterRefuses()
{
    QFETCH(QString, host);
    QFETCH(QString, user);
    const Instance hostile = answer(host, user);
    const QString knownHosts = m_dir.filePath(u"known_hosts"_s);
    const QString config = m_dir.filePath(u"config"_s);
    QFile::remove(knownHosts);
    QFile mine(config);
    QVERIFY(mine.open(QIODevice::WriteOnly | QIODevice::Truncate));
    mine.write("Host mine\n    HostName example.org\n");
    mine.close();

    // The libssh target, and SshConnection before any network.
    const SshTarget target = SshTarget::fromInstance(hostile, m_local);
    QVERIFY(!target.isValid());
    QVERIFY(!target.problem().isEmpty());
    QVERIFY2(!target.problem().contains(u'\n') && !target.problem().contains(u'\r'),
             qPrintable(target.problem()));
    SshConnection connection(target);
    QVERIFY(!connection.open(2000));
    QCOMPARE(connection.errorMessage(), target.problem());

    // The one path (terminal, ~/.ssh/config, system terminal) and "Copy SSH command".
    const SshAccess access = SshAccess::resolve(hostile, {m_providerKey}, {m_local}, knownHosts);
    QVERIFY(!access.ok());
    QCOMPARE(access.error, target.problem());
    QString error;
    QVERIFY(SshAccess::copiedCommand(hostile, {m_providerKey}, {m_local}, knownHosts, &error)
                .isEmpty());
    QCOMPARE(error, target.problem());

    // Each writer on its own, as if something skipped SshAccess.
    error.clear();
    QVERIFY(!SshConfigWriter::pinHostKey(knownHosts, target, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(SshConfigWriter::configBlock(target, knownHosts).isEmpty());
    error.clear();
    QVERIFY(!SshConfigWriter::addToConfig(config, target, knownHosts, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(SshConfigWriter::sshCommandLine(target, knownHosts).isEmpty());
    // What SshActions::systemTerminalCommand is given.
    QVERIFY(SshConfigWriter::sshArguments(target, knownHosts).isEmpty());

    QVERIFY(!QFile::exists(knownHosts));
    QVERIFY(mine.open(QIODevice::ReadOnly));
    QCOMPARE(mine.readAll(), "Host mine\n    HostName example.org\n"_ba);
}

void TestHostileProvider::validNamesPass_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("user");
    QTest::newRow("IPv4") << u"127.0.0.1"_s << u"root"_s;
    QTest::newRow("IPv6") << u"::1"_s << u"ubuntu"_s;
    QTest::newRow("name") << u"gpu-7.eu-west.example.com"_s << u"_svc-1$"_s;
    QTest::newRow("single label") << u"localhost"_s << QString(32, u'a');
}

void TestHostileProvider::validNamesPass()
{
    QFETCH(QString, host);
    QFETCH(QString, user);
    const SshTarget target = SshTarget::fromInstance(answer(host, user), m_local);
    QVERIFY2(target.isValid(), qPrintable(target.problem()));
    const QString block = SshConfigWriter::configBlock(target, m_dir.filePath(u"kh"_s));
    QVERIFY(block.contains(u"    HostName %1\n"_s.arg(host)));
    QVERIFY(!SshConfigWriter::sshArguments(target, m_dir.filePath(u"kh"_s)).isEmpty());
}

QTEST_GUILESS_MAIN(TestHostileProvider)
#include "tst_hostileprovider.moc"
