// CliEngine on the command line (no API socket): commands run as processes with the
// environment given, results on the event loop, the default timeout, blocking runs for
// start-up, and no callback once it is shut down. The program is a small script standing in
// for the engine's CLI.
#include "runtime/CliEngine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;
using namespace cardhour::sim;

class TestCliEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void runsCommands();
    void describeAndFind();
    void noCallbackAfterShutDown();
    void aLongDataDirPutsTheSocketWhereOnlyItsOwnerMayEnter();

private:
    CliEngine::Settings settings() const;
    QTemporaryDir m_dir;
    QString m_program;
};

void TestCliEngine::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Prints its arguments and CARDHOUR_APP_TOKEN; `ps` lists one container; `fail` fails;
    // `sleep` sleeps.
    m_program = m_dir.filePath(u"fake-engine"_s);
    QFile script(m_program);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\n"
                 "case \"$1\" in\n"
                 "  ps) printf '[{\"Id\":\"c1\",\"Labels\":{\"cardhour.instance\":\"i-1\","
                 "\"cardhour.managed\":\"true\",\"cardhour.provider\":\"prov\"},"
                 "\"State\":\"running\"}]' ;;\n"
                 "  fail) echo 'Error: it broke' >&2; exit 3 ;;\n"
                 "  sleep) sleep 5 ;;\n"
                 "  *) echo \"$* token=$CARDHOUR_APP_TOKEN\" ;;\n"
                 "esac\n");
    script.close();
    QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
}

CliEngine::Settings TestCliEngine::settings() const
{
    CliEngine::Settings s;
    s.program = m_program;
    s.providerId = u"prov"_s;
    s.commandTimeoutMs = 300;
    return s;
}

void TestCliEngine::runsCommands()
{
    CliEngine engine(settings());
    QVERIFY(!engine.usesApi());
    QVERIFY(!engine.watchesEvents());
    std::optional<ProcessResult> result;
    QProcessEnvironment extra;
    extra.insert(u"CARDHOUR_APP_TOKEN"_s, u"t0k"_s);
    engine.run(
        {u"run"_s, u"-d"_s}, [&](const ProcessResult &r) { result = r; }, 0, extra);
    QVERIFY(!result); // on the event loop
    QTRY_VERIFY(result.has_value());
    QVERIFY(result->ok());
    QCOMPARE(result->out, "run -d token=t0k\n");
    // The default timeout applies where none is given.
    result.reset();
    engine.run({u"sleep"_s}, [&](const ProcessResult &r) { result = r; });
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 3000);
    QVERIFY(result->timedOut);
    const ProcessResult blocking = engine.runBlocking({u"info"_s}, 2000);
    QVERIFY(blocking.ok());
    QCOMPARE(blocking.out, "info token=\n");
    result.reset();
    engine.runSnapshotStep(
        {u"commit"_s}, [&](const ProcessResult &r) { result = r; }, 2000);
    QTRY_VERIFY(result.has_value());
    QCOMPARE(result->out, "commit token=\n");
}

void TestCliEngine::describeAndFind()
{
    CliEngine engine(settings());
    QCOMPARE(engine.what(u"rm"_s), u"podman rm"_s);
    std::optional<ProcessResult> failed;
    engine.run({u"fail"_s}, [&](const ProcessResult &r) { failed = r; });
    QTRY_VERIFY(failed.has_value());
    QCOMPARE(EngineCommands::describe(*failed, engine.what(u"rm"_s)),
             u"podman rm failed (exit 3): Error: it broke"_s);
    ProcessResult notRun;
    notRun.startError = u"No such file or directory"_s;
    QCOMPARE(EngineCommands::describe(notRun, u"podman ps"_s),
             u"podman ps: could not be run (No such file or directory)"_s);
    bool found = false;
    engine.findContainer(u"i-1"_s,
                         [&](bool ok, const QString &, const QList<cli::ContainerInfo> &list) {
                             QVERIFY(ok);
                             QCOMPARE(list.size(), 1);
                             QCOMPARE(list.first().containerId, u"c1"_s);
                             found = true;
                         });
    QTRY_VERIFY(found);
    QCOMPARE(engine.labelFilter(u"i-1"_s),
             (QStringList{u"--filter"_s, u"label=cardhour.managed=true"_s, u"--filter"_s,
                          u"label=cardhour.provider=prov"_s, u"--filter"_s,
                          u"label=cardhour.instance=i-1"_s}));
}

void TestCliEngine::noCallbackAfterShutDown()
{
    CliEngine engine(settings());
    bool called = false;
    engine.run(
        {u"sleep"_s}, [&](const ProcessResult &) { called = true; }, 5000);
    engine.shutDown();
    QVERIFY(engine.isShuttingDown());
    QTest::qWait(200);
    QVERIFY(!called);
    engine.run({u"info"_s}, [&](const ProcessResult &) { called = true; });
    QTest::qWait(500);
    QVERIFY(!called);
}

void TestCliEngine::aLongDataDirPutsTheSocketWhereOnlyItsOwnerMayEnter()
{
    std::unique_ptr<QTemporaryDir> spare;
    const QString shortDir = m_dir.path();
    QCOMPARE(CliEngine::podmanSocketPath(shortDir, spare),
             QDir(shortDir).absoluteFilePath(u"podman-api.sock"_s));
    QVERIFY(!spare);

    // Past sockaddr_un's room: a folder of its own, 0700, a new name each time (before, a
    // fixed pattern in /tmp that another user could bind first).
    const QString longDir = m_dir.filePath(QString(120, u'd'));
    const QString first = CliEngine::podmanSocketPath(longDir, spare);
    QVERIFY(spare);
    QVERIFY(!first.startsWith(longDir));
    QVERIFY(first.toLocal8Bit().size() < 108);
    const QFileInfo folder(QFileInfo(first).absolutePath());
    QCOMPARE(folder.absoluteFilePath(), QDir(spare->path()).absolutePath());
    QCOMPARE(folder.permissions()
                 & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther
                    | QFile::WriteOther | QFile::ExeOther),
             QFile::Permissions());
    std::unique_ptr<QTemporaryDir> other;
    QVERIFY(CliEngine::podmanSocketPath(longDir, other) != first);
    spare.reset();
    QVERIFY(!QFileInfo::exists(folder.absoluteFilePath()));
}

QTEST_GUILESS_MAIN(TestCliEngine)
#include "tst_cliengine.moc"
