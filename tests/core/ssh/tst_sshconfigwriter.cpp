// SshConfigWriter, HostKeyVerifier::compare and SshPortForward::appUrl without a network: the
// ~/.ssh/config block is added once, replaced in place, removed again, and every byte of the
// user's own file survives; only a verified host key is pinned. (tst_ssh_podman checks that
// OpenSSH really connects with what is written here.)
#include "SshTestSupport.h"
#include "api/Models.h"
#include "ssh/HostKeyVerifier.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshKeyPair.h"
#include "ssh/SshPortForward.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using namespace cardhour::test;

namespace {

SshTarget target(int port = 40022)
{
    SshTarget t;
    t.host = u"127.0.0.1"_s;
    t.port = port;
    t.user = u"root"_s;
    t.hostKeyLine = kHostKey;
    t.expectedHostKeySha256 = SshKeyPair::fingerprintOfPublicKeyLine(kHostKey);
    t.privateKeyPath = u"/home/me/My Keys/id_ed25519"_s;
    t.instanceName = u"train run #1"_s;
    return t;
}

} // namespace

class TestSshConfigWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void alias();
    void compare_data();
    void compare();
    void addReplaceRemoveKeepsUserBytes();
    void newConfigIsPrivate();
    void symlinkedConfigStaysALink();
    void pinsOnlyVerifiedKeys();
    void commandLine();
    void appUrl();
};

void TestSshConfigWriter::alias()
{
    QCOMPARE(SshConfigWriter::hostAlias(u"train run #1"_s), u"cardhour-train-run-1"_s);
    QCOMPARE(SshConfigWriter::hostAlias(u"a.b_c-d"_s), u"cardhour-a.b_c-d"_s);
    QCOMPARE(SshConfigWriter::hostAlias(QString()), u"cardhour-instance"_s);
    QCOMPARE(SshConfigWriter::knownHostsName(target()), u"[127.0.0.1]:40022"_s);
    QCOMPARE(SshConfigWriter::knownHostsName(target(22)), u"127.0.0.1"_s);
}

void TestSshConfigWriter::compare_data()
{
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("actual");
    QTest::addColumn<int>("verdict");
    const QString fp = u"SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s"_s;
    using V = HostKeyVerifier::Verdict;
    QTest::newRow("same") << fp << fp << int(V::Match);
    QTest::newRow("prefix optional") << fp.mid(7) << fp << int(V::Match);
    QTest::newRow("one character")
        << u"SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2t"_s << fp << int(V::Mismatch);
    QTest::newRow("case matters") << fp.toLower() << fp << int(V::Mismatch);
    QTest::newRow("no expectation") << QString() << fp << int(V::NoExpectation);
    QTest::newRow("no server key") << fp << QString() << int(V::NoServerKey);
}

void TestSshConfigWriter::compare()
{
    QFETCH(QString, expected);
    QFETCH(QString, actual);
    QFETCH(int, verdict);
    QCOMPARE(int(HostKeyVerifier::compare(expected, actual)), verdict);
}

void TestSshConfigWriter::addReplaceRemoveKeepsUserBytes()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(u".ssh/config"_s);
    QVERIFY(QDir().mkpath(dir.filePath(u".ssh"_s)));
    // Odd but valid bytes: CRLF, tabs, UTF-8, a comment, no newline at the end.
    const QByteArray user =
        "# mine\r\nHost *\r\n\tServerAliveInterval 60\nHost gpu-box # 机器\n  User me"_ba;
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(user);
    }
    QVERIFY(QFile::setPermissions(
        config, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
    const QString knownHosts = dir.filePath(u"cardhour known_hosts"_s);
    QString error;
    QVERIFY2(SshConfigWriter::addToConfig(config, target(), knownHosts, &error), qPrintable(error));
    QByteArray written = readAll(config);
    const QByteArray block = SshConfigWriter::configBlock(target(), knownHosts).toUtf8();
    QCOMPARE(written, block + user);
    QVERIFY(block.contains("Host cardhour-train-run-1\n"));
    QVERIFY(block.contains("    HostName 127.0.0.1\n    Port 40022\n    User root\n"));
    QVERIFY(block.contains(
        "    IdentityFile \"/home/me/My Keys/id_ed25519\"\n    IdentitiesOnly yes\n"));
    QVERIFY(block.contains("    UserKnownHostsFile \"" + knownHosts.toUtf8() + "\"\n"));
    QVERIFY(block.contains("    StrictHostKeyChecking yes\nMatch all\n"));
    QCOMPARE(modeOf(config), 0640); // the user's permissions are kept

    // Adding again (the port moved) replaces the block in place: still one, same user bytes.
    QVERIFY2(SshConfigWriter::addToConfig(config, target(40023), knownHosts, &error),
             qPrintable(error));
    written = readAll(config);
    QCOMPARE(written, SshConfigWriter::configBlock(target(40023), knownHosts).toUtf8() + user);
    QCOMPARE(written.count("Host cardhour-train-run-1\n"), 1);

    // A second instance gets a block of its own; the first stays.
    SshTarget other = target(40100);
    other.instanceName = u"other"_s;
    QVERIFY2(SshConfigWriter::addToConfig(config, other, knownHosts, &error), qPrintable(error));
    written = readAll(config);
    QCOMPARE(written.count("Host cardhour-"), 2);
    QVERIFY(written.endsWith(user));

    QVERIFY2(SshConfigWriter::removeFromConfig(config, u"other"_s, &error), qPrintable(error));
    QVERIFY2(SshConfigWriter::removeFromConfig(config, u"train run #1"_s, &error),
             qPrintable(error));
    QCOMPARE(readAll(config), user);
    QVERIFY2(SshConfigWriter::removeFromConfig(config, u"never added"_s, &error),
             qPrintable(error));
    QCOMPARE(readAll(config), user);
}

void TestSshConfigWriter::newConfigIsPrivate()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(u"fresh/.ssh/config"_s);
    QString error;
    QVERIFY2(SshConfigWriter::addToConfig(config, target(), dir.filePath(u"kh"_s), &error),
             qPrintable(error));
    QCOMPARE(modeOf(config), 0600);
    QVERIFY(readAll(config).startsWith("# >>> cardhour-train-run-1"));
}

void TestSshConfigWriter::symlinkedConfigStaysALink()
{
    QTemporaryDir dir;
    QVERIFY(QDir().mkpath(dir.filePath(u"dotfiles"_s)));
    QVERIFY(QDir().mkpath(dir.filePath(u".ssh"_s)));
    const QString real = dir.filePath(u"dotfiles/ssh_config"_s);
    {
        QFile file(real);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Host box\n    User me\n");
    }
    const QString link = dir.filePath(u".ssh/config"_s);
    QVERIFY(QFile::link(real, link));
    QString error;
    QVERIFY2(SshConfigWriter::addToConfig(link, target(), dir.filePath(u"kh"_s), &error),
             qPrintable(error));
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(readAll(real).startsWith("# >>> cardhour-train-run-1"));
    QVERIFY(readAll(real).endsWith("Host box\n    User me\n"));
}

void TestSshConfigWriter::pinsOnlyVerifiedKeys()
{
    QTemporaryDir dir;
    const QString knownHosts = dir.filePath(u"known_hosts"_s);
    {
        QFile file(knownHosts);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[10.0.0.9]:2222 " + kOtherHostKey.toUtf8() + "\n[127.0.0.1]:40022 "
                   + kOtherHostKey.toUtf8() + "\n");
    }
    QString error;
    QVERIFY2(SshConfigWriter::pinHostKey(knownHosts, target(), &error), qPrintable(error));
    QCOMPARE(readAll(knownHosts),
             "[10.0.0.9]:2222 " + kOtherHostKey.toUtf8() + "\n[127.0.0.1]:40022 "
                 + kHostKey.toUtf8() + "\n");
    QVERIFY2(SshConfigWriter::pinHostKey(knownHosts, target(), &error),
             qPrintable(error)); // idempotent
    QCOMPARE(readAll(knownHosts).count("[127.0.0.1]:40022 "), 1);

    // A key line whose fingerprint is not the provider's is not pinned.
    SshTarget tampered = target(40030);
    tampered.hostKeyLine = kOtherHostKey;
    QVERIFY(!SshConfigWriter::pinHostKey(knownHosts, tampered, &error));
    QVERIFY(error.contains(tampered.expectedHostKeySha256));
    QVERIFY(!readAll(knownHosts).contains("40030"));
    SshTarget unknown = target(40031);
    unknown.hostKeyLine.clear();
    QVERIFY(!SshConfigWriter::pinHostKey(knownHosts, unknown, &error));
}

void TestSshConfigWriter::commandLine()
{
    const QString line = SshConfigWriter::sshCommandLine(target(), u"/tmp/k h"_s);
    QCOMPARE(line,
             u"ssh -i '/home/me/My Keys/id_ed25519' -o IdentitiesOnly=yes -o "
             u"'UserKnownHostsFile=/tmp/k h' "
             "-o StrictHostKeyChecking=yes -p 40022 root@127.0.0.1"_s);
    SshTarget quote = target();
    quote.privateKeyPath = u"/it's"_s;
    QVERIFY(SshConfigWriter::sshCommandLine(quote, u"/k"_s).contains(u"'/it'\\''s'"_s));
}

void TestSshConfigWriter::appUrl()
{
    InstanceApp app;
    app.name = u"jupyter"_s;
    app.port = 8888;
    app.url = u"http://127.0.0.1:41234/?token=abc123"_s;
    QCOMPARE(SshPortForward::appUrl(app, 5555).toString(),
             u"http://127.0.0.1:5555/?token=abc123"_s);
    app.url.clear();
    QCOMPARE(SshPortForward::appUrl(app, 5556).toString(), u"http://127.0.0.1:5556/"_s);
}

QTEST_GUILESS_MAIN(TestSshConfigWriter)
#include "tst_sshconfigwriter.moc"
