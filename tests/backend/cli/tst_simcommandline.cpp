// What `cardhour-sim` says about itself on its command line: --help names the subcommands,
// `datasets --help` is a success, an engine asked for by name that does not answer says what to
// do next, and a machine without NVIDIA tools is told so plainly, not as an error.
#include "SimProcess.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using cardhour::test::SimProcess;

namespace {
struct Run
{
    int exitCode = -1;
    bool finished = false;
    QString out;
    QString err;
};

Run runSim(const QStringList &args, const QProcessEnvironment &env = {}, int timeoutMs = 60000)
{
    QProcess process;
    if (!env.isEmpty())
        process.setProcessEnvironment(env);
    process.start(SimProcess::binaryPath(), args);
    Run run;
    run.finished = process.waitForStarted(timeoutMs) && process.waitForFinished(timeoutMs);
    if (!run.finished) {
        process.kill();
        process.waitForFinished();
    }
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}
} // namespace

class TestSimCommandLine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void helpNamesTheSubcommands()
    {
        const Run help = runSim({u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        for (const QString &word : {u"images"_s, u"datasets"_s, u"doctor"_s, u"models"_s,
                                    u"--print-routes"_s, u"--test-clock"_s})
            QVERIFY2(help.out.contains(word), qPrintable(word + u" missing in:\n"_s + help.out));
    }

    void datasetsHelpIsASuccess()
    {
        for (const QString &flag : {u"--help"_s, u"-h"_s}) {
            const Run help = runSim({u"datasets"_s, flag});
            QCOMPARE(help.exitCode, 0);
            QVERIFY2(help.out.contains(u"datasets list"_s), qPrintable(help.out));
        }
        // Without a verb it is still a usage error.
        QCOMPARE(runSim({u"datasets"_s}).exitCode, 2);
    }

    // `datasets make` takes the engine options `images` takes: a tag prefix with no image built
    // under it is what it reports, and an option it does not know is a usage error.
    void datasetsMakeTakesTheEngineOptions()
    {
        QTemporaryDir data;
        QVERIFY(data.isValid());
        const Run made = runSim({u"datasets"_s, u"make"_s, u"--data"_s, data.path(),
                                 u"--tag-prefix"_s, u"localhost/cardhour-none/"_s});
        QCOMPARE(made.exitCode, 0);
        QVERIFY2(made.out.contains(u"image localhost/cardhour-none/ocr:latest is not built yet"_s),
                 qPrintable(made.out + made.err));
        const Run wrong = runSim({u"datasets"_s, u"make"_s, u"--data"_s, data.path(), u"--fast"_s});
        QCOMPARE(wrong.exitCode, 2);
        QVERIFY2(wrong.err.contains(u"fast"_s) && wrong.err.contains(u"--tag-prefix"_s),
                 qPrintable(wrong.err));
    }

    void engineThatDoesNotAnswerSaysWhatNext()
    {
        QTemporaryDir data;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"DOCKER_HOST"_s, u"unix://%1/no-docker.sock"_s.arg(data.path()));
        const Run run = runSim({u"--runtime"_s, u"docker"_s, u"--listen"_s, u"127.0.0.1:0"_s,
                                u"--data"_s, data.path()},
                               env);
        QVERIFY2(run.finished, "it should refuse at once, not keep retrying");
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--runtime docker: docker is not usable"_s),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(u"Docker daemon"_s) && run.err.contains(u"--runtime inprocess"_s),
                 qPrintable(run.err));
        QVERIFY(!run.out.contains(u"listening"_s));
    }

    void noNvidiaToolsIsNotAnError()
    {
        QTemporaryDir dir;
        QProcess process;
        process.start(SimProcess::binaryPath(),
                      {u"--runtime"_s, u"inprocess"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--data"_s,
                       dir.filePath(u"data"_s), u"--nvidia-smi"_s,
                       dir.filePath(u"no-such-nvidia-smi"_s)});
        QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine(), 30000);
        process.terminate();
        QVERIFY(process.waitForFinished(30000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains(u"cardhour-sim: GPUs: simulated cards: this machine has no NVIDIA "
                              "GPU (no nvidia-smi to ask)"_s),
                 qPrintable(err));
        QVERIFY2(!err.contains(u"execvp"_s), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestSimCommandLine)
#include "tst_simcommandline.moc"
