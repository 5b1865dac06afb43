// The client's SSH layer against a real instance: cardhour-sim with the podman runtime
// launches one container with sshd (one launch for all the functions here: each costs
// seconds). A key generated with libssh is uploaded through ProviderClient; then libssh
// connects with the provider's host key fingerprint, runs commands, opens a shell with a PTY,
// forwards a port to an HTTP server in the box, moves 100 MB over SFTP both ways (and resumes
// an interrupted upload), and OpenSSH connects through the ~/.ssh/config block we write.
#include "CoreTestSupport.h"
#include "PodmanApiTest.h"
#include "SshTestSupport.h"
#include "ssh/SftpTransfer.h"
#include "ssh/SshCommandJob.h"
#include "ssh/SshConfigWriter.h"
#include "ssh/SshConnection.h"
#include "ssh/SshPortForward.h"
#include "ssh/SshShell.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace cardhour::core;
using namespace cardhour::test;

class TestSshPodman : public PodmanApiTest
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { cleanupPodmanTest(); }
    void connectAndRunCommand();
    void tamperedFingerprintIsRefused();
    void keyMissingFromHostIsNamed();
    void shellFollowsResize();
    void portForwardReachesHttpServer();
    void sftpRoundTrip100MB();
    void interruptedTransfersResume();
    void sshConfigBlockWorksWithOpenSsh();

private:
    SftpTransfer::Result transfer(SftpTransfer &t, int timeoutMs = 300000);
    SshConnection::ExecResult exec(const QString &command);

    SimProcess *m_sim = nullptr;
    std::unique_ptr<ProviderClient> m_client;
    std::unique_ptr<SshKeyStore> m_keys;
    SshKeyPair m_key;
    SshTarget m_target;
};

void TestSshPodman::initTestCase()
{
    initPodmanTest();
    if (QTest::currentTestFailed() || !m_dir)
        return;
    m_sim = startSim();
    QVERIFY(m_sim);
    m_client = std::make_unique<ProviderClient>();
    m_client->setBaseUrl(m_sim->baseUrl());
    const auto session = await(m_client->signUp(u"ssh@example.com"_s, u"correct horse battery"_s));
    QVERIFY2(session.ok, session.why());
    m_client->setToken(session.value->token);

    // Generate with libssh, upload through the client, launch with it.
    m_keys = std::make_unique<SshKeyStore>(nullptr, m_dir->filePath(u"keys"_s));
    const KeyOutcome made = awaitKey(m_keys->generate(u"e2e"_s));
    QVERIFY2(made.ok, qPrintable(made.error));
    m_key = made.key;
    const auto uploaded = await(SshKeyStore::upload(*m_client, m_key, u"e2e"_s));
    QVERIFY2(uploaded.ok, uploaded.why());
    QCOMPARE(uploaded.value->fingerprintSha256, m_key.fingerprintSha256());

    const QString id = create(*m_sim, session.value->token, {uploaded.value->id});
    QVERIFY(!id.isEmpty());
    const QJsonObject running = waitFor(*m_sim, session.value->token, id, u"running"_s);
    QVERIFY2(running.value(u"state"_s).toString() == u"running"_s,
             QJsonDocument(running).toJson().constData());
    const auto inst = await(m_client->instance(id));
    QVERIFY2(inst.ok, inst.why());
    QVERIFY(inst.value->ssh.has_value());
    m_target = SshTarget::fromInstance(*inst.value, m_key);
    QVERIFY(m_target.isValid());
    QVERIFY(m_target.expectedHostKeySha256.startsWith(u"SHA256:"_s));
}

SshConnection::ExecResult TestSshPodman::exec(const QString &command)
{
    SshConnection connection(m_target);
    if (!connection.open()) {
        SshConnection::ExecResult failed;
        failed.error = connection.errorMessage();
        return failed;
    }
    return connection.exec(command);
}

SftpTransfer::Result TestSshPodman::transfer(SftpTransfer &t, int timeoutMs)
{
    QSignalSpy finished(&t, &SftpTransfer::finished);
    (void)QTest::qWaitFor([&finished] { return !finished.isEmpty(); }, timeoutMs);
    return t.result();
}

void TestSshPodman::connectAndRunCommand()
{
    // A few connections: the time to a usable session is what a click on "Terminal" waits for.
    qint64 best = std::numeric_limits<qint64>::max();
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer timer;
        timer.start();
        SshConnection connection(m_target);
        QVERIFY2(connection.open(), qPrintable(connection.errorMessage()));
        const qint64 total = timer.elapsed();
        best = std::min(best, total);
        qInfo("connect + host key check %lld ms, auth %lld ms, total %lld ms",
              connection.connectMs(), connection.authMs(), total);
        QCOMPARE(connection.serverFingerprint(), m_target.expectedHostKeySha256);
    }
    SshConnection connection(m_target);
    QVERIFY2(connection.open(), qPrintable(connection.errorMessage()));
    const SshConnection::ExecResult r =
        connection.exec(u"echo out; echo err >&2; whoami; cat; exit 7"_s, "from stdin\n"_ba);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.exitStatus, 7);
    QCOMPARE(r.out, "out\n"_ba + m_target.user.toUtf8() + "\nfrom stdin\n"_ba);
    QCOMPARE(r.err, "err\n"_ba);
    // Several commands on one session.
    const SshConnection::ExecResult second = connection.exec(u"test -d /workspace && echo yes"_s);
    QVERIFY2(second.ok, qPrintable(second.error));
    QCOMPARE(second.out, "yes\n"_ba);
    QCOMPARE(second.exitStatus, 0);
    qInfo("best connect + auth: %lld ms", best);
}

void TestSshPodman::tamperedFingerprintIsRefused()
{
    SshTarget tampered = m_target;
    QString fp = tampered.expectedHostKeySha256;
    const qsizetype at = fp.size() - 3;
    fp[at] = fp.at(at) == u'A' ? u'B' : u'A';
    tampered.expectedHostKeySha256 = fp;
    SshConnection connection(tampered);
    QVERIFY(!connection.open());
    QCOMPARE(connection.failure(), SshConnection::Failure::HostKey);
    QVERIFY(!connection.isOpen());
    QVERIFY2(connection.errorMessage().contains(m_target.expectedHostKeySha256),
             qPrintable(connection.errorMessage()));
    QVERIFY(connection.errorMessage().contains(fp));

    // No expectation at all is refused too: never trust on first use.
    SshTarget unknown = m_target;
    unknown.expectedHostKeySha256.clear();
    SshConnection blind(unknown);
    QVERIFY(!blind.open());
    QCOMPARE(blind.failure(), SshConnection::Failure::HostKey);

    // The shell says so as well, through closed().
    SshShell shell(tampered);
    QSignalSpy closed(&shell, &SshShell::closed);
    QSignalSpy opened(&shell, &SshShell::opened);
    shell.open(80, 24);
    QVERIFY(closed.wait(30000));
    QVERIFY(opened.isEmpty());
    QVERIFY(closed.constFirst().constFirst().toString().contains(fp));
}

void TestSshPodman::keyMissingFromHostIsNamed()
{
    const KeyOutcome stranger = awaitKey(m_keys->generate(u"not-uploaded"_s));
    QVERIFY2(stranger.ok, qPrintable(stranger.error));
    SshTarget target = m_target;
    target.privateKeyPath = stranger.key.privatePath();
    target.keyFingerprint = stranger.key.fingerprintSha256();
    SshConnection connection(target);
    QVERIFY(!connection.open());
    QCOMPARE(connection.failure(), SshConnection::Failure::KeyRefused);
    const QString message = connection.errorMessage();
    QVERIFY2(message.contains(stranger.key.fingerprintSha256()), qPrintable(message));
    QVERIFY2(message.contains(m_target.describe()), qPrintable(message));
    QVERIFY2(message.contains(m_target.instanceName), qPrintable(message));

    // "Check key accepted" off the UI thread says the same; the uploaded key passes.
    struct Check
    {
        bool done = false;
        SshConnection::Failure failure = SshConnection::Failure::Protocol;
        QString error;
        QByteArray out;
    };
    const auto check = [this](const SshTarget &t) {
        auto outcome = std::make_shared<Check>();
        SshCommandJob *job = SshCommandJob::start(t, u"echo accepted"_s, this);
        connect(job, &SshCommandJob::finished, this, [job, outcome] {
            *outcome = {true, job->failure(), job->errorMessage(), job->result().out};
        });
        (void)QTest::qWaitFor([outcome] { return outcome->done; }, 30000);
        return *outcome;
    };
    const Check refused = check(target);
    QVERIFY(refused.done);
    QCOMPARE(refused.failure, SshConnection::Failure::KeyRefused);
    QCOMPARE(refused.error, message);
    const Check accepted = check(m_target);
    QVERIFY2(accepted.failure == SshConnection::Failure::None, qPrintable(accepted.error));
    QCOMPARE(accepted.out, "accepted\n"_ba);
}

void TestSshPodman::shellFollowsResize()
{
    SshShell shell(m_target);
    QByteArray screen;
    connect(&shell, &SshShell::output, this,
            [&screen](const QByteArray &bytes) { screen += bytes; });
    QSignalSpy opened(&shell, &SshShell::opened);
    QSignalSpy closed(&shell, &SshShell::closed);
    shell.open(80, 24);
    QVERIFY2(opened.wait(30000),
             closed.isEmpty() ? "no answer"
                              : qPrintable(closed.constFirst().constFirst().toString()));
    qInfo("shell: connect %lld ms, auth %lld ms", shell.connectMs(), shell.authMs());

    shell.sendInput("echo TERM=$TERM; stty size\n"_ba);
    QTRY_VERIFY_WITH_TIMEOUT(screen.contains("24 80\r\n"), 15000);
    QVERIFY(screen.contains("TERM=xterm-256color"));
    shell.resize(132, 40);
    screen.clear();
    shell.sendInput("stty size\n"_ba);
    QTRY_VERIFY2_WITH_TIMEOUT(screen.contains("40 132\r\n"), screen.toHex(' ').constData(), 15000);

    // Keystrokes one at a time, as typed, reach the shell in order.
    screen.clear();
    for (const char c : "echo typed-$((6*7))\n"_ba)
        shell.sendInput(QByteArray(1, c));
    QTRY_VERIFY_WITH_TIMEOUT(screen.contains("typed-42"), 15000);

    shell.sendInput("exit 3\n"_ba);
    QVERIFY(closed.wait(15000));
    QVERIFY2(closed.constFirst().constFirst().toString().contains(u"3"_s),
             qPrintable(closed.constFirst().constFirst().toString()));
    QVERIFY(!shell.isOpen());
}

void TestSshPodman::portForwardReachesHttpServer()
{
    // python3 is in the base image: serve a page and a 5 MB file from /tmp/www on loopback only.
    const SshConnection::ExecResult served = exec(
        u"mkdir -p /tmp/www && cd /tmp/www && echo forwarded-ok > index.html"
        " && head -c 5000000 /dev/urandom > big.bin && sha256sum big.bin | cut -c1-64"
        " && (setsid python3 -m http.server 18080 --bind 127.0.0.1 </dev/null >/dev/null 2>&1 &)"
        // Until it listens (bash's /dev/tcp: no extra tools needed in the image).
        " && for i in $(seq 300); do (exec 3<>/dev/tcp/127.0.0.1/18080) 2>/dev/null && exit 0; "
        "sleep 0.1; done;"
        " exit 1"_s);
    QVERIFY2(served.ok && served.exitStatus == 0,
             qPrintable(served.error + QString::fromUtf8(served.err)));
    const QString bigSha = QString::fromLatin1(served.out.trimmed());

    SshPortForward forward(m_target, 18080);
    QSignalSpy listening(&forward, &SshPortForward::listening);
    QSignalSpy failed(&forward, &SshPortForward::failed);
    forward.start(0);
    QVERIFY2(listening.wait(30000),
             failed.isEmpty() ? "no answer"
                              : qPrintable(failed.constFirst().constFirst().toString()));
    const quint16 port = forward.localPort();
    QVERIFY(port > 0);

    QNetworkAccessManager nam;
    const auto get = [&nam](const QString &url) {
        QNetworkReply *reply = nam.get(QNetworkRequest(QUrl(url)));
        (void)QTest::qWaitFor([reply] { return reply->isFinished(); }, 30000);
        const QByteArray body =
            reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
        reply->deleteLater();
        return body;
    };
    const QString base = u"http://127.0.0.1:%1/"_s.arg(port);
    QCOMPARE(get(base + u"index.html"_s), "forwarded-ok\n"_ba);
    const QByteArray big = get(base + u"big.bin"_s);
    QCOMPARE(big.size(), 5000000);
    QCOMPARE(QString::fromLatin1(QCryptographicHash::hash(big, QCryptographicHash::Sha256).toHex()),
             bigSha);
    // Two at once, on two channels of the one session.
    QNetworkReply *a = nam.get(QNetworkRequest(QUrl(base + u"big.bin"_s)));
    QNetworkReply *b = nam.get(QNetworkRequest(QUrl(base + u"index.html"_s)));
    QTRY_VERIFY_WITH_TIMEOUT(a->isFinished() && b->isFinished(), 30000);
    QCOMPARE(a->readAll().size(), 5000000);
    QCOMPARE(b->readAll(), "forwarded-ok\n"_ba);
    delete a;
    delete b;
    QVERIFY(failed.isEmpty());
    forward.stop();
    QTcpSocket closedPort;
    closedPort.connectToHost(QHostAddress::LocalHost, port);
    QVERIFY(!closedPort.waitForConnected(2000));
}

void TestSshPodman::sftpRoundTrip100MB()
{
    const qint64 size = 100LL * 1024 * 1024;
    const QString local = m_dir->filePath(u"weights.bin"_s);
    const QString sha = writeRandomFile(local, size);
    QVERIFY(!sha.isEmpty());

    SftpTransfer up(m_target);
    QList<qint64> done;
    connect(&up, &SftpTransfer::progress, this,
            [&done](qint64 bytes, qint64 total, double, const QString &) {
                if (total == 100LL * 1024 * 1024)
                    done.append(bytes);
            });
    up.upload(local);
    const SftpTransfer::Result sent = transfer(up);
    QVERIFY2(sent.ok, qPrintable(sent.error));
    QCOMPARE(sent.files, 1);
    QCOMPARE(sent.bytesSent, size);
    QCOMPARE(sent.resumedFromBytes, 0);
    QVERIFY(done.size() > 2);
    QVERIFY(std::is_sorted(done.cbegin(), done.cend()));
    QCOMPARE(done.constLast(), size);
    qInfo("SFTP upload: %lld bytes in %lld ms = %.1f MB/s (verified included)", sent.bytesSent,
          sent.elapsedMs, sent.bytesPerSecond() / 1e6);
    // Checked independently of the transfer's own verification.
    const SshConnection::ExecResult remote =
        exec(u"sha256sum /workspace/weights.bin; ls /workspace"_s);
    QVERIFY2(remote.ok, qPrintable(remote.error));
    QVERIFY(remote.out.startsWith(sha.toLatin1()));
    QVERIFY(!remote.out.contains(".cardhour-part"));

    const QString back = m_dir->filePath(u"back"_s);
    SftpTransfer down(m_target);
    down.download(u"/workspace/weights.bin"_s, back);
    const SftpTransfer::Result received = transfer(down);
    QVERIFY2(received.ok, qPrintable(received.error));
    QCOMPARE(received.bytesSent, size);
    qInfo("SFTP download: %lld bytes in %lld ms = %.1f MB/s (verified included)",
          received.bytesSent, received.elapsedMs, received.bytesPerSecond() / 1e6);
    QCOMPARE(sha256OfFile(back + u"/weights.bin"_s), sha);

    // Folders, nested, both ways.
    const QString tree = m_dir->filePath(u"dataset"_s);
    QVERIFY(QDir().mkpath(tree + u"/train/a"_s));
    QVERIFY(QDir().mkpath(tree + u"/empty"_s));
    const QString sha1 = writeRandomFile(tree + u"/train/a/x.bin"_s, 300000);
    const QString sha2 = writeRandomFile(tree + u"/labels 标签.txt"_s, 1234);
    SftpTransfer folderUp(m_target);
    folderUp.upload(tree);
    const SftpTransfer::Result treeSent = transfer(folderUp);
    QVERIFY2(treeSent.ok, qPrintable(treeSent.error));
    QCOMPARE(treeSent.files, 2);
    SftpTransfer folderDown(m_target);
    folderDown.download(u"/workspace/dataset"_s, m_dir->filePath(u"tree-back"_s));
    const SftpTransfer::Result treeBack = transfer(folderDown);
    QVERIFY2(treeBack.ok, qPrintable(treeBack.error));
    QCOMPARE(sha256OfFile(m_dir->filePath(u"tree-back/dataset/train/a/x.bin"_s)), sha1);
    QCOMPARE(sha256OfFile(m_dir->filePath(u"tree-back/dataset/labels 标签.txt"_s)), sha2);
    QVERIFY(QFileInfo(m_dir->filePath(u"tree-back/dataset/empty"_s)).isDir());

    // A missing source is a clear error, not a crash or a hang.
    SftpTransfer missing(m_target);
    missing.download(u"/workspace/no-such-file"_s, back);
    const SftpTransfer::Result none = transfer(missing);
    QVERIFY(!none.ok);
    QVERIFY2(none.error.contains(u"/workspace/no-such-file"_s), qPrintable(none.error));
}

void TestSshPodman::interruptedTransfersResume()
{
    const qint64 size = 48LL * 1024 * 1024;
    const QString local = m_dir->filePath(u"resume.bin"_s);
    const QString sha = writeRandomFile(local, size);
    QVERIFY(!sha.isEmpty());

    // Cancel once a third is across: the partial file stays on the instance.
    SftpTransfer first(m_target);
    connect(&first, &SftpTransfer::progress, &first,
            [&first, size](qint64 bytes, qint64, double, const QString &) {
                if (bytes > size / 3)
                    first.cancel();
            });
    first.upload(local);
    const SftpTransfer::Result cut = transfer(first);
    QVERIFY(!cut.ok);
    QVERIFY(cut.cancelled);
    const SshConnection::ExecResult part =
        exec(u"stat -c %s /workspace/resume.bin.cardhour-part; ls /workspace"_s);
    QVERIFY2(part.ok, qPrintable(part.error));
    const qint64 partSize = part.out.split('\n').value(0).toLongLong();
    QVERIFY2(partSize > 0 && partSize < size, part.out.constData());
    QVERIFY(!part.out.contains("resume.bin\n"));

    SftpTransfer second(m_target);
    second.upload(local);
    const SftpTransfer::Result resumed = transfer(second);
    QVERIFY2(resumed.ok, qPrintable(resumed.error));
    QCOMPARE(resumed.resumedFromBytes, partSize);
    QCOMPARE(resumed.bytesSent, size - partSize);
    const SshConnection::ExecResult check = exec(u"sha256sum /workspace/resume.bin"_s);
    QVERIFY(check.out.startsWith(sha.toLatin1()));

    // Downloads resume from the local partial file the same way.
    const QString back = m_dir->filePath(u"resume-back"_s);
    SftpTransfer cutDown(m_target);
    connect(&cutDown, &SftpTransfer::progress, &cutDown,
            [&cutDown, size](qint64 bytes, qint64, double, const QString &) {
                if (bytes > size / 2)
                    cutDown.cancel();
            });
    cutDown.download(u"/workspace/resume.bin"_s, back);
    QVERIFY(transfer(cutDown).cancelled);
    const qint64 localPart = QFileInfo(back + u"/resume.bin.cardhour-part"_s).size();
    QVERIFY(localPart > 0 && localPart < size);
    SftpTransfer restDown(m_target);
    restDown.download(u"/workspace/resume.bin"_s, back);
    const SftpTransfer::Result rest = transfer(restDown);
    QVERIFY2(rest.ok, qPrintable(rest.error));
    QCOMPARE(rest.resumedFromBytes, localPart);
    QCOMPARE(sha256OfFile(back + u"/resume.bin"_s), sha);
    QVERIFY(!QFile::exists(back + u"/resume.bin.cardhour-part"_s));

    // A stale partial file (other bytes than ours) is caught by the SHA-256 and sent again.
    const SshConnection::ExecResult stale =
        exec(u"head -c 1000000 /dev/urandom > /workspace/resume.bin.cardhour-part"_s);
    QVERIFY2(stale.ok, qPrintable(stale.error));
    SftpTransfer again(m_target);
    again.upload(local);
    const SftpTransfer::Result redone = transfer(again);
    QVERIFY2(redone.ok, qPrintable(redone.error));
    QCOMPARE(redone.resumedFromBytes, 0);
    QVERIFY(exec(u"sha256sum /workspace/resume.bin"_s).out.startsWith(sha.toLatin1()));
}

void TestSshPodman::sshConfigBlockWorksWithOpenSsh()
{
    // A temporary HOME with a config of the user's own; OpenSSH with -F on the written file.
    const QString home = m_dir->filePath(u"home"_s);
    QVERIFY(QDir().mkpath(home + u"/.ssh"_s));
    const QString config = home + u"/.ssh/config"_s;
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Host *\n    ServerAliveInterval 30\n    StrictHostKeyChecking no\n"
                   "    UserKnownHostsFile /dev/null\n");
    }
    const QString knownHosts = m_dir->filePath(u"cardhour/known_hosts"_s);
    QString error;
    QVERIFY2(SshConfigWriter::pinHostKey(knownHosts, m_target, &error), qPrintable(error));
    QVERIFY2(SshConfigWriter::addToConfig(config, m_target, knownHosts, &error), qPrintable(error));

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, home);
    env.remove(u"SSH_AUTH_SOCK"_s);
    const QString alias = SshConfigWriter::hostAlias(m_target.instanceName);
    const QStringList batch{u"-o"_s, u"BatchMode=yes"_s, u"-o"_s, u"ConnectTimeout=15"_s};
    ProcessResult r = runProgram(
        u"ssh"_s, QStringList{u"-F"_s, config} + batch + QStringList{alias, u"echo via-config"_s},
        env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(r.out, "via-config\n"_ba);

    // "Copy SSH command": the same arguments work without any config.
    r = runProgram(u"ssh"_s,
                   QStringList{u"-F"_s, u"/dev/null"_s} + batch
                       + SshConfigWriter::sshArguments(m_target, knownHosts)
                       + QStringList{u"echo via-command"_s},
                   env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(r.out, "via-command\n"_ba);

    // The pinning is real: with another key pinned for the address, OpenSSH refuses, in spite of
    // the user's "StrictHostKeyChecking no" further down the file.
    SshTarget impostor = m_target;
    const KeyOutcome other = awaitKey(m_keys->generate(u"impostor-host"_s));
    QVERIFY2(other.ok, qPrintable(other.error));
    impostor.hostKeyLine = other.key.publicKeyLine();
    impostor.expectedHostKeySha256 = other.key.fingerprintSha256();
    const QString wrongHosts = m_dir->filePath(u"cardhour/wrong_known_hosts"_s);
    QVERIFY2(SshConfigWriter::pinHostKey(wrongHosts, impostor, &error), qPrintable(error));
    QVERIFY2(SshConfigWriter::addToConfig(config, m_target, wrongHosts, &error), qPrintable(error));
    r = runProgram(u"ssh"_s, QStringList{u"-F"_s, config} + batch + QStringList{alias, u"true"_s},
                   env);
    QVERIFY2(r.exitCode != 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("HOST IDENTIFICATION HAS CHANGED")
                 || r.err.contains("Host key verification failed"),
             r.err.constData());
}

QTEST_GUILESS_MAIN(TestSshPodman)
#include "tst_ssh_podman.moc"
