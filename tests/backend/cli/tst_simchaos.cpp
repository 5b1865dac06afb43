// `cardhour-sim chaos` against a running provider, as a client of its API: the token from
// CARDHOUR_TOKEN or a log-in with --email (password on stdin, logged out after), faults added,
// listed (plain and --json) and cleared; a provider without --allow-chaos refuses with its
// reason; no token, a refused token and bad usage each get their own exit status.
#include "SimProcess.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;
using cardhour::test::Reply;
using cardhour::test::SimProcess;

namespace {
struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
    QByteArray describe() const
    {
        return u"exit %1\nstdout: %2\nstderr: %3"_s.arg(exitCode).arg(out, err).toUtf8();
    }
};
} // namespace

class TestSimChaos : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup() { m_sim.terminate(); }
    void addListClearWithTheToken();
    void logInWithEmailAndStdin();
    void refusalsHaveTheirExitStatus();
    void offWithoutAllowChaos();

private:
    Run chaos(const QStringList &args, const QString &token, const QByteArray &input = {});

    std::unique_ptr<QTemporaryDir> m_data;
    SimProcess m_sim;
    QString m_token;
};

void TestSimChaos::init()
{
    m_data = std::make_unique<QTemporaryDir>(); // fresh accounts each time
    QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s, u"--allow-chaos"_s}, m_data->path()),
             qPrintable(m_sim.lastError()));
    m_token = m_sim.signUp(u"cli@example.com"_s);
    QVERIFY(!m_token.isEmpty());
}

Run TestSimChaos::chaos(const QStringList &args, const QString &token, const QByteArray &input)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"CARDHOUR_TOKEN"_s);
    if (!token.isEmpty())
        env.insert(u"CARDHOUR_TOKEN"_s, token);
    process.setProcessEnvironment(env);
    process.start(SimProcess::binaryPath(),
                  QStringList{u"chaos"_s} + args
                      + QStringList{u"--url"_s, m_sim.baseUrl().toString()});
    process.write(input);
    process.closeWriteChannel();
    Run run;
    // The event loop runs meanwhile, so the provider's answers are not held up by this test.
    const QDeadlineTimer deadline(60'000);
    while (process.state() != QProcess::NotRunning && !deadline.hasExpired())
        QTest::qWait(20);
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

void TestSimChaos::addListClearWithTheToken()
{
    Run r = chaos({u"add"_s, u"fail-launch"_s, u"--reason"_s, u"rehearsed outage"_s}, m_token);
    QVERIFY2(r.exitCode == 0, r.describe().constData());
    QVERIFY2(r.out.contains(u"fail_launch"_s) && r.out.contains(u"armed"_s),
             r.describe().constData());
    const QString id = r.out.section(u' ', 0, 0);
    QVERIFY(!id.isEmpty());

    r = chaos({u"list"_s, u"--json"_s}, m_token);
    QVERIFY2(r.exitCode == 0, r.describe().constData());
    const QJsonArray listed = QJsonDocument::fromJson(r.out.toUtf8()).array();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed[0][u"id"_s].toString(), id);
    QVERIFY(listed[0][u"reason"_s].toString().contains(u"rehearsed outage"_s));

    // Armed on the provider: the account's next launch fails with it.
    const Reply created = m_sim.authedPost(
        m_token, u"/v1/instances"_s, {{u"gpu_type"_s, u"rtx4090"_s}, {u"image"_s, u"base"_s}});
    const QJsonObject failed =
        m_sim.waitForState(m_token, created.value(u"id"_s).toString(), u"failed"_s);
    QVERIFY(failed[u"state_reason"_s].toString().contains(u"rehearsed outage"_s));

    r = chaos({u"add"_s, u"slow-api"_s, u"--delay-ms"_s, u"5"_s, u"--duration-s"_s, u"60"_s},
              m_token);
    QVERIFY2(r.exitCode == 0 && r.out.contains(u"5 ms per answer"_s), r.describe().constData());
    r = chaos({u"clear"_s, u"--all"_s}, m_token);
    QVERIFY2(r.exitCode == 0 && r.out.contains(u"slow_api"_s) && r.out.contains(u"cleared"_s),
             r.describe().constData());
    r = chaos({u"list"_s}, m_token);
    QVERIFY2(r.exitCode == 0 && !r.out.contains(u"active"_s) && r.out.contains(u"done"_s),
             r.describe().constData());
}

void TestSimChaos::logInWithEmailAndStdin()
{
    const Run r =
        chaos({u"list"_s, u"--email"_s, u"cli@example.com"_s}, {}, "correct horse battery\n");
    QVERIFY2(r.exitCode == 0 && r.out.contains(u"no faults"_s), r.describe().constData());
    const Run wrong = chaos({u"list"_s, u"--email"_s, u"cli@example.com"_s}, {}, "wrong\n");
    QVERIFY2(wrong.exitCode == 3 && wrong.err.contains(u"log-in refused"_s),
             wrong.describe().constData());
}

void TestSimChaos::refusalsHaveTheirExitStatus()
{
    Run r = chaos({u"list"_s}, {});
    QVERIFY2(r.exitCode == 3 && r.err.contains(u"CARDHOUR_TOKEN"_s), r.describe().constData());
    r = chaos({u"list"_s}, u"not-a-token"_s);
    QVERIFY2(r.exitCode == 3, r.describe().constData());
    r = chaos({u"add"_s, u"drop-ssh"_s}, m_token); // the provider wants its host
    QVERIFY2(r.exitCode == 1 && r.err.contains(u"instance_id"_s), r.describe().constData());
    r = chaos({u"add"_s, u"slow-api"_s, u"--delay-ms"_s, u"20000"_s, u"--duration-s"_s, u"1"_s},
              m_token);
    QVERIFY2(r.exitCode == 1 && r.err.contains(u"invalid_field"_s), r.describe().constData());
    r = chaos({u"frobnicate"_s}, m_token);
    QVERIFY2(r.exitCode == 2 && r.err.contains(u"usage"_s), r.describe().constData());
    r = chaos({u"clear"_s, u"00000000-0000-4000-8000-000000000000"_s}, m_token);
    QVERIFY2(r.exitCode == 1 && r.err.contains(u"not_found"_s), r.describe().constData());
}

void TestSimChaos::offWithoutAllowChaos()
{
    m_sim.terminate();
    m_data = std::make_unique<QTemporaryDir>();
    QVERIFY2(m_sim.start({u"--runtime"_s, u"inprocess"_s}, m_data->path()),
             qPrintable(m_sim.lastError()));
    m_token = m_sim.signUp(u"off@example.com"_s);
    const Run r = chaos({u"add"_s, u"fail-launch"_s}, m_token);
    QVERIFY2(r.exitCode == 1 && r.err.contains(u"--allow-chaos"_s)
                 && r.err.contains(u"chaos_disabled"_s),
             r.describe().constData());
}

QTEST_GUILESS_MAIN(TestSimChaos)
#include "tst_simchaos.moc"
