// cardhourctl with real containers: `launch --wait` returns when SSH answers, `ssh NAME --
// COMMAND` runs OpenSSH with the provider's host key pinned and gives back the remote status,
// and a host that presents another key is refused with both fingerprints named.
#include "CtlProcess.h"
#include "PodmanApiTest.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace cardhour::test;

class TestCardhourctlPodman : public PodmanApiTest
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { cleanupPodmanTest(); }
    void launchWaitThenSsh();
    void tamperedHostKeyIsRefused();
    void freshAccountsFirstHostCanBeLoggedInTo();

private:
    CtlRun ctl(const QStringList &arguments, const QByteArray &input = {});
    QHash<QString, QString> variables() const;
    QProcessEnvironment environment() const;
    SimProcess *m_sim = nullptr;
    QTemporaryDir m_data;
    QString m_host;
    QString m_id;
};

void TestCardhourctlPodman::initTestCase()
{
    if (qEnvironmentVariable("CARDHOUR_KEYRING") != u"ready"_s)
        QSKIP("no keychain: run through tests/core/run-with-keyring");
    initPodmanTest();
    m_sim = startSim();
    QVERIFY(m_sim);
    QVERIFY(!m_sim->signUp(u"ctl@example.com"_s).isEmpty());
    const CtlRun login =
        ctl({u"login"_s, u"--email"_s, u"ctl@example.com"_s}, "correct horse battery\n");
    QVERIFY2(login.code == 0, login.describe());
    const CtlRun key = ctl({u"keys"_s, u"generate"_s, u"podman"_s});
    QVERIFY2(key.code == 0, key.describe());
}

QHash<QString, QString> TestCardhourctlPodman::variables() const
{
    return {{u"CARDHOUR_PROVIDER_URL"_s, m_sim->baseUrl().toString()},
            {u"CARDHOUR_KEYCHAIN_SERVICE"_s,
             u"cardhourctl-podman-%1"_s.arg(QCoreApplication::applicationPid())},
            {u"XDG_DATA_HOME"_s, m_data.path()}};
}

QProcessEnvironment TestCardhourctlPodman::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QHash<QString, QString> vars = variables();
    for (auto it = vars.cbegin(); it != vars.cend(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

CtlRun TestCardhourctlPodman::ctl(const QStringList &arguments, const QByteArray &input)
{
    return runCtl(arguments, variables(), input);
}

void TestCardhourctlPodman::launchWaitThenSsh()
{
    CtlRun r = ctl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--cards"_s, u"2"_s, u"--image"_s,
                    u"base"_s, u"--wait"_s, u"--timeout"_s, u"180"_s, u"--json"_s});
    QVERIFY2(r.code == 0, r.describe());
    m_host = r.json()[u"name"_s].toString();
    m_id = r.json()[u"id"_s].toString();
    m_instanceIds.append(m_id);
    QCOMPARE(r.json()[u"state"_s].toString(), u"running"_s);
    QVERIFY(
        r.json()[u"retention"_s][u"terminate_deletes"_s].toArray().contains(u"workspace_volume"_s));

    r = ctl({u"ssh"_s, m_host, u"--"_s, u"nvidia-smi"_s, u"-L"_s});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY2(r.out.contains(u"GPU 0: NVIDIA GeForce RTX 4090"_s), r.describe());
    QVERIFY2(r.out.contains(u"GPU 1: NVIDIA GeForce RTX 4090"_s), r.describe());
    QVERIFY(!r.out.contains(u"GPU 2:"_s));

    // The remote command's exit status is cardhourctl's.
    r = ctl({u"ssh"_s, m_host, u"--"_s, u"exit"_s, u"3"_s});
    QCOMPARE(r.code, 3);

    // ssh-config: the block the desktop client writes, with the pinned known_hosts.
    r = ctl({u"ssh-config"_s, m_host});
    QVERIFY2(r.code == 0, r.describe());
    QVERIFY(r.out.contains(u"StrictHostKeyChecking yes"_s));
    QVERIFY(r.out.contains(m_data.filePath(u"CardHour/ssh/known_hosts"_s)));

    // forward: a local port to the host's sshd (port 22 inside), which greets with its banner.
    QProcess forward;
    forward.setProcessEnvironment(environment());
    forward.start(QStringLiteral(CARDHOUR_CTL_BIN), {u"forward"_s, m_host, u"22"_s, u"--json"_s});
    QByteArray line;
    QTRY_VERIFY_WITH_TIMEOUT((line += forward.readAllStandardOutput()).contains('\n'), 30000);
    const int port = QJsonDocument::fromJson(line)[u"local_port"_s].toInt();
    QVERIFY2(port > 0, line.constData());
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, quint16(port));
    QVERIFY(socket.waitForConnected(10000));
    QByteArray banner;
    QTRY_VERIFY_WITH_TIMEOUT((banner += socket.readAll()).startsWith("SSH-2.0-"), 20000);
    socket.close();
    forward.terminate();
    QVERIFY(forward.waitForFinished(10000));

    // rm without a terminal names what the provider deletes.
    r = ctl({u"rm"_s, m_host});
    QVERIFY2(r.code == 2 && r.err.contains(u"workspace_volume"_s), r.describe());
}

void TestCardhourctlPodman::tamperedHostKeyIsRefused()
{
    if (m_host.isEmpty())
        QSKIP("needs the host of launchWaitThenSsh()");
    const QString expected =
        ctl({u"show"_s, m_host, u"--json"_s}).json()[u"ssh"_s][u"host_key_sha256"_s].toString();
    QVERIFY(expected.startsWith(u"SHA256:"_s));
    // The host now presents another key: a new pair, written over the one sshd reads (in place,
    // the file may be bind-mounted), and sshd told to reload.
    const QString keyPath =
        QDir(m_sim->dataDir()).filePath(u"instances/%1/ssh/ssh_host_ed25519_key"_s.arg(m_id));
    QVERIFY2(QFile::exists(keyPath), qPrintable(keyPath));
    const QString fresh = m_dir->filePath(u"other_host_key"_s);
    const Cmd made =
        run(u"ssh-keygen"_s, {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, u""_s, u"-f"_s, fresh});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const Cmd print = run(u"ssh-keygen"_s, {u"-l"_s, u"-f"_s, fresh + u".pub"_s});
    const QString other = QString::fromUtf8(print.out).section(u' ', 1, 1);
    QVERIFY2(other.startsWith(u"SHA256:"_s) && other != expected, qPrintable(print.describe()));
    for (const QString &suffix : {u""_s, u".pub"_s}) {
        QFile from(fresh + suffix);
        QVERIFY(from.open(QIODevice::ReadOnly));
        QFile to(keyPath + suffix);
        if (!to.exists() && !suffix.isEmpty())
            continue;
        QVERIFY2(to.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(to.errorString()));
        to.write(from.readAll());
    }
    const Cmd reload = podman({u"exec"_s, instanceContainer(m_id), u"sh"_s, u"-c"_s,
                               u"kill -HUP $(cat /run/sshd.pid 2>/dev/null || pidof sshd)"_s});
    QVERIFY2(reload.ok(), qPrintable(reload.describe()));

    QTRY_VERIFY_WITH_TIMEOUT(ctl({u"ssh"_s, m_host, u"--"_s, u"true"_s}).err.contains(other),
                             20000);
    const CtlRun r = ctl({u"ssh"_s, m_host, u"--"_s, u"true"_s});
    QVERIFY2(r.code == 1, r.describe());
    QVERIFY2(r.err.contains(expected) && r.err.contains(other), r.describe());
    QVERIFY(r.out.isEmpty());
}

// A script's first host on a fresh account, with no key anywhere: launch makes and uploads one
// (and says so), and the next `ssh` logs in with it.
void TestCardhourctlPodman::freshAccountsFirstHostCanBeLoggedInTo()
{
    QTemporaryDir fresh;
    QVERIFY(fresh.isValid());
    QHash<QString, QString> vars = variables();
    vars[u"CARDHOUR_KEYCHAIN_SERVICE"_s] += u"-fresh"_s;
    vars[u"XDG_DATA_HOME"_s] = fresh.path();
    QVERIFY(!m_sim->signUp(u"fresh@example.com"_s).isEmpty());
    CtlRun r =
        runCtl({u"login"_s, u"--email"_s, u"fresh@example.com"_s}, vars, "correct horse battery\n");
    QVERIFY2(r.code == 0, r.describe());
    r = runCtl({u"launch"_s, u"--gpu"_s, u"rtx4090"_s, u"--image"_s, u"base"_s, u"--wait"_s,
                u"--timeout"_s, u"180"_s, u"--json"_s},
               vars);
    QVERIFY2(r.code == 0, r.describe());
    m_instanceIds.append(r.json()[u"id"_s].toString());
    QVERIFY2(r.err.contains(u"had no SSH key"_s), r.describe());
    QCOMPARE(r.json()[u"ssh_key_ids"_s].toArray().size(), 1);
    const QString host = r.json()[u"name"_s].toString();
    r = runCtl({u"ssh"_s, host, u"--"_s, u"echo first-host-$((6*7))"_s}, vars);
    QVERIFY2(r.code == 0 && r.out.contains(u"first-host-42"_s), r.describe());
}

QTEST_GUILESS_MAIN(TestCardhourctlPodman)
#include "tst_cardhourctl_podman.moc"
