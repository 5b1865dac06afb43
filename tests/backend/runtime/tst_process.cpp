// Process: real /bin/sh runs, blocking and asynchronous; exit codes, output, timeouts, start
// failures, and the containers.conf environment.
#include "runtime/Process.h"

#include <QElapsedTimer>
#include <QFile>
#include <QPointer>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;
using cardhour::sim::containersEnvironment;
using cardhour::sim::InheritedConf;
using cardhour::sim::Process;
using cardhour::sim::ProcessResult;

namespace {

const QString kShell = u"/bin/sh"_s;

// Keeps what `finished` carried (and how often it came).
struct Outcome
{
    explicit Outcome(Process *process)
    {
        QObject::connect(process, &Process::finished, process, [this](const ProcessResult &r) {
            result = r;
            ++count;
        });
    }
    ProcessResult result;
    int count = 0;
};

ProcessResult sh(const QString &script, Process::Options options = {})
{
    if (options.timeoutMs == 0)
        options.timeoutMs = 10000;
    return Process::run(kShell, {u"-c"_s, script}, options);
}

} // namespace

class TestProcess : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exitCodes_data();
    void exitCodes();
    void capturesStdoutAndStderrApart();
    void mergesChannelsWhenAsked();
    void timeoutKills();
    void signalIsACrash();
    void missingProgramSaysWhy();
    void startFinishesFromTheEventLoop();
    void startTimeoutKills();
    void startMissingProgramFinishesToo();
    void linesAreWholeAndTrimmed();
    void startHelperDeletesItself();
    void destroyingAProcessKillsIt();
    void containersEnvironmentSetsOrDropsTheConf();
};

void TestProcess::exitCodes_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<bool>("ok");
    QTest::newRow("true") << u"exit 0"_s << 0 << true;
    QTest::newRow("one") << u"exit 1"_s << 1 << false;
    QTest::newRow("forty-two") << u"exit 42"_s << 42 << false;
}

void TestProcess::exitCodes()
{
    QFETCH(QString, script);
    QFETCH(int, exitCode);
    QFETCH(bool, ok);
    const ProcessResult r = sh(script);
    QVERIFY(r.started);
    QVERIFY(!r.timedOut);
    QVERIFY(!r.crashed);
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(r.ok(), ok);
    QVERIFY(r.startError.isEmpty());
}

void TestProcess::capturesStdoutAndStderrApart()
{
    const ProcessResult r = sh(u"printf 'to out'; printf 'to err' >&2; printf ' more'"_s);
    QVERIFY(r.ok());
    QCOMPARE(r.out, "to out more"_ba);
    QCOMPARE(r.err, "to err"_ba);
    // argv only: the argument reaches the program as it is, no shell in between.
    const ProcessResult literal = Process::run(u"/bin/echo"_s, {u"$HOME; *"_s}, {{}, 10000});
    QCOMPARE(literal.out, "$HOME; *\n"_ba);
}

void TestProcess::mergesChannelsWhenAsked()
{
    Process::Options options;
    options.mergeChannels = true;
    const ProcessResult r = sh(u"printf a; printf b >&2; printf c"_s, options);
    QVERIFY(r.ok());
    QCOMPARE(r.out, "abc"_ba);
    QVERIFY(r.err.isEmpty());
}

void TestProcess::timeoutKills()
{
    QElapsedTimer clock;
    clock.start();
    Process::Options options;
    options.timeoutMs = 300;
    const ProcessResult r = sh(u"sleep 30"_s, options);
    QVERIFY(clock.elapsed() < 10000);
    QVERIFY(r.started);
    QVERIFY(r.timedOut);
    QVERIFY(r.crashed);
    QCOMPARE(r.exitCode, -1);
    QVERIFY(!r.ok());
}

void TestProcess::signalIsACrash()
{
    const ProcessResult r = sh(u"kill -9 $$"_s);
    QVERIFY(r.started);
    QVERIFY(!r.timedOut);
    QVERIFY(r.crashed);
    QCOMPARE(r.exitCode, -1);
    QVERIFY(!r.ok());
}

void TestProcess::missingProgramSaysWhy()
{
    const ProcessResult r =
        Process::run(u"/nonexistent/cardhour-no-such-program"_s, {}, {{}, 5000});
    QVERIFY(!r.started);
    QVERIFY(!r.ok());
    QVERIFY2(!r.startError.isEmpty(), "a start failure says why");
    QVERIFY2(r.startError.contains(u"No such file"_s, Qt::CaseInsensitive)
                 || r.startError.contains(u"not found"_s, Qt::CaseInsensitive),
             qPrintable(r.startError));
}

void TestProcess::startFinishesFromTheEventLoop()
{
    Process process;
    Outcome finished(&process);
    process.start(kShell, {u"-c"_s, u"printf hello; printf oops >&2; exit 7"_s}, {});
    QCOMPARE(finished.count, 0); // never from inside start()
    QTRY_COMPARE(finished.count, 1);
    const ProcessResult &r = finished.result;
    QVERIFY(r.started);
    QCOMPARE(r.exitCode, 7);
    QCOMPARE(r.out, "hello"_ba);
    QCOMPARE(r.err, "oops"_ba);
    QVERIFY(!process.isRunning());
    QTest::qWait(50);
    QCOMPARE(finished.count, 1); // once
}

void TestProcess::startTimeoutKills()
{
    Process process;
    Outcome finished(&process);
    Process::Options options;
    options.timeoutMs = 200;
    QElapsedTimer clock;
    clock.start();
    process.start(kShell, {u"-c"_s, u"sleep 30"_s}, options);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count, 1, 10000);
    QVERIFY(clock.elapsed() < 10000);
    const ProcessResult &r = finished.result;
    QVERIFY(r.timedOut);
    QVERIFY(r.crashed);
    QVERIFY(!r.ok());
}

void TestProcess::startMissingProgramFinishesToo()
{
    Process process;
    Outcome finished(&process);
    process.start(u"/nonexistent/cardhour-no-such-program"_s, {}, {});
    QCOMPARE(finished.count, 0);
    QTRY_COMPARE(finished.count, 1);
    const ProcessResult &r = finished.result;
    QVERIFY(!r.started);
    QVERIFY(!r.startError.isEmpty());
    QTest::qWait(50);
    QCOMPARE(finished.count, 1); // errorOccurred and finished do not both count
}

void TestProcess::linesAreWholeAndTrimmed()
{
    Process process;
    QStringList lines;
    connect(&process, &Process::line, this, [&lines](const QString &text) { lines.append(text); });
    Outcome finished(&process);
    Process::Options options;
    options.lines = true;
    options.mergeChannels = true;
    // Pieces of lines across writes, \r as a line end, blank lines, stderr merged, no final \n.
    process.start(kShell,
                  {u"-c"_s,
                   u"printf 'STEP 1/2: '; sleep 0.1; printf 'RUN x\\n\\n  two  \\rthree\\n'; "
                   "printf 'to err\\n' >&2; printf last"_s},
                  options);
    QTRY_COMPARE(finished.count, 1);
    QCOMPARE(lines,
             (QStringList{u"STEP 1/2: RUN x"_s, u"two"_s, u"three"_s, u"to err"_s, u"last"_s}));
    QVERIFY(finished.result.ok());
    QVERIFY(finished.result.out.isEmpty()); // handed on as lines instead
}

void TestProcess::startHelperDeletesItself()
{
    QObject context;
    std::optional<ProcessResult> got;
    QPointer<Process> process = Process::start(&context, kShell, {u"-c"_s, u"echo hi"_s}, {},
                                               [&got](const ProcessResult &r) { got = r; });
    QVERIFY(process);
    QCOMPARE(process->parent(), &context);
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->out, "hi\n"_ba);
    QTRY_VERIFY(process.isNull());

    // Gone with its context: the callback never runs.
    bool called = false;
    {
        QObject shortLived;
        Process::start(&shortLived, kShell, {u"-c"_s, u"sleep 30"_s}, {},
                       [&called](const ProcessResult &) { called = true; });
    }
    QTest::qWait(100);
    QVERIFY(!called);
}

void TestProcess::destroyingAProcessKillsIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath(u"still-running"_s);
    QElapsedTimer clock;
    clock.start();
    {
        Process process;
        process.start(kShell, {u"-c"_s, u"sleep 1; touch \"$0\""_s, marker}, {});
        QTRY_VERIFY(process.isRunning());
    }
    QVERIFY(clock.elapsed() < 1000);
    QTest::qWait(1500);
    QVERIFY2(!QFile::exists(marker), "the child outlived its Process");
}

void TestProcess::containersEnvironmentSetsOrDropsTheConf()
{
    qputenv("CONTAINERS_CONF", "/inherited.conf");
    auto confSeen = [](const QProcessEnvironment &env) {
        Process::Options options;
        options.environment = env;
        return QString::fromUtf8(sh(u"printf %s \"${CONTAINERS_CONF-unset}\""_s, options).out);
    };
    QCOMPARE(confSeen(containersEnvironment(u"/given.conf"_s)), u"/given.conf"_s);
    QCOMPARE(confSeen(containersEnvironment(u"/given.conf"_s, InheritedConf::Drop)),
             u"/given.conf"_s);
    QCOMPARE(confSeen(containersEnvironment({})), u"/inherited.conf"_s);
    QCOMPARE(confSeen(containersEnvironment({}, InheritedConf::Drop)), u"unset"_s);
    qunsetenv("CONTAINERS_CONF");
}

QTEST_GUILESS_MAIN(TestProcess)
#include "tst_process.moc"
