// SshProbe against a real sshd: the host's /usr/sbin/sshd when openssh-server is installed,
// otherwise one in a container of the "base" image (built on first use, kept afterwards).
#include "PodmanTestSupport.h"
#include "runtime/InstanceFiles.h"
#include "runtime/SshProbe.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>
#include <optional>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;
using namespace cardhour::test;

namespace {

int openFds()
{
    return int(QDir(u"/proc/self/fd"_s)
                   .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System)
                   .size());
}

int freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

// Collects the one result of an asynchronous probe.
struct Outcome
{
    std::optional<SshProbe::Result> result;
    int calls = 0;
    SshProbe::Callback callback()
    {
        return [this](const SshProbe::Result &r) {
            result = r;
            ++calls;
        };
    }
};

} // namespace

class TestSshProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void notListening();
    void ready();
    void hostKeyMismatch();
    void handshakeFailsOnAServerThatIsNotSsh();
    void untilReady();
    void untilReadyStopsAtOnceOnMismatch();
    void untilReadyGivesUpAtTheDeadline();
    void cancelledProbeNeverCallsBack();
    void deletingTheContextCancels();
    void leavesNoSocketsBehind();

private:
    bool startHostSshd();
    QString startContainerSshd();

    QTemporaryDir m_data;
    std::optional<InstanceFiles> m_files;
    std::unique_ptr<QProcess> m_sshd;
    QString m_provider = u"cardhour-test-probe-"_s + randomSuffix();
    std::unique_ptr<CleanupGuard> m_cleanup;
    int m_port = 0;
    QString m_otherSha256; // a valid fingerprint of a different key
};

bool TestSshProbe::startHostSshd()
{
    const QString sshd = u"/usr/sbin/sshd"_s;
    if (!QFileInfo(sshd).isExecutable())
        return false;
    QDir().mkpath(u"/run/sshd"_s); // privilege separation directory, when running as root
    m_port = freePort();
    m_sshd = std::make_unique<QProcess>();
    m_sshd->setProcessChannelMode(QProcess::MergedChannels);
    m_sshd->start(sshd,
                  {u"-D"_s, u"-e"_s, u"-f"_s, u"/dev/null"_s, u"-p"_s, QString::number(m_port),
                   u"-h"_s, m_files->hostKeyPath(), u"-o"_s, u"ListenAddress=127.0.0.1"_s, u"-o"_s,
                   u"PidFile=none"_s, u"-o"_s, u"UsePAM=no"_s, u"-o"_s, u"StrictModes=no"_s});
    if (!m_sshd->waitForStarted(5000)) {
        m_sshd.reset();
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 10000 && m_sshd->state() == QProcess::Running) {
        if (SshProbe::probeOnce(u"127.0.0.1"_s, m_port, m_files->hostKeySha256(), 500).isReady())
            return true;
        QTest::qWait(50);
    }
    qWarning("host sshd did not come up: %s", m_sshd->readAll().constData());
    m_sshd->kill();
    m_sshd->waitForFinished(2000);
    m_sshd.reset();
    return false;
}

// Empty on success, else a reason to skip ("!"-prefixed: a reason to fail).
QString TestSshProbe::startContainerSshd()
{
    const ImageCheck image = ensureBaseImage();
    if (!image.error.isEmpty())
        return u"!"_s + image.error;
    if (!image.skip.isEmpty())
        return image.skip;
    m_cleanup = std::make_unique<CleanupGuard>(m_provider);
    m_port = freePort();
    // The box's PID 1 and sshd configuration come from the provider, as for every instance.
    InstanceFiles::writeBootFilesTo(m_files->sshDir(), {});
    const Run run =
        podman({u"run"_s, u"-d"_s, u"--pull=never"_s, u"--name"_s,
                u"cardhour-probe-test-"_s + randomSuffix(), u"--label"_s,
                u"cardhour.provider="_s + m_provider, u"-p"_s, u"127.0.0.1:%1:22"_s.arg(m_port),
                u"-v"_s, m_files->sshDir() + u":/etc/cardhour/ssh:ro"_s, baseImageTag()});
    if (!run.ok())
        return u"!podman run failed: "_s + run.errTail();
    QElapsedTimer clock;
    clock.start();
    SshProbe::Result last;
    while (clock.elapsed() < 60000) {
        last = SshProbe::probeOnce(u"127.0.0.1"_s, m_port, m_files->hostKeySha256(), 1000);
        if (last.isReady())
            return {};
        QTest::qWait(100);
    }
    const Run logs = podman({u"logs"_s, u"--latest"_s});
    return u"!sshd in the container never became ready: %1; log: %2"_s.arg(last.message,
                                                                           logs.errTail());
}

void TestSshProbe::initTestCase()
{
    QVERIFY(m_data.isValid());
    m_files = InstanceFiles::prepare(m_data.path(), u"probe"_s);
    m_otherSha256 = InstanceFiles::prepare(m_data.path(), u"other"_s).hostKeySha256();
    if (startHostSshd()) {
        qInfo("testing against the host's sshd on port %d", m_port);
        return;
    }
    const QString why = startContainerSshd();
    if (why.startsWith(u'!'))
        QFAIL(qPrintable(why.mid(1)));
    if (!why.isEmpty())
        QSKIP(qPrintable(u"no sshd to probe: openssh-server is not installed and "_s + why));
    qInfo("testing against sshd in a container of %s on port %d", qPrintable(baseImageTag()),
          m_port);
}

void TestSshProbe::cleanupTestCase()
{
    if (m_sshd) {
        m_sshd->kill();
        m_sshd->waitForFinished(5000);
    }
    m_cleanup.reset();
}

void TestSshProbe::notListening()
{
    QElapsedTimer clock;
    clock.start();
    const SshProbe::Result r =
        SshProbe::probeOnce(u"127.0.0.1"_s, freePort(), m_files->hostKeySha256());
    QCOMPARE(r.status, SshProbe::Status::NotListening);
    QVERIFY(!r.message.isEmpty());
    QVERIFY(!r.isReady());
    QVERIFY(clock.elapsed() < 1000);
}

void TestSshProbe::ready()
{
    const SshProbe::Result r =
        SshProbe::probeOnce(u"127.0.0.1"_s, m_port, m_files->hostKeySha256());
    QVERIFY2(r.isReady(), qPrintable(r.message));
    QCOMPARE(r.seenHostKeySha256, m_files->hostKeySha256());
    // "localhost" resolves as well.
    QVERIFY(SshProbe::probeOnce(u"localhost"_s, m_port, m_files->hostKeySha256()).isReady());
}

void TestSshProbe::hostKeyMismatch()
{
    const SshProbe::Result r = SshProbe::probeOnce(u"127.0.0.1"_s, m_port, m_otherSha256);
    QCOMPARE(r.status, SshProbe::Status::HostKeyMismatch);
    QCOMPARE(r.seenHostKeySha256, m_files->hostKeySha256());
    QVERIFY(r.message.contains(m_otherSha256));

    // A tampered fingerprint (one character changed) is a mismatch too.
    QString tampered = m_files->hostKeySha256();
    tampered[10] = tampered.at(10) == u'A' ? u'B' : u'A';
    QCOMPARE(SshProbe::probeOnce(u"127.0.0.1"_s, m_port, tampered).status,
             SshProbe::Status::HostKeyMismatch);
    QCOMPARE(SshProbe::probeOnce(u"127.0.0.1"_s, m_port, QString()).status,
             SshProbe::Status::HostKeyMismatch);
}

void TestSshProbe::handshakeFailsOnAServerThatIsNotSsh()
{
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost, 0));
    connect(&server, &QTcpServer::newConnection, &server, [&server] {
        while (QTcpSocket *socket = server.nextPendingConnection()) {
            socket->write("HTTP/1.1 400 Bad Request\r\n\r\n");
            socket->disconnectFromHost();
        }
    });
    Outcome outcome;
    SshProbe::probeUntilReady(u"127.0.0.1"_s, server.serverPort(), m_files->hostKeySha256(), 1500,
                              this, outcome.callback());
    QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 10000);
    QCOMPARE(outcome.result->status, SshProbe::Status::HandshakeFailed);
    QVERIFY(outcome.result->attempts > 1); // retried until the deadline

    // And one that accepts but never says anything: bounded by the attempt's timeout.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    QElapsedTimer clock;
    clock.start();
    const SshProbe::Result r =
        SshProbe::probeOnce(u"127.0.0.1"_s, silent.serverPort(), m_files->hostKeySha256(), 300);
    QCOMPARE(r.status, SshProbe::Status::HandshakeFailed);
    QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
}

void TestSshProbe::untilReady()
{
    Outcome outcome;
    QPointer<SshProbe> probe = SshProbe::probeUntilReady(
        u"127.0.0.1"_s, m_port, m_files->hostKeySha256(), 10000, this, outcome.callback());
    QVERIFY(!outcome.result); // never from inside the call
    QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 15000);
    QVERIFY2(outcome.result->isReady(), qPrintable(outcome.result->message));
    QCOMPARE(outcome.result->attempts, 1);
    QTRY_VERIFY(probe.isNull()); // deletes itself
    QTest::qWait(100);
    QCOMPARE(outcome.calls, 1);
}

void TestSshProbe::untilReadyStopsAtOnceOnMismatch()
{
    Outcome outcome;
    QElapsedTimer clock;
    clock.start();
    SshProbe::probeUntilReady(u"127.0.0.1"_s, m_port, m_otherSha256, 30000, this,
                              outcome.callback());
    QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 15000);
    QCOMPARE(outcome.result->status, SshProbe::Status::HostKeyMismatch);
    QCOMPARE(outcome.result->attempts, 1);
    QVERIFY(clock.elapsed() < 5000);
}

void TestSshProbe::untilReadyGivesUpAtTheDeadline()
{
    Outcome outcome;
    QElapsedTimer clock;
    clock.start();
    SshProbe::probeUntilReady(u"127.0.0.1"_s, freePort(), m_files->hostKeySha256(), 600, this,
                              outcome.callback());
    // The event loop keeps running meanwhile.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start(10);
    QTRY_VERIFY_WITH_TIMEOUT(outcome.result.has_value(), 10000);
    QCOMPARE(outcome.result->status, SshProbe::Status::NotListening);
    QVERIFY(outcome.result->attempts > 3);
    QVERIFY(outcome.result->message.contains(u"not ready within"_s));
    QVERIFY(clock.elapsed() >= 500);
    QVERIFY(ticks > 20);
}

void TestSshProbe::cancelledProbeNeverCallsBack()
{
    Outcome outcome;
    QPointer<SshProbe> probe = SshProbe::probeUntilReady(
        u"127.0.0.1"_s, freePort(), m_files->hostKeySha256(), 5000, this, outcome.callback());
    QTest::qWait(120);
    probe->cancel();
    QTRY_VERIFY(probe.isNull());
    QTest::qWait(300);
    QCOMPARE(outcome.calls, 0);

    // Cancelled after the result arrived but before the callback ran: no call either.
    Outcome late;
    QPointer<SshProbe> quick = SshProbe::probeUntilReady(
        u"127.0.0.1"_s, m_port, m_files->hostKeySha256(), 5000, this, late.callback());
    quick->cancel();
    QTest::qWait(1500);
    QCOMPARE(late.calls, 0);
}

void TestSshProbe::deletingTheContextCancels()
{
    Outcome outcome;
    auto *context = new QObject;
    QPointer<SshProbe> probe = SshProbe::probeUntilReady(
        u"127.0.0.1"_s, m_port, m_files->hostKeySha256(), 5000, context, outcome.callback());
    delete context;
    QVERIFY(probe.isNull());
    QTest::qWait(1500);
    QCOMPARE(outcome.calls, 0);
}

void TestSshProbe::leavesNoSocketsBehind()
{
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    const int closed = freePort();
    const int before = openFds();
    for (int i = 0; i < 5; ++i) {
        const SshProbe::Result ok =
            SshProbe::probeOnce(u"127.0.0.1"_s, m_port, m_files->hostKeySha256());
        QVERIFY2(ok.isReady(), qPrintable(ok.message));
        QCOMPARE(SshProbe::probeOnce(u"127.0.0.1"_s, m_port, m_otherSha256).status,
                 SshProbe::Status::HostKeyMismatch);
        QCOMPARE(SshProbe::probeOnce(u"127.0.0.1"_s, closed, m_otherSha256).status,
                 SshProbe::Status::NotListening);
        QCOMPARE(
            SshProbe::probeOnce(u"127.0.0.1"_s, silent.serverPort(), m_otherSha256, 100).status,
            SshProbe::Status::HandshakeFailed);
    }
    // The silent server's accepted (and then abandoned) connections are its own.
    while (QTcpSocket *socket = silent.nextPendingConnection())
        delete socket;
    QCOMPARE(openFds(), before);
}

QTEST_GUILESS_MAIN(TestSshProbe)
#include "tst_sshprobe.moc"
