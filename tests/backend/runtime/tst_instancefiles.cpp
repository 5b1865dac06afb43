#include "runtime/InstanceFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

namespace {

int modeOf(const QString &path)
{
    struct stat st
    {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

ino_t inodeOf(const QString &path)
{
    struct stat st
    {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return 0;
    return st.st_ino;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct Output
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Output run(const QString &program, const QStringList &args)
{
    Output o;
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000) || !p.waitForFinished(30000))
        return o;
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    return o;
}

} // namespace

class TestInstanceFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void makesKeyOnceAndReusesIt();
    void fingerprintMatchesSshKeygen();
    void permissions();
    void authorizedKeysRewrittenWhole();
    void regeneratesMissingPublicKey();
    void removeDeletesTheDirectory();
    void rejectsUnsafeIds_data();
    void rejectsUnsafeIds();
    void unreadableKeyIsAnError();
};

void TestInstanceFiles::makesKeyOnceAndReusesIt()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    const InstanceFiles first = InstanceFiles::prepare(data.path(), u"inst-1"_s);
    QCOMPARE(first.sshDir(), data.path() + u"/instances/inst-1/ssh"_s);
    QVERIFY(first.hostKeySha256().startsWith(u"SHA256:"_s));
    QCOMPARE(first.hostKeySha256().size(), 7 + 43); // 32 bytes, unpadded base64
    QVERIFY(first.hostPublicKeyLine().startsWith(u"ssh-ed25519 AAAA"_s));
    const QByteArray key = readAll(first.hostKeyPath());
    QVERIFY(key.startsWith("-----BEGIN OPENSSH PRIVATE KEY-----"));

    const InstanceFiles again = InstanceFiles::prepare(data.path(), u"inst-1"_s);
    QCOMPARE(again.hostKeySha256(), first.hostKeySha256());
    QCOMPARE(again.hostPublicKeyLine(), first.hostPublicKeyLine());
    QCOMPARE(readAll(again.hostKeyPath()), key);

    const InstanceFiles other = InstanceFiles::prepare(data.path(), u"inst-2"_s);
    QVERIFY(other.hostKeySha256() != first.hostKeySha256());
}

void TestInstanceFiles::fingerprintMatchesSshKeygen()
{
    const QString keygen = QStandardPaths::findExecutable(u"ssh-keygen"_s);
    if (keygen.isEmpty())
        QSKIP("ssh-keygen (openssh-client) is not installed");
    QTemporaryDir data;
    const InstanceFiles files = InstanceFiles::prepare(data.path(), u"fp"_s);

    const Output listed =
        run(keygen, {u"-l"_s, u"-E"_s, u"sha256"_s, u"-f"_s, files.hostPublicKeyPath()});
    QCOMPARE(listed.exitCode, 0);
    const QStringList fields = QString::fromUtf8(listed.out).split(u' ', Qt::SkipEmptyParts);
    QVERIFY2(fields.size() >= 2, listed.out.constData());
    QCOMPARE(fields.at(1), files.hostKeySha256());

    // OpenSSH reads the private key too, and derives the same public key from it.
    const Output derived = run(keygen, {u"-y"_s, u"-f"_s, files.hostKeyPath()});
    QVERIFY2(derived.exitCode == 0, derived.err.constData());
    QCOMPARE(QString::fromUtf8(derived.out).trimmed().section(u' ', 0, 1),
             files.hostPublicKeyLine());
}

void TestInstanceFiles::permissions()
{
    QTemporaryDir data;
    const InstanceFiles files = InstanceFiles::prepare(data.path(), u"perm"_s);
    QCOMPARE(modeOf(files.sshDir()), 0700);
    QCOMPARE(modeOf(files.instanceDir()), 0700);
    QCOMPARE(modeOf(files.hostKeyPath()), 0600);
    QCOMPARE(modeOf(files.authorizedKeysPath()), 0600);
    QCOMPARE(modeOf(files.hostPublicKeyPath()), 0644);
    files.writeAuthorizedKeys({u"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAA a@b"_s});
    QCOMPARE(modeOf(files.authorizedKeysPath()), 0600);

    // Loosened by hand: prepare tightens them again.
    QVERIFY(::chmod(QFile::encodeName(files.hostKeyPath()).constData(), 0644) == 0);
    QVERIFY(::chmod(QFile::encodeName(files.sshDir()).constData(), 0755) == 0);
    InstanceFiles::prepare(data.path(), u"perm"_s);
    QCOMPARE(modeOf(files.hostKeyPath()), 0600);
    QCOMPARE(modeOf(files.sshDir()), 0700);
}

void TestInstanceFiles::authorizedKeysRewrittenWhole()
{
    QTemporaryDir data;
    const InstanceFiles files = InstanceFiles::prepare(data.path(), u"ak"_s);
    QCOMPARE(readAll(files.authorizedKeysPath()), QByteArray());

    files.writeAuthorizedKeys({u"ssh-ed25519 AAAA1 one"_s, u"  "_s, u"ssh-ed25519 AAAA2 two\n"_s});
    QCOMPARE(readAll(files.authorizedKeysPath()),
             "ssh-ed25519 AAAA1 one\nssh-ed25519 AAAA2 two\n"_ba);
    const ino_t before = inodeOf(files.authorizedKeysPath());

    files.writeAuthorizedKeys(
        {u"ssh-ed25519 AAAA3 three"_s, u"ssh-ed25519 AAAA4 four\nssh-rsa AAAA5 injected"_s});
    QCOMPARE(readAll(files.authorizedKeysPath()), "ssh-ed25519 AAAA3 three\n"_ba);
    // Replaced by rename (a new inode): a directory bind mount shows the new file at once.
    QVERIFY(inodeOf(files.authorizedKeysPath()) != before);

    InstanceFiles::writeAuthorizedKeysTo(files.sshDir(), {});
    QCOMPARE(readAll(files.authorizedKeysPath()), QByteArray());
    // No temporary files are left behind.
    QCOMPARE(QDir(files.sshDir()).entryList(QDir::Files | QDir::Hidden).size(), 3);

    // prepare() leaves an existing authorized_keys alone.
    files.writeAuthorizedKeys({u"ssh-ed25519 AAAA6 six"_s});
    InstanceFiles::prepare(data.path(), u"ak"_s);
    QCOMPARE(readAll(files.authorizedKeysPath()), "ssh-ed25519 AAAA6 six\n"_ba);
}

void TestInstanceFiles::regeneratesMissingPublicKey()
{
    QTemporaryDir data;
    const InstanceFiles files = InstanceFiles::prepare(data.path(), u"pub"_s);
    const QByteArray pub = readAll(files.hostPublicKeyPath());
    QVERIFY(QFile::remove(files.hostPublicKeyPath()));
    const InstanceFiles again = InstanceFiles::prepare(data.path(), u"pub"_s);
    QCOMPARE(again.hostKeySha256(), files.hostKeySha256());
    QCOMPARE(readAll(files.hostPublicKeyPath()), pub);
}

void TestInstanceFiles::removeDeletesTheDirectory()
{
    QTemporaryDir data;
    const InstanceFiles files = InstanceFiles::prepare(data.path(), u"gone"_s);
    QVERIFY(QFileInfo::exists(files.hostKeyPath()));
    QVERIFY(files.remove());
    QVERIFY(!QFileInfo::exists(files.instanceDir()));
    QVERIFY(QFileInfo::exists(data.path() + u"/instances"_s));
    QVERIFY(files.remove()); // nothing left to delete is fine
    QVERIFY(InstanceFiles::remove(data.path(), u"never-made"_s));

    InstanceFiles::prepare(data.path(), u"gone2"_s);
    QVERIFY(InstanceFiles::remove(data.path(), u"gone2"_s));
    QVERIFY(!QFileInfo::exists(data.path() + u"/instances/gone2"_s));
    QVERIFY(!InstanceFiles::remove(data.path(), u"../instances"_s));
    QVERIFY(QFileInfo::exists(data.path() + u"/instances"_s));
}

void TestInstanceFiles::rejectsUnsafeIds_data()
{
    QTest::addColumn<QString>("id");
    QTest::newRow("empty") << QString();
    QTest::newRow("dotdot") << u".."_s;
    QTest::newRow("traversal") << u"../x"_s;
    QTest::newRow("slash") << u"a/b"_s;
    QTest::newRow("hidden") << u".hidden"_s;
    QTest::newRow("space") << u"a b"_s;
    QTest::newRow("non-ascii") << u"ä"_s;
}

void TestInstanceFiles::rejectsUnsafeIds()
{
    QFETCH(QString, id);
    QTemporaryDir data;
    QVERIFY(!InstanceFiles::isSafeId(id));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, InstanceFiles::prepare(data.path(), id));
    QVERIFY(!QFileInfo::exists(data.path() + u"/x"_s));
}

void TestInstanceFiles::unreadableKeyIsAnError()
{
    QTemporaryDir data;
    const InstanceFiles files = InstanceFiles::prepare(data.path(), u"bad"_s);
    QFile key(files.hostKeyPath());
    QVERIFY(key.open(QIODevice::WriteOnly | QIODevice::Truncate));
    key.write("not a key\n");
    key.close();
    // Never silently replaced: the host key is the instance's identity.
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, InstanceFiles::prepare(data.path(), u"bad"_s));
    QCOMPARE(readAll(files.hostKeyPath()), "not a key\n"_ba);
}

QTEST_GUILESS_MAIN(TestInstanceFiles)
#include "tst_instancefiles.moc"
