// SshKeyPair and SshKeyStore: keys generated with libssh are read by OpenSSH (ssh-keygen), are
// owner-only on disk, have OpenSSH's fingerprints; passphrases live in the real keychain
// (ctest runs this through run-with-keyring; the keychain cases skip without one); keys made
// by ssh-keygen are imported in place.
#include "SshTestSupport.h"
#include "session/SecretStore.h"
#include "ssh/SshKeyStore.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using namespace cardhour::test;

class TestSshKeys : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void generatedKeyIsOpenSshCompatibleAndPrivate();
    void passphraseGoesToTheKeychain();
    void passphraseWithoutKeychainIsRefused();
    void importLeavesTheKeyInPlace();
    void importRefusesWrongPassphraseAndStrangers();
    void removeForgetsKeys();
    void generatedKeysFollowTheirFolder();

private:
    QString keygenFingerprint(const QString &publicPath);
    bool keyringReady() const { return qEnvironmentVariable("CARDHOUR_KEYRING") == u"ready"_s; }
    QTemporaryDir m_dir;
};

void TestSshKeys::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (runProgram(u"ssh-keygen"_s, {u"-?"_s}).exitCode < 0)
        QSKIP("ssh-keygen (openssh-client) is not installed");
}

QString TestSshKeys::keygenFingerprint(const QString &publicPath)
{
    const ProcessResult r =
        runProgram(u"ssh-keygen"_s, {u"-l"_s, u"-E"_s, u"sha256"_s, u"-f"_s, publicPath});
    return r.exitCode == 0 ? QString::fromUtf8(r.out).section(u' ', 1, 1) : QString();
}

void TestSshKeys::generatedKeyIsOpenSshCompatibleAndPrivate()
{
    const QString folder = m_dir.filePath(u"plain/ssh"_s);
    SshKeyStore store(nullptr, folder);
    const KeyOutcome made = awaitKey(store.generate(u"my laptop"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    const SshKeyPair key = made.key;
    QVERIFY(key.privatePath().startsWith(folder));
    QCOMPARE(key.type(), u"ssh-ed25519"_s);
    QCOMPARE(key.comment(), u"my laptop"_s);
    QCOMPARE(modeOf(folder), 0700);
    QCOMPARE(modeOf(key.privatePath()), 0600);
    QCOMPARE(modeOf(key.publicPath()), 0644);

    // OpenSSH reads the private key and derives the same public key and fingerprint.
    const ProcessResult derived =
        runProgram(u"ssh-keygen"_s, {u"-y"_s, u"-f"_s, key.privatePath()});
    QVERIFY2(derived.exitCode == 0, qPrintable(derived.describe()));
    QCOMPARE(QString::fromUtf8(derived.out.trimmed()).section(u' ', 0, 1),
             key.publicKeyLine().section(u' ', 0, 1));
    QCOMPARE(key.fingerprintSha256(), keygenFingerprint(key.publicPath()));
    QVERIFY(key.fingerprintSha256().startsWith(u"SHA256:"_s));
    QCOMPARE(SshKeyPair::fingerprintOfPublicKeyLine(key.publicKeyLine()), key.fingerprintSha256());
    QString error;
    QVERIFY2(key.checkPrivateKey({}, &error), qPrintable(error));

    // A second key with the same name gets its own files; the list survives a new store.
    const KeyOutcome second = awaitKey(store.generate(u"my laptop"_s));
    QVERIFY2(second.ok, qPrintable(second.error));
    QVERIFY(second.key.privatePath() != key.privatePath());
    SshKeyStore reopened(nullptr, folder);
    const QList<SshKeyPair> keys = reopened.keys();
    QCOMPARE(keys.size(), 2);
    QCOMPARE(keys.at(0).fingerprintSha256(), key.fingerprintSha256());
    QCOMPARE(reopened.key(second.key.fingerprintSha256()).privatePath(), second.key.privatePath());
}

void TestSshKeys::passphraseGoesToTheKeychain()
{
    if (!keyringReady())
        QSKIP(qPrintable(u"no keychain: "_s + qEnvironmentVariable("CARDHOUR_KEYRING_REASON")));
    SecretStore secrets(u"CardHour-test-sshkeys"_s);
    SshKeyStore store(&secrets, m_dir.filePath(u"pass/ssh"_s));
    const QString passphrase = u"correct horse 电池 staple"_s;
    const KeyOutcome made = awaitKey(store.generate(u"locked"_s, passphrase));
    QVERIFY2(made.ok, qPrintable(made.error));

    // Encrypted on disk: OpenSSH needs the passphrase, and takes ours.
    QVERIFY(
        runProgram(u"ssh-keygen"_s, {u"-y"_s, u"-P"_s, u"wrong"_s, u"-f"_s, made.key.privatePath()})
            .exitCode
        != 0);
    const ProcessResult opened = runProgram(
        u"ssh-keygen"_s, {u"-y"_s, u"-P"_s, passphrase, u"-f"_s, made.key.privatePath()});
    QVERIFY2(opened.exitCode == 0, qPrintable(opened.describe()));
    QCOMPARE(QString::fromUtf8(opened.out.trimmed()).section(u' ', 0, 1),
             made.key.publicKeyLine().section(u' ', 0, 1));
    QVERIFY(!QFile(made.key.privatePath()).readAll().contains(passphrase.toUtf8()));

    // The keychain holds it, under the key's fingerprint.
    SecretReply *read = store.passphrase(made.key);
    QSignalSpy done(read, &SecretReply::finished);
    QString stored;
    connect(read, &SecretReply::finished, this, [read, &stored] { stored = read->secret(); });
    QVERIFY(done.wait(30000));
    QCOMPARE(stored, passphrase);
    QString error;
    QVERIFY(!made.key.checkPrivateKey(u"wrong"_s, &error));
    QVERIFY(error.contains(made.key.privatePath()));
    QVERIFY2(made.key.checkPrivateKey(passphrase, &error), qPrintable(error));
    QVERIFY(store.remove(made.key, &error));
}

void TestSshKeys::passphraseWithoutKeychainIsRefused()
{
    // No keychain: the key is not kept at all rather than with its passphrase somewhere else.
    const QString folder = m_dir.filePath(u"nokeychain/ssh"_s);
    SshKeyStore store(nullptr, folder);
    const KeyOutcome made = awaitKey(store.generate(u"x"_s, u"secret"_s));
    QVERIFY(made.done);
    QVERIFY(!made.ok);
    QVERIFY(!made.error.isEmpty());
    QCOMPARE(QDir(folder).entryList({u"id_*"_s}, QDir::Files), QStringList());
    QVERIFY(store.keys().isEmpty());
}

void TestSshKeys::importLeavesTheKeyInPlace()
{
    const QString home = m_dir.filePath(u"home"_s);
    QVERIFY(QDir().mkpath(home + u"/.ssh"_s));
    const QString privatePath = home + u"/.ssh/id_ed25519"_s;
    ProcessResult made = runProgram(u"ssh-keygen"_s,
                                    {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-C"_s,
                                     u"me@home"_s, u"-f"_s, privatePath});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    // A .pub without its private key is not offered.
    QFile orphan(home + u"/.ssh/id_rsa.pub"_s);
    QVERIFY(orphan.open(QIODevice::WriteOnly));
    orphan.write("ssh-rsa AAAA orphan\n");
    orphan.close();
    QCOMPARE(SshKeyStore::importCandidates(home), QStringList{privatePath + u".pub"_s});

    const QString folder = m_dir.filePath(u"import/ssh"_s);
    SshKeyStore store(nullptr, folder);
    const KeyOutcome imported = awaitKey(store.importPublicKey(privatePath + u".pub"_s));
    QVERIFY2(imported.ok, qPrintable(imported.error));
    QCOMPARE(imported.key.privatePath(), privatePath);
    QCOMPARE(imported.key.comment(), u"me@home"_s);
    QCOMPARE(imported.key.fingerprintSha256(), keygenFingerprint(privatePath + u".pub"_s));
    QVERIFY(QDir(folder).entryList({u"id_*"_s}, QDir::Files).isEmpty()); // not copied
    SshKeyStore reopened(nullptr, folder);
    QCOMPARE(reopened.keys().size(), 1);
    QCOMPARE(reopened.keys().constFirst().privatePath(), privatePath);
}

void TestSshKeys::importRefusesWrongPassphraseAndStrangers()
{
    const QString dir = m_dir.filePath(u"strangers"_s);
    QVERIFY(QDir().mkpath(dir));
    const QString locked = dir + u"/id_locked"_s;
    ProcessResult made = runProgram(
        u"ssh-keygen"_s, {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, u"pw123456"_s, u"-f"_s, locked});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    SshKeyStore store(nullptr, m_dir.filePath(u"strangers-store"_s));
    KeyOutcome r = awaitKey(store.importPublicKey(locked + u".pub"_s, u"not it"_s));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(locked), qPrintable(r.error));
    r = awaitKey(store.importPublicKey(locked + u".pub"_s));
    QVERIFY(!r.ok);

    // A public key next to someone else's private key.
    const QString other = dir + u"/id_other"_s;
    made = runProgram(u"ssh-keygen"_s,
                      {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-f"_s, other});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    const QString mixed = dir + u"/id_mixed"_s;
    QVERIFY(QFile::copy(other, mixed));
    QVERIFY(QFile::copy(locked + u".pub"_s, mixed + u".pub"_s));
    r = awaitKey(store.importPublicKey(mixed + u".pub"_s));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"does not belong"_s), qPrintable(r.error));

    // Not a key at all, and a missing private key.
    QFile junk(dir + u"/junk.pub"_s);
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("hello world\n");
    junk.close();
    QVERIFY(!awaitKey(store.importPublicKey(dir + u"/junk.pub"_s)).ok);
    QVERIFY(QFile::remove(other));
    r = awaitKey(store.importPublicKey(other + u".pub"_s));
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"missing"_s), qPrintable(r.error));
    QVERIFY(store.keys().isEmpty());
}

void TestSshKeys::removeForgetsKeys()
{
    const QString folder = m_dir.filePath(u"remove/ssh"_s);
    SshKeyStore store(nullptr, folder);
    const KeyOutcome made = awaitKey(store.generate(u"gone"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    QString error;
    QVERIFY2(store.remove(made.key, &error), qPrintable(error));
    QVERIFY(!QFile::exists(made.key.privatePath()));
    QVERIFY(!QFile::exists(made.key.publicPath()));
    QVERIFY(store.keys().isEmpty());
}

void TestSshKeys::generatedKeysFollowTheirFolder()
{
    // DataPaths::migrateOldLayout() moves the folder; keys.json still names the old paths (on
    // Windows no link is left behind). Generated keys are found in the folder they are in now;
    // an imported key keeps its own path.
    const QString oldFolder = m_dir.filePath(u"moved-from/ssh"_s);
    QString imported;
    {
        SshKeyStore store(nullptr, oldFolder);
        const KeyOutcome made = awaitKey(store.generate(u"travels"_s));
        QVERIFY2(made.ok, qPrintable(made.error));
        imported = m_dir.filePath(u"moved-home/id_ed25519"_s);
        QVERIFY(QDir().mkpath(m_dir.filePath(u"moved-home"_s)));
        const ProcessResult keygen =
            runProgram(u"ssh-keygen"_s,
                       {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-f"_s, imported});
        QVERIFY2(keygen.exitCode == 0, qPrintable(keygen.describe()));
        const KeyOutcome added = awaitKey(store.importPublicKey(imported + u".pub"_s));
        QVERIFY2(added.ok, qPrintable(added.error));
    }
    const QString newFolder = m_dir.filePath(u"moved-to/ssh"_s);
    QVERIFY(QDir().mkpath(m_dir.filePath(u"moved-to"_s)));
    QVERIFY(QDir().rename(oldFolder, newFolder));

    SshKeyStore moved(nullptr, newFolder);
    const QList<SshKeyPair> keys = moved.keys();
    QCOMPARE(keys.size(), 2);
    QVERIFY2(keys.at(0).privatePath().startsWith(newFolder + u'/'),
             qPrintable(keys.at(0).privatePath()));
    QCOMPARE(keys.at(1).privatePath(), imported);
    QString error;
    QVERIFY2(keys.at(0).checkPrivateKey({}, &error), qPrintable(error));
    // Removing it removes its files in the new folder.
    QVERIFY2(moved.remove(keys.at(0), &error), qPrintable(error));
    QVERIFY(!QFile::exists(keys.at(0).privatePath()));
    QCOMPARE(moved.keys().size(), 1);
}

QTEST_GUILESS_MAIN(TestSshKeys)
#include "tst_sshkeys.moc"
