// The attack of issue 13 item 2 against a real instance (podman, sshd, SFTP): a folder in the
// box holds names that are legal on Linux but escape or mislead elsewhere (`..\evil`, `a:b`,
// `C:evil`, a newline, an escape sequence). Downloading it writes nothing, anywhere, and says
// which name; a folder of plain names downloads, and an existing local file is never replaced.
#include "CoreTestSupport.h"
#include "PodmanApiTest.h"
#include "SshTestSupport.h"
#include "ssh/SftpTransfer.h"
#include "ssh/SshConnection.h"

#include <QDirIterator>
#include <QSignalSpy>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using namespace cardhour::test;

class TestSftpDownload : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { cleanupPodmanTest(); }
    void hostileNamesWriteNothing_data();
    void hostileNamesWriteNothing();
    void existingFileIsNeverReplaced();

private:
    SftpTransfer::Result download(const QString &remote, const QString &local);
    SshConnection::ExecResult exec(const QString &command);
    static QStringList everything(const QString &dir);

    SimProcess *m_sim = nullptr;
    std::unique_ptr<SshKeyStore> m_keys;
    SshTarget m_target;
};

void TestSftpDownload::initTestCase()
{
    initPodmanTest();
    if (QTest::currentTestFailed() || !m_dir)
        return;
    m_sim = startSim();
    QVERIFY(m_sim);
    ProviderClient client;
    client.setBaseUrl(m_sim->baseUrl());
    const auto session = await(client.signUp(u"sftp@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, session.why());
    client.setToken(session.value->token);
    m_keys = std::make_unique<SshKeyStore>(nullptr, m_dir->filePath(u"keys"_s));
    const KeyOutcome made = awaitKey(m_keys->generate(u"sftp"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    const auto uploaded = await(SshKeyStore::upload(client, made.key, u"sftp"_s));
    QVERIFY2(uploaded.ok, uploaded.why());
    const QString id = create(*m_sim, session.value->token, {uploaded.value->id});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*m_sim, session.value->token, id, u"running"_s);
    QCOMPARE(running.value(u"state"_s).toString(), u"running"_s);
    const auto inst = await(client.instance(id));
    QVERIFY2(inst.ok, inst.why());
    m_target = SshTarget::fromInstance(*inst.value, made.key);
    QVERIFY(m_target.isValid());
}

SshConnection::ExecResult TestSftpDownload::exec(const QString &command)
{
    SshConnection connection(m_target);
    if (!connection.open()) {
        SshConnection::ExecResult failed;
        failed.error = connection.errorMessage();
        return failed;
    }
    return connection.exec(command);
}

SftpTransfer::Result TestSftpDownload::download(const QString &remote, const QString &local)
{
    SftpTransfer transfer(m_target);
    QSignalSpy finished(&transfer, &SftpTransfer::finished);
    transfer.download(remote, local);
    (void)QTest::qWaitFor([&finished] { return !finished.isEmpty(); }, 120000);
    return transfer.result();
}

QStringList TestSftpDownload::everything(const QString &dir)
{
    QStringList found;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        found.append(QDir(dir).relativeFilePath(it.next()));
    found.sort();
    return found;
}

void TestSftpDownload::hostileNamesWriteNothing_data()
{
    // The name as printf(1) makes it in the box.
    QTest::addColumn<QString>("printfName");
    QTest::newRow("backslash parent") << u"..\\\\evil"_s;
    QTest::newRow("backslash deep") << u"..\\\\..\\\\..\\\\evil.txt"_s;
    QTest::newRow("stream") << u"a:b"_s;
    QTest::newRow("drive") << u"C:evil"_s;
    QTest::newRow("newline") << u"evil\\nname"_s;
    QTest::newRow("escape sequence") << u"\\033[2Jevil"_s;
    QTest::newRow("tab") << u"a\\tb"_s;
}

void TestSftpDownload::hostileNamesWriteNothing()
{
    QFETCH(QString, printfName);
    const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-');
    // A plain file beside the hostile one, and a hostile one one folder down as well.
    const QString remote = u"/workspace/hostile-"_s + tag;
    const auto made =
        exec(u"set -e; mkdir -p %1/sub; echo plain > %1/plain.txt; "
             "printf 'x' > %1/\"$(printf '%2')\"; "
             "printf 'y' > %1/sub/\"$(printf '%2')\"; ls -b %1"_s.arg(remote, printfName));
    QVERIFY2(made.ok && made.exitStatus == 0, made.err.constData());

    const QString outer = m_dir->filePath(u"outer-"_s + tag);
    const QString local = outer + u"/down"_s;
    QVERIFY(QDir().mkpath(local));
    const SftpTransfer::Result result = download(remote, local);
    QVERIFY(!result.ok);
    QVERIFY2(result.error.contains(u"Nothing was downloaded"_s), qPrintable(result.error));
    QCOMPARE(result.files, 0);
    // Not one file written: not in the chosen folder, not above it.
    QCOMPARE(everything(outer), QStringList{u"down"_s});
}

void TestSftpDownload::existingFileIsNeverReplaced()
{
    const auto made = exec(u"mkdir -p /workspace/plain && echo remote > /workspace/plain/a.txt"_s);
    QVERIFY2(made.ok && made.exitStatus == 0, made.err.constData());
    const QString local = m_dir->filePath(u"existing"_s);
    QVERIFY(QDir().mkpath(local + u"/plain"_s));
    QFile mine(local + u"/plain/a.txt"_s);
    QVERIFY(mine.open(QIODevice::WriteOnly));
    mine.write("the user's own\n");
    mine.close();

    const SftpTransfer::Result refused = download(u"/workspace/plain"_s, local);
    QVERIFY(!refused.ok);
    QVERIFY2(refused.error.contains(QDir::toNativeSeparators(mine.fileName())),
             qPrintable(refused.error));
    QVERIFY(mine.open(QIODevice::ReadOnly));
    QCOMPARE(mine.readAll(), "the user's own\n"_ba);
    mine.close();

    // Moved away, it downloads; the same download again finds the identical file and is done.
    QVERIFY(QFile::rename(mine.fileName(), local + u"/mine.txt"_s));
    const SftpTransfer::Result fresh = download(u"/workspace/plain"_s, local);
    QVERIFY2(fresh.ok, qPrintable(fresh.error));
    QCOMPARE(fresh.files, 1);
    const SftpTransfer::Result again = download(u"/workspace/plain"_s, local);
    QVERIFY2(again.ok, qPrintable(again.error));
    QCOMPARE(again.bytesSent, 0);
    QFile got(local + u"/plain/a.txt"_s);
    QVERIFY(got.open(QIODevice::ReadOnly));
    QCOMPARE(got.readAll(), "remote\n"_ba);
}

QTEST_GUILESS_MAIN(TestSftpDownload)
#include "tst_sftpdownload.moc"
