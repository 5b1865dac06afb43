// cardhourctl moving data with real containers: `cp` of 100 MB both ways (SHA-256 equal on
// both ends), a copy killed half-way that continues where it stopped when run again, a snapshot
// taken and restored (`launch --snapshot`), `top` over the running hosts, and the example
// script of docs/examples/ run against the sandbox. Every --json output here is checked
// against cardhourctl/schema.
#include "CtlProcess.h"
#include "PodmanApiTest.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

namespace {

constexpr qint64 kBigBytes = 100LL * 1024 * 1024;

QByteArray sha256Of(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

bool writeRandom(const QString &path, qint64 bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    QByteArray block(1024 * 1024, Qt::Uninitialized);
    for (qint64 written = 0; written < bytes; written += block.size()) {
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()),
                                              block.size() / 4);
        if (file.write(block) != block.size())
            return false;
    }
    return true;
}

} // namespace

class TestCardhourctlFiles : public PodmanApiTest
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { cleanupPodmanTest(); }
    void copyBothWays();
    void progressBarOnATerminal();
    void interruptedDownloadResumes();
    void interruptedUploadResumes();
    void snapshotAndRestore();
    void topShowsTheRunningHosts();
    void openApp();
    void exampleScript();

private:
    CtlRun ctl(const QStringList &arguments, const QByteArray &input = {});
    QProcessEnvironment environment() const;
    QHash<QString, QString> variables() const;
    // Whether `json` fits cardhourctl/schema/`schema` (python3 cardhourctl/schema/validate.py).
    QString schemaErrors(const QString &schema, const QString &json, bool lines = false);
    QString remoteSha256(const QString &path);
    qint64 remoteSize(const QString &path);
    SimProcess *m_sim = nullptr;
    QTemporaryDir m_data;
    QTemporaryDir m_files;
    QString m_host;
    QString m_id;
    QString m_restored;
    QString m_snapshot;
    qint64 m_uploadMs = 0;
};

void TestCardhourctlFiles::initTestCase()
{
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    initPodmanTest();
    m_sim = startSim();
    QVERIFY(m_sim);
    QVERIFY(!m_sim->signUp(u"files@example.com"_s).isEmpty());
    CtlRun r = ctl({u"login"_s, u"--email"_s, u"files@example.com"_s}, "correct horse battery\n");
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"keys"_s, u"generate"_s, u"files"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--image"_s, u"base"_s, u"--wait"_s,
             u"--timeout"_s, u"180"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"instance.json"_s, r.out), QString());
    m_host = r.json()[u"name"_s].toString();
    m_id = r.json()[u"id"_s].toString();
    m_instanceIds.append(m_id);
    r = ctl({u"ssh-config"_s, m_host, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"ssh-config.json"_s, r.out), QString());
}

QHash<QString, QString> TestCardhourctlFiles::variables() const
{
    return {{u"CARDHOUR_PROVIDER_URL"_s, m_sim->baseUrl().toString()},
            {u"CARDHOUR_KEYCHAIN_SERVICE"_s,
             u"cardhourctl-files-%1"_s.arg(QCoreApplication::applicationPid())},
            {u"XDG_DATA_HOME"_s, m_data.path()}};
}

QProcessEnvironment TestCardhourctlFiles::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QHash<QString, QString> vars = variables();
    for (auto it = vars.cbegin(); it != vars.cend(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

CtlRun TestCardhourctlFiles::ctl(const QStringList &arguments, const QByteArray &input)
{
    return runCtl(arguments, variables(), input, 600000);
}

QString TestCardhourctlFiles::schemaErrors(const QString &schema, const QString &json, bool lines)
{
    const QString path = m_files.filePath(u"output.json"_s);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return file.errorString();
    file.write(json.toUtf8());
    file.close();
    QStringList args{QStringLiteral(CARDHOUR_SCHEMA_DIR "/validate.py"), schema, path};
    if (lines)
        args.append(u"--lines"_s);
    const Cmd check = run(u"python3"_s, args);
    return check.ok() ? QString() : check.describe();
}

QString TestCardhourctlFiles::remoteSha256(const QString &path)
{
    const CtlRun r = ctl({u"ssh"_s, m_host, u"--"_s, u"sha256sum"_s, path});
    return r.code == 0 ? r.out.section(u' ', 0, 0).trimmed() : QString::fromUtf8(r.describe());
}

qint64 TestCardhourctlFiles::remoteSize(const QString &path)
{
    const Cmd c = podman({u"exec"_s, instanceContainer(m_id), u"stat"_s, u"-c"_s, u"%s"_s, path});
    return c.ok() ? QString::fromUtf8(c.out).trimmed().toLongLong() : -1;
}

void TestCardhourctlFiles::copyBothWays()
{
    const QString big = m_files.filePath(u"big.bin"_s);
    QVERIFY(writeRandom(big, kBigBytes));
    const QByteArray sha = sha256Of(big);

    CtlRun r = ctl({u"cp"_s, big, m_host + u":/workspace/"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"cp.json"_s, r.out), QString());
    QCOMPARE(r.json()[u"bytes_total"_s].toInteger(), kBigBytes);
    QCOMPARE(r.json()[u"resumed_from_bytes"_s].toInteger(), 0);
    QCOMPARE(r.json()[u"destination"_s].toString(), u"/workspace/big.bin"_s);
    m_uploadMs = r.json()[u"elapsed_ms"_s].toInteger();
    qInfo("upload of 100 MiB: %lld ms", m_uploadMs);
    QCOMPARE(remoteSha256(u"/workspace/big.bin"_s), QString::fromLatin1(sha));

    const QString back = m_files.filePath(u"back"_s);
    r = ctl({u"cp"_s, m_host + u":/workspace/big.bin"_s, back, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"cp.json"_s, r.out), QString());
    qInfo("download of 100 MiB: %lld ms", r.json()[u"elapsed_ms"_s].toInteger());
    QCOMPARE(sha256Of(back + u"/big.bin"_s), sha);

    // Human output: the sentence of the desktop client's transfers, no progress bar when piped.
    r = ctl({u"cp"_s, m_host + u":big.bin"_s, back + u"/big.bin"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY2(r.err.contains(u"transferred and verified"_s), r.describe());
    QVERIFY2(!r.err.contains(u'\r'), r.describe());

    // Bad input: a clear error, nothing lost.
    r = ctl({u"cp"_s, m_files.filePath(u"missing.bin"_s), m_host + u":"_s});
    QVERIFY2(r.code == 2 && r.err.contains(u"missing.bin does not exist"_s), r.describe());
    r = ctl({u"cp"_s, big, m_files.filePath(u"elsewhere"_s)});
    QVERIFY2(r.code == 2 && r.err.contains(u"names a host"_s), r.describe());
    r = ctl({u"cp"_s, big, u"no-such-host:/workspace"_s});
    QVERIFY2(r.code == 4, r.describe());
}

void TestCardhourctlFiles::progressBarOnATerminal()
{
    // script(1) gives cardhourctl a terminal: the bar is drawn on stderr, in place.
    if (QStandardPaths::findExecutable(u"script"_s).isEmpty())
        QSKIP("no script(1) (util-linux) to give cardhourctl a terminal");
    const QString typescript = m_files.filePath(u"typescript"_s);
    const QString folder = m_files.filePath(u"on-a-terminal"_s);
    QProcess copy;
    copy.setProcessEnvironment(environment());
    copy.start(
        u"script"_s,
        {u"-qfec"_s,
         QStringLiteral(CARDHOUR_CTL_BIN) + u" cp "_s + m_host + u":/workspace/big.bin "_s + folder,
         typescript});
    QVERIFY(copy.waitForFinished(300000));
    QCOMPARE(copy.exitCode(), 0);
    QFile file(typescript);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString shown = QString::fromUtf8(file.readAll());
    QVERIFY2(shown.contains(u"\r\x1b[K["_s) && shown.contains(u"100%"_s), qPrintable(shown));
    QVERIFY2(shown.contains(u"of 100.0 MiB"_s), qPrintable(shown));
    QCOMPARE(sha256Of(folder + u"/big.bin"_s), sha256Of(m_files.filePath(u"big.bin"_s)));
}

void TestCardhourctlFiles::interruptedDownloadResumes()
{
    const QString folder = m_files.filePath(u"resumed"_s);
    const QString part = folder + u"/big.bin.cardhour-part"_s;
    QProcess copy;
    copy.setProcessEnvironment(environment());
    copy.start(QStringLiteral(CARDHOUR_CTL_BIN),
               {u"cp"_s, m_host + u":/workspace/big.bin"_s, folder});
    QVERIFY(copy.waitForStarted());
    // Killed (no chance to tidy up) once a tenth has arrived.
    QElapsedTimer waited;
    waited.start();
    while (QFileInfo(part).size() < kBigBytes / 10 && copy.state() == QProcess::Running
           && waited.elapsed() < 120000)
        QTest::qWait(2);
    copy.kill();
    copy.waitForFinished();
    const qint64 partial = QFileInfo(part).size();
    QVERIFY2(partial > 0 && partial < kBigBytes, qPrintable(QString::number(partial)));
    QVERIFY(!QFile::exists(folder + u"/big.bin"_s));

    const CtlRun r = ctl({u"cp"_s, m_host + u":/workspace/big.bin"_s, folder, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    const qint64 resumed = r.json()[u"resumed_from_bytes"_s].toInteger();
    qInfo("download killed at %lld bytes, resumed from %lld", partial, resumed);
    QVERIFY2(resumed > 0 && resumed <= partial, r.describe());
    QCOMPARE(r.json()[u"bytes_sent"_s].toInteger(), kBigBytes - resumed);
    QCOMPARE(sha256Of(folder + u"/big.bin"_s), sha256Of(m_files.filePath(u"big.bin"_s)));
    QVERIFY(!QFile::exists(part));
}

void TestCardhourctlFiles::interruptedUploadResumes()
{
    const QString big = m_files.filePath(u"upload2.bin"_s);
    QVERIFY(writeRandom(big, kBigBytes));
    const QString part = u"/workspace/upload2.bin.cardhour-part"_s;
    // The part only the host sees: killed after about a third of a whole upload's time (what
    // copyBothWays() measured), then checked to be partial; a kill too early or too late is
    // tried again a little later or sooner.
    qint64 delay = qMax<qint64>(m_uploadMs / 3, 50);
    qint64 partial = -1;
    for (int attempt = 0; attempt < 6; ++attempt) {
        podman({u"exec"_s, instanceContainer(m_id), u"rm"_s, u"-f"_s, part,
                u"/workspace/upload2.bin"_s});
        QProcess copy;
        copy.setProcessEnvironment(environment());
        copy.start(QStringLiteral(CARDHOUR_CTL_BIN), {u"cp"_s, big, m_host + u":/workspace"_s});
        QVERIFY(copy.waitForStarted());
        QTest::qWait(int(delay));
        const bool finished = copy.state() != QProcess::Running;
        copy.kill();
        copy.waitForFinished();
        partial = remoteSize(part);
        if (!finished && partial > 0 && partial < kBigBytes)
            break;
        delay = finished || partial >= kBigBytes ? delay * 2 / 3 : delay * 3 / 2 + 200;
        partial = -1;
    }
    QVERIFY2(partial > 0, "no kill left a partial upload behind");
    const CtlRun r = ctl({u"cp"_s, big, m_host + u":/workspace"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    const qint64 resumed = r.json()[u"resumed_from_bytes"_s].toInteger();
    qInfo("upload killed at %lld bytes, resumed from %lld", partial, resumed);
    QCOMPARE(resumed, partial);
    QCOMPARE(r.json()[u"bytes_sent"_s].toInteger(), kBigBytes - resumed);
    QCOMPARE(remoteSha256(u"/workspace/upload2.bin"_s), QString::fromLatin1(sha256Of(big)));
    QCOMPARE(remoteSize(part), -1);
}

void TestCardhourctlFiles::snapshotAndRestore()
{
    // The big files go first: the snapshot holds /workspace.
    CtlRun r = ctl({u"ssh"_s, m_host, u"--"_s,
                    u"rm -f /workspace/*.bin && echo kept > /workspace/marker.txt"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"snapshot"_s, u"create"_s, m_host, u"--name"_s, u"files-snap"_s, u"--wait"_s,
             u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"snapshot.json"_s, r.out), QString());
    QCOMPARE(r.json()[u"state"_s].toString(), u"ready"_s);
    const QString snapshot = r.json()[u"id"_s].toString();

    r = ctl({u"snapshot"_s, u"ls"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"snapshots.json"_s, r.out), QString());
    QCOMPARE(r.json().array().first()[u"name"_s].toString(), u"files-snap"_s);
    r = ctl({u"snapshot"_s, u"ls"_s});
    QVERIFY2(r.code == 0 && r.out.contains(u"files-snap"_s), r.describe());

    r = ctl({u"launch"_s, u"--snapshot"_s, snapshot, u"--wait"_s, u"--timeout"_s, u"180"_s,
             u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"instance.json"_s, r.out), QString());
    QCOMPARE(r.json()[u"snapshot_id"_s].toString(), snapshot);
    m_restored = r.json()[u"name"_s].toString();
    m_instanceIds.append(r.json()[u"id"_s].toString());
    r = ctl({u"ssh"_s, m_restored, u"--"_s, u"cat"_s, u"/workspace/marker.txt"_s});
    QVERIFY2(r.code == 0 && r.out.trimmed() == u"kept"_s, r.describe());

    r = ctl({u"snapshot"_s, u"rm"_s, u"no-such-snapshot"_s});
    QVERIFY2(r.code == 4, r.describe());
    // The provider keeps a snapshot while a host restored from it exists, and says so.
    r = ctl({u"snapshot"_s, u"rm"_s, snapshot});
    QVERIFY2(r.code == 1 && r.err.contains(u"terminate them first"_s), r.describe());
    m_snapshot = snapshot;
}

void TestCardhourctlFiles::topShowsTheRunningHosts()
{
    if (m_restored.isEmpty())
        QSKIP("needs the restored host of snapshotAndRestore()");
    // Something for the cards' counters to show.
    ctl({u"ssh"_s, m_host, u"--"_s, u"sh -c 'timeout 5 sh -c \"while :; do :; done\" &'"_s});
    CtlRun r = ctl({u"top"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY2(r.out.contains(m_host) && r.out.contains(m_restored), r.describe());
    QVERIFY2(r.out.contains(u"UTIL"_s) && r.out.contains(u"/ 24 GiB"_s), r.describe());
    // Kept for the record (the build tree's screenshots/ folder, beside the GUI tests' images).
    QDir().mkpath(u"screenshots"_s);
    QFile saved(u"screenshots/cardhourctl-top.txt"_s);
    if (saved.open(QIODevice::WriteOnly | QIODevice::Truncate))
        saved.write(r.out.toUtf8());
    qInfo("%s", qPrintable(r.out));

    r = ctl({u"top"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"top.json"_s, r.out), QString());
    const QJsonArray hosts = r.json().array();
    QCOMPARE(hosts.size(), 2);
    for (const QJsonValue &host : hosts)
        QVERIFY(!host[u"gpus"_s].toArray().isEmpty());

    // The restored host goes, then its snapshot may.
    r = ctl({u"rm"_s, m_restored, u"--yes"_s});
    QVERIFY2(r.code == 0, r.describe());
    r = ctl({u"snapshot"_s, u"rm"_s, m_snapshot, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    QCOMPARE(schemaErrors(u"snapshot.json"_s, r.out), QString());
    QCOMPARE(r.json()[u"state"_s].toString(), u"deleted"_s);
}

void TestCardhourctlFiles::openApp()
{
    // The jupyter image's notebook server, through `open`'s SSH forward, token included.
    CtlRun r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--image"_s, u"jupyter"_s, u"--wait"_s,
                    u"--timeout"_s, u"300"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    const QString host = r.json()[u"name"_s].toString();
    m_instanceIds.append(r.json()[u"id"_s].toString());
    r = ctl({u"open"_s, host, u"no-such-app"_s});
    QVERIFY2(r.code == 4 && r.err.contains(u"Jupyter Notebook"_s), r.describe());

    QProcess open;
    QProcessEnvironment env = environment();
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    open.setProcessEnvironment(env);
    open.start(QStringLiteral(CARDHOUR_CTL_BIN), {u"open"_s, host, u"--json"_s});
    QByteArray line;
    QTRY_VERIFY_WITH_TIMEOUT((line += open.readAllStandardOutput()).contains('\n'), 60000);
    QCOMPARE(schemaErrors(u"open.json"_s, QString::fromUtf8(line)), QString());
    const QUrl url(QJsonDocument::fromJson(line)[u"url"_s].toString());
    QVERIFY2(url.query().contains(u"token="_s), line.constData());
    // The server may still be starting: asked until it answers over the forward.
    QByteArray answer;
    QElapsedTimer waited;
    waited.start();
    while (!answer.startsWith("HTTP/1.") && waited.elapsed() < 120000) {
        QTcpSocket socket;
        socket.connectToHost(u"127.0.0.1"_s, quint16(url.port()));
        if (socket.waitForConnected(5000)) {
            socket.write("GET " + url.toEncoded(QUrl::RemoveScheme | QUrl::RemoveAuthority)
                         + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
            while (socket.waitForReadyRead(5000))
                answer += socket.readAll();
        }
        if (!answer.startsWith("HTTP/1.")) {
            answer.clear();
            QTest::qWait(1000);
        }
    }
    open.terminate();
    QVERIFY(open.waitForFinished(10000));
    QVERIFY2(answer.startsWith("HTTP/1.1 200") || answer.startsWith("HTTP/1.1 302"),
             answer.left(200).constData());
    r = ctl({u"rm"_s, host, u"--yes"_s});
    QVERIFY2(r.code == 0, r.describe());
}

void TestCardhourctlFiles::exampleScript()
{
    QProcess script;
    QProcessEnvironment env = environment();
    env.insert(u"CARDHOURCTL"_s, QStringLiteral(CARDHOUR_CTL_BIN));
    env.insert(u"RESULTS_DIR"_s, m_files.filePath(u"results"_s));
    script.setProcessEnvironment(env);
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(u"bash"_s, {QStringLiteral(CARDHOUR_EXAMPLES_DIR "/train-and-fetch.sh")});
    QVERIFY(script.waitForStarted());
    QVERIFY(script.waitForFinished(600000));
    const QString out = QString::fromUtf8(script.readAll());
    qInfo("%s", qPrintable(out));
    QVERIFY2(script.exitCode() == 0, qPrintable(out));
    QVERIFY2(out.contains(u"cost:"_s), qPrintable(out));
    QFile result(m_files.filePath(u"results/result.txt"_s));
    QVERIFY2(result.open(QIODevice::ReadOnly), qPrintable(out));
    QVERIFY(result.readAll().contains("GPU 0:"));
}

QTEST_GUILESS_MAIN(TestCardhourctlFiles)
#include "tst_cardhourctl_files.moc"
